//! The report read back from either program's output; errors name the line.

use lesson_spec::{number, Cursor, Lines, ParseFailure};

use crate::parts::{
    Case, Inside, Launch, LaunchRow, Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8, Spread, Wait,
};
use crate::report::Report;

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The `index`th word of `line`, or a failure naming what was expected.
fn word<'a>(n: usize, w: &[&'a str], index: usize, what: &str) -> Result<&'a str, ParseFailure> {
    w.get(index)
        .copied()
        .ok_or_else(|| ParseFailure::at(n, format!("{what}: the line ends early")))
}

/// A number that follows `before` in `line` (the first word after it).
fn after<T: std::str::FromStr + lesson_spec::Finite>(
    n: usize,
    line: &str,
    before: &str,
    what: &str,
) -> Result<T, ParseFailure> {
    let rest = line
        .split_once(before)
        .map(|(_, r)| r)
        .ok_or_else(|| ParseFailure::at(n, format!("{what}: expected {before:?} in {line:?}")))?;
    let value = rest.split_whitespace().next().unwrap_or("");
    number(n, value.trim_end_matches(['%', 'x', ',', ':']), what)
}

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    Ok(Report {
        gpu: gpu.to_string(),
        launch: part1(&mut c)?,
        spread: part2(&mut c)?,
        wait: part3(&mut c)?,
        disable_timing: part4(&mut c)?,
        cross_stream: part5(&mut c)?,
        interval: part6(&mut c)?,
        boost: part7(&mut c)?,
        pattern: part8(&mut c)?,
    })
}

fn part1(c: &mut Cursor) -> Result<Part1, ParseFailure> {
    c.expect("Part 1: a launch returns once it is queued")?;
    let (n, line) = c.expect("host clock, median of ")?;
    let reps = after(n, line, "", "launches")?;
    c.expect("kernel ms")?;
    let mut rows = Vec::new();
    loop {
        let (n, line) = c.next("Part 1's verdict")?;
        if line.starts_with("verdict: ") {
            break;
        }
        let w = words(line);
        if w.len() != 3 {
            return Err(ParseFailure::at(
                n,
                format!("expected a Part 1 row, got {line:?}"),
            ));
        }
        rows.push(LaunchRow {
            kernel_ms: number(n, w[0], "kernel ms")?,
            launch_us: number(n, w[1], "launch us")?,
            sync_us: number(n, w[2], "launch+sync us")?,
        });
    }
    Ok(Part1 { reps, rows })
}

fn part2(c: &mut Cursor) -> Result<Part2, ParseFailure> {
    let (n, line) = c.expect("Part 2: events against a host clock plus sync, one ")?;
    let kernel_ms = after(n, line, "", "kernel ms")?;
    let (n, line) = c.next("Part 2's counts")?;
    let reps = after(n, line, "", "timings")?;
    c.expect("events: all pairs queued back to back")?;
    let mut spread = |name: &str| -> Result<Spread, ParseFailure> {
        let (n, line) = c.next(name)?;
        let w = words(line);
        if w.first() != Some(&name) || w.get(3) != Some(&"IQR") {
            return Err(ParseFailure::at(
                n,
                format!("expected the {name} row of Part 2, got {line:?}"),
            ));
        }
        Ok(Spread {
            median_ms: number(n, word(n, &w, 1, "median")?, "median ms")?,
            iqr_ms: number(n, word(n, &w, 4, "IQR")?, "IQR ms")?,
        })
    };
    let events = spread("events")?;
    let events_sync = spread("events+sync")?;
    let host = spread("host+sync")?;
    c.expect("verdict: ")?;
    Ok(Part2 {
        kernel_ms,
        reps,
        events,
        events_sync,
        host,
    })
}

fn part3(c: &mut Cursor) -> Result<Part3, ParseFailure> {
    let (n, line) = c.expect("Part 3: waiting on a ")?;
    let kernel_ms = after(n, line, "", "kernel ms")?;
    let (n, line) = c.next("Part 3's counts")?;
    let reps = after(n, line, "", "waits")?;
    // Newer programs print a sixth column, `after calls us`.
    let (_, header) = c.expect("     mode")?;
    let columns = if header.ends_with("after calls us") { 6 } else { 5 };
    let mut wait = |name: &str| -> Result<Wait, ParseFailure> {
        let (n, line) = c.next(name)?;
        let w = words(line);
        if w.len() != columns || w[0] != name {
            return Err(ParseFailure::at(
                n,
                format!("expected the {name} row of Part 3, got {line:?}"),
            ));
        }
        Ok(Wait {
            wait_ms: number(n, w[1], "wait ms")?,
            cpu_ms: number(n, w[2], "CPU ms")?,
            latency_us: number(n, w[4], "wake-up us")?,
            after_calls_us: w.get(5).map(|v| number(n, v, "after calls us")).transpose()?,
        })
    };
    let spin = wait("spin")?;
    let blocking = wait("blocking")?;
    c.expect("blocking wakes ")?;
    c.expect("verdict, CPU: ")?;
    c.expect("verdict, wake-up: ")?;
    Ok(Part3 {
        kernel_ms,
        reps,
        spin,
        blocking,
    })
}

/// A Part 4 row: `<label>  <value> us per pair|link`.
fn labelled_us(c: &mut Cursor, label: &str) -> Result<f64, ParseFailure> {
    let (n, line) = c.next(label)?;
    let rest = line
        .trim_start()
        .strip_prefix(label)
        .ok_or_else(|| ParseFailure::at(n, format!("expected the {label} row of Part 4, got {line:?}")))?;
    after(n, rest, "", label)
}

