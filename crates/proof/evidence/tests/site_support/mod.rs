//! What the site's tests share: the repository they run in.

use std::path::{Path, PathBuf};

pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .canonicalize()
        .unwrap()
}
