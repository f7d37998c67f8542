//! Day 53's report read back from either program's output.

use lesson_spec::{labelled, number, Cursor, Lines, ParseFailure};

use crate::render::{P1_ROW, P2_ROW, P3_ROW};
use crate::report::{AsyncRow, BandwidthRow, Report};

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    c.expect("Part 1: host-to-device bandwidth, cudaMemcpy")?;
    c.expect("mean of ")?;
    c.expect("     size")?;
    let bandwidth = c.rows(P1_ROW, "Part 2:", |f| {
        Ok(BandwidthRow {
            mib: f.num(0)?,
            pageable_ms: f.num(1)?,
            pageable_gb_s: f.num(2)?,
            pinned_ms: f.num(3)?,
            pinned_gb_s: f.num(4)?,
            ratio: f.num(5)?,
        })
    })?;
    c.expect("mean of ")?;
    let mut async_row = |source: &str| -> Result<AsyncRow, ParseFailure> {
        let f = c.read(&labelled(P2_ROW, source))?;
        Ok(AsyncRow {
            call_ms: f.num(0)?,
            completion_ms: f.num(1)?,
            call_percent: f.num(2)?,
        })
    };
    let (async_pageable, async_pinned) = (async_row("pageable")?, async_row("pinned")?);
    c.expect("Part 3: scaleCopy over ")?;
    c.expect("mean of ")?;
    let variant = |c: &mut Cursor, name: &str| -> Result<(f64, f64), ParseFailure> {
        let f = c.read(&labelled(P3_ROW, name))?;
        Ok((f.num(0)?, f.num(1)?))
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
