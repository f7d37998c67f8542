//! The report in the exact layout warmup.cu prints, so the two programs'
//! transcripts compare line by line. The Rust twin measures everything, then
//! prints it with [`Report::render`]. Each row with numbers is a template
//! the parser reads back with.

use lesson_spec::fill;

use crate::report::{over_percent, KernelRows, Report, CALLS};

pub(crate) const MALLOC_ROW: &str = "{:>10}  {:10.4}  {:10.4}  {:10.4}  {:11.2}x";
/// A Part 3 row: kernel, threads, clock, then one of `CALLS`.
pub(crate) const KERNEL: &str = "{:<7} {:>7} {:>6}";
pub(crate) const CALL: &str = " {:10.4}";
pub(crate) const OVER: &str = " {:>+10.1}%";
pub(crate) const PART5: &str = "Part 5: {} more cudaMallocs of {} bytes, call and synchronise, host clock, \
                                and the address each returned";
pub(crate) const BEFORE: &str = "before them: Part 2's first at {}, Part 3's array (the last) at {}";
/// Part 4's loops, as their rows are labelled.
pub(crate) const LOOPS: [&str; 4] = [
    "without sync, host",
    "without sync, events",
    "with sync, host",
    "with sync, events",
];
pub(crate) const PART3: &str = "Part 3: the post's kernels, N = {} floats, {} calls each";
pub(crate) const PART3_KEY: &str = "host = host clock around launch and synchronise (the post's method), \
                                    events = CUDA events around the launch (the course's), \
                                    warm = events, mean of {} after {} warm-ups";
pub(crate) const PART4: &str =
    "Part 4: the missing synchronise, complex kernel, {} threads per block, {} calls each";
pub(crate) const RUN_CALL: &str = "{:5}  {:10.4}  {:>18}  {:>+14}";

/// What warmup.cu's first call is (its firstCallText), by `--first` name,
/// for `device`; the cudaMalloc is of `malloc_bytes`, kMallocBytes[0].
pub fn first_call_text(first: &str, device: usize, malloc_bytes: usize) -> String {
    match first {
        "set-device" => format!("cudaSetDevice({device})"),
        "malloc" => format!("cudaMalloc({malloc_bytes} bytes)"),
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
    ms.iter().map(|m| fill(CALL, &[m])).collect()
}

fn kernel_rows(k: &KernelRows) -> String {
    let mut out = String::new();
    for (clock, ms) in [("host", &k.host_ms), ("events", &k.events_ms)] {
        out += &fill(KERNEL, &[&k.kernel, &k.threads, &clock]);
        out += &(calls_text(ms) + &fill(OVER, &[&over_percent(ms)]) + "\n");
    }
    out + &fill(KERNEL, &[&k.kernel, &k.threads, &"warm"]) + &fill(CALL, &[&k.warm_ms]) + "\n"
}

impl Report {
    /// The whole report, as warmup.cu prints it.
    pub fn render(&self) -> String {
        let (f, heads) = (
            &self.first,
            ["bytes", "first ms", "second ms", "tenth ms", "first/second"],
        );
        let mut out = format!(
            "Warm-up, re-run: the first-call post's experiment on this GPU\nGPU: {}\nGPUs visible: {}, {}, {}\n",
            self.gpu,
            self.visible_gpus,
            env_text("CUDA_VISIBLE_DEVICES", &self.visible_devices),
            env_text("CUDA_MODULE_LOADING", &self.module_loading)
        );
        out += "\nPart 1: the first CUDA call of the process, then a synchronise, host clock\n";
        out += &format!("first call: {:<10}  {:<24} {:10.3} ms\n", f.name, f.call, f.ms);
        out += "\nPart 2: cudaMalloc with the context made, call and synchronise, host clock\n";
        out += &format!(
            "{:>10}  {:>10}  {:>10}  {:>10}  {:>12}\n",
            heads[0], heads[1], heads[2], heads[3], heads[4]
        );
        for m in &self.mallocs {
            let ratio = m.first_ms / m.second_ms;
            out += &(fill(
                MALLOC_ROW,
                &[&m.bytes, &m.first_ms, &m.second_ms, &m.tenth_ms, &ratio],
            ) + "\n");
        }
        let setup = &self.setup;
        out += &format!(
            "\n{}\n{}\n{:<7} {:>7} {:>6} {:>10} {:>10} {:>10} {:>10} {:>11}\n",
            fill(PART3, &[&setup.elems, &CALLS]),
            fill(PART3_KEY, &[&setup.timed_runs, &setup.warmup_runs]),
            "kernel",
            "threads",
            "clock",
            "#0 ms",
            "#1 ms",
            "#2 ms",
            "#3 ms",
            "#0 over #1"
        );
        self.kernels.iter().for_each(|k| out += &kernel_rows(k));
        out += &format!(
            "\n{}\n{:<22} {:>10} {:>10} {:>10} {:>10}\n",
            fill(PART4, &[&setup.part4_threads, &CALLS]),
            "loop",
            "#0 ms",
            "#1 ms",
            "#2 ms",
            "#3 ms"
        );
        let loops = [
            &self.no_sync_host_ms,
            &self.no_sync_events_ms,
            &self.sync_host_ms,
            &self.sync_events_ms,
        ];
        for (label, ms) in LOOPS.iter().zip(loops) {
            out += &format!("{label:<22}{}\n", calls_text(ms));
        }
        self.render_part_5(&mut out);
        out += "\nThen and now: the post's figures and this run's\n";
        out += &format!("{:<44} {:>12} {:>12}\n", "figure", "then", "now");
        for (label, then, now) in self.then_and_now() {
            out += &format!("{label:<44} {then:12.3} {now:12.3}\n");
        }
        out
    }

    /// Part 5, which transcripts from before it existed do not have.
    fn render_part_5(&self, out: &mut String) {
        let Some(run) = &self.malloc_run else {
            return;
        };
        let (first, before) = (format!("{:#x}", run.part2_first), format!("{:#x}", run.before));
        *out += &format!(
            "\n{}\n{}\n",
            fill(PART5, &[&run.calls.len(), &run.bytes]),
            fill(BEFORE, &[&first, &before])
        );
        *out += &format!(
            "{:>5}  {:>10}  {:>18}  {:>14}\n",
            "call", "ms", "address", "from previous"
        );
        for (i, (call, step)) in run.calls.iter().zip(run.steps()).enumerate() {
            let address = format!("{:#x}", call.address);
            *out += &(fill(RUN_CALL, &[&(i + 1), &call.ms, &address, &step]) + "\n");
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
                self.then.first_call_ms,
                self.first.ms,
            ),
            (
                "first cudaMalloc over second, x".into(),
                self.then.malloc_ratio,
                first_malloc.map_or(f64::NAN, |m| m.first_ms / m.second_ms),
            ),
            (
                "simple kernel #0 over #1, %".into(),
                self.then.simple_over_percent,
                pct("simple"),
            ),
            (
                "complex kernel #0 over #1, %".into(),
                self.then.complex_over_percent,
                pct("complex"),
            ),
            (
                "host clock without sync, largest of 4, ms".into(),
                self.then.no_sync_max_ms,
                self.no_sync_host_ms.iter().copied().fold(0.0, f64::max),
            ),
            (
                "host clock with sync, complex #0, ms".into(),
                self.then.sync_first_ms,
                self.sync_host_ms[0],
            ),
        ]
    }
}
