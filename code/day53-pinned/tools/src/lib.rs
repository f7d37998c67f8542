//! Day 53's report as data, for the Rust twin and the shared tools alike.
//!
//! - `report.rs`: [`Report`] and the types it is made of, a leaf module
//!   the others use; this root only declares the modules and re-exports.
//! - [`render`]: the lines pinned.cu prints, one function per line, since
//!   the lesson prints each part as it finishes; [`parse`] reads either
//!   program's output back into a [`Report`] (a test holds the two
//!   together).
//! - [`claims`]: what the lesson page says about the numbers.
//! - [`reference`]: the reference tool recorded beside the lesson, PyTorch's
//!   own pinned copy.
//! - `lesson.rs`: the [`LessonReport`](lesson_spec::LessonReport) impl, with
//!   the chart, the comparable figures and the recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod figures;
mod lesson;
mod parse;
pub mod reference;
pub mod render;
mod report;
#[cfg(test)]
mod tests;
mod why;

pub use parse::parse;
pub use reference::PinnedCopy;
pub use report::{AsyncRow, BandwidthRow, Report};
