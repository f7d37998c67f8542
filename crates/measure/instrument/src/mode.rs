//! The instrument's vocabulary: its modes ([`Mode`]), what it measures
//! ([`Launch`], and the [`Traffic`] a caller may declare), and which devices
//! have programmatic launch. It depends on no other module of the crate.

use cuda_check::CudaError;
use cudarc::driver::CudaStream;
use serde::Serialize;

/// How samples are taken. A first launch is measured on its own
/// (`measure::first_launch`): it happens once per kernel per process and no
/// sampling can repeat it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Batches of back-to-back launches between two events, as the course
    /// times (its mean of 10 is one such batch).
    Hot,
    /// One launch per sample after the L2 has been flushed by reading a
    /// buffer twice its size (`flush`), so it holds none of the kernel's
    /// data and nothing dirty; the flush is outside the timed region.
    ColdCache,
    /// A batch of launches captured once in a CUDA graph and replayed, which
    /// removes the host's part of the gaps between launches.
    Graph,
    /// The same graph with its kernel-to-kernel edges made programmatic
    /// (`replay`), so each kernel's set-up overlaps the previous kernel's run
    /// while its blocks still start only after every block of the previous
    /// one has finished (Hopper and later).
    GraphPdl,
    /// One launch alone on a clean L2, with no launch latency and none of
    /// its own write-back in the sample: the conditions of Nsight Compute's
    /// `gpu__time_duration`. Each sample is the difference between a replay
    /// of [L2 flush, then the launch through a programmatic edge] and a
    /// replay of the flush alone, each after an untimed flush (Hopper and
    /// later). The subtraction also takes out the flush's own completion,
    /// which the first replay overlaps with the launch; on the H200 the
    /// result sits within 0.4% of ncu's (evidence/instrument/). The untimed
    /// flush and both event records are nodes of each replayed graph, so no
    /// host delay can fall inside a timed span (issue 36: one that did made
    /// a sample 2.2 times faster than the memory allows).
    Isolated,
    /// A graph of launches each followed by an event record, less the same
    /// graph of records alone, per launch. A record is written only once the
    /// work before it has drained, so launches do not overlap: each one's
    /// set-up, run and drain, the span Nsight Compute times for a single
    /// launch. Near the launch floor its medians land near ncu's but move 3
    /// to 21% from process to process on the H200
    /// (evidence/instrument/nvbench.md), so it is never recommended.
    Serial,
    /// Batches as in hot mode, but each launch's time is its kernels'
    /// start-to-end as CUPTI's activity records give it (`trace`), the
    /// numbers Nsight Systems shows. Needs libcupti from the CUDA toolkit
    /// and the `cupti` feature (on by default). Tracing adds work around
    /// each kernel on the GPU, so these durations come out longer than
    /// untraced ones; the mode is there to compare with a trace, not to be
    /// the reference.
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
