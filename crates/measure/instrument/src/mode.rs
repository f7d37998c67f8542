//! The instrument's vocabulary: its modes ([`Mode`]), what it measures
//! ([`Launch`], and the [`Traffic`] a caller may declare), and which devices
//! have programmatic launch. It depends on no other module of the crate.

use cuda_check::CudaError;
use cudarc::driver::CudaStream;
use serde::Serialize;

/// How samples are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Batches of back-to-back launches between two events, as the course
    /// times (its mean of 10 is one such batch).
    Hot,
    /// One launch per sample after the L2 is flushed by reading a buffer
    /// twice its size (`flush`), outside the timed region.
    ColdCache,
    /// A batch of launches captured once in a CUDA graph and replayed, which
    /// removes the host's part of the gaps between launches.
    Graph,
    /// The same graph with its kernel-to-kernel edges programmatic
    /// (`replay`): each kernel's set-up overlaps the previous one's run, its
    /// blocks still start after the previous one's end (Hopper and later).
    GraphPdl,
    /// One launch alone on a clean L2, as Nsight Compute's
    /// `gpu__time_duration` times it: a replay of [flush, then the launch
    /// through a programmatic edge] less a replay of the flush alone
    /// (`modes/isolated.rs`; how close to ncu: `session::beside_ncu`).
    /// Hopper and later.
    Isolated,
    /// Launches that cannot overlap, each its set-up, run and drain, ncu's
    /// span for one launch (`modes/serial.rs`). Near the floor its medians
    /// move 3 to 21% between processes (evidence/instrument/nvbench.md), so
    /// it is never recommended.
    Serial,
    /// Batches as in hot mode, each launch timed by CUPTI's activity records
    /// (`trace`), the numbers Nsight Systems shows; needs libcupti and the
    /// `cupti` feature. Tracing adds work around each kernel, so it is there
    /// to compare with a trace, not to be the reference.
    Cupti,
}

impl Mode {
    /// Every mode, in the order the tables print them.
    pub const ALL: [Mode; 7] = [
        Mode::Hot,
        Mode::ColdCache,
        Mode::Graph,
        Mode::GraphPdl,
        Mode::Isolated,
        Mode::Serial,
        Mode::Cupti,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Hot => "hot",
            Mode::ColdCache => "cold-cache",
            Mode::Graph => "graph",
            Mode::GraphPdl => "graph-pdl",
            Mode::Isolated => "isolated",
            Mode::Serial => "serial",
            Mode::Cupti => "cupti",
        }
    }
}

/// A mode by its [`Mode::name`], as a command line gives it.
impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
            format!("`{s}` is no mode ({})", names.join(", "))
        })
    }
}

/// A launch the instrument can repeat: it queues one launch on the stream
/// it is given (the instrument's own, so it can capture it into a graph).
pub trait Launch: FnMut(&CudaStream) -> Result<(), CudaError> {}
impl<F: FnMut(&CudaStream) -> Result<(), CudaError>> Launch for F {}

/// Bytes a launch moves, as the caller declares them: reads and writes
/// counted separately, each once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Traffic {
    pub bytes_read: u64,
    pub bytes_written: u64,
}

impl Traffic {
    pub fn total(&self) -> u64 {
        self.bytes_read + self.bytes_written
    }

    /// GB/s (10^9 bytes/s) at `ms` per launch.
    pub fn gb_s(&self, ms: f64) -> f64 {
        self.total() as f64 / (ms * 1e-3) / 1e9
    }
}

/// Whether a device of this compute capability has programmatic dependent
/// launch, which [`Mode::GraphPdl`] and [`Mode::Isolated`] need.
pub fn has_programmatic_launch(compute_capability: (i32, i32)) -> bool {
    compute_capability.0 >= 9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programmatic_launch_starts_with_hopper() {
        assert!(has_programmatic_launch((9, 0)));
        assert!(has_programmatic_launch((10, 0)));
        assert!(!has_programmatic_launch((8, 9)));
    }
}
