//! The report as data, read back from either program's output.

use lesson_spec::{ms_at_end, number, Cursor, Lines, ParseFailure};

use crate::report::{FirstCall, KernelRows, MallocRow, MallocRun, Report, RunCall, CALLS};

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The last `CALLS` words of a row as numbers.
fn calls(n: usize, w: &[&str], from: usize) -> Result<[f64; CALLS], ParseFailure> {
    let mut out = [0.0; CALLS];
    for (c, slot) in out.iter_mut().enumerate() {
        let word = w.get(from + c).copied().unwrap_or("");
        *slot = number(n, word, &format!("call #{c}"))?;
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
    let mut mallocs = Vec::new();
    let mut next = c.next("Part 3")?;
    while !next.1.starts_with("Part 3:") {
        let (n, line) = next;
        let w = words(line);
        if w.len() != 5 || !w[4].ends_with('x') {
            return Err(ParseFailure::at(
                n,
                format!("expected a Part 2 row, got {line:?}"),
            ));
        }
        mallocs.push(MallocRow {
            bytes: number(n, w[0], "bytes")?,
            first_ms: number(n, w[1], "first ms")?,
            second_ms: number(n, w[2], "second ms")?,
            tenth_ms: number(n, w[3], "tenth ms")?,
        });
        next = c.next("Part 3")?;
    }
    c.expect("host = ")?;
    c.expect("kernel ")?;
    let mut kernels = Vec::new();
    let mut next = c.next("Part 4")?;
    while !next.1.starts_with("Part 4:") {
        kernels.push(kernel_rows(&mut c, next)?);
        next = c.next("Part 4")?;
    }
    c.expect("loop ")?;
    let mut loop_row = |label: &str| -> Result<[f64; CALLS], ParseFailure> {
        let (n, rest) = c.expect(label)?;
        calls(n, &words(rest), 0)
    };
    let no_sync_host_ms = loop_row("without sync, host ")?;
    let no_sync_events_ms = loop_row("without sync, events ")?;
    let sync_host_ms = loop_row("with sync, host ")?;
    let sync_events_ms = loop_row("with sync, events ")?;
    // Part 5 is newer than the first transcripts; then the closing table,
    // made of the figures above and the post's constants, is read only as
    // far as its heading.
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
    Ok(Report {
        gpu: gpu.to_string(),
        visible_gpus,
        visible_devices,
        module_loading,
        first,
        mallocs,
        kernels,
        no_sync_host_ms,
        no_sync_events_ms,
        sync_host_ms,
        sync_events_ms,
        malloc_run,
    })
}

/// A device address as Part 5 prints it, `0x` and hex digits.
fn address(n: usize, text: &str, what: &str) -> Result<u64, ParseFailure> {
    text.strip_prefix("0x")
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| ParseFailure::at(n, format!("{what}: {text:?} is not a 0x address")))
}

/// Part 5, its heading line already read; each row's distance from the one
/// before must be what the addresses say.
fn malloc_run(c: &mut Cursor, n: usize, heading: &str) -> Result<MallocRun, ParseFailure> {
    let w = words(heading);
    let count: usize = number(n, w.get(2).copied().unwrap_or(""), "Part 5's count")?;
    let bytes = number(n, w.get(6).copied().unwrap_or(""), "Part 5's bytes")?;
    let (n, line) = c.expect("before them: Part 2's first at ")?;
    let w = words(line);
    let part2_first = address(n, w[0].trim_end_matches(','), "Part 2's first")?;
    let before = address(n, w.last().copied().unwrap_or(""), "Part 3's array")?;
    c.expect(" call")?;
    let mut calls = Vec::with_capacity(count);
    let mut previous = before;
    for i in 1..=count {
        let (n, line) = c.next("a Part 5 call")?;
        let w = words(line);
        if w.len() != 4 || w[0] != i.to_string() {
            return Err(ParseFailure::at(
                n,
                format!("expected call {i} of Part 5, got {line:?}"),
            ));
        }
        let call = RunCall {
            ms: number(n, w[1], "ms")?,
            address: address(n, w[2], "address")?,
        };
        let step: i64 = number(n, w[3].trim_start_matches('+'), "from previous")?;
        if step != call.address.wrapping_sub(previous) as i64 {
            return Err(ParseFailure::at(
                n,
                format!("call {i}: {step} is not the distance from {previous:#x}"),
            ));
        }
        previous = call.address;
        calls.push(call);
    }
    Ok(MallocRun {
        bytes,
        part2_first,
        before,
        calls,
    })
}

/// One kernel's three rows (host, events, warm), the first already read.
fn kernel_rows(c: &mut Cursor, first: (usize, &str)) -> Result<KernelRows, ParseFailure> {
    fn row<'a>(
        (n, line): (usize, &'a str),
        clock: &str,
        len: usize,
    ) -> Result<(usize, Vec<&'a str>), ParseFailure> {
        let w = words(line);
        if w.len() != len || w[2] != clock {
            return Err(ParseFailure::at(
                n,
                format!("expected a Part 3 `{clock}` row, got {line:?}"),
            ));
        }
        Ok((n, w))
    }
    let (n, host) = row(first, "host", 8)?;
    let (n_events, events) = row(c.next("the events row")?, "events", 8)?;
    let (n_warm, warm) = row(c.next("the warm row")?, "warm", 4)?;
    if events[..2] != host[..2] || warm[..2] != host[..2] {
        return Err(ParseFailure::at(
            n_warm,
            "a kernel's three rows name different kernels",
        ));
    }
    Ok(KernelRows {
        kernel: host[0].to_string(),
        threads: number(n, host[1], "threads")?,
        host_ms: calls(n, &host, 3)?,
        events_ms: calls(n_events, &events, 3)?,
        warm_ms: number(n_warm, warm[3], "warm ms")?,
    })
}
