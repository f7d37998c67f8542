//! Day 10's report as data, for the Rust twin and the shared tools alike: its
//! types, printed in blocks.cu's layout and parsed back with the same
//! templates, its claims, causes and figures, and its `LessonReport` impl.
//! Measuring and deciding the best are the twin's, as blocks.cu's. No CUDA,
//! so the evidence tools build without nvcc.

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
