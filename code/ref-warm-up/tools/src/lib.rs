//! The warm-up post re-run's report as data, laid out as every lesson's tools
//! package is (see `lesson-spec`), and Part 5 read as the allocator's
//! behaviour ([`malloc_run`]). No CUDA, so the evidence tools build without
//! nvcc.

mod claims;
mod figures;
mod lesson;
pub mod malloc_run;
mod parse;
mod render;
mod report;
#[cfg(test)]
mod tests;
mod why;

pub use parse::parse;
pub use render::first_call_text;
pub use report::{FirstCall, KernelRows, MallocRow, MallocRun, Report, RunCall, Setup, Then, CALLS};
