//! The repository's own rules and scaffolding, rust-analyzer's `xtask`
//! model: run as `cargo xtask ...` (`.cargo/config.toml`'s alias), and its
//! tests enforce the rules under plain `cargo test -p xtask`: [`rules`],
//! [`export`], [`new_lesson`], over the project's [`files`]. The GitHub
//! Actions workflows are held to actionlint by a test
//! (`tests/it/workflows.rs`), which needs no code here.
//!
//! Not for: anything a lesson links or the evidence tool runs.

pub mod export;
pub mod files;
pub mod new_lesson;
pub mod rules;
