//! The events reference lesson's report as data, laid out as every lesson's
//! tools package is (see `lesson-spec`): each part's numbers ([`parts`]) and
//! [`render`], a function per part. No CUDA, so the evidence tools build
//! without nvcc.

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
