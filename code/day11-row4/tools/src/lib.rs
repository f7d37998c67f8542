//! Day 11's report as data, for the Rust twin and the shared tools alike.
//!
//! - `report.rs`: [`Report`] and the types it is made of, a leaf module
//!   the others use; this root only declares the modules and re-exports.
//! - [`Report::render`] prints it in the exact layout row4.cu prints, so the
//!   two programs' transcripts compare line by line; [`parse`] reads either
//!   program's output back (a test holds the two together), and also a run
//!   under Nsight Compute: ncu's own lines are skipped and its CSV rows
//!   after the report become [`Report::ncu`] ([`ncu`]).
//! - [`gb_s`] and [`Report::peak_failure`]: row4.cu's rates and its exit-1
//!   check that no measurement on buffers larger than the L2 beats the
//!   memory's theoretical peak.
//! - [`claims`]: what the lesson page says about the numbers.
//! - `lesson.rs`: the [`LessonReport`](lesson_spec::LessonReport) impl, with
//!   the chart, the comparable figures and the recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod figures;
mod lesson;
pub mod ncu;
mod parse;
mod render;
mod report;
#[cfg(test)]
mod tests;
mod why;

pub use ncu::{Ncu, NcuLaunch};
pub use parse::parse;
pub use report::{gb_s, Peak, Rate, Report, SweepRow, ADD_BYTES_PER_ELEMENT, COPY_BYTES_PER_ELEMENT};
