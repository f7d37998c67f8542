//! The warm-up post re-run: the report as data, for the Rust twin and the
//! shared tools alike.
//!
//! - `report.rs`: [`Report`] and the types it is made of, a leaf module
//!   the others use; this root only declares the modules and re-exports.
//! - [`Report`] and [`parse`]: every number the programs print, read back
//!   from either program's output; [`Report::render`] prints it in
//!   warmup.cu's layout (a test holds the two together).
//! - [`then`]: the post's own figures, the report's "then" column.
//! - [`claims`]: the post's claims and the lesson's own, as checks.
//! - `lesson.rs`: the [`LessonReport`](lesson_spec::LessonReport) impl, with
//!   the comparable figures and the recording recipe (the `--first` variants,
//!   EAGER, memcheck).
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod figures;
mod lesson;
pub mod malloc_run;
mod parse;
mod render;
mod report;
#[cfg(test)]
mod tests;
pub mod then;
mod why;

pub use parse::parse;
pub use render::first_call_text;
pub use report::{over_percent, FirstCall, KernelRows, MallocRow, MallocRun, Report, RunCall, CALLS};
