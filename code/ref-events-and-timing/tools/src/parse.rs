//! The report read back from either program's output, with the templates
//! it is printed with (`render.rs`); errors name the line.

use lesson_spec::{labelled, Cursor, Fields, Lines, ParseFailure};

use crate::parts::{
    Case, Inside, Launch, LaunchRow, Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8, Spread, Wait,
};
use crate::render::*;
use crate::report::Report;

type Parsed<T> = Result<T, ParseFailure>;

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Parsed<Report> {
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

// Each part's struct is filled as its lines are read: a struct's fields are
// evaluated in the order they are written.

/// A row whose first field must be `name`.
fn named<'a>(c: &mut Cursor<'a, '_>, template: &str, name: &str) -> Parsed<Fields<'a>> {
    let f = c.read(template)?;
    match f.text(0) == name {
        true => Ok(f),
        false => Err(ParseFailure::at(
            f.line,
            format!("expected the {name} row, got {:?}", f.text(0)),
        )),
    }
}

fn part1(c: &mut Cursor) -> Parsed<Part1> {
    c.expect("Part 1: a launch returns once it is queued")?;
    let reps = c.read(P1_REPS)?.num(0)?;
    c.expect("kernel ms")?;
    let rows = c.rows(P1_ROW, "verdict: ", |f| {
        Ok(LaunchRow {
            kernel_ms: f.num(0)?,
            launch_us: f.num(1)?,
            sync_us: f.num(2)?,
        })
    })?;
    Ok(Part1 { reps, rows })
}

fn part2(c: &mut Cursor) -> Parsed<Part2> {
    let kernel_ms = c.read(P2)?.num(0)?;
    let reps = c.read(P2_REPS)?.num(0)?;
    c.expect("events: all pairs queued back to back")?;
    let mut spread = |name: &str| -> Parsed<Spread> {
        let f = named(c, P2_ROW, name)?;
        Ok(Spread {
            median_ms: f.num(1)?,
            iqr_ms: f.num(2)?,
        })
    };
    let (events, events_sync, host) = (spread("events")?, spread("events+sync")?, spread("host+sync")?);
    c.expect("verdict: ")?;
    Ok(Part2 {
        kernel_ms,
        reps,
        events,
        events_sync,
        host,
    })
}

fn part3(c: &mut Cursor) -> Parsed<Part3> {
    let kernel_ms = c.read(P3)?.num(0)?;
    let reps = c.read(P3_REPS)?.num(0)?;
    // Newer programs print a sixth column, `after calls us`.
    let (_, header) = c.expect("     mode")?;
    let six = header.ends_with("after calls us");
    let row = P3_ROW.to_string() + if six { "  {}" } else { "" };
    let mut wait = |name: &str| -> Parsed<Wait> {
        let f = named(c, &row, name)?;
        Ok(Wait {
            wait_ms: f.num(1)?,
            cpu_ms: f.num(2)?,
            latency_us: f.num(4)?,
            after_calls_us: six.then(|| f.num(5)).transpose()?,
        })
    };
    let (spin, blocking) = (wait("spin")?, wait("blocking")?);
    for line in ["blocking wakes ", "verdict, CPU: ", "verdict, wake-up: "] {
        c.expect(line)?;
    }
    Ok(Part3 {
        kernel_ms,
        reps,
        spin,
        blocking,
    })
}

fn part4(c: &mut Cursor) -> Parsed<Part4> {
    c.expect("Part 4: cudaEventDisableTiming")?;
    // A row's cost, its label and what it is per read as literals.
    let us = |c: &mut Cursor, label: &str, per: &str| -> Parsed<f64> {
        c.read(&labelled(&P4_ROW.replacen("{}", per, 1), label))?.num(0)
    };
    let host = c.read(P4_HOST)?;
    let part = Part4 {
        rounds: host.num(0)?,
        ops: host.num(1)?,
        host_timing_us: us(c, "timing event", "pair")?,
        host_disabled_us: us(c, "DisableTiming", "pair")?,
        chain: c.read(P4_CHAIN)?.num(0)?,
        chain_none_us: us(c, "no events", "link")?,
        chain_timing_us: us(c, "timing events", "link")?,
        chain_disabled_us: us(c, "DisableTiming", "link")?,
    };
    c.expect("verdict: ")?;
    Ok(part)
}

fn part5(c: &mut Cursor) -> Parsed<Part5> {
    let part = Part5 {
        producer_ms: c.read(P5)?.num(0)?,
        reps: c.read(P5_REPS)?.num(0)?,
        // "all six calls" until the count was corrected to seven.
        issue_ms: c.read(P5_ISSUE)?.num(1)?,
        gap_ms: c.read(P5_GAP)?.num(0)?,
    };
    c.expect("verdict: ")?;
    Ok(part)
}

fn part6(c: &mut Cursor) -> Parsed<Part6> {
    let case = |c: &mut Cursor, name: &str| -> Parsed<Case> {
        let f = c.read(&labelled(P6_ROW, name))?;
        Ok(Case {
            extra_ms: f.num(0)?,
            interval_ms: f.num(1)?,
        })
    };
    let head = c.read(P6)?;
    let part = Part6 {
        kernel_ms: head.num(0)?,
        reps: head.num(1)?,
        queued: case(c, "queued ahead of start")?,
        delayed: case(c, "host delay after start")?,
        competing: case(c, "other stream competing")?,
    };
    c.expect("verdict, queued ahead: ")?;
    c.expect("verdict, idle and competing: ")?;
    Ok(part)
}

fn part7(c: &mut Cursor) -> Parsed<Part7> {
    let head = c.read(P7)?;
    let count: usize = head.num(0)?;
    let idle_mhz = c.read(P7_MHZ)?.num(0)?;
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
    let mut launches = Vec::with_capacity(count);
    for i in 1..=count {
        let f = named(c, [P7_ROW, P7_INSIDE_ROW][usize::from(inside)], &i.to_string())?;
        launches.push(Launch {
            ms: f.num(1)?,
            mhz: f.num(if inside { 4 } else { 2 })?,
            inside: match inside {
                true => Some(Inside {
                    kernel_ms: f.num(2)?,
                    call_us: f.num(3)?,
                }),
                false => None,
            },
        });
    }
    for line in [
        "first ",
        "SM clock: first ",
        "verdict, slower: ",
        "verdict, clock: ",
    ] {
        c.expect(line)?;
    }
    Ok(Part7 {
        cycles: head.num(1)?,
        idle_ms: head.num(2)?,
        idle_mhz,
        launches,
    })
}

fn part8(c: &mut Cursor) -> Parsed<Part8> {
    let part = Part8 {
        cycles: c.read(P8)?.num(0)?,
        page_ms: c.read(&format!("{P8_PAGE}  {{}} ms per launch"))?.num(1)?,
        time_kernel_ms: c.read(&format!("{P8_TIME_KERNEL}  {{}} ms per launch"))?.num(2)?,
    };
    c.expect("timeKernel / page: ")?;
    c.expect("verdict: ")?;
    Ok(part)
}
