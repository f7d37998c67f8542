//! The events reference lesson's report as data, for the Rust twin and the
//! shared tools alike, laid out as every lesson's tools package is (see
//! `lesson-spec`): each part's numbers ([`parts`]), printed in events.cu's
//! layout ([`render`], a function per part) and parsed back with the same
//! templates, the page's claims (one predicate per claim, shared by the
//! printed verdicts and `evidence`), causes and figures, and the
//! `LessonReport` impl. No CUDA, so the evidence tools build without nvcc.

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
