//! A measurement instrument for kernel times that go into bug reports.
//!
//! [`measure`] samples a launch adaptively to a noise target ([`sampling`])
//! and summarises the samples with robust statistics and a confidence
//! interval for the median ([`stats`]), in one of six modes: hot
//! back-to-back, cold-cache with an L2 flush that leaves the cache clean
//! ([`flush`]), graph replay with ordinary or programmatic dependencies
//! ([`replay`]), isolated (one launch alone on a clean L2, as Nsight Compute
//! times it), and CUPTI's own kernel timestamps ([`trace`], behind the
//! `cupti` feature). It times a kernel's first launch as a measurement of its
//! own, checks clocks and throttling through NVML ([`clocks`]), and reports
//! a table and JSON of every sample ([`report`]), with [`report::JsonOut`]
//! claiming the JSON file before any GPU time is spent.
//!
//! Not for: the course's own timing of a lesson's kernels, three warm-ups and
//! a mean of ten (`time-kernel`); host clocks (`host-clock`).

pub mod clocks;
pub mod flush;
pub mod measure;
pub mod replay;
pub mod report;
pub mod sampling;
pub mod stats;
#[cfg(feature = "cupti")]
pub mod trace;
