//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{Chart, LessonReport, NoReference, PageRun, Recipe, Series, Variant};

use crate::parse::parse;
use crate::report::{Report, SweepRow};
use crate::{claims, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "day09-timing", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
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
