//! The report in the exact layout warmup.cu prints, so the two programs'
//! transcripts compare line by line. The Rust twin measures everything, then
//! prints it with [`Report::render`].

use std::fmt::Write;

use crate::report::{over_percent, KernelRows, Report, CALLS};
use crate::then;

/// What warmup.cu's first call is, by `--first` name, for `device`.
pub fn first_call_text(first: &str, device: usize) -> String {
    match first {
        "set-device" => format!("cudaSetDevice({device})"),
        "malloc" => "cudaMalloc(40000 bytes)".into(),
        _ => "emptyKernel<<<1, 1>>>".into(),
    }
}

fn env_text(name: &str, value: &Option<String>) -> String {
    match value {
        Some(v) => format!("{name}={v}"),
        None => format!("{name} unset"),
    }
}

fn calls_text(ms: &[f64; CALLS]) -> String {
    ms.iter().map(|m| format!(" {m:10.4}")).collect()
}

fn kernel_rows(out: &mut String, k: &KernelRows) {
    for (clock, ms) in [("host", &k.host_ms), ("events", &k.events_ms)] {
        let _ = writeln!(
            out,
            "{:<7} {:>7} {clock:>6}{} {:>+10.1}%",
            k.kernel,
            k.threads,
            calls_text(ms),
            over_percent(ms)
        );
    }
    let _ = writeln!(
        out,
        "{:<7} {:>7} {:>6} {:10.4}",
        k.kernel, k.threads, "warm", k.warm_ms
    );
}

fn then_now(out: &mut String, label: &str, then: f64, now: f64) {
    let _ = writeln!(out, "{label:<44} {then:12.3} {now:12.3}");
}

impl Report {
    /// The whole report, as warmup.cu prints it.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_header(&mut out);
        self.render_parts_1_and_2(&mut out);
        self.render_part_3(&mut out);
        self.render_part_4(&mut out);
        self.render_part_5(&mut out);
        self.render_then_and_now(&mut out);
        out
    }

    fn render_header(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "Warm-up, re-run: the first-call post's experiment on this GPU"
        );
        let _ = writeln!(out, "GPU: {}", self.gpu);
        let _ = writeln!(
            out,
            "GPUs visible: {}, {}, {}",
            self.visible_gpus,
            env_text("CUDA_VISIBLE_DEVICES", &self.visible_devices),
            env_text("CUDA_MODULE_LOADING", &self.module_loading)
        );
    }

    fn render_parts_1_and_2(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nPart 1: the first CUDA call of the process, then a synchronise, host clock"
        );
        let f = &self.first;
        let _ = writeln!(out, "first call: {:<10}  {:<24} {:10.3} ms", f.name, f.call, f.ms);
        let _ = writeln!(
            out,
            "\nPart 2: cudaMalloc with the context made, call and synchronise, host clock"
        );
        let _ = writeln!(
            out,
            "{:>10}  {:>10}  {:>10}  {:>10}  {:>12}",
            "bytes", "first ms", "second ms", "tenth ms", "first/second"
        );
        for m in &self.mallocs {
            let _ = writeln!(
                out,
                "{:>10}  {:10.4}  {:10.4}  {:10.4}  {:11.2}x",
                m.bytes,
                m.first_ms,
                m.second_ms,
                m.tenth_ms,
                m.first_ms / m.second_ms
            );
        }
    }

    fn render_part_3(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nPart 3: the post's kernels, N = 10000 floats, {CALLS} calls each"
        );
        let _ = writeln!(
            out,
            "host = host clock around launch and synchronise (the post's method), \
             events = CUDA events around the launch (the course's), \
             warm = events, mean of 10 after 3 warm-ups"
        );
        let _ = writeln!(
            out,
            "{:<7} {:>7} {:>6} {:>10} {:>10} {:>10} {:>10} {:>11}",
            "kernel", "threads", "clock", "#0 ms", "#1 ms", "#2 ms", "#3 ms", "#0 over #1"
        );
        for k in &self.kernels {
            kernel_rows(out, k);
        }
    }

    fn render_part_4(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nPart 4: the missing synchronise, complex kernel, 4 threads per block, {CALLS} calls each"
        );
        let _ = writeln!(
            out,
            "{:<22} {:>10} {:>10} {:>10} {:>10}",
            "loop", "#0 ms", "#1 ms", "#2 ms", "#3 ms"
        );
        for (label, ms) in [
            ("without sync, host", &self.no_sync_host_ms),
            ("without sync, events", &self.no_sync_events_ms),
            ("with sync, host", &self.sync_host_ms),
            ("with sync, events", &self.sync_events_ms),
        ] {
            let _ = writeln!(out, "{label:<22}{}", calls_text(ms));
        }
    }

    /// Part 5, which transcripts from before it existed do not have.
    fn render_part_5(&self, out: &mut String) {
        let Some(run) = &self.malloc_run else {
            return;
        };
        let _ = writeln!(
            out,
            "\nPart 5: {} more cudaMallocs of {} bytes, call and synchronise, host clock, \
             and the address each returned",
            run.calls.len(),
            run.bytes
        );
        let _ = writeln!(
            out,
            "before them: Part 2's first at {:#x}, Part 3's array (the last) at {:#x}",
            run.part2_first, run.before
        );
        let _ = writeln!(
            out,
            "{:>5}  {:>10}  {:>18}  {:>14}",
            "call", "ms", "address", "from previous"
        );
        for (i, (call, step)) in run.calls.iter().zip(run.steps()).enumerate() {
            let _ = writeln!(
                out,
                "{:5}  {:10.4}  {:>18}  {:>+14}",
                i + 1,
                call.ms,
                format!("{:#x}", call.address),
                step
            );
        }
    }

    /// The closing note: the post's figure beside this run's, claim by claim.
    fn render_then_and_now(&self, out: &mut String) {
        let _ = writeln!(out, "\nThen and now: the post's figures and this run's");
        let _ = writeln!(out, "{:<44} {:>12} {:>12}", "figure", "then", "now");
        for (label, then, now) in self.then_and_now() {
            then_now(out, &label, then, now);
        }
    }

    /// The closing table's rows: label, the post's figure, this run's.
    pub fn then_and_now(&self) -> Vec<(String, f64, f64)> {
        let first_malloc = self.mallocs.first();
        let pct = |kernel| {
            self.kernel(kernel, 4)
                .map_or(f64::NAN, |k| over_percent(&k.host_ms))
        };
        vec![
            (
                format!("first call ({}), ms", self.first.name),
                then::first_call_ms(&self.first.name),
                self.first.ms,
            ),
            (
                "first cudaMalloc over second, x".into(),
                then::MALLOC_RATIO,
                first_malloc.map_or(f64::NAN, |m| m.first_ms / m.second_ms),
            ),
            (
                "simple kernel #0 over #1, %".into(),
                then::SIMPLE_OVER_PERCENT,
                pct("simple"),
            ),
            (
                "complex kernel #0 over #1, %".into(),
                then::COMPLEX_OVER_PERCENT,
                pct("complex"),
            ),
            (
                "host clock without sync, largest of 4, ms".into(),
                then::NO_SYNC_MAX_MS,
                self.no_sync_host_ms.iter().copied().fold(0.0, f64::max),
            ),
            (
                "host clock with sync, complex #0, ms".into(),
                then::SYNC_FIRST_MS,
                self.sync_host_ms[0],
            ),
        ]
    }
}
