//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

/// Every number the report prints. Types follow timing.cu: host-clock
/// readings are `f64`, event timings `f32`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub gpu_name: String,
    pub compute_capability: (i32, i32),
    /// The device ordinal the lesson ran on (`--device`), named in the
    /// context line.
    pub device: usize,
    pub elems: usize,
    pub threads_per_block: u32,
    pub blocks: i32,
    pub warmups: u32,
    pub runs: u32,
    pub context_ms: f64,
    pub whole_ms: f64,
    pub launch_only_ms: f64,
    pub launch_plus_sync_ms: f64,
    pub cold_ms: f32,
    pub warm_ms: f32,
    pub round_trip_ms: f32,
    pub cpu_ms: f64,
    pub scale_cold_ms: f32,
    pub scale_warm_ms: f32,
    pub sweep: Vec<SweepRow>,
}

/// One size of the crossover sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    pub n: usize,
    pub cpu_ms: f64,
    pub kernel_ms: f32,
    pub round_trip_ms: f32,
}

impl Report {
    /// timing.cu's two consistency checks, in its order and words. Each
    /// region contains the next, so a violation means broken timing code,
    /// not a surprising GPU.
    pub fn consistency_failure(&self) -> Option<String> {
        if self.round_trip_ms < self.warm_ms {
            return Some(format!(
                "timing broken: copies + kernel ({:.3} ms) came out faster than the kernel alone ({:.3} ms)",
                f64::from(self.round_trip_ms),
                f64::from(self.warm_ms)
            ));
        }
        if self.whole_ms < f64::from(self.round_trip_ms) {
            return Some(format!(
                "timing broken: the whole process ({:.3} ms) came out shorter than one round trip ({:.3} ms)",
                self.whole_ms,
                f64::from(self.round_trip_ms)
            ));
        }
        None
    }
}
