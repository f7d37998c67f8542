//! Day 11's report as data, for the Rust twin and the shared tools alike,
//! laid out as every lesson's tools package is (see `lesson-spec`): the
//! report's types, printed in row4.cu's layout and parsed back with the
//! same templates, its claims, causes and figures, and the `LessonReport`
//! impl. A run under Nsight Compute parses too: ncu's own lines are skipped
//! and its CSV rows become [`Report::ncu`] ([`ncu`]). [`gb_s`] and
//! [`Report::peak_failure`] are row4.cu's rates and its exit-1 check. No
//! CUDA, so the evidence tools build without nvcc.

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
