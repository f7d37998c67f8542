//! Day 10's report as data, for the Rust twin and the shared tools alike.
//!
//! - [`Report::render`] prints it in the exact layout blocks.cu prints, so
//!   the two programs' transcripts compare line by line; [`parse`] reads
//!   either program's output back (a test holds the two together).
//! - [`Table::from_measured`]: how blocks.cu turns five timings per
//!   configuration into a mean, a spread, the best and "within noise", in
//!   one place for the twin.
//! - [`claims`]: what the lesson page says about the numbers.
//! - The [`LessonReport`] impl: the charts, the comparable figures and the
//!   recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod measured;
mod parse;
mod render;
#[cfg(test)]
mod tests;
mod why;

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Series};
use serde::Serialize;

pub use measured::Measured;
pub use parse::parse;

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

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day10-block-sizes", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    type Reference = NoReference;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -o blocks blocks.cu",
            runs: 5,
            variants: &[],
            reference: None,
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f = Vec::new();
        for (kernel, unit, table) in [
            ("vectorAdd", "GB/s", &self.vector_add),
            ("fmaChains", "GFLOP/s", &self.fma),
        ] {
            for r in &table.rows {
                let t = r.threads;
                f.push((format!("{kernel} {t} threads, ms"), r.mean_ms));
                f.push((format!("{kernel} {t} threads spread, %"), r.spread_pct));
                f.push((format!("{kernel} {t} threads, {unit}"), r.rate));
            }
            let s = &table.suggested;
            f.push((
                format!("{kernel} occupancy API's block size, threads"),
                f64::from(s.threads),
            ));
            f.push((format!("{kernel} occupancy API's suggestion, ms"), s.mean_ms));
            f.push((
                format!("{kernel} occupancy API's suggestion spread, %"),
                s.spread_pct,
            ));
            f.push((format!("{kernel} occupancy API's suggestion, {unit}"), s.rate));
        }
        f
    }

    fn charts(program: &str, runs: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
        let chart = |what: &str, kernel: &str, unit: &str, pick: fn(&Report) -> &Table| {
            let xs = move |r: &Report| pick(r).rows.iter().map(|row| f64::from(row.threads)).collect();
            let at = move |r: &Report, x: f64| {
                pick(r)
                    .rows
                    .iter()
                    .find(|row| f64::from(row.threads) == x)
                    .map(|row| row.rate)
            };
            Chart {
                stem: format!("day10-block-sizes-{what}-{program}"),
                title: format!("Day 10: {kernel} against block size ({program})"),
                x_label: "threads per block".into(),
                y_label: unit.into(),
                x_log: true,
                y_log: false,
                series: vec![Series::over(kernel, runs, xs, at)],
                marks: Vec::new(),
            }
        };
        vec![
            chart("vectoradd", "vectorAdd", "GB/s (10^9 bytes/s)", |r| &r.vector_add),
            chart("fma", "fmaChains", "GFLOP/s", |r| &r.fma),
        ]
    }
}
