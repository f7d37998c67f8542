//! A measurement instrument for kernel times that go into bug reports.
//!
//! [`measure`] samples a launch in one of seven modes ([`Mode`], one sampler
//! each in `modes`) until its median is known to a noise target
//! ([`sampling`]), rejecting samples no launch can take ([`reject`]) and
//! logging the clocks ([`clocks`]); a process measures its own timer, launch
//! floors and memory ceiling ([`calibrate`]); [`recommend`] says which mode
//! to trust, [`session`] puts these together for a caller, and [`report`]
//! prints a table and JSON of every sample. A mode the driver cannot run is
//! refused in one line before it starts ([`driver`]).
//!
//! Timing a kernel of your own: a [`Launch`] is any closure that queues one
//! launch on the stream it is given, as nvbench's `state.exec` takes a
//! lambda (`examples/cudarc_launch.rs`). For a kernel in a `.cu`, PTX or
//! cubin file, no Rust needed: `kernel-timer`.
//!
//! Not for: the course's own timing of a lesson (`time-kernel`), or the
//! suite the instrument is proven on (`instrument-suite`).

pub mod calibrate;
pub mod clocks;
// The pure statistics live in robust-stats, which `evidence` shares.
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
pub mod session;
#[cfg(feature = "cupti")]
pub mod trace;

pub use error::Error;
pub use libcupti::{available as cupti_available, CuptiUnavailable};
pub use mode::{has_programmatic_launch, Launch, Mode, Traffic};
