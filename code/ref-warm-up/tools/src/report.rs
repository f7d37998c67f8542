//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

/// Calls per kernel, as warmup.cu's kCalls.
pub const CALLS: usize = 4;

/// Everything one run measured, in print order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `NVIDIA H200 (compute capability 9.0)`.
    pub gpu: String,
    /// How many GPUs the process saw (cudaGetDeviceCount).
    pub visible_gpus: u32,
    /// CUDA_VISIBLE_DEVICES as the process saw it, if set.
    pub visible_devices: Option<String>,
    /// CUDA_MODULE_LOADING as the process saw it, if set.
    pub module_loading: Option<String>,
    /// The configuration Parts 3 and 4 print in their headings, from
    /// warmup.cu's constants.
    pub setup: Setup,
    pub first: FirstCall,
    pub mallocs: Vec<MallocRow>,
    pub kernels: Vec<KernelRows>,
    pub no_sync_host_ms: [f64; CALLS],
    pub no_sync_events_ms: [f64; CALLS],
    pub sync_host_ms: [f64; CALLS],
    pub sync_events_ms: [f64; CALLS],
    /// Part 5; None in transcripts from before it existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub malloc_run: Option<MallocRun>,
    /// The post's figures in the closing table, from warmup.cu's kThen*
    /// (the first call's for this run's first call).
    pub then: Then,
}

/// What Parts 3 and 4 say they ran: warmup.cu's kElems, kTimedRuns,
/// kWarmupRuns and its first block size (Part 4's).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Setup {
    pub elems: u32,
    pub timed_runs: u32,
    pub warmup_runs: u32,
    pub part4_threads: u32,
}

/// The post's figures beside this run's in the closing table, as printed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Then {
    pub first_call_ms: f64,
    pub malloc_ratio: f64,
    pub simple_over_percent: f64,
    pub complex_over_percent: f64,
    pub no_sync_max_ms: f64,
    pub sync_first_ms: f64,
}

/// Part 5: a run of cudaMallocs of one size, each timed, with the address
/// each returned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MallocRun {
    pub bytes: u64,
    /// The address of Part 2's first allocation of this size.
    pub part2_first: u64,
    /// The address of the last allocation before the run (Part 3's array),
    /// from which the first call's distance is counted.
    pub before: u64,
    pub calls: Vec<RunCall>,
}

/// One call of Part 5.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunCall {
    pub ms: f64,
    pub address: u64,
}

/// Part 1: the first CUDA call of the process.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstCall {
    /// `--first`'s name: `set-device`, `malloc` or `launch`.
    pub name: String,
    /// The call itself, e.g. `cudaSetDevice(0)`.
    pub call: String,
    pub ms: f64,
}

/// Part 2: one size's first, second and tenth cudaMalloc.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MallocRow {
    pub bytes: u64,
    pub first_ms: f64,
    pub second_ms: f64,
    pub tenth_ms: f64,
}

/// Part 3: one kernel at one block size, its calls timed both ways and its
/// warm mean.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelRows {
    /// `simple` or `complex`.
    pub kernel: String,
    pub threads: u32,
    pub host_ms: [f64; CALLS],
    pub events_ms: [f64; CALLS],
    pub warm_ms: f64,
}

impl Report {
    /// Part 3's rows for `kernel` at `threads`, if it has them.
    pub fn kernel(&self, kernel: &str, threads: u32) -> Option<&KernelRows> {
        self.kernels
            .iter()
            .find(|k| k.kernel == kernel && k.threads == threads)
    }

    /// Whether the run loaded modules eagerly.
    pub fn eager(&self) -> bool {
        self.module_loading.as_deref() == Some("EAGER")
    }
}

/// How much call #0 costs over call #1, in percent: the post's comparison.
pub fn over_percent(calls: &[f64]) -> f64 {
    (calls[0] / calls[1] - 1.0) * 100.0
}
