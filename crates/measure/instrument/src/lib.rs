//! A measurement instrument for kernel times that go into bug reports.
//!
//! [`measure`] samples a launch adaptively to a noise target ([`sampling`])
//! and summarises the samples with robust statistics and a confidence
//! interval for the median ([`stats`]), in one of seven modes ([`Mode`]):
//! hot back-to-back, cold-cache with an L2 flush that leaves the cache clean
//! ([`flush`]), graph replay with ordinary or programmatic dependencies
//! ([`replay`]), isolated (one launch alone on a clean L2, as Nsight Compute
//! times it), serial (launches kept from overlapping by event records), and
//! CUPTI's own kernel timestamps (module `trace`, behind the `cupti`
//! feature). Each mode's sampler is a file of its own (`modes`), and the
//! warm-up and rounds of samples they share are one more
//! (`sampling_loop`). It times a kernel's first launch as a measurement of
//! its own, checks clocks and throttling through NVML ([`clocks`]), and
//! reports a table and JSON of every sample ([`report`]), with
//! [`json_out::JsonOut`] claiming the JSON file before any GPU time is
//! spent. A sample no launch can take (negative, a timed span below the
//! timer's resolution, or faster than the launch's declared traffic can
//! cross the memory) is rejected and counted, never kept ([`reject`],
//! [`samples`]); a process measures its own timer resolution, launch floors
//! and memory ceiling ([`calibrate`]); [`recommend`] says which mode to
//! trust for a kernel; and two runs compare kernel by kernel, allowing for
//! how far a median moves between processes ([`compare`]). A mode the
//! installed driver cannot run is refused in one line before it starts
//! ([`driver`]); every refusal and failure is an [`Error`].
//!
//! Timing a kernel of your own: a [`Launch`] is any closure that queues one
//! launch on the stream it is given (the instrument's own, which it also
//! captures into graphs), as nvbench's `state.exec` takes a lambda;
//! `examples/cudarc_launch.rs` launches a kernel with cudarc's
//! `launch_builder` inside one and measures it in the recommended mode
//! (`cargo run --release -p instrument --example cudarc_launch`). For a
//! kernel in a `.cu`, PTX or cubin file, no Rust needed: `kernel-timer`.
//!
//! Not for: the course's own timing of a lesson's kernels, three warm-ups and
//! a mean of ten (`time-kernel`); host clocks (`host-clock`); the suite of
//! kernels it is proven on, its command line and its report
//! (`crates/measure/instrument-suite`).

pub mod calibrate;
pub mod clocks;
// The pure statistics live in robust-stats, which `evidence` shares; kept
// reachable here under their old paths.
pub use robust_stats::{compare, stats};
pub mod driver;
mod error;
pub mod flush;
pub mod json_out;
mod libcupti;
pub mod measure;
mod mode;
mod modes;
pub mod recommend;
pub mod reject;
pub mod replay;
pub mod report;
pub mod samples;
pub mod sampling;
mod sampling_loop;
pub mod session;
#[cfg(feature = "cupti")]
pub mod trace;

pub use error::Error;
pub use libcupti::{available as cupti_available, CuptiUnavailable};
pub use mode::{has_programmatic_launch, Launch, Mode, Traffic};
