//! The causes this lesson's README gives, as checks (see `lesson_spec::why`).

use lesson_spec::Why;

pub static WHYS: &[Why] = &[];
