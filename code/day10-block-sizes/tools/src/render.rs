//! Day 10's report printed in the exact layout blocks.cu prints, each line
//! with numbers a template that the parser reads back with, so the two
//! programs' transcripts compare line by line.

use lesson_spec::fill;

use crate::report::{Report, Row, Table};

pub(crate) const LIMITS: &str = "{} SMs, each holding at most {} threads and {} blocks";
pub(crate) const SIZES: &str = "n = {} elements; each configuration is timed {} times with timeKernel,";
pub(crate) const MEANS: &str = "each a mean of {} runs after {} warm-ups";
pub(crate) const FMA: &str = "fmaChains, {} chains x {} FMAs = {} flops per element (compute-bound)";
const HEADER: &str = "{:>8} {:>10} {:>10} {:>11} {:>8} {:>9} {:>9}  within noise";
pub(crate) const ROW: &str = "{:8} {:10} {:9.1}% {:11.5} {:7.2}% {:9.1} {:+8.1}%  {}";
/// The line that introduces the occupancy API's row.
pub(crate) const SUGGESTION_LINE: &str =
    "the occupancy API's suggestion (cudaOccupancyMaxPotentialBlockSize):";

/// A table's column heads, `unit` the rate's.
pub(crate) fn header(unit: &str) -> String {
    let heads = [
        "threads",
        "blocks/SM",
        "occupancy",
        "mean (ms)",
        "spread",
        unit,
        "vs best",
    ];
    fill(HEADER, &heads.each_ref().map(|h| h as _))
}

fn render_table(out: &mut String, title: &str, unit: &str, table: &Table) {
    let row = |r: &Row| {
        let (noise, vs_best) = (r.noise.word(), r.vs_best_pct);
        let (occupancy, mean, spread) = (r.occupancy_pct, r.mean_ms, r.spread_pct);
        fill(
            ROW,
            &[
                &r.threads,
                &r.blocks_per_sm,
                &occupancy,
                &mean,
                &spread,
                &r.rate,
                &vs_best,
                &noise,
            ],
        ) + "\n"
    };
    *out += &format!("{title}\n{}\n", header(unit));
    table.rows.iter().for_each(|r| *out += &row(r));
    *out += &format!("{SUGGESTION_LINE}\n{}\n", row(&table.suggested));
}

impl Report {
    /// The report as blocks.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mut out = [
            format!("GPU: {}", self.gpu),
            fill(
                LIMITS,
                &[&self.sms, &self.max_threads_per_sm, &self.max_blocks_per_sm],
            ),
            fill(SIZES, &[&self.elems, &self.repeats]),
            fill(MEANS, &[&self.runs, &self.warmups]),
            "\n".into(),
        ]
        .join("\n");
        render_table(
            &mut out,
            "vectorAdd, 12 bytes per element (memory-bound)",
            "GB/s",
            &self.vector_add,
        );
        let flops = self.fma_flops_per_element();
        let title = fill(FMA, &[&self.fma_chains, &self.fma_steps, &flops]);
        render_table(&mut out, &title, "GFLOP/s", &self.fma);
        out + &format!(
            "spread is max/min - 1 of the {} timings. A configuration is within\n\
             noise of the best when its difference from the best is smaller than\n\
             the larger of the two spreads: a difference smaller than the spread\n\
             is no difference.\n",
            self.repeats
        )
    }
}
