//! Day 53's report as data, laid out as every lesson's tools package is (see
//! `lesson-spec`); [`render`] is a function per line, since the lesson prints
//! each part as it finishes, and [`reference`](mod@reference) is PyTorch's own
//! pinned copy, recorded beside the lesson. No CUDA, so the evidence tools
//! build without nvcc.

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
