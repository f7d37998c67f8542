//! Day 9's report as data, for the Rust twin and the shared tools alike,
//! laid out as every lesson's tools package is (see `lesson-spec`): the
//! report's types, printed in timing.cu's layout and parsed back with the
//! same templates, its claims, causes and figures, and the `LessonReport`
//! impl. [`Report::consistency_failure`] is timing.cu's two consistency
//! checks. No CUDA, so the evidence tools build without nvcc.

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
pub use report::{Report, SweepRow};
