//! Day 9's report read back from either program's output, with the
//! templates it is printed with (`render.rs`).

use lesson_spec::{Cursor, Lines, ParseFailure};

use crate::render::{CONTEXT, FIVE_WAYS, GPU, MEANS, SECOND_KERNEL, SIZES, SWEEP};
use crate::report::{Report, SweepRow};

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let gpu = c.read(GPU)?;
    let sizes = c.read(SIZES)?;
    let context = c.read(CONTEXT)?;
    c.expect("No arithmetic of yours has run yet.")?;
    c.expect("Five ways to time one vector add")?;
    let mut ms = |number: &str, label: &str| c.read(&format!("{number}  {label} {{}} ms"))?.num::<f64>(0);
    let mut rows = [0.0f64; 7];
    for (value, (number, label)) in rows.iter_mut().zip(FIVE_WAYS) {
        *value = ms(number, label)?;
    }
    let means = c.read(MEANS)?;
    c.expect("Rows 1, 2 and 3 are single measurements")?;
    c.expect("something that happens once.")?;
    c.expect("A second kernel is cold too")?;
    let mut ms = |label: &str| c.read(&format!("{label} {{}} ms"))?.num::<f32>(0);
    let (scale_cold_ms, scale_warm_ms) = (ms(SECOND_KERNEL[0])?, ms(SECOND_KERNEL[1])?);
    c.expect("Where the CPU wins")?;
    c.expect("           n     CPU (ms)")?;
    let sweep = c.rows(SWEEP, "Row 4 is the kernel.", |f| {
        Ok(SweepRow {
            n: f.num(0)?,
            cpu_ms: f.num(1)?,
            kernel_ms: f.num(2)?,
            round_trip_ms: f.num(3)?,
        })
    })?;
    c.expect("`time ./timing` prints")?;
    c.expect("kernel is.")?;
    Ok(Report {
        device: context.num(0)?,
        gpu_name: gpu.text(0).to_string(),
        compute_capability: (gpu.num(1)?, gpu.num(2)?),
        elems: sizes.num(0)?,
        threads_per_block: sizes.num(2)?,
        blocks: sizes.num(3)?,
        warmups: means.num(1)?,
        runs: means.num(0)?,
        context_ms: context.num(1)?,
        whole_ms: rows[0],
        launch_only_ms: rows[1],
        launch_plus_sync_ms: rows[2],
        cold_ms: rows[3] as f32,
        warm_ms: rows[4] as f32,
        round_trip_ms: rows[5] as f32,
        cpu_ms: rows[6],
        scale_cold_ms,
        scale_warm_ms,
        sweep,
    })
}
