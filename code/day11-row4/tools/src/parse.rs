//! Day 11's report read back from either program's output, or from a run
//! under Nsight Compute: ncu's own lines (`==PROF==`, `==WARNING==`) are
//! skipped, and its CSV rows after the report are read by [`crate::ncu`].

use lesson_spec::{number, quoted, Cursor, Lines, ParseFailure};

use crate::ncu;
use crate::render::NO_PEAK;
use crate::report::{Peak, Rate, Report, SweepRow};

/// The labelled rows at full n, in print order.
const FULL_N: [&str; 4] = [
    "  row 4: vectorAdd, 12 bytes per element",
    "  cudaMemcpy device to device, 8 bytes",
    "  copy kernel, float4, 8 bytes",
    "  vectorAdd, float4 loads and stores",
];

/// The cold-L2 rows.
const COLD: [&str; 2] = [
    "  per-launch events, no flush",
    "  per-launch events, L2 flushed before each",
];

/// Reads the report; errors name the line.
pub fn parse(all: &Lines<'_>) -> Result<Report, ParseFailure> {
    // A profiler's lines are not the program's.
    let lines: Vec<(usize, &str)> = all
        .iter()
        .copied()
        .filter(|(_, l)| !l.starts_with("=="))
        .collect();
    let csv_at = lines.iter().position(|(_, l)| l.starts_with(ncu::HEADER_START));
    let (report_lines, csv) = match csv_at {
        Some(i) => (&lines[..i], Some(&lines[i..])),
        None => (&lines[..], None),
    };
    let mut c = Cursor::new(report_lines);
    let (_, gpu) = c.expect("GPU: ")?;
    let (n, sizes) = c.expect("n = ")?;
    let elems: usize = number(n, sizes.split(' ').next().unwrap_or(""), "n")?;
    let field = |suffix: &str| {
        sizes
            .split([',', ';'])
            .map(str::trim)
            .find_map(|part| part.strip_suffix(suffix))
            .ok_or_else(|| ParseFailure::at(n, format!("expected `..., <count>{suffix}`")))
    };
    let threads_per_block: u32 = number(n, field(" threads/block")?, "threads per block")?;
    let l2 = sizes
        .rsplit_once("; L2 cache ")
        .and_then(|(_, rest)| rest.strip_suffix(" MiB"))
        .ok_or_else(|| ParseFailure::at(n, "expected `...; L2 cache <size> MiB`".to_string()))?;
    let l2_mib = number(n, l2, "L2 cache")?;
    c.expect("Rates count bytes read plus bytes written")?;
    let (n, means) = c.expect("Times are means of ")?;
    let mut words = means.split_whitespace();
    let runs = number(n, words.next().unwrap_or(""), "runs")?;
    let warmups = number(n, words.nth(2).unwrap_or(""), "warm-ups")?;

    c.expect("The memory's theoretical peak")?;
    let (n, line) = c.next("the peak's line")?;
    let peak = if line == NO_PEAK {
        None
    } else {
        Some(peak_line(n, line)?)
    };

    c.expect("At full n")?;
    let mut full = [Rate { ms: 0.0, gb_s: 0.0 }; 4];
    for (r, label) in full.iter_mut().zip(FULL_N) {
        *r = rate_row(&mut c, label)?;
    }
    c.expect("Row 4 against n: while the three arrays fit in the L2")?;
    c.expect("           n   3 arrays (MiB)")?;
    let mut sweep = Vec::new();
    loop {
        let (n, line) = c.next("the cold-L2 rows")?;
        if line.starts_with("Row 4 with a cold L2") {
            break;
        }
        sweep.push(sweep_row(n, line)?);
    }
    if sweep.is_empty() {
        return Err(ParseFailure::at(
            report_lines.last().map_or(1, |l| l.0),
            "the sweep has no rows",
        ));
    }
    let (n, flush) = c.next("the flush's size")?;
    let flush_mib = number(
        n,
        flush
            .strip_suffix(" MiB) before each start event")
            .ok_or_else(|| {
                ParseFailure::at(
                    n,
                    format!(
                        "expected `<size> MiB) before each start event`, got {}",
                        quoted(flush)
                    ),
                )
            })?,
        "flush size",
    )?;
    let each = rate_row(&mut c, COLD[0])?;
    let cold = rate_row(&mut c, COLD[1])?;
    if let Ok((n, extra)) = c.next("") {
        return Err(ParseFailure::at(
            n,
            format!("unexpected line after the report: {}", quoted(extra)),
        ));
    }
    let ncu = match csv {
        Some(csv) => {
            let full_grid = elems.div_ceil(threads_per_block as usize) as u64;
            Some(ncu::parse(csv[0], &csv[1..], full_grid)?)
        }
        None => None,
    };
    Ok(Report {
        gpu: gpu.to_string(),
        elems,
        threads_per_block,
        l2_mib,
        runs,
        warmups,
        peak,
        row4: full[0],
        memcpy: full[1],
        copy: full[2],
        add4: full[3],
        sweep,
        flush_mib,
        each,
        cold,
        ncu,
    })
}

/// `  3201 MHz memory clock x 2 (double data rate) x 6144-bit bus = 4917.2 GB/s`.
fn peak_line(n: usize, line: &str) -> Result<Peak, ParseFailure> {
    let bad = || {
        ParseFailure::at(
            n,
            format!(
                "expected the peak's arithmetic or `not available`, got {}",
                quoted(line)
            ),
        )
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != 15 || words[1] != "MHz" || words[14] != "GB/s" {
        return Err(bad());
    }
    let bus = words[10].strip_suffix("-bit").ok_or_else(bad)?;
    Ok(Peak {
        memory_clock_mhz: number(n, words[0], "memory clock")?,
        bus_width_bits: number(n, bus, "bus width")?,
        gb_s: number(n, words[13], "peak")?,
    })
}

/// A labelled row: `label  ms  GB/s  of-peak` (the last `-` without a
/// peak; it is derived, so it is read only as present).
fn rate_row(c: &mut Cursor<'_, '_>, label: &str) -> Result<Rate, ParseFailure> {
    let (n, rest) = c.expect(label)?;
    let cells: Vec<&str> = rest.split_whitespace().collect();
    if cells.len() != 3 {
        return Err(ParseFailure::at(
            n,
            format!(
                "{}: expected ms, GB/s and of peak, got {}",
                label.trim(),
                quoted(rest)
            ),
        ));
    }
    Ok(Rate {
        ms: number(n, cells[0], label.trim())?,
        gb_s: number(n, cells[1], label.trim())?,
    })
}

/// `n  arrays-MiB  yes|no  ms  GB/s`.
fn sweep_row(n: usize, line: &str) -> Result<SweepRow, ParseFailure> {
    let cells: Vec<&str> = line.split_whitespace().collect();
    if cells.len() != 5 {
        return Err(ParseFailure::at(
            n,
            format!("a sweep row has 5 cells, got {}", quoted(line)),
        ));
    }
    let in_l2 = match cells[2] {
        "yes" => true,
        "no" => false,
        other => {
            return Err(ParseFailure::at(
                n,
                format!("in L2: expected yes or no, got {}", quoted(other)),
            ))
        }
    };
    Ok(SweepRow {
        n: number(n, cells[0], "sweep n")?,
        arrays_mib: number(n, cells[1], "sweep arrays")?,
        in_l2,
        ms: number(n, cells[3], "sweep ms")?,
        gb_s: number(n, cells[4], "sweep GB/s")?,
    })
}
