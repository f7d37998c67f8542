//! The evidence tool's library: recorded lesson runs read, checked,
//! judged, compared, merged and grouped into sessions; the figures the
//! documents name ([`figures`]); and, with the default feature `site`, the
//! static site and its charts (`site`). The `evidence` binary (src/main.rs)
//! is its command line, and records runs (src/cli/record.rs).
//!
//! - [`transcript`] parses a transcript (header, body, sanitizer lines), the
//!   body by its lesson, and refuses one that cannot be true (a field
//!   missing or repeated, an impossible date, commit, exit status or
//!   number, a file in the wrong folder or under the wrong name); a
//!   malformed file is a [`problem::Problem`] naming the file and the
//!   line, never a panic. [`runs`] names runs and their groups.
//! - [`twin`] derives a transcript's JSON twin, on demand: never committed.
//! - [`load`] lists and reads the evidence folder as every command reads
//!   it: each transcript, no run dated in the future or counted twice.
//! - [`merge`] adds GPU sessions' evidence folders to the evidence, each
//!   run held to [`load`]'s checks, every problem named and nothing written
//!   if there is one, nothing replaced; git is its journal and history.
//! - [`atomic`] writes a file whole or not at all; [`capped`] reads one
//!   transcript, a regular file and no larger than its cap.
//! - [`judge`] judges the lessons' claims (and the shared sanitizer claim)
//!   on recorded runs; [`check`] tables them over every transcript,
//!   [`verdicts`] counts them per GPU and toolkit, and [`why`] judges the
//!   lessons' causes per GPU ("why, as measured").
//! - [`compare`] sets two runs, or two groups of runs by their medians, side
//!   by side with ratios.
//! - [`sessions`] groups the runs into recording sessions (one machine,
//!   one commit, one stretch of time); [`history`] follows each figure a
//!   claim or a cause reads over a GPU's sessions, and [`changes`] labels
//!   what moved between a GPU's last two sessions (robust-stats' rule) and
//!   which verdicts flipped, with the rate of false alarms measured.
//!
//! Not for: running lessons' checks (they check themselves), timing
//! anything itself, or CUDA of any kind (it builds without a toolkit).

pub mod atomic;
pub mod capped;
pub mod changes;
pub mod check;
pub mod compare;
pub mod digits;
pub mod figures;
pub mod history;
pub mod judge;
pub mod load;
pub mod merge;
pub mod problem;
pub mod runs;
pub mod sessions;
#[cfg(feature = "site")]
pub mod site;
pub mod transcript;
pub mod twin;
pub mod verdicts;
pub mod why;
