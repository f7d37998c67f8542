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
mod why;

use lesson_spec::{median, Chart, LessonReport, Mark, Recipe, Reference, Series};

pub use parse::{parse, AsyncRow, BandwidthRow, Report};
pub use reference::PinnedCopy;

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

#[cfg(test)]
mod tests {
    use super::*;
    use lesson_spec::ReferenceOutput;
    use lesson_testkit::conformance;

    use lesson_spec::numbered_output as body;

    const ELEMS: usize = 16 * 1024 * 1024 + 611;

    /// Every part of the report, as the twin renders it, for known numbers.
    fn rendered() -> String {
        let elems = ELEMS;
        [
            render::gpu_line("Test GPU", (9, 0)),
            render::part1_header(10, 3),
            render::part1_row(1, 0.090, 0.028),
            render::part1_row(256, 40.734, 4.865),
            render::part2_header(10),
            render::part2_row("pageable", 9.916, 9.939),
            render::part2_row("pinned", 0.004, 1.223),
            render::part3_header(elems, 10, 3),
            render::part3_row("device-resident", elems, 0.052),
            render::part3_row("zero-copy", elems, 1.314),
            render::part3_summary(0.052, 1.314, 14),
        ]
        .join("\n")
    }

    #[test]
    fn what_the_twin_renders_parses_back_to_the_same_numbers() {
        let r = parse(&body(&rendered())).unwrap();
        assert_eq!(r.gpu, "Test GPU (compute capability 9.0)");
        let rows: Vec<(u64, f64, f64)> = r
            .bandwidth
            .iter()
            .map(|b| (b.mib, b.pageable_ms, b.pinned_ms))
            .collect();
        assert_eq!(rows, [(1, 0.090, 0.028), (256, 40.734, 4.865)]);
        assert_eq!(r.bandwidth[1].pinned_gb_s, 55.2);
        assert_eq!(r.bandwidth[1].ratio, 8.37);
        assert_eq!(
            (
                r.async_pageable.call_ms,
                r.async_pageable.completion_ms,
                r.async_pageable.call_percent
            ),
            (9.916, 9.939, 99.8)
        );
        assert_eq!(
            (r.async_pinned.call_ms, r.async_pinned.call_percent),
            (0.004, 0.3)
        );
        assert_eq!((r.resident_ms, r.zero_copy_ms), (0.052, 1.314));
        assert_eq!(r.zero_copy_ratio, 25.27);
    }

    // Two runs recorded on the H200 by ci/gpu-session.sh.
    lesson_testkit::conformance_tests! {
        report: Report,
        cu: "pinned.cu",
        printed: [rendered()],
        evidence: ("2026-11-29T222957Z-h200-cxx.txt", "2026-11-29T225128Z-h200-rust.txt"),
        then: |cxx, rust| {
            assert_eq!(cxx.figures().len(), 2 * 5 + 9);
            assert_eq!(cxx.gpu, rust.gpu);
        },
    }

    #[test]
    fn the_reference_tools_transcript_parses() {
        let file = "2026-11-29T223006Z-h200-torch-reference.txt";
        let text = conformance::evidence_transcript::<Report>(env!("CARGO_MANIFEST_DIR"), file);
        let p = PinnedCopy::parse(&body(&text)).unwrap();
        assert_eq!(p.mib, 256);
        assert!(p.tool.starts_with("PyTorch "), "{}", p.tool);
        assert_eq!(p.figures(), [("256 MiB pinned, GB/s".to_string(), p.gb_s)]);
    }
}
