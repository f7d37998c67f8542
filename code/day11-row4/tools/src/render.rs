//! Day 11's report printed in the exact layout row4.cu prints, so the two
//! programs' transcripts compare line by line. Each line with numbers is a
//! template the parser reads back with.

use lesson_spec::fill;

use crate::report::{Rate, Report};

pub(crate) const SIZES: &str = "n = {} floats, {:.1} MiB per buffer, {} threads/block; L2 cache {:.1} MiB";
pub(crate) const MEANS: &str = "Times are means of {} runs after {} warm-ups.";
pub(crate) const PEAK: &str = "  {} MHz memory clock x 2 (double data rate) x {}-bit bus = {:.1} GB/s";
/// The line of the report that names the theoretical peak as missing.
pub(crate) const NO_PEAK: &str = "  not available: the device reports no memory clock or bus width";
/// A labelled rate: ms, GB/s and the share of the peak (`-` without one).
pub(crate) const RATE: &str = "  {:<44} {:9.5} {:9.1} {:7.1}%";
pub(crate) const RATE_NO_PEAK: &str = "  {:<44} {:9.5} {:9.1} {:>8}";
pub(crate) const SWEEP: &str = "{:>12} {:16.1} {:>6} {:11.5} {:9.1}";
pub(crate) const FLUSH: &str = "{:.1} MiB) before each start event";
/// The labels of the rates at full n, and of the cold-L2 rates.
pub(crate) const FULL_N: [&str; 4] = [
    "row 4: vectorAdd, 12 bytes per element",
    "cudaMemcpy device to device, 8 bytes",
    "copy kernel, float4, 8 bytes",
    "vectorAdd, float4 loads and stores",
];
pub(crate) const COLD: [&str; 2] = [
    "per-launch events, no flush",
    "per-launch events, L2 flushed before each",
];

impl Report {
    fn rate_row(&self, label: &str, r: &Rate) -> String {
        let row = match &self.peak {
            Some(p) => fill(RATE, &[&label, &r.ms, &r.gb_s, &(100.0 * r.gb_s / p.gb_s)]),
            None => fill(RATE_NO_PEAK, &[&label, &r.ms, &r.gb_s, &"-"]),
        };
        row + "\n"
    }

    /// The report as row4.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mib = (self.elems * std::mem::size_of::<f32>()) as f64 / (1024.0 * 1024.0);
        let mut out = format!("GPU: {}\n", self.gpu);
        out += &(fill(SIZES, &[&self.elems, &mib, &self.threads_per_block, &self.l2_mib]) + "\n");
        out += "Rates count bytes read plus bytes written, in GB/s (10^9 bytes/s).\n";
        out += &(fill(MEANS, &[&self.runs, &self.warmups]) + "\n\n");
        out += "The memory's theoretical peak\n";
        out += &match &self.peak {
            Some(p) => fill(PEAK, &[&p.memory_clock_mhz, &p.bus_width_bits, &p.gb_s]),
            None => NO_PEAK.to_string(),
        };
        out += &format!(
            "\n\n{:<46} {:>9} {:>9} {:>8}\n",
            "At full n", "ms", "GB/s", "of peak"
        );
        for (label, r) in FULL_N
            .iter()
            .zip([&self.row4, &self.memcpy, &self.copy, &self.add4])
        {
            out += &self.rate_row(label, r);
        }
        out += "\nRow 4 against n: while the three arrays fit in the L2\n";
        out += &format!(
            "{:>12} {:>16} {:>6} {:>11} {:>9}\n",
            "n", "3 arrays (MiB)", "in L2", "ms", "GB/s"
        );
        for s in &self.sweep {
            let in_l2 = if s.in_l2 { "yes" } else { "no" };
            out += &(fill(SWEEP, &[&s.n, &s.arrays_mib, &in_l2, &s.ms, &s.gb_s]) + "\n");
        }
        out += "\nRow 4 with a cold L2: one event pair per launch, the flush (reading\n";
        out += &(fill(FLUSH, &[&self.flush_mib]) + "\n");
        out + &self.rate_row(COLD[0], &self.each) + &self.rate_row(COLD[1], &self.cold)
    }
}
