//! Day 30's report as data, for the Rust twin and the project's tools:
//! [`Report`] printed in crossover.cu's exact layout ([`Report::render`], one
//! template per line, shared with the parser) and parsed back, the page's
//! claims and the README's causes as checks, the figures the README names,
//! the recording recipe.
//!
//! Not for: measuring or modelling (the twin in `../src` does both) or CUDA of
//! any kind, so the evidence tools build without nvcc.

mod claims;
mod render;
#[cfg(test)]
mod tests;
mod why;

pub use render::{crossover_text, parse};

use lesson_spec::{Chart, Figure, LessonReport, NoReference, Recipe};
use serde::Serialize;

/// The three ways the GPU is timed, in the report's order.
pub const VARIANTS: [&str; 3] = ["kernel alone", "pinned copies", "pageable copies"];
/// The copy rows of Part 1, in the report's order: (direction, memory).
pub const COPIES: [(&str, &str); 4] = [
    ("H2D", "pinned"),
    ("D2H", "pinned"),
    ("H2D", "pageable"),
    ("D2H", "pageable"),
];

/// Every number the report prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `NVIDIA H200 (compute capability 9.0)`, as the first line gives it.
    pub gpu: String,
    pub constants: Constants,
    pub sweep_min: usize,
    pub sweep_max: usize,
    pub kernels: Vec<KernelBlock>,
    pub learner: Learner,
}

/// Part 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constants {
    pub floor_us: f64,
    pub floor_calls: u32,
    pub gpu_gb_s: f64,
    pub gpu_bw_mib: usize,
    pub gpu_gops: f64,
    pub gpu_rate_chains: u32,
    /// In [`COPIES`]' order.
    pub copies: Vec<CopyCost>,
    pub copy_small_kib: usize,
    pub copy_large_mib: usize,
    pub cpu_gb_s: f64,
    pub cpu_bw_mib: usize,
    pub cpu_gops: f64,
    pub cpu_chain: u32,
}

/// One copy direction from one kind of memory: fixed + bytes / rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CopyCost {
    pub fixed_us: f64,
    pub gb_s: f64,
}

/// One kernel of Part 2.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelBlock {
    pub name: String,
    pub bytes: f64,
    pub ops: f64,
    pub h2d_bytes: f64,
    pub h2d_calls: u32,
    pub d2h_bytes: f64,
    pub d2h_fixed: f64,
    pub d2h_calls: u32,
    /// In [`VARIANTS`]' order.
    pub crossovers: Vec<Crossover>,
    pub sizes: Vec<SizeRow>,
}

/// A crossover n, predicted and measured; `None` is "never".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Crossover {
    pub predicted: Option<f64>,
    pub measured: Option<f64>,
}

/// One size of Part 2's table: the CPU, then [`VARIANTS`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizeRow {
    pub n: usize,
    pub cells: Vec<Cell>,
}

/// A measured time, the model's, and the model's error in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    pub measured_us: f64,
    pub model_us: f64,
    pub error_percent: f64,
}

/// Part 3: the learner's kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Learner {
    pub bytes: f64,
    pub ops: f64,
    pub in_bytes: f64,
    pub out_bytes: f64,
    /// In [`VARIANTS`]' order.
    pub rows: Vec<LearnerRow>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LearnerRow {
    pub predicted: Option<f64>,
    pub gpu_ns: f64,
    pub cpu_ns: f64,
}

