//! The events reference lesson's report as data, for the Rust twin and the
//! shared tools alike.
//!
//! - `report.rs`: [`Report`] and the types it is made of, a leaf module
//!   the others use; this root only declares the modules and re-exports.
//! - [`parts`]: the numbers of each part, and the statistics both programs
//!   summarise their samples with.
//! - [`render`]: the lines events.cu prints, one function per part;
//!   [`parse`] reads either program's output back into a [`Report`] (a test
//!   holds the two together).
//! - [`claims`]: what the page "Events and Timing" says about the numbers,
//!   one predicate per claim, shared by the printed verdicts and `evidence`.
//! - `lesson.rs`: the [`LessonReport`](lesson_spec::LessonReport) impl, with
//!   the charts, the comparable figures and the recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

pub mod claims;
mod figures;
mod lesson;
mod parse;
pub mod parts;
pub mod render;
mod report;
#[cfg(test)]
mod tests;
mod why;

pub use parse::parse;
pub use report::Report;
