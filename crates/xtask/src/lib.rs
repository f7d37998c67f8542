//! The repository's own rules and scaffolding, rust-analyzer's `xtask`
//! model: run as `cargo xtask ...` (`.cargo/config.toml`'s alias), and its
//! tests enforce the rules under plain `cargo test -p xtask`.
//!
//! - [`rules`]: CUDA-CODE-STYLE.md's checked rules (host clocks, verbatim
//!   copies, snippets and quotes, lessons that build alone);
//! - [`export`]: a lesson written out as a Cargo project of its own;
//! - [`new_lesson`]: a new lesson made to the rules;
//! - [`files`]: the project's files as git sees them, which the rules read
//!   and an export copies.
//!
//! The GitHub Actions workflows are held to actionlint by a test
//! (`tests/it/workflows.rs`), which needs no code here.
//!
//! Not for: anything a lesson links or the evidence tool runs.

pub mod export;
pub mod files;
pub mod new_lesson;
pub mod rules;
