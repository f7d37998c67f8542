//! Day 10's report read back from either program's output, with the
//! templates it is printed with (`render.rs`).

use lesson_spec::{quoted, Cursor, Lines, ParseFailure};

use crate::render::{header, FMA, LIMITS, MEANS, ROW, SIZES, SUGGESTION_LINE};
use crate::report::{Noise, Report, Row, Table};

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let gpu = c.expect("GPU: ")?.1.to_string();
    let limits = c.read(LIMITS)?;
    let sizes = c.read(SIZES)?;
    let means = c.read(MEANS)?;
    c.expect("vectorAdd, 12 bytes per element (memory-bound)")?;
    let vector_add = table(&mut c, "GB/s")?;
    let fma_title = c.read(FMA)?;
    let fma = table(&mut c, "GFLOP/s")?;
    for closing in [
        "spread is max/min - 1 of the ",
        "noise of the best",
        "the larger of the two spreads",
        "is no difference.",
    ] {
        c.expect(closing)?;
    }
    Ok(Report {
        gpu,
        sms: limits.num(0)?,
        max_threads_per_sm: limits.num(1)?,
        max_blocks_per_sm: limits.num(2)?,
        elems: sizes.num(0)?,
        repeats: sizes.num(1)?,
        runs: means.num(0)?,
        warmups: means.num(1)?,
        vector_add,
        fma_chains: fma_title.num(0)?,
        fma_steps: fma_title.num(1)?,
        fma,
    })
}

/// A table's header, its rows up to the suggestion line, and the
/// suggestion's row.
fn table(c: &mut Cursor<'_, '_>, unit: &str) -> Result<Table, ParseFailure> {
    c.expect(&header(unit))?;
    let rows = c.rows(ROW, SUGGESTION_LINE, row)?;
    Ok(Table {
        rows,
        suggested: row(&c.read(ROW)?)?,
    })
}

fn row(f: &lesson_spec::Fields<'_>) -> Result<Row, ParseFailure> {
    let word = f.text(7);
    let Some(noise) = [Noise::Best, Noise::Within, Noise::Outside]
        .into_iter()
        .find(|n| n.word() == word)
    else {
        let message = format!("within noise: expected best, yes or no, got {}", quoted(word));
        return Err(ParseFailure::at(f.line, message));
    };
    Ok(Row {
        threads: f.num(0)?,
        blocks_per_sm: f.num(1)?,
        occupancy_pct: f.num(2)?,
        mean_ms: f.num(3)?,
        spread_pct: f.num(4)?,
        rate: f.num(5)?,
        vs_best_pct: f.num(6)?,
        noise,
    })
}
