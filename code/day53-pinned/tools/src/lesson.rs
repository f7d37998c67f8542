//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{median, Chart, LessonReport, Mark, Recipe, Reference, Series};

use crate::parse::parse;
use crate::reference::PinnedCopy;
use crate::report::{BandwidthRow, Report};
use crate::{claims, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day53-pinned", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
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
                command: &["python3", "tools/reference/torch_h2d_reference.py"],
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
        let (pageable, pinned) = (&self.async_pageable, &self.async_pinned);
        let named = [
            ("async pageable call, ms", pageable.call_ms),
            ("async pageable completion, ms", pageable.completion_ms),
            ("async pageable call, % of completion", pageable.call_percent),
            ("async pinned call, ms", pinned.call_ms),
            ("async pinned completion, ms", pinned.completion_ms),
            ("async pinned call, % of completion", pinned.call_percent),
            ("device-resident kernel, ms", self.resident_ms),
            ("zero-copy kernel, ms", self.zero_copy_ms),
            ("zero-copy / resident", self.zero_copy_ratio),
        ];
        f.extend(named.map(|(name, v)| (name.to_string(), v)));
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
