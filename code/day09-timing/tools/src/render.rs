//! Day 9's report printed in the exact layout timing.cu prints, so the two
//! programs' transcripts compare line by line.

use std::fmt::Write;

use crate::report::Report;

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
}
