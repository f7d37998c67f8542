//! The evidence tool's library: recorded lesson runs read ([`transcript`],
//! [`load`]: every problem a [`problem::Problem`] naming file and line,
//! never a panic), merged ([`merge`]), judged against the lessons' claims
//! and causes ([`check`], [`judge`], [`verdicts`], [`why`]), compared
//! ([`compare`]), grouped into sessions and followed over them
//! ([`sessions`], [`history`], [`changes`]); the documents' figures
//! ([`figures`]); and, with the default feature `site`, the static site and
//! its charts (`site`). The `evidence` binary (src/main.rs) is its command
//! line, and records runs (src/cli/record.rs).
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
