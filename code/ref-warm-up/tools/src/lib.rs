//! The warm-up post re-run: the report as data, for the Rust twin and the
//! shared tools alike, laid out as every lesson's tools package is (see
//! `lesson-spec`): the report's types, printed in warmup.cu's layout and
//! parsed back with the same templates, its claims, causes and figures, and the
//! `LessonReport` impl. No CUDA, so the evidence tools build without nvcc.

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
