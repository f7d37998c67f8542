//! The report as data, read back from either program's output.

use lesson_spec::{ms_at_end, number, Cursor, Fields, Lines, ParseFailure};

use crate::render::{
    BEFORE, CALL, KERNEL, LOOPS, MALLOC_ROW, OVER, PART3, PART3_KEY, PART4, PART5, RUN_CALL,
};
use crate::report::{FirstCall, KernelRows, MallocRow, MallocRun, Report, RunCall, Setup, Then, CALLS};

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// `template` followed by `CALLS` calls' times and then `tail`.
fn with_calls(template: &str, tail: &str) -> String {
    template.to_string() + &CALL.repeat(CALLS) + tail
}

/// The `CALLS` fields from `from` of a row as numbers.
fn calls(f: &Fields, from: usize) -> Result<[f64; CALLS], ParseFailure> {
    let mut out = [0.0; CALLS];
    for (c, slot) in out.iter_mut().enumerate() {
        *slot = f.num(from + c)?;
    }
    Ok(out)
}

/// `NAME=value` or `NAME unset` from the environment line.
fn env_value(n: usize, part: &str, name: &str) -> Result<Option<String>, ParseFailure> {
    if part == format!("{name} unset") {
        return Ok(None);
    }
    part.strip_prefix(&format!("{name}="))
        .map(|v| Some(v.to_string()))
        .ok_or_else(|| {
            ParseFailure::at(
                n,
                format!("expected {name}=value or `{name} unset`, got {part:?}"),
            )
        })
}

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    c.expect("Warm-up, re-run:")?;
    let (_, gpu) = c.expect("GPU: ")?;
    let (n, env) = c.expect("GPUs visible: ")?;
    let parts: Vec<&str> = env.split(", ").collect();
    if parts.len() != 3 {
        return Err(ParseFailure::at(
            n,
            format!("expected a count and two variables, got {env:?}"),
        ));
    }
    let visible_gpus = number(n, parts[0], "GPUs visible")?;
    let visible_devices = env_value(n, parts[1], "CUDA_VISIBLE_DEVICES")?;
    let module_loading = env_value(n, parts[2], "CUDA_MODULE_LOADING")?;

    c.expect("Part 1: ")?;
    let (n, line) = c.expect("first call: ")?;
    let w = words(line);
    if w.len() < 4 {
        return Err(ParseFailure::at(
            n,
            format!("expected a name, a call and ms, got {line:?}"),
        ));
    }
    let first = FirstCall {
        name: w[0].to_string(),
        call: w[1..w.len() - 2].join(" "),
        ms: ms_at_end(n, line, "first call")?,
    };

    c.expect("Part 2: ")?;
    c.expect("     bytes")?;
    let (mallocs, (n, heading)) = c.rows_then(MALLOC_ROW, "Part 3:", |f| {
        Ok(MallocRow {
            bytes: f.num(0)?,
            first_ms: f.num(1)?,
            second_ms: f.num(2)?,
            tenth_ms: f.num(3)?,
        })
    })?;
    let part3 = lesson_spec::read(n, PART3, heading)?;
    let key = c.read(PART3_KEY)?;
    c.expect("kernel ")?;
    let mut kernels = Vec::new();
    let part4 = loop {
        let (n, line) = c.next("Part 4")?;
        if line.starts_with("Part 4:") {
            break lesson_spec::read(n, PART4, line)?;
        }
        kernels.push(kernel_rows(
            &mut c,
            lesson_spec::read(n, &with_calls(KERNEL, OVER), line)?,
        )?);
    };
    let setup = Setup {
        elems: part3.num(0)?,
        timed_runs: key.num(0)?,
        warmup_runs: key.num(1)?,
        part4_threads: part4.num(0)?,
    };
    c.expect("loop ")?;
    let mut loop_row = |i: usize| calls(&c.read(&with_calls(LOOPS[i], ""))?, 0);
    let [no_sync_host_ms, no_sync_events_ms] = [loop_row(0)?, loop_row(1)?];
    let [sync_host_ms, sync_events_ms] = [loop_row(2)?, loop_row(3)?];
    // Part 5 is newer than the first transcripts; then the closing table,
    // of which only the post's figures are read: the run's are the ones
    // above.
    let (n, line) = c.next("Part 5 or the closing table")?;
    let malloc_run = if line.starts_with("Part 5: ") {
        let run = malloc_run(&mut c, n, line)?;
        c.expect("Then and now: ")?;
        Some(run)
    } else if line.starts_with("Then and now: ") {
        None
    } else {
        return Err(ParseFailure::at(
            n,
            format!("expected Part 5 or the closing table, got {line:?}"),
        ));
    };
    c.expect("figure ")?;
    // Each row's post figure: the second to last cell.
    let mut then = || {
        let (n, line) = c.next("a row of the closing table")?;
        let cell = line.split_whitespace().rev().nth(1).unwrap_or("");
        number(n, cell, "the post's figure in the closing table")
    };
    Ok(Report {
        gpu: gpu.to_string(),
        visible_gpus,
        visible_devices,
        module_loading,
        setup,
        first,
        mallocs,
        kernels,
        no_sync_host_ms,
        no_sync_events_ms,
        sync_host_ms,
        sync_events_ms,
        malloc_run,
        then: Then {
            first_call_ms: then()?,
            malloc_ratio: then()?,
            simple_over_percent: then()?,
            complex_over_percent: then()?,
            no_sync_max_ms: then()?,
            sync_first_ms: then()?,
        },
    })
}

