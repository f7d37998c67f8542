//! Day 10's report printed in the exact layout blocks.cu prints, each line
//! with numbers a template (`tpl!`) that the parser reads back with, so the
//! two programs' transcripts compare line by line.

use std::fmt::Write;

use crate::report::{Report, Row, Table};

/// The report's lines that hold numbers, for `format!` and
/// [`lesson_spec::read`] alike.
macro_rules! tpl {
    (limits) => {
        "{} SMs, each holding at most {} threads and {} blocks"
    };
    (sizes) => {
        "n = {} elements; each configuration is timed {} times with timeKernel,"
    };
    (means) => {
        "each a mean of {} runs after {} warm-ups"
    };
    (fma) => {
        "fmaChains, {} chains x {} FMAs = {} flops per element (compute-bound)"
    };
    (row) => {
        "{:8} {:10} {:9.1}% {:11.5} {:7.2}% {:9.1} {:+8.1}%  {}"
    };
}

/// The line that introduces the occupancy API's row.
pub(crate) const SUGGESTION_LINE: &str =
    "the occupancy API's suggestion (cudaOccupancyMaxPotentialBlockSize):";

/// A table's column heads, `unit` the rate's.
pub(crate) fn header(unit: &str) -> String {
    format!(
        "{:>8} {:>10} {:>10} {:>11} {:>8} {:>9} {:>9}  within noise",
        "threads", "blocks/SM", "occupancy", "mean (ms)", "spread", unit, "vs best"
    )
}

fn render_table(out: &mut String, title: &str, unit: &str, table: &Table) {
    let _ = writeln!(out, "{title}\n{}", header(unit));
    let row = |r: &Row| {
        format!(
            concat!(tpl!(row), "\n"),
            r.threads,
            r.blocks_per_sm,
            r.occupancy_pct,
            r.mean_ms,
            r.spread_pct,
            r.rate,
            r.vs_best_pct,
            r.noise.word()
        )
    };
    table.rows.iter().for_each(|r| *out += &row(r));
    let _ = writeln!(out, "{SUGGESTION_LINE}\n{}", row(&table.suggested));
}

impl Report {
    /// The report as blocks.cu prints it to stdout.
    pub fn render(&self) -> String {
        let (c, flops) = (self, self.fma_flops_per_element());
        let mut out = format!("GPU: {}\n", c.gpu);
        let _ = writeln!(
            out,
            tpl!(limits),
            c.sms, c.max_threads_per_sm, c.max_blocks_per_sm
        );
        let _ = writeln!(out, tpl!(sizes), c.elems, c.repeats);
        let _ = writeln!(out, concat!(tpl!(means), "\n"), c.runs, c.warmups);
        render_table(
            &mut out,
            "vectorAdd, 12 bytes per element (memory-bound)",
            "GB/s",
            &c.vector_add,
        );
        let title = format!(tpl!(fma), c.fma_chains, c.fma_steps, flops);
        render_table(&mut out, &title, "GFLOP/s", &c.fma);
        let _ = writeln!(
            out,
            "spread is max/min - 1 of the {} timings. A configuration is within\n\
             noise of the best when its difference from the best is smaller than\n\
             the larger of the two spreads: a difference smaller than the spread\n\
             is no difference.",
            c.repeats
        );
        out
    }
}
