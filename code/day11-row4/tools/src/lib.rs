//! Day 11's report as data, for the Rust twin and the shared tools alike: its
//! types, printed in row4.cu's layout and parsed back with the same
//! templates (a run under Nsight Compute too, its CSV rows as [`ncu`]), its
//! claims, causes and figures, and its `LessonReport` impl. No CUDA, so the
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
