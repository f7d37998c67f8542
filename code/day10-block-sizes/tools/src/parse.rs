//! Day 10's report read back from either program's output.

use lesson_spec::{number, quoted, Cursor, Lines, ParseFailure};

use crate::render::SUGGESTION_LINE;
use crate::report::{Noise, Report, Row, Table};

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    let (n, limits) = c.next("the SM line")?;
    let words: Vec<&str> = limits.split_whitespace().collect();
    if words.len() != 11 || !limits.contains(" SMs, each holding at most ") {
        return Err(ParseFailure::at(
            n,
            format!(
                "expected `<n> SMs, each holding at most ...`, got {}",
                quoted(limits)
            ),
        ));
    }
    let sms = number(n, words[0], "SMs")?;
    let max_threads_per_sm = number(n, words[6], "threads per SM")?;
    let max_blocks_per_sm = number(n, words[9], "blocks per SM")?;
    let (n, sizes) = c.expect("n = ")?;
    let mut words = sizes.split_whitespace();
    let elems = number(n, words.next().unwrap_or(""), "n")?;
    let repeats = number(n, words.nth(5).unwrap_or(""), "timings per configuration")?;
    let (n, means) = c.expect("each a mean of ")?;
    let mut words = means.split_whitespace();
    let runs = number(n, words.next().unwrap_or(""), "runs")?;
    let warmups = number(n, words.nth(2).unwrap_or(""), "warm-ups")?;
    c.expect("vectorAdd, 12 bytes per element (memory-bound)")?;
    let vector_add = table(&mut c, "GB/s")?;
    let (n, title) = c.expect("fmaChains, ")?;
    let mut words = title.split_whitespace();
    let fma_chains = number(n, words.next().unwrap_or(""), "FMA chains")?;
    let fma_steps = number(n, words.nth(2).unwrap_or(""), "FMA steps")?;
    let fma = table(&mut c, "GFLOP/s")?;
    c.expect("spread is max/min - 1 of the ")?;
    c.expect("noise of the best")?;
    c.expect("the larger of the two spreads")?;
    c.expect("is no difference.")?;
    Ok(Report {
        gpu: gpu.to_string(),
        sms,
        max_threads_per_sm,
        max_blocks_per_sm,
        elems,
        repeats,
        runs,
        warmups,
        vector_add,
        fma_chains,
        fma_steps,
        fma,
    })
}

/// A table's header, its rows up to the suggestion line, and the
/// suggestion's row.
fn table(c: &mut Cursor<'_, '_>, unit: &str) -> Result<Table, ParseFailure> {
    let (n, header) = c.expect(" threads")?;
    if !header.contains(unit) {
        return Err(ParseFailure::at(
            n,
            format!("expected a {unit} column, got {}", quoted(header)),
        ));
    }
    let mut rows = Vec::new();
    loop {
        let (n, line) = c.next("the occupancy API's suggestion")?;
        if line == SUGGESTION_LINE {
            break;
        }
        rows.push(row(n, line)?);
    }
    if rows.is_empty() {
        return Err(ParseFailure::at(c.next("a row")?.0, "the table has no rows"));
    }
    let (n, line) = c.next("the suggestion's row")?;
    Ok(Table {
        rows,
        suggested: row(n, line)?,
    })
}

/// `%` at the end of a cell, removed.
fn percent<'a>(n: usize, cell: &'a str, what: &str) -> Result<&'a str, ParseFailure> {
    cell.strip_suffix('%')
        .ok_or_else(|| ParseFailure::at(n, format!("{what}: expected a percentage, got {}", quoted(cell))))
}

/// `threads blocks/SM occupancy% mean spread% rate vs-best% verdict`.
fn row(n: usize, line: &str) -> Result<Row, ParseFailure> {
    let cells: Vec<&str> = line.split_whitespace().collect();
    if cells.len() != 8 {
        return Err(ParseFailure::at(
            n,
            format!("a row has 8 cells, got {}", quoted(line)),
        ));
    }
    let noise = match cells[7] {
        "best" => Noise::Best,
        "yes" => Noise::Within,
        "no" => Noise::Outside,
        other => {
            return Err(ParseFailure::at(
                n,
                format!("within noise: expected best, yes or no, got {}", quoted(other)),
            ))
        }
    };
    Ok(Row {
        threads: number(n, cells[0], "threads")?,
        blocks_per_sm: number(n, cells[1], "blocks per SM")?,
        occupancy_pct: number(n, percent(n, cells[2], "occupancy")?, "occupancy")?,
        mean_ms: number(n, cells[3], "mean")?,
        spread_pct: number(n, percent(n, cells[4], "spread")?, "spread")?,
        rate: number(n, cells[5], "rate")?,
        vs_best_pct: number(n, percent(n, cells[6], "vs best")?, "vs best")?,
        noise,
    })
}
