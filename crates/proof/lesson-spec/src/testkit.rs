//! What every lesson's tests hold it to, written once and declared in each
//! lesson by a macro; behind the `testkit` feature, which lessons turn on
//! in their dev-dependencies only, so none of it is compiled into a lesson
//! binary or the tools.
//!
//! - [`cli`]: the lesson's built binary on any machine, declared in
//!   `tests/cli.rs` by [`cli_tests!`](crate::cli_tests) (no driver, clap's
//!   command line, a closed stdout), and on a GPU in `tests/on_gpu.rs` by
//!   [`gpu_tests!`](crate::gpu_tests) (`--claims` after the report, a reader
//!   that leaves early).
//! - [`full_disk`]: any binary of the workspace with its stdout full.
//! - [`conformance`]: a report package against its lesson (the documented
//!   nvcc line, the expected failures, the `.cu`'s printf formats and
//!   blocks, the claims' figures, a transcript pair, the README's causes),
//!   declared by [`conformance_tests!`](crate::conformance_tests).
//!
//! Not for: anything a lesson does when it runs (`lesson-cli` is its command
//! line), or a lesson's own numbers (its report package's own tests check
//! those).

pub mod cli;
pub mod conformance;
mod cu_formats;
pub mod full_disk;
mod twin_order;
pub mod why_named;
