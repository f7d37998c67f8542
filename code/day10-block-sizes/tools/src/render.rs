//! Day 10's report printed in the exact layout blocks.cu prints, so the
//! two programs' transcripts compare line by line.

use std::fmt::Write;

use crate::report::{Report, Row, Table};

/// The line that introduces the occupancy API's row.
pub(crate) const SUGGESTION_LINE: &str =
    "the occupancy API's suggestion (cudaOccupancyMaxPotentialBlockSize):";

fn render_table(out: &mut String, title: &str, unit: &str, table: &Table) {
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{:>8} {:>10} {:>10} {:>11} {:>8} {:>9} {:>9}  within noise",
        "threads", "blocks/SM", "occupancy", "mean (ms)", "spread", unit, "vs best"
    );
    let row = |out: &mut String, r: &Row| {
        let _ = writeln!(
            out,
            "{:8} {:10} {:9.1}% {:11.5} {:7.2}% {:9.1} {:+8.1}%  {}",
            r.threads,
            r.blocks_per_sm,
            r.occupancy_pct,
            r.mean_ms,
            r.spread_pct,
            r.rate,
            r.vs_best_pct,
            r.noise.word()
        );
    };
    for r in &table.rows {
        row(out, r);
    }
    let _ = writeln!(out, "{SUGGESTION_LINE}");
    row(out, &table.suggested);
    out.push('\n');
}

impl Report {
    /// The report as blocks.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "GPU: {}", self.gpu);
        let _ = writeln!(
            out,
            "{} SMs, each holding at most {} threads and {} blocks",
            self.sms, self.max_threads_per_sm, self.max_blocks_per_sm
        );
        let _ = writeln!(
            out,
            "n = {} elements; each configuration is timed {} times with timeKernel,\n\
             each a mean of {} runs after {} warm-ups\n",
            self.elems, self.repeats, self.runs, self.warmups
        );
        render_table(
            &mut out,
            "vectorAdd, 12 bytes per element (memory-bound)",
            "GB/s",
            &self.vector_add,
        );
        let title = format!(
            "fmaChains, {} chains x {} FMAs = {} flops per element (compute-bound)",
            self.fma_chains,
            self.fma_steps,
            self.fma_flops_per_element()
        );
        render_table(&mut out, &title, "GFLOP/s", &self.fma);
        let _ = writeln!(
            out,
            "spread is max/min - 1 of the {} timings. A configuration is within\n\
             noise of the best when its difference from the best is smaller than\n\
             the larger of the two spreads: a difference smaller than the spread\n\
             is no difference.",
            self.repeats
        );
        out
    }
}
