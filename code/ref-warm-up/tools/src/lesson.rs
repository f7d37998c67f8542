//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Variant};

use crate::parse::parse;
use crate::report::Report;
use crate::{claims, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "ref-warm-up", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
    type Reference = NoReference;

    /// The plain runs' first call is cudaSetDevice, the post's own program;
    /// `first-set-device` records the same call under its name, beside the
    /// other two, so the three variants are recorded alike.
    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o warmup warmup.cu",
            runs: 5,
            variants: &[
                Variant {
                    name: "first-set-device",
                    env: &[],
                    args: &["--first", "set-device"],
                    runs: 5,
                },
                Variant {
                    name: "first-malloc",
                    env: &[],
                    args: &["--first", "malloc"],
                    runs: 5,
                },
                Variant {
                    name: "first-launch",
                    env: &[],
                    args: &["--first", "launch"],
                    runs: 5,
                },
                Variant {
                    name: "eager",
                    env: &["CUDA_MODULE_LOADING=EAGER"],
                    args: &[],
                    runs: 5,
                },
            ],
            reference: None,
            sanitizers: &["memcheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f = vec![(format!("first call ({}), ms", self.first.name), self.first.ms)];
        for m in &self.mallocs {
            f.push((format!("cudaMalloc {} B first, ms", m.bytes), m.first_ms));
            f.push((format!("cudaMalloc {} B second, ms", m.bytes), m.second_ms));
            f.push((format!("cudaMalloc {} B tenth, ms", m.bytes), m.tenth_ms));
        }
        for k in &self.kernels {
            let name = format!("{} {} threads", k.kernel, k.threads);
            f.push((format!("{name} host #0, ms"), k.host_ms[0]));
            f.push((format!("{name} host #1, ms"), k.host_ms[1]));
            f.push((format!("{name} events #0, ms"), k.events_ms[0]));
            f.push((format!("{name} events #1, ms"), k.events_ms[1]));
            f.push((format!("{name} warm, ms"), k.warm_ms));
        }
        // Every call of the loop without a sync: the post's claim about it
        // reads each one.
        for (call, ms) in self.no_sync_host_ms.iter().enumerate() {
            f.push((format!("without sync, host #{call}, ms"), *ms));
        }
        for (label, ms) in [
            ("with sync, host", &self.sync_host_ms),
            ("with sync, events", &self.sync_events_ms),
        ] {
            f.push((format!("{label} #1, ms"), ms[1]));
        }
        if let Some(run) = &self.malloc_run {
            f.extend(run.figures());
        }
        f
    }

    /// No chart: the lesson's figures are single calls, which the closing
    /// table sets beside the post's.
    fn charts(_program: &str, _runs: &[&Self], _references: &[&NoReference]) -> Vec<Chart> {
        Vec::new()
    }
}
