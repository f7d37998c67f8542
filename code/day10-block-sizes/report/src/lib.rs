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
mod parse;

use std::fmt::Write;

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Series};
use serde::Serialize;

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

/// One configuration as the twin measured it, before it is set against
/// the best.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub threads: u32,
    pub blocks_per_sm: u32,
    /// 0 to 1.
    pub occupancy: f64,
    pub mean_ms: f64,
    /// max/min - 1.
    pub spread: f64,
    pub rate: f64,
}

impl Measured {
    /// blocks.cu's timeRepeats and rate: the mean of `timings` (summed in
    /// order as doubles), their spread, and `work_per_element` x `elems`
    /// over the mean, per 10^6 ms (GB/s for bytes, GFLOP/s for flops).
    pub fn from_timings(
        threads: u32,
        blocks_per_sm: u32,
        occupancy: f64,
        timings_ms: &[f32],
        work_per_element: f64,
        elems: usize,
    ) -> Self {
        let values: Vec<f64> = timings_ms.iter().map(|&t| f64::from(t)).collect();
        let mean_ms = values.iter().sum::<f64>() / values.len() as f64;
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Measured {
            threads,
            blocks_per_sm,
            occupancy,
            mean_ms,
            spread: hi / lo - 1.0,
            rate: work_per_element * elems as f64 / (mean_ms * 1.0e6),
        }
    }
}

impl Table {
    /// blocks.cu's printTable decisions: the best is the first lowest mean
    /// of `rows`; a row is within noise when its difference from the best
    /// is smaller than the larger of the two spreads. The suggestion is
    /// never "best", even when it is one of the rows' block size.
    pub fn from_measured(rows: &[Measured], suggested: &Measured) -> Table {
        let mut best = 0;
        for (i, r) in rows.iter().enumerate() {
            if r.mean_ms < rows[best].mean_ms {
                best = i;
            }
        }
        let b = &rows[best];
        let row = |r: &Measured, is_best: bool| {
            let diff = r.mean_ms / b.mean_ms - 1.0;
            let noise = r.spread.max(b.spread);
            Row {
                threads: r.threads,
                blocks_per_sm: r.blocks_per_sm,
                occupancy_pct: 100.0 * r.occupancy,
                mean_ms: r.mean_ms,
                spread_pct: 100.0 * r.spread,
                rate: r.rate,
                vs_best_pct: 100.0 * diff,
                noise: if is_best {
                    Noise::Best
                } else if diff < noise {
                    Noise::Within
                } else {
                    Noise::Outside
                },
            }
        };
        Table {
            rows: rows.iter().enumerate().map(|(i, r)| row(r, i == best)).collect(),
            suggested: row(suggested, false),
        }
    }

    /// The row with the lowest mean of the block sizes.
    pub fn best(&self) -> Option<&Row> {
        self.rows.iter().min_by(|a, b| a.mean_ms.total_cmp(&b.mean_ms))
    }

    /// The row of `threads` per block.
    pub fn at(&self, threads: u32) -> Option<&Row> {
        self.rows.iter().find(|r| r.threads == threads)
    }
}

/// The line that introduces the occupancy API's row.
const SUGGESTION_LINE: &str = "the occupancy API's suggestion (cudaOccupancyMaxPotentialBlockSize):";

fn render_table(out: &mut String, title: &str, unit: &str, table: &Table) {
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{:>8} {:>10} {:>10} {:>11} {:>8} {:>9} {:>9}  within noise",
        "threads", "blocks/SM", "occupancy", "mean (ms)", "spread", unit, "vs best"
    );
    let row = |out: &mut String, r: &Row| {
        let _ = writeln!(
            out,
            "{:8} {:10} {:9.1}% {:11.5} {:7.2}% {:9.1} {:+8.1}%  {}",
            r.threads,
            r.blocks_per_sm,
            r.occupancy_pct,
            r.mean_ms,
            r.spread_pct,
            r.rate,
            r.vs_best_pct,
            r.noise.word()
        );
    };
    for r in &table.rows {
        row(out, r);
    }
    let _ = writeln!(out, "{SUGGESTION_LINE}");
    row(out, &table.suggested);
    out.push('\n');
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

    /// The report as blocks.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "GPU: {}", self.gpu);
        let _ = writeln!(
            out,
            "{} SMs, each holding at most {} threads and {} blocks",
            self.sms, self.max_threads_per_sm, self.max_blocks_per_sm
        );
        let _ = writeln!(
            out,
            "n = {} elements; each configuration is timed {} times with timeKernel,\n\
             each a mean of {} runs after {} warm-ups\n",
            self.elems, self.repeats, self.runs, self.warmups
        );
        render_table(
            &mut out,
            "vectorAdd, 12 bytes per element (memory-bound)",
            "GB/s",
            &self.vector_add,
        );
        let title = format!(
            "fmaChains, {} chains x {} FMAs = {} flops per element (compute-bound)",
            self.fma_chains,
            self.fma_steps,
            self.fma_flops_per_element()
        );
        render_table(&mut out, &title, "GFLOP/s", &self.fma);
        let _ = writeln!(
            out,
            "spread is max/min - 1 of the {} timings. A configuration is within\n\
             noise of the best when its difference from the best is smaller than\n\
             the larger of the two spreads: a difference smaller than the spread\n\
             is no difference.",
            self.repeats
        );
        out
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

#[cfg(test)]
mod tests;
mod why;
