//! Day 9's report read back from either program's output.

use lesson_spec::{ms_at_end, number, Cursor, Lines, ParseFailure};

use crate::report::{Report, SweepRow};

/// The row labels, in the order the report prints them.
const ROWS: [&str; 7] = [
    "  1  wall clock, whole process",
    "  2  wall clock, around the launch",
    "     the same clock, plus a sync",
    "  3  events, kernel, first launch",
    "  4  events, kernel, after warm-up",
    "  5  events, copies + kernel + copy back",
    "     CPU, same n, one thread, no SIMD",
];

/// Reads the report; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (n, gpu) = c.expect("GPU: ")?;
    let (gpu_name, compute_capability) = gpu_line(n, gpu)?;
    let (n, sizes) = c.expect("n = ")?;
    let elems = number(n, sizes.split(' ').next().unwrap_or(""), "n")?;
    let field = |suffix: &str| {
        sizes
            .split(", ")
            .find_map(|part| part.strip_suffix(suffix))
            .ok_or_else(|| ParseFailure::at(n, format!("expected `..., <count>{suffix}`")))
    };
    let threads_per_block = number(n, field(" threads/block")?, "threads per block")?;
    let blocks = number(n, field(" blocks")?, "blocks")?;
    let (n, context) = c.expect("cudaSetDevice(")?;
    let device = number(n, context.split(')').next().unwrap_or(""), "device")?;
    if !context.contains("), the first CUDA call in this process:") {
        return Err(ParseFailure::at(
            n,
            format!("expected the first CUDA call's line, got {context:?}"),
        ));
    }
    let context_ms = ms_at_end(n, context, "context")?;
    c.expect("No arithmetic of yours has run yet.")?;
    c.expect("Five ways to time one vector add")?;
    let mut rows = [0.0f64; 7];
    for (value, label) in rows.iter_mut().zip(ROWS) {
        let (n, rest) = c.expect(label)?;
        *value = ms_at_end(n, rest, label.trim())?;
    }
    let (n, means) = c.expect("Rows 4 and 5 are means of ")?;
    let mut words = means.split_whitespace();
    let runs = number(n, words.next().unwrap_or(""), "runs")?;
    let warmups = number(n, words.nth(2).unwrap_or(""), "warm-ups")?;
    c.expect("Rows 1, 2 and 3 are single measurements")?;
    c.expect("something that happens once.")?;
    c.expect("A second kernel is cold too")?;
    let (n, cold) = c.expect("     vectorScale, first launch")?;
    let scale_cold_ms = ms_at_end(n, cold, "vectorScale, first launch")? as f32;
    let (n, warm) = c.expect("     vectorScale, after warm-up")?;
    let scale_warm_ms = ms_at_end(n, warm, "vectorScale, after warm-up")? as f32;
    c.expect("Where the CPU wins")?;
    c.expect("           n     CPU (ms)")?;
    let sweep = sweep(&mut c, lines)?;
    c.expect("`time ./timing` prints")?;
    c.expect("kernel is.")?;
    Ok(Report {
        device,
        gpu_name,
        compute_capability,
        elems,
        threads_per_block,
        blocks,
        warmups,
        runs,
        context_ms,
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

/// `NVIDIA H200 (compute capability 9.0)`.
fn gpu_line(n: usize, text: &str) -> Result<(String, (i32, i32)), ParseFailure> {
    let (name, cc) = text
        .rsplit_once(" (compute capability ")
        .and_then(|(name, rest)| Some((name, rest.strip_suffix(')')?)))
        .ok_or_else(|| {
            ParseFailure::at(
                n,
                format!("expected `<name> (compute capability X.Y)`, got {text:?}"),
            )
        })?;
    let (major, minor) = cc
        .split_once('.')
        .ok_or_else(|| ParseFailure::at(n, format!("compute capability {cc:?} is not X.Y")))?;
    Ok((
        name.to_string(),
        (
            number(n, major, "compute capability")?,
            number(n, minor, "compute capability")?,
        ),
    ))
}

/// The crossover sweep's rows, up to the closing lines.
fn sweep(c: &mut Cursor<'_, '_>, lines: &Lines<'_>) -> Result<Vec<SweepRow>, ParseFailure> {
    let mut sweep = Vec::new();
    loop {
        let (n, line) = c.next("the sweep's closing lines")?;
        if line.starts_with("Row 4 is the kernel.") {
            break;
        }
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != 4 {
            return Err(ParseFailure::at(
                n,
                format!("a sweep row has 4 numbers, got {line:?}"),
            ));
        }
        sweep.push(SweepRow {
            n: number(n, cells[0], "sweep n")?,
            cpu_ms: number(n, cells[1], "sweep CPU")?,
            kernel_ms: number(n, cells[2], "sweep kernel")?,
            round_trip_ms: number(n, cells[3], "sweep round trip")?,
        });
    }
    if sweep.is_empty() {
        return Err(ParseFailure::at(
            lines.last().map_or(1, |l| l.0),
            "the sweep has no rows",
        ));
    }
    Ok(sweep)
}