fn part4(c: &mut Cursor) -> Result<Part4, ParseFailure> {
    c.expect("Part 4: cudaEventDisableTiming")?;
    let (n, line) = c.expect("host cost of cudaEventRecord + cudaStreamWaitEvent, median of ")?;
    let rounds = number(n, line.split_whitespace().next().unwrap_or(""), "rounds")?;
    let ops = after(n, line, "rounds of", "ops")?;
    let host_timing_us = labelled_us(c, "timing event")?;
    let host_disabled_us = labelled_us(c, "DisableTiming")?;
    let (n, line) = c.expect("device cost of a chain of ")?;
    let chain = number(n, line.split_whitespace().next().unwrap_or(""), "chain length")?;
    Ok(Part4 {
        rounds,
        ops,
        chain,
        host_timing_us,
        host_disabled_us,
        chain_none_us: labelled_us(c, "no events")?,
        chain_timing_us: labelled_us(c, "timing events")?,
        chain_disabled_us: {
            let us = labelled_us(c, "DisableTiming")?;
            c.expect("verdict: ")?;
            us
        },
    })
}

fn part5(c: &mut Cursor) -> Result<Part5, ParseFailure> {
    let (n, line) = c.expect("Part 5: a ")?;
    let producer_ms = after(n, line, "", "producer ms")?;
    let (n, line) = c.next("Part 5's runs")?;
    let reps = after(n, line, "", "runs")?;
    // "all six calls" until the count was corrected to seven.
    let (n, line) = c.expect("host issued all ")?;
    let issue_ms = after(n, line, " calls in", "issue ms")?;
    let (n, line) = c.expect("consumer started ")?;
    let gap_ms = after(n, line, "", "gap ms")?;
    c.expect("verdict: ")?;
    Ok(Part5 {
        producer_ms,
        reps,
        issue_ms,
        gap_ms,
    })
}

fn part6(c: &mut Cursor) -> Result<Part6, ParseFailure> {
    let (n, line) = c.expect("Part 6: what an event interval around a ")?;
    let kernel_ms = after(n, line, "", "kernel ms")?;
    let reps = after(n, line, "median of", "reps")?;
    let mut case = |name: &str| -> Result<Case, ParseFailure> {
        let (n, line) = c.next(name)?;
        let rest = line.trim_start().strip_prefix(name).ok_or_else(|| {
            ParseFailure::at(n, format!("expected the {name:?} row of Part 6, got {line:?}"))
        })?;
        Ok(Case {
            extra_ms: after(n, rest, "", "extra ms")?,
            interval_ms: after(n, rest, "interval", "interval ms")?,
        })
    };
    let queued = case("queued ahead of start")?;
    let delayed = case("host delay after start")?;
    let competing = case("other stream competing")?;
    c.expect("verdict, queued ahead: ")?;
    c.expect("verdict, idle and competing: ")?;
    Ok(Part6 {
        kernel_ms,
        reps,
        queued,
        delayed,
        competing,
    })
}

fn part7(c: &mut Cursor) -> Result<Part7, ParseFailure> {
    let (n, line) = c.expect("Part 7: ")?;
    let count: usize = after(n, line, "", "launches")?;
    let cycles = number(
        n,
        line.split("-cycle")
            .next()
            .unwrap_or("")
            .rsplit(' ')
            .next()
            .unwrap_or(""),
        "cycles",
    )?;
    let idle_ms = after(n, line, "kernel after", "idle ms")?;
    let (n, line) = c.expect("SM clock after the idle period: ")?;
    let idle_mhz = after(n, line, "", "idle MHz")?;
    // Newer programs explain their columns on a line of its own, then print
    // the kernel's own duration and the launch call's time in each row.
    let (n, line) = c.next("Part 7's table")?;
    let inside = line.starts_with("event = ");
    if inside {
        c.expect("launch")?;
    } else if !line.starts_with("launch") {
        return Err(ParseFailure::at(
            n,
            format!("expected Part 7's table heading, got {line:?}"),
        ));
    }
    let columns = if inside { 5 } else { 3 };
    let mut launches = Vec::with_capacity(count);
    for i in 1..=count {
        let (n, line) = c.next("a Part 7 launch")?;
        let w = words(line);
        if w.len() != columns || w[0] != i.to_string() {
            return Err(ParseFailure::at(
                n,
                format!("expected launch {i} of Part 7, got {line:?}"),
            ));
        }
        launches.push(Launch {
            ms: number(n, w[1], "event ms")?,
            mhz: number(n, w[columns - 1], "SM MHz")?,
            inside: if inside {
                Some(Inside {
                    kernel_ms: number(n, w[2], "kernel ms")?,
                    call_us: number(n, w[3], "call us")?,
                })
            } else {
                None
            },
        });
    }
    c.expect("first ")?;
    c.expect("SM clock: first ")?;
    c.expect("verdict, slower: ")?;
    c.expect("verdict, clock: ")?;
    Ok(Part7 {
        cycles,
        idle_ms,
        idle_mhz,
        launches,
    })
}

fn part8(c: &mut Cursor) -> Result<Part8, ParseFailure> {
    let (n, line) = c.expect("Part 8: the page's pattern against timeKernel, the same ")?;
    let cycles = number(n, line.split('-').next().unwrap_or(""), "cycles")?;
    let mut row = |label: &str| -> Result<f64, ParseFailure> {
        let (n, line) = c.next(label)?;
        if !line.trim_start().starts_with(label) {
            return Err(ParseFailure::at(
                n,
                format!("expected the {label} row of Part 8, got {line:?}"),
            ));
        }
        after(n, line, ")", label)
    };
    let page_ms = row("page")?;
    let time_kernel_ms = row("timeKernel")?;
    c.expect("timeKernel / page: ")?;
    c.expect("verdict: ")?;
    Ok(Part8 {
        cycles,
        page_ms,
        time_kernel_ms,
    })
}
