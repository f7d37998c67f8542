//! Day 11's report read back from either program's output, or from a run
//! under Nsight Compute: ncu's own lines (`==PROF==`, `==WARNING==`) are
//! skipped, and its CSV rows after the report are read by [`crate::ncu`].

use lesson_spec::{labelled, quoted, Cursor, Lines, ParseFailure};

use crate::ncu;
use crate::render::{COLD, FLUSH, FULL_N, MEANS, NO_PEAK, PEAK, RATE, RATE_NO_PEAK, SIZES, SWEEP};
use crate::report::{Peak, Rate, Report, SweepRow};

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
    let sizes = c.read(SIZES)?;
    let (elems, threads_per_block): (usize, u32) = (sizes.num(0)?, sizes.num(2)?);
    c.expect("Rates count bytes read plus bytes written")?;
    let means = c.read(MEANS)?;
    c.expect("The memory's theoretical peak")?;
    let (n, line) = c.next("the peak's line")?;
    let peak = match line == NO_PEAK {
        true => None,
        false => {
            let f = lesson_spec::read(n, PEAK, line)?;
            Some(Peak {
                memory_clock_mhz: f.num(0)?,
                bus_width_bits: f.num(1)?,
                gb_s: f.num(2)?,
            })
        }
    };
    c.expect("At full n")?;
    let mut full = [Rate { ms: 0.0, gb_s: 0.0 }; 4];
    for (r, label) in full.iter_mut().zip(FULL_N) {
        *r = rate_row(&mut c, label, peak.is_some())?;
    }
    c.expect("Row 4 against n: while the three arrays fit in the L2")?;
    c.expect("           n   3 arrays (MiB)")?;
    let sweep = c.rows(SWEEP, "Row 4 with a cold L2", sweep_row)?;
    let flush_mib = c.read(FLUSH)?.num(0)?;
    let each = rate_row(&mut c, COLD[0], peak.is_some())?;
    let cold = rate_row(&mut c, COLD[1], peak.is_some())?;
    if let Ok((n, extra)) = c.next("") {
        return Err(ParseFailure::at(
            n,
            format!("unexpected line after the report: {}", quoted(extra)),
        ));
    }
    let full_grid = elems.div_ceil(threads_per_block as usize) as u64;
    let ncu = csv
        .map(|csv| ncu::parse(csv[0], &csv[1..], full_grid))
        .transpose()?;
    Ok(Report {
        gpu: gpu.to_string(),
        elems,
        threads_per_block,
        l2_mib: sizes.num(3)?,
        runs: means.num(0)?,
        warmups: means.num(1)?,
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

/// A labelled row: `label  ms  GB/s  of-peak` (`-` without a peak; the
/// share is derived, so it is read only as present).
fn rate_row(c: &mut Cursor<'_, '_>, label: &str, peak: bool) -> Result<Rate, ParseFailure> {
    let f = c.read(&labelled(if peak { RATE } else { RATE_NO_PEAK }, label))?;
    Ok(Rate {
        ms: f.num(0)?,
        gb_s: f.num(1)?,
    })
}

/// `n  arrays-MiB  yes|no  ms  GB/s`.
fn sweep_row(f: &lesson_spec::Fields) -> Result<SweepRow, ParseFailure> {
    let in_l2 = match f.text(2) {
        "yes" => true,
        "no" => false,
        other => {
            let message = format!("in L2: expected yes or no, got {}", quoted(other));
            return Err(ParseFailure::at(f.line, message));
        }
    };
    Ok(SweepRow {
        n: f.num(0)?,
        arrays_mib: f.num(1)?,
        in_l2,
        ms: f.num(3)?,
        gb_s: f.num(4)?,
    })
}
