//! Day 53's report read back from either program's output.

use lesson_spec::{number, Cursor, Lines, ParseFailure};

use crate::report::{AsyncRow, BandwidthRow, Report};

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    c.expect("Part 1: host-to-device bandwidth, cudaMemcpy")?;
    c.expect("mean of ")?;
    c.expect("     size")?;
    let mut bandwidth = Vec::new();
    let mut next = c.next("Part 2")?;
    while !next.1.starts_with("Part 2:") {
        let (n, line) = next;
        // `   256 MiB     40.734 ms   6.6 GB/s      4.865 ms  55.2 GB/s    8.37x`
        let w = words(line);
        let shape = w.len() == 11
            && w[1] == "MiB"
            && w[3] == "ms"
            && w[5] == "GB/s"
            && w[7] == "ms"
            && w[9] == "GB/s"
            && w[10].ends_with('x');
        if !shape {
            return Err(ParseFailure::at(
                n,
                format!("expected a Part 1 row, got {line:?}"),
            ));
        }
        let ratio = w.get(10).and_then(|r| r.strip_suffix('x')).unwrap_or("");
        bandwidth.push(BandwidthRow {
            mib: number(n, w[0], "size")?,
            pageable_ms: number(n, w[2], "pageable ms")?,
            pageable_gb_s: number(n, w[4], "pageable GB/s")?,
            pinned_ms: number(n, w[6], "pinned ms")?,
            pinned_gb_s: number(n, w[8], "pinned GB/s")?,
            ratio: number(n, ratio, "ratio")?,
        });
        next = c.next("Part 2")?;
    }
    if bandwidth.is_empty() {
        return Err(ParseFailure::at(next.0, "Part 1 has no rows"));
    }
    c.expect("mean of ")?;
    let async_row = |c: &mut Cursor, source: &str| -> Result<AsyncRow, ParseFailure> {
        let (n, line) = c.next(source)?;
        // ` pageable  call    9.916 ms  completion    9.939 ms  call is  99.8%`
        let w = words(line);
        if w.len() != 10 || w[0] != source || w[1] != "call" || w[4] != "completion" {
            return Err(ParseFailure::at(
                n,
                format!("expected the {source} row of Part 2, got {line:?}"),
            ));
        }
        Ok(AsyncRow {
            call_ms: number(n, w[2], "call ms")?,
            completion_ms: number(n, w[5], "completion ms")?,
            call_percent: number(n, w[9].trim_end_matches('%'), "call %")?,
        })
    };
    let async_pageable = async_row(&mut c, "pageable")?;
    let async_pinned = async_row(&mut c, "pinned")?;
    c.expect("Part 3: scaleCopy over ")?;
    c.expect("mean of ")?;
    let variant = |c: &mut Cursor, name: &str| -> Result<(f64, f64), ParseFailure> {
        let (n, line) = c.next(name)?;
        let w = words(line);
        if w.len() != 6 || w[0] != name || w[2] != "ms" {
            return Err(ParseFailure::at(
                n,
                format!("expected the {name} row of Part 3, got {line:?}"),
            ));
        }
        Ok((number(n, w[1], "ms")?, number(n, w[3], "GB/s")?))
    };
    let (resident_ms, resident_gb_s) = variant(&mut c, "device-resident")?;
    let (zero_copy_ms, zero_copy_gb_s) = variant(&mut c, "zero-copy")?;
    let (n, summary) = c.expect("zero-copy costs ")?;
    let ratio = summary.split('x').next().unwrap_or("");
    Ok(Report {
        gpu: gpu.to_string(),
        bandwidth,
        async_pageable,
        async_pinned,
        resident_ms,
        resident_gb_s,
        zero_copy_ms,
        zero_copy_gb_s,
        zero_copy_ratio: number(n, ratio, "zero-copy ratio")?,
    })
}
