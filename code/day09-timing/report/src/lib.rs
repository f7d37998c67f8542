//! Day 9's report as data, for the Rust twin and the shared tools alike.
//!
//! - [`Report::render`] prints it in the exact layout timing.cu prints, so the
//!   two programs' transcripts compare line by line; [`parse`] reads either
//!   program's output back (a test holds the two together).
//! - [`Report::consistency_failure`]: timing.cu's two consistency checks.
//! - [`claims`]: what the lesson page says about the numbers.
//! - The [`LessonReport`] impl: the chart, the comparable figures and the
//!   recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod parse;
mod render;
#[cfg(test)]
mod tests;
mod why;

use lesson_spec::{Chart, LessonReport, NoReference, PageRun, Recipe, Series, Variant};
use serde::Serialize;

pub use parse::parse;

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

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day09-timing", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    type Reference = NoReference;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -o timing timing.cu",
            runs: 5,
            // The page's exercise: module loads move out of the first
            // launches into the context line.
            variants: &[Variant {
                name: "eager",
                env: &["CUDA_MODULE_LOADING=EAGER"],
                args: &[],
                runs: 1,
            }],
            reference: None,
            sanitizers: &["memcheck", "racecheck"],
        }
    }

    /// The page's Results block, copied verbatim into the fixture.
    fn page() -> Option<PageRun> {
        Some(PageRun {
            source: "the lesson page's Tesla T4 run (CUDA 13.0)",
            transcript: include_str!("../tests/fixtures/t4-page-transcript.txt"),
        })
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f: Vec<(String, f64)> = vec![
            ("context (first CUDA call), ms".into(), self.context_ms),
            ("row 1 whole process, ms".into(), self.whole_ms),
            ("row 2 around the launch, ms".into(), self.launch_only_ms),
            ("row 2 plus a sync, ms".into(), self.launch_plus_sync_ms),
            ("row 3 first launch, ms".into(), self.cold_ms.into()),
            ("row 4 after warm-up, ms".into(), self.warm_ms.into()),
            ("row 5 round trip, ms".into(), self.round_trip_ms.into()),
            ("CPU, full n, ms".into(), self.cpu_ms),
            ("vectorScale first launch, ms".into(), self.scale_cold_ms.into()),
            ("vectorScale after warm-up, ms".into(), self.scale_warm_ms.into()),
        ];
        for s in &self.sweep {
            f.push((format!("sweep n={} CPU, ms", s.n), s.cpu_ms));
            f.push((format!("sweep n={} kernel, ms", s.n), s.kernel_ms.into()));
            f.push((format!("sweep n={} round trip, ms", s.n), s.round_trip_ms.into()));
        }
        f
    }

    fn charts(program: &str, runs: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
        let xs = |r: &Report| r.sweep.iter().map(|s| s.n as f64).collect();
        let at = |pick: fn(&SweepRow) -> f64| {
            move |r: &Report, x: f64| r.sweep.iter().find(|s| s.n as f64 == x).map(pick)
        };
        vec![Chart {
            stem: format!("day09-timing-sweep-{program}"),
            title: format!("Day 9: where the CPU wins ({program})"),
            x_label: "n (floats)".into(),
            y_label: "time (ms)".into(),
            x_log: true,
            y_log: true,
            series: vec![
                Series::over("CPU, one thread", runs, xs, at(|s| s.cpu_ms)),
                Series::over("kernel", runs, xs, at(|s| s.kernel_ms.into())),
                Series::over("round trip", runs, xs, at(|s| s.round_trip_ms.into())),
            ],
            marks: Vec::new(),
        }]
    }
}
