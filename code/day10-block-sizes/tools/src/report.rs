//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

/// Bytes vectorAdd moves per element: two floats read, one written.
pub const VECTOR_ADD_BYTES_PER_ELEMENT: f64 = 12.0;

/// Every number the report prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `NVIDIA H200 (compute capability 9.0)`, as the first line gives it.
    pub gpu: String,
    pub sms: u32,
    pub max_threads_per_sm: u32,
    pub max_blocks_per_sm: u32,
    pub elems: usize,
    /// timeKernel calls per configuration (blocks.cu's kRepeats).
    pub repeats: u32,
    pub runs: u32,
    pub warmups: u32,
    pub vector_add: Table,
    pub fma_chains: u32,
    pub fma_steps: u32,
    pub fma: Table,
}

/// One kernel's table: a row per block size, then the occupancy API's
/// suggestion, timed the same way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub rows: Vec<Row>,
    pub suggested: Row,
}

/// One configuration, as printed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub threads: u32,
    /// cudaOccupancyMaxActiveBlocksPerMultiprocessor's answer.
    pub blocks_per_sm: u32,
    /// Theoretical occupancy, percent.
    pub occupancy_pct: f64,
    /// The mean of the five timeKernel results.
    pub mean_ms: f64,
    /// max/min - 1 of the same five, percent.
    pub spread_pct: f64,
    /// GB/s for vectorAdd, GFLOP/s for fmaChains.
    pub rate: f64,
    /// mean / best mean - 1, percent.
    pub vs_best_pct: f64,
    pub noise: Noise,
}

/// The last column: how the row stands against the best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Noise {
    /// The lowest mean of the table's block sizes.
    Best,
    /// Its difference from the best is smaller than the larger spread.
    Within,
    Outside,
}

impl Noise {
    pub fn word(self) -> &'static str {
        match self {
            Noise::Best => "best",
            Noise::Within => "yes",
            Noise::Outside => "no",
        }
    }
}

impl Table {
    /// The row with the lowest mean of the block sizes.
    pub fn best(&self) -> Option<&Row> {
        self.rows.iter().min_by(|a, b| a.mean_ms.total_cmp(&b.mean_ms))
    }

    /// The row of `threads` per block.
    pub fn at(&self, threads: u32) -> Option<&Row> {
        self.rows.iter().find(|r| r.threads == threads)
    }
}

impl Report {
    /// The GPU's name without its compute capability, as expected-failure
    /// lists spell it.
    pub fn gpu_name(&self) -> &str {
        self.gpu
            .rsplit_once(" (compute capability ")
            .map_or(self.gpu.as_str(), |(name, _)| name)
    }

    pub fn fma_flops_per_element(&self) -> u32 {
        2 * self.fma_chains * self.fma_steps
    }
}
