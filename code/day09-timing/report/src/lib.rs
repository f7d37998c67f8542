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
mod why;

use std::fmt::Write;

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

/// `  1  label...   value ms`: a numbered row; an empty number indents.
fn row(out: &mut String, number: &str, label: &str, ms: f64) {
    let _ = writeln!(out, "  {number:1}  {label:<40} {ms:10.3} ms");
}

impl Report {
    /// The report as timing.cu prints it to stdout, in its four blocks.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_context(&mut out);
        self.render_five_ways(&mut out);
        self.render_second_kernel(&mut out);
        self.render_where_the_cpu_wins(&mut out);
        out
    }

    /// The GPU, the sizes, and the first CUDA call: the context.
    fn render_context(&self, out: &mut String) {
        let mib = (self.elems * std::mem::size_of::<f32>()) as f64 / (1024.0 * 1024.0);
        let (major, minor) = self.compute_capability;
        let _ = writeln!(out, "GPU: {} (compute capability {major}.{minor})", self.gpu_name);
        let _ = writeln!(
            out,
            "n = {} floats, {mib:.1} MiB per buffer, {} threads/block, {} blocks\n",
            self.elems, self.threads_per_block, self.blocks
        );
        let _ = writeln!(
            out,
            "cudaSetDevice({}), the first CUDA call in this process: {:9.3} ms",
            self.device, self.context_ms
        );
        out.push_str("No arithmetic of yours has run yet. That is the context.\n\n");
    }

    /// Rows 1 to 5 and the CPU beside them, then how each row was measured.
    fn render_five_ways(&self, out: &mut String) {
        out.push_str("Five ways to time one vector add\n");
        let rows = [
            ("1", "wall clock, whole process", self.whole_ms),
            ("2", "wall clock, around the launch", self.launch_only_ms),
            ("", "the same clock, plus a sync", self.launch_plus_sync_ms),
            ("3", "events, kernel, first launch", f64::from(self.cold_ms)),
            ("4", "events, kernel, after warm-up", f64::from(self.warm_ms)),
            (
                "5",
                "events, copies + kernel + copy back",
                f64::from(self.round_trip_ms),
            ),
            ("", "CPU, same n, one thread, no SIMD", self.cpu_ms),
        ];
        for (number, label, ms) in rows {
            row(out, number, label, ms);
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "Rows 4 and 5 are means of {} runs after {} warm-ups.",
            self.runs, self.warmups
        );
        out.push_str(
            "Rows 1, 2 and 3 are single measurements, because each one is about\n\
             something that happens once.\n\n",
        );
    }

    /// vectorScale, cold and then warm, long after start-up.
    fn render_second_kernel(&self, out: &mut String) {
        out.push_str("A second kernel is cold too\n");
        row(
            out,
            "",
            "vectorScale, first launch",
            f64::from(self.scale_cold_ms),
        );
        row(
            out,
            "",
            "vectorScale, after warm-up",
            f64::from(self.scale_warm_ms),
        );
        out.push('\n');
    }

    /// The crossover sweep, then the report's last word on the rows.
    fn render_where_the_cpu_wins(&self, out: &mut String) {
        out.push_str("Where the CPU wins\n");
        let _ = writeln!(
            out,
            "{:>12} {:>12} {:>12} {:>14}",
            "n", "CPU (ms)", "kernel (ms)", "round trip (ms)"
        );
        for s in &self.sweep {
            let _ = writeln!(
                out,
                "{:>12} {:12.3} {:12.3} {:14.3}",
                s.n,
                s.cpu_ms,
                f64::from(s.kernel_ms),
                f64::from(s.round_trip_ms)
            );
        }
        out.push_str(
            "\nRow 4 is the kernel. Row 5 is what a user waits for. Row 1 is what\n\
             `time ./timing` prints, and it is never the answer to how fast a\n\
             kernel is.\n",
        );
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of the lesson page's Tesla T4 transcript (CUDA 13.0 run).
    fn t4() -> Report {
        Report {
            gpu_name: "Tesla T4".into(),
            compute_capability: (7, 5),
            device: 0,
            elems: 16_777_827,
            threads_per_block: 256,
            blocks: 65_539,
            warmups: 3,
            runs: 10,
            context_ms: 424.730,
            whole_ms: 1594.357,
            launch_only_ms: 0.005,
            launch_plus_sync_ms: 0.777,
            cold_ms: 0.940,
            warm_ms: 0.768,
            round_trip_ms: 45.362,
            cpu_ms: 18.909,
            scale_cold_ms: 0.618,
            scale_warm_ms: 0.550,
            sweep: vec![
                SweepRow {
                    n: 1024,
                    cpu_ms: 0.002,
                    kernel_ms: 0.004,
                    round_trip_ms: 0.028,
                },
                SweepRow {
                    n: 65536,
                    cpu_ms: 0.067,
                    kernel_ms: 0.005,
                    round_trip_ms: 0.255,
                },
                SweepRow {
                    n: 1_048_576,
                    cpu_ms: 1.158,
                    kernel_ms: 0.052,
                    round_trip_ms: 2.930,
                },
                SweepRow {
                    n: 4_194_304,
                    cpu_ms: 4.326,
                    kernel_ms: 0.195,
                    round_trip_ms: 11.331,
                },
            ],
        }
    }

    #[test]
    fn renders_the_lesson_pages_transcript_byte_for_byte() {
        let want = Report::page().unwrap().transcript;
        let got = t4().render();
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "line {}", i + 1);
        }
        assert_eq!(got, want);
    }

    use lesson_spec::numbered_output as body;

    #[test]
    fn the_pages_figures_are_its_t4_runs() {
        use lesson_spec::Lesson;
        let (source, figures) = lesson_spec::Entry::<Report>::NEW.page_figures().unwrap();
        assert_eq!(source, "the lesson page's Tesla T4 run (CUDA 13.0)");
        assert_eq!(figures, t4().figures());
    }

    #[test]
    fn what_the_twin_renders_parses_back_to_the_same_numbers() {
        let mut report = t4();
        report.device = 3;
        let text = report.render();
        assert_eq!(parse(&body(&text)), Ok(report));
    }

    // Two runs recorded on the H200 by ci/gpu-session.sh.
    lesson_testkit::conformance_tests! {
        report: Report,
        cu: "timing.cu",
        printed: [t4().render()],
        evidence: ("2026-11-29T223246Z-h200-cxx.txt", "2026-11-29T223247Z-h200-rust.txt"),
        then: |cxx, rust| {
            assert_eq!(cxx.figures().len(), 10 + 3 * 4);
            assert_eq!(
                (cxx.gpu_name.as_str(), cxx.compute_capability),
                ("NVIDIA H200", (9, 0))
            );
            assert_eq!(
                (&cxx.gpu_name, cxx.elems, cxx.blocks),
                (&rust.gpu_name, rust.elems, rust.blocks)
            );
            assert_eq!((cxx.runs, cxx.warmups), (rust.runs, rust.warmups));
        },
    }

    #[test]
    fn the_context_line_names_the_device_used() {
        let mut r = t4();
        r.device = 1;
        assert!(
            r.render()
                .contains("\ncudaSetDevice(1), the first CUDA call in this process:   424.730 ms\n"),
            "{}",
            r.render()
        );
    }

    #[test]
    fn consistent_timings_pass() {
        assert_eq!(t4().consistency_failure(), None);
    }

    #[test]
    fn a_round_trip_faster_than_its_kernel_is_broken_timing() {
        let mut r = t4();
        r.round_trip_ms = 0.5;
        let msg = r.consistency_failure().unwrap();
        assert_eq!(
            msg,
            "timing broken: copies + kernel (0.500 ms) came out faster than the kernel alone (0.768 ms)"
        );
    }

    #[test]
    fn a_process_shorter_than_a_round_trip_is_broken_timing() {
        let mut r = t4();
        r.whole_ms = 40.0;
        let msg = r.consistency_failure().unwrap();
        assert!(
            msg.starts_with("timing broken: the whole process (40.000 ms)"),
            "{msg}"
        );
    }
}
