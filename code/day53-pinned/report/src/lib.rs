//! Day 53's report as data, for the Rust twin and the shared tools alike.
//!
//! - [`render`]: the lines pinned.cu prints, one function per line, since
//!   the lesson prints each part as it finishes; [`parse`] reads either
//!   program's output back into a [`Report`] (a test holds the two
//!   together).
//! - [`claims`]: what the lesson page says about the numbers.
//! - [`reference`]: the reference tool recorded beside the lesson, PyTorch's
//!   own pinned copy.
//! - The [`LessonReport`] impl: the chart, the comparable figures and the
//!   recording recipe.
//!
//! Not for: measuring (the twin in `../src` does) or CUDA of any kind, so the
//! evidence tools build without nvcc.

mod claims;
mod parse;
pub mod reference;
pub mod render;
#[cfg(test)]
mod tests;
mod why;

use lesson_spec::{median, Chart, LessonReport, Mark, Recipe, Reference, Series};
use serde::Serialize;

pub use parse::parse;
pub use reference::PinnedCopy;

/// Every number the report prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub gpu: String,
    pub bandwidth: Vec<BandwidthRow>,
    pub async_pageable: AsyncRow,
    pub async_pinned: AsyncRow,
    pub resident_ms: f64,
    pub resident_gb_s: f64,
    pub zero_copy_ms: f64,
    pub zero_copy_gb_s: f64,
    pub zero_copy_ratio: f64,
}

/// One size of Part 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandwidthRow {
    pub mib: u64,
    pub pageable_ms: f64,
    pub pageable_gb_s: f64,
    pub pinned_ms: f64,
    pub pinned_gb_s: f64,
    pub ratio: f64,
}

/// One source of Part 2.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AsyncRow {
    pub call_ms: f64,
    pub completion_ms: f64,
    pub call_percent: f64,
}

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day53-pinned", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    type Reference = PinnedCopy;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o pinned pinned.cu",
            runs: 5,
            variants: &[],
            // The same pinned 256 MiB copy through PyTorch: how close the
            // lesson's own copy comes to what a library gets.
            reference: Some(Reference {
                name: "torch-reference",
                command: &["python3", "reference/torch_h2d_reference.py"],
            }),
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f = Vec::new();
        for b in &self.bandwidth {
            f.push((format!("{} MiB pageable, GB/s", b.mib), b.pageable_gb_s));
            f.push((format!("{} MiB pinned, GB/s", b.mib), b.pinned_gb_s));
        }
        f.extend([
            ("async pageable call, ms".to_string(), self.async_pageable.call_ms),
            (
                "async pageable completion, ms".into(),
                self.async_pageable.completion_ms,
            ),
            (
                "async pageable call, % of completion".into(),
                self.async_pageable.call_percent,
            ),
            ("async pinned call, ms".into(), self.async_pinned.call_ms),
            (
                "async pinned completion, ms".into(),
                self.async_pinned.completion_ms,
            ),
            (
                "async pinned call, % of completion".into(),
                self.async_pinned.call_percent,
            ),
            ("device-resident kernel, ms".into(), self.resident_ms),
            ("zero-copy kernel, ms".into(), self.zero_copy_ms),
            ("zero-copy / resident".into(), self.zero_copy_ratio),
        ]);
        f
    }

    fn charts(program: &str, runs: &[&Self], references: &[&PinnedCopy]) -> Vec<Chart> {
        let xs = |r: &Report| r.bandwidth.iter().map(|b| b.mib as f64).collect();
        let at = |pick: fn(&BandwidthRow) -> f64| {
            move |r: &Report, x: f64| r.bandwidth.iter().find(|b| b.mib as f64 == x).map(pick)
        };
        let reference = median(references.iter().map(|p| p.gb_s).collect());
        vec![Chart {
            stem: format!("day53-pinned-bandwidth-{program}"),
            title: format!("Day 53: host-to-device bandwidth ({program})"),
            x_label: "copy size (MiB)".into(),
            y_label: "GB/s (10^9 bytes/s)".into(),
            x_log: true,
            y_log: false,
            series: vec![
                Series::over("pageable", runs, xs, at(|b| b.pageable_gb_s)),
                Series::over("pinned", runs, xs, at(|b| b.pinned_gb_s)),
            ],
            marks: reference
                .map(|g| Mark {
                    value: g,
                    label: format!("PyTorch pinned 256 MiB copy, measured alongside: {g:.1} GB/s"),
                })
                .into_iter()
                .collect(),
        }]
    }
}
