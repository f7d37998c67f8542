//! Day 11's report printed in the exact layout row4.cu prints, so the two
//! programs' transcripts compare line by line.

use std::fmt::Write;

use crate::report::{Rate, Report};

/// The line of the report that names the theoretical peak as missing.
pub(crate) const NO_PEAK: &str = "  not available: the device reports no memory clock or bus width";

impl Report {
    fn rate_row(&self, out: &mut String, label: &str, r: &Rate) {
        match &self.peak {
            Some(p) => {
                let _ = writeln!(
                    out,
                    "  {label:<44} {:9.5} {:9.1} {:7.1}%",
                    r.ms,
                    r.gb_s,
                    100.0 * r.gb_s / p.gb_s
                );
            }
            None => {
                let _ = writeln!(out, "  {label:<44} {:9.5} {:9.1} {:>8}", r.ms, r.gb_s, "-");
            }
        }
    }

    /// The report as row4.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mib = (self.elems * std::mem::size_of::<f32>()) as f64 / (1024.0 * 1024.0);
        let _ = writeln!(out, "GPU: {}", self.gpu);
        let _ = writeln!(
            out,
            "n = {} floats, {mib:.1} MiB per buffer, {} threads/block; L2 cache {:.1} MiB",
            self.elems, self.threads_per_block, self.l2_mib
        );
        out.push_str("Rates count bytes read plus bytes written, in GB/s (10^9 bytes/s).\n");
        let _ = writeln!(
            out,
            "Times are means of {} runs after {} warm-ups.\n",
            self.runs, self.warmups
        );

        out.push_str("The memory's theoretical peak\n");
        match &self.peak {
            Some(p) => {
                let _ = writeln!(
                    out,
                    "  {} MHz memory clock x 2 (double data rate) x {}-bit bus = {:.1} GB/s\n",
                    p.memory_clock_mhz, p.bus_width_bits, p.gb_s
                );
            }
            None => {
                let _ = writeln!(out, "{NO_PEAK}\n");
            }
        }

        let _ = writeln!(
            out,
            "{:<46} {:>9} {:>9} {:>8}",
            "At full n", "ms", "GB/s", "of peak"
        );
        self.rate_row(&mut out, "row 4: vectorAdd, 12 bytes per element", &self.row4);
        self.rate_row(&mut out, "cudaMemcpy device to device, 8 bytes", &self.memcpy);
        self.rate_row(&mut out, "copy kernel, float4, 8 bytes", &self.copy);
        self.rate_row(&mut out, "vectorAdd, float4 loads and stores", &self.add4);
        out.push('\n');

        out.push_str("Row 4 against n: while the three arrays fit in the L2\n");
        let _ = writeln!(
            out,
            "{:>12} {:>16} {:>6} {:>11} {:>9}",
            "n", "3 arrays (MiB)", "in L2", "ms", "GB/s"
        );
        for s in &self.sweep {
            let _ = writeln!(
                out,
                "{:>12} {:16.1} {:>6} {:11.5} {:9.1}",
                s.n,
                s.arrays_mib,
                if s.in_l2 { "yes" } else { "no" },
                s.ms,
                s.gb_s
            );
        }
        out.push('\n');

        let _ = writeln!(
            out,
            "Row 4 with a cold L2: one event pair per launch, the flush (reading\n\
             {:.1} MiB) before each start event",
            self.flush_mib
        );
        self.rate_row(&mut out, "per-launch events, no flush", &self.each);
        self.rate_row(&mut out, "per-launch events, L2 flushed before each", &self.cold);
        out
    }
}
