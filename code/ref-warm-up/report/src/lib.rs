//! The warm-up post re-run: the report as data, for the Rust twin and the
//! shared tools alike.
//!
//! - [`Report`] and [`parse`]: every number the programs print, read back
//!   from either program's output; [`Report::render`] prints it in
//!   warmup.cu's layout (a test holds the two together).
//! - [`then`]: the post's own figures, the report's "then" column.
//! - [`claims`]: the post's claims and the lesson's own, as checks.
//! - The [`LessonReport`] impl: the comparable figures and the recording
//!   recipe (the `--first` variants, EAGER, memcheck).
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
pub mod malloc_run;
mod parse;
mod render;
#[cfg(test)]
mod tests;
pub mod then;
mod why;

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Variant};
use serde::Serialize;

pub use parse::parse;
pub use render::first_call_text;

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
pub fn over_percent(calls: &[f64; CALLS]) -> f64 {
    (calls[0] / calls[1] - 1.0) * 100.0
}

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "ref-warm-up", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    type Reference = NoReference;

    /// The plain runs' first call is cudaSetDevice, the post's own program;
    /// `first-set-device` records the same call under its name, beside the
    /// other two, so the three variants are recorded alike.
    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o warmup warmup.cu",
            runs: 5,
            variants: &[
                Variant {
                    name: "first-set-device",
                    env: &[],
                    args: &["--first", "set-device"],
                    runs: 5,
                },
                Variant {
                    name: "first-malloc",
                    env: &[],
                    args: &["--first", "malloc"],
                    runs: 5,
                },
                Variant {
                    name: "first-launch",
                    env: &[],
                    args: &["--first", "launch"],
                    runs: 5,
                },
                Variant {
                    name: "eager",
                    env: &["CUDA_MODULE_LOADING=EAGER"],
                    args: &[],
                    runs: 5,
                },
            ],
            reference: None,
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f = vec![(format!("first call ({}), ms", self.first.name), self.first.ms)];
        for m in &self.mallocs {
            f.push((format!("cudaMalloc {} B first, ms", m.bytes), m.first_ms));
            f.push((format!("cudaMalloc {} B second, ms", m.bytes), m.second_ms));
            f.push((format!("cudaMalloc {} B tenth, ms", m.bytes), m.tenth_ms));
        }
        for k in &self.kernels {
            let name = format!("{} {} threads", k.kernel, k.threads);
            f.push((format!("{name} host #0, ms"), k.host_ms[0]));
            f.push((format!("{name} host #1, ms"), k.host_ms[1]));
            f.push((format!("{name} events #0, ms"), k.events_ms[0]));
            f.push((format!("{name} events #1, ms"), k.events_ms[1]));
            f.push((format!("{name} warm, ms"), k.warm_ms));
        }
        // Every call of the loop without a sync: the post's claim about it
        // reads each one.
        for (call, ms) in self.no_sync_host_ms.iter().enumerate() {
            f.push((format!("without sync, host #{call}, ms"), *ms));
        }
        for (label, ms) in [
            ("with sync, host", &self.sync_host_ms),
            ("with sync, events", &self.sync_events_ms),
        ] {
            f.push((format!("{label} #1, ms"), ms[1]));
        }
        if let Some(run) = &self.malloc_run {
            f.extend(run.figures());
        }
        f
    }

    /// No chart: the lesson's figures are single calls, which the closing
    /// table sets beside the post's.
    fn charts(_program: &str, _runs: &[&Self], _references: &[&NoReference]) -> Vec<Chart> {
        Vec::new()
    }
}
