//! Day 10's report as data, for the Rust twin and the shared tools alike.
//!
//! - `report.rs`: [`Report`] and the types it is made of, a leaf module
//!   the others use; this root only declares the modules and re-exports.
//! - [`Report::render`] prints it in the exact layout blocks.cu prints, so
//!   the two programs' transcripts compare line by line; [`parse`] reads
//!   either program's output back (a test holds the two together).
//! - [`claims`]: what the lesson page says about the numbers.
//! - `lesson.rs`: the [`LessonReport`](lesson_spec::LessonReport) impl, with
//!   the charts, the comparable figures and the recording recipe.
//!
//! Not for: measuring or deciding the best (the twin in `../../src` does,
//! as blocks.cu does) or CUDA of any kind, so the evidence tools build
//! without nvcc.

mod claims;
mod figures;
mod lesson;
mod parse;
mod render;
mod report;
#[cfg(test)]
mod tests;
mod why;

pub use parse::parse;
pub use report::{Noise, Report, Row, Table, VECTOR_ADD_BYTES_PER_ELEMENT};
