//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Series};

use crate::parse::parse;
use crate::report::{Report, Table};
use crate::{claims, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day10-block-sizes", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
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