impl Report {
    pub fn kernel(&self, name: &str) -> Option<&KernelBlock> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// The figures the README names (`<!-- figure NAME -->`), each a query over
/// the evidence (`evidence figures --write` writes them in). None until the
/// lesson's first GPU session is recorded.
pub const FIGURES: &[Figure] = &[
    Figure {
        name: "d30-crossovers",
        query: r#"| kernel | alone, predicted | alone, measured | pinned copies, predicted | pinned copies, measured |
| --- | ---: | ---: | ---: | ---: |
| saxpy | {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy kernel alone: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy kernel alone: measured crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy pinned copies: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy pinned copies: measured crossover, n")) as ,0} |
| dot | {range(runs("day30-crossover", "h200-cxx h200-rust", "dot kernel alone: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "dot kernel alone: measured crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "dot pinned copies: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "dot pinned copies: measured crossover, n")) as ,0} |
| poly4 | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly4 kernel alone: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly4 kernel alone: measured crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly4 pinned copies: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly4 pinned copies: measured crossover, n")) as ,0} |
| poly64 | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly64 kernel alone: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly64 kernel alone: measured crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly64 pinned copies: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "poly64 pinned copies: measured crossover, n")) as ,0} |
| stencil | {range(runs("day30-crossover", "h200-cxx h200-rust", "stencil kernel alone: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "stencil kernel alone: measured crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "stencil pinned copies: predicted crossover, n")) as ,0} | {range(runs("day30-crossover", "h200-cxx h200-rust", "stencil pinned copies: measured crossover, n")) as ,0} |"#,
    },
    Figure {
        name: "d30-constants",
        query: r#"the launch floor {median(runs("day30-crossover", "h200-cxx h200-rust", "launch floor, us")) as .1} us, the copy kernel's {median(runs("day30-crossover", "h200-cxx h200-rust", "GPU bandwidth, GB/s")) as ,0} GB/s, {median(runs("day30-crossover", "h200-cxx h200-rust", "GPU op rate, Gop/s")) as ,0} Gop/s of FMAs, pinned copies into the GPU at {median(runs("day30-crossover", "h200-cxx h200-rust", "H2D pinned, GB/s")) as .1} GB/s after {median(runs("day30-crossover", "h200-cxx h200-rust", "H2D pinned fixed, us")) as .1} us a call, pageable ones at {median(runs("day30-crossover", "h200-cxx h200-rust", "H2D pageable, GB/s")) as .1} GB/s; the CPU {median(runs("day30-crossover", "h200-cxx h200-rust", "CPU bandwidth, GB/s")) as .1} GB/s and {median(runs("day30-crossover", "h200-cxx h200-rust", "CPU op rate, Gop/s")) as .2} Gop/s (medians of {count(runs("day30-crossover", "h200-cxx h200-rust", "launch floor, us"))} runs)"#,
    },
    Figure {
        name: "d30-large-n",
        query: r#"at 16 Mi the kernels alone took saxpy {median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: kernel model, us")) as .2}, dot {median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: kernel model, us")) as .2}, poly4 {median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: kernel model, us")) as .2}, poly64 {median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: kernel model, us")) as .2}, stencil {median(runs("day30-crossover", "h200-cxx h200-rust", "stencil at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "stencil at 16777216: kernel model, us")) as .2} times the model's time, and the CPU saxpy {median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: CPU model, us")) as .2}, dot {median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: CPU model, us")) as .2}, poly4 {median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: CPU model, us")) as .2}, poly64 {median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: CPU model, us")) as .2}, stencil {median(runs("day30-crossover", "h200-cxx h200-rust", "stencil at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "stencil at 16777216: CPU model, us")) as .2} (medians)"#,
    },
    Figure {
        name: "d30-cpu-spread",
        query: r#"the op rate from {range(runs("day30-crossover", "h200-cxx h200-rust", "CPU op rate, Gop/s")) as .2} Gop/s and the bandwidth from {range(runs("day30-crossover", "h200-cxx h200-rust", "CPU bandwidth, GB/s")) as .1} GB/s over the {count(runs("day30-crossover", "h200-cxx h200-rust", "CPU op rate, Gop/s"))} recorded runs"#,
    },
    Figure {
        name: "xf30-kernel",
        query: r#"SAXPY's kernel alone took {median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: kernel model, us")) as .2} times the model at 16 Mi ({12 * 16777216 / median(runs("day30-crossover", "h200-cxx h200-rust", "saxpy at 16777216: kernel, us")) / 1000 as ,0} GB/s against the copy kernel's {median(runs("day30-crossover", "h200-cxx h200-rust", "GPU bandwidth, GB/s")) as ,0}) and the dot product's {median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: kernel, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "dot at 16777216: kernel model, us")) as .2} times"#,
    },
    Figure {
        name: "xf30-cpu",
        query: r#"the CPU took {median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly4 at 16777216: CPU model, us")) as .2} times the model on poly4 and {median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: CPU, us")) / median(runs("day30-crossover", "h200-cxx h200-rust", "poly64 at 16777216: CPU model, us")) as .2} on poly64 at 16 Mi"#,
    },
    Figure {
        name: "xf30-alone",
        query: r#"SAXPY alone: predicted {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy kernel alone: predicted crossover, n")) as ,0}, measured {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy kernel alone: measured crossover, n")) as ,0}"#,
    },
    Figure {
        name: "xf30-pinned",
        query: r#"SAXPY with pinned copies: predicted {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy pinned copies: predicted crossover, n")) as ,0}, measured {range(runs("day30-crossover", "h200-cxx h200-rust", "saxpy pinned copies: measured crossover, n")) as ,0}"#,
    },
];

/// The label of a table cell's figure: `saxpy at 1024: CPU, us`.
pub fn cell_label(kernel: &str, n: usize, column: &str, model: bool) -> String {
    let model = if model { " model" } else { "" };
    format!("{kernel} at {n}: {column}{model}, us")
}

/// The table's columns, as figure labels name them.
pub const COLUMNS: [&str; 4] = ["CPU", "kernel", "pinned", "pageable"];

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day30-crossover", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    type Reference = NoReference;
    const FIGURES: &'static [Figure] = FIGURES;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -o crossover crossover.cu",
            runs: 5,
            variants: &[],
            reference: None,
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let c = &self.constants;
        let mut f = vec![
            ("launch floor, us".to_string(), c.floor_us),
            ("GPU bandwidth, GB/s".into(), c.gpu_gb_s),
            ("GPU op rate, Gop/s".into(), c.gpu_gops),
        ];
        for ((dir, mem), cost) in COPIES.iter().zip(&c.copies) {
            f.push((format!("{dir} {mem} fixed, us"), cost.fixed_us));
            f.push((format!("{dir} {mem}, GB/s"), cost.gb_s));
        }
        f.push(("CPU bandwidth, GB/s".into(), c.cpu_gb_s));
        f.push(("CPU op rate, Gop/s".into(), c.cpu_gops));
        for k in &self.kernels {
            for (variant, x) in VARIANTS.iter().zip(&k.crossovers) {
                if let Some(p) = x.predicted {
                    f.push((format!("{} {variant}: predicted crossover, n", k.name), p));
                }
                if let Some(m) = x.measured {
                    f.push((format!("{} {variant}: measured crossover, n", k.name), m));
                }
            }
            for row in &k.sizes {
                for (column, cell) in COLUMNS.iter().zip(&row.cells) {
                    f.push((cell_label(&k.name, row.n, column, false), cell.measured_us));
                    f.push((cell_label(&k.name, row.n, column, true), cell.model_us));
                }
            }
        }
        f
    }

    fn charts(_: &str, _: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
        Vec::new()
    }
}
