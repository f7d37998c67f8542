//! A measurement instrument for kernel times that go into bug reports.
//!
//! [`measure`] samples a launch adaptively to a noise target ([`sampling`])
//! and summarises the samples with robust statistics and a confidence
//! interval for the median ([`stats`]), in one of seven modes: hot
//! back-to-back, cold-cache with an L2 flush that leaves the cache clean
//! ([`flush`]), graph replay with ordinary or programmatic dependencies
//! ([`replay`]), isolated (one launch alone on a clean L2, as Nsight Compute
//! times it), serial (launches kept from overlapping by event records), and
//! CUPTI's own kernel timestamps (module `trace`, behind the
//! `cupti` feature). It times a kernel's first launch as a measurement of its
//! own, checks clocks and throttling through NVML ([`clocks`]), and reports
//! a table and JSON of every sample ([`report`]), with [`json_out::JsonOut`]
//! claiming the JSON file before any GPU time is spent. A sample no launch
//! can take (negative, a timed span below the timer's resolution, or faster
//! than the launch's declared traffic can cross the memory) is rejected and
//! counted, never kept ([`reject`]); a process measures its own
//! timer resolution, launch floors and memory ceiling ([`calibrate`]); and
//! two runs compare kernel by kernel, allowing for how far a median moves
//! between processes ([`compare`]). A mode the installed
//! driver cannot run is refused in one line before it starts ([`driver`]).
//!
//! Not for: the course's own timing of a lesson's kernels, three warm-ups and
//! a mean of ten (`time-kernel`); host clocks (`host-clock`); the suite of
//! kernels it is proven on, its command line and its report
//! (`crates/instrument-suite`).

pub mod calibrate;
pub mod clocks;
// The pure statistics live in robust-stats, which `evidence` shares; kept
// reachable here under their old paths.
pub use robust_stats::{compare, stats};
pub mod driver;
pub mod flush;
pub mod json_out;
pub mod measure;
mod modes;
pub mod reject;
pub mod replay;
pub mod report;
pub mod sampling;
#[cfg(feature = "cupti")]
pub mod trace;

/// Why the cupti mode cannot run in this process. The table and the JSON
/// carry the sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CuptiUnavailable {
    /// A build without the `cupti` feature.
    #[error("this build of the instrument has no cupti mode (its cupti feature is off)")]
    NotBuilt,
    /// libcupti ships with the toolkit, not the driver.
    #[error(
        "libcupti was not found on the library path or in the CUDA toolkit \
         (add the toolkit's extras/CUPTI/lib64 to LD_LIBRARY_PATH)"
    )]
    NotFound,
}

/// Whether the cupti mode can run in this process, and why not if not:
/// libcupti must be found, and the build must have the `cupti` feature.
pub fn cupti_available() -> Result<(), CuptiUnavailable> {
    #[cfg(feature = "cupti")]
    return trace::available();
    #[cfg(not(feature = "cupti"))]
    Err(CuptiUnavailable::NotBuilt)
}
