//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{median, Chart, LessonReport, Mark, NoReference, Recipe, Series};

use crate::parse::parse;
use crate::report::Report;
use crate::{claims, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day11-row4", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
    type Reference = NoReference;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -o row4 row4.cu",
            runs: 5,
            variants: &[],
            reference: None,
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f: Vec<(String, f64)> = Vec::new();
        if let Some(p) = &self.peak {
            f.push(("theoretical peak, GB/s".into(), p.gb_s));
        }
        f.push(("L2 cache, MiB".into(), self.l2_mib));
        for (what, r) in [
            ("row 4", self.row4),
            ("cudaMemcpy device to device", self.memcpy),
            ("copy kernel float4", self.copy),
            ("vectorAdd float4", self.add4),
            ("per-launch events no flush", self.each),
            ("per-launch events L2 flushed", self.cold),
        ] {
            f.push((format!("{what}, ms"), r.ms));
            f.push((format!("{what}, GB/s"), r.gb_s));
        }
        for s in &self.sweep {
            f.push((format!("sweep n={}, ms", s.n), s.ms));
            f.push((format!("sweep n={}, GB/s", s.n), s.gb_s));
        }
        if let Some(n) = &self.ncu {
            f.extend(n.figures(self.elems));
        }
        f
    }

    fn charts(program: &str, runs: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
        let xs = |r: &Report| r.sweep.iter().map(|s| s.n as f64).collect();
        let at = |r: &Report, x: f64| r.sweep.iter().find(|s| s.n as f64 == x).map(|s| s.gb_s);
        let peak = median(runs.iter().filter_map(|r| Some(r.peak.as_ref()?.gb_s)).collect());
        let copy = median(runs.iter().map(|r| r.copy.gb_s).collect());
        let marks = [
            (peak, "theoretical DRAM peak"),
            (copy, "float4 copy kernel at full n"),
        ]
        .into_iter()
        .filter_map(|(value, what)| {
            let value = value?;
            let label = format!("{what}: {value:.0} GB/s");
            Some(Mark { value, label })
        })
        .collect();
        vec![Chart {
            stem: format!("day11-row4-sweep-{program}"),
            title: format!("Day 11: row 4 against n ({program})"),
            x_label: "n (floats)".into(),
            y_label: "GB/s (10^9 bytes/s, read + written)".into(),
            x_log: true,
            y_log: false,
            series: vec![Series::over("vectorAdd", runs, xs, at)],
            marks,
        }]
    }
}