/// Part 5, its heading line already read; each row's distance from the one
/// before must be what the addresses say.
fn malloc_run(c: &mut Cursor, n: usize, heading: &str) -> Result<MallocRun, ParseFailure> {
    let head = lesson_spec::read(n, PART5, heading)?;
    let before = c.read(BEFORE)?;
    let (part2_first, before) = (address(&before, 0)?, address(&before, 1)?);
    c.expect(" call")?;
    let count: usize = head.num(0)?;
    let mut calls = Vec::with_capacity(count);
    let mut previous = before;
    for i in 1..=count {
        let f = c.read(RUN_CALL)?;
        if f.text(0) != i.to_string() {
            return Err(ParseFailure::at(
                f.line,
                format!("expected call {i} of Part 5, got {:?}", f.text(0)),
            ));
        }
        let call = RunCall {
            ms: f.num(1)?,
            address: address(&f, 2)?,
        };
        let step: i64 = number(f.line, f.text(3).trim_start_matches('+'), "from previous")?;
        if step != call.address.wrapping_sub(previous) as i64 {
            let message = format!("call {i}: {step} is not the distance from {previous:#x}");
            return Err(ParseFailure::at(f.line, message));
        }
        previous = call.address;
        calls.push(call);
    }
    Ok(MallocRun {
        bytes: head.num(1)?,
        part2_first,
        before,
        calls,
    })
}

/// Field `i` of `f`, a device address as Part 5 prints it, `0x` and hex digits.
fn address(f: &Fields, i: usize) -> Result<u64, ParseFailure> {
    let text = f.text(i).trim_end_matches(',');
    text.strip_prefix("0x")
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| ParseFailure::at(f.line, format!("{text:?} is not a 0x address")))
}

/// One kernel's three rows (host, events, warm), the first already read.
fn kernel_rows(c: &mut Cursor, host: Fields) -> Result<KernelRows, ParseFailure> {
    let events = c.read(&with_calls(KERNEL, OVER))?;
    let warm = c.read(&format!("{KERNEL}{CALL}"))?;
    for (row, clock) in [(&host, "host"), (&events, "events"), (&warm, "warm")] {
        if row.text(2) != clock || row.text(0) != host.text(0) || row.text(1) != host.text(1) {
            let message = format!(
                "expected the {} {} `{clock}` row of Part 3",
                host.text(0),
                host.text(1)
            );
            return Err(ParseFailure::at(row.line, message));
        }
    }
    Ok(KernelRows {
        kernel: host.text(0).to_string(),
        threads: host.num(1)?,
        host_ms: calls(&host, 3)?,
        events_ms: calls(&events, 3)?,
        warm_ms: warm.num(3)?,
    })
}
