//! Day 9's report printed in the exact layout timing.cu prints, so the two
//! programs' transcripts compare line by line. Each line with numbers is a
//! template the parser reads back with.

use lesson_spec::fill;

use crate::report::Report;

pub(crate) const GPU: &str = "GPU: {} (compute capability {}.{})";
pub(crate) const SIZES: &str = "n = {} floats, {:.1} MiB per buffer, {} threads/block, {} blocks";
pub(crate) const CONTEXT: &str = "cudaSetDevice({}), the first CUDA call in this process: {:9.3} ms";
/// `  1  label...   value ms`: a numbered row; an empty number indents.
const ROW: &str = "  {:1}  {:<40} {:10.3} ms";
pub(crate) const MEANS: &str = "Rows 4 and 5 are means of {} runs after {} warm-ups.";
pub(crate) const SWEEP: &str = "{:>12} {:12.3} {:12.3} {:14.3}";
/// Rows 1 to 5 and the CPU beside them, numbered and labelled as printed.
pub(crate) const FIVE_WAYS: [(&str, &str); 7] = [
    ("1", "wall clock, whole process"),
    ("2", "wall clock, around the launch"),
    ("", "the same clock, plus a sync"),
    ("3", "events, kernel, first launch"),
    ("4", "events, kernel, after warm-up"),
    ("5", "events, copies + kernel + copy back"),
    ("", "CPU, same n, one thread, no SIMD"),
];
pub(crate) const SECOND_KERNEL: [&str; 2] = ["vectorScale, first launch", "vectorScale, after warm-up"];

fn row(number: &str, label: &str, ms: f64) -> String {
    fill(ROW, &[&number, &label, &ms]) + "\n"
}

impl Report {
    /// The report as timing.cu prints it to stdout, in its four blocks.
    pub fn render(&self) -> String {
        let mib = (self.elems * std::mem::size_of::<f32>()) as f64 / (1024.0 * 1024.0);
        let (major, minor) = self.compute_capability;
        let mut out = fill(GPU, &[&self.gpu_name, &major, &minor]) + "\n";
        out += &(fill(SIZES, &[&self.elems, &mib, &self.threads_per_block, &self.blocks]) + "\n\n");
        out += &(fill(CONTEXT, &[&self.device, &self.context_ms]) + "\n");
        out += "No arithmetic of yours has run yet. That is the context.\n\n";
        out += "Five ways to time one vector add\n";
        for ((number, label), ms) in FIVE_WAYS.iter().zip(self.five_ways()) {
            out += &row(number, label, ms);
        }
        out += &format!("\n{}\n", fill(MEANS, &[&self.runs, &self.warmups]));
        out += "Rows 1, 2 and 3 are single measurements, because each one is about\n\
                something that happens once.\n\n";
        out += "A second kernel is cold too\n";
        out += &row("", SECOND_KERNEL[0], f64::from(self.scale_cold_ms));
        out += &row("", SECOND_KERNEL[1], f64::from(self.scale_warm_ms));
        out += "\nWhere the CPU wins\n";
        out += &format!(
            "{:>12} {:>12} {:>12} {:>14}\n",
            "n", "CPU (ms)", "kernel (ms)", "round trip (ms)"
        );
        for s in &self.sweep {
            out += &(fill(SWEEP, &[&s.n, &s.cpu_ms, &s.kernel_ms, &s.round_trip_ms]) + "\n");
        }
        out + "\nRow 4 is the kernel. Row 5 is what a user waits for. Row 1 is what\n\
               `time ./timing` prints, and it is never the answer to how fast a\n\
               kernel is.\n"
    }

    /// The values of [`FIVE_WAYS`], in its order.
    fn five_ways(&self) -> [f64; 7] {
        [
            self.whole_ms,
            self.launch_only_ms,
            self.launch_plus_sync_ms,
            f64::from(self.cold_ms),
            f64::from(self.warm_ms),
            f64::from(self.round_trip_ms),
            self.cpu_ms,
        ]
    }
}
