//! Day 9's report (code/day09-timing), as both of its programs print it.

use serde::Serialize;

use crate::lines::{ms_at_end, number, Cursor, Failure, Lines};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub gpu: String,
    pub elems: u64,
    pub blocks: u64,
    pub context_ms: f64,
    pub whole_process_ms: f64,
    pub launch_only_ms: f64,
    pub launch_plus_sync_ms: f64,
    pub first_launch_ms: f64,
    pub warm_ms: f64,
    pub round_trip_ms: f64,
    pub cpu_ms: f64,
    pub runs: u32,
    pub warmups: u32,
    pub scale_cold_ms: f64,
    pub scale_warm_ms: f64,
    pub sweep: Vec<SweepRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    pub n: u64,
    pub cpu_ms: f64,
    pub kernel_ms: f64,
    pub round_trip_ms: f64,
}

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

pub fn parse(lines: &Lines<'_>) -> Result<Report, Failure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    let (n, sizes) = c.expect("n = ")?;
    let elems = number(n, sizes.split(' ').next().unwrap_or(""), "n")?;
    let blocks_text = sizes
        .rsplit(", ")
        .next()
        .and_then(|s| s.strip_suffix(" blocks"))
        .ok_or_else(|| (n, "expected `..., <blocks> blocks`".to_string()))?;
    let blocks = number(n, blocks_text, "blocks")?;
    let (n, context) = c.expect("cudaSetDevice(0), the first CUDA call in this process:")?;
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
    let scale_cold_ms = ms_at_end(n, cold, "vectorScale, first launch")?;
    let (n, warm) = c.expect("     vectorScale, after warm-up")?;
    let scale_warm_ms = ms_at_end(n, warm, "vectorScale, after warm-up")?;
    c.expect("Where the CPU wins")?;
    c.expect("           n     CPU (ms)")?;
    let mut sweep = Vec::new();
    loop {
        let (n, line) = c.next("the sweep's closing lines")?;
        if line.starts_with("Row 4 is the kernel.") {
            break;
        }
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != 4 {
            return Err((n, format!("a sweep row has 4 numbers, got {line:?}")));
        }
        sweep.push(SweepRow {
            n: number(n, cells[0], "sweep n")?,
            cpu_ms: number(n, cells[1], "sweep CPU")?,
            kernel_ms: number(n, cells[2], "sweep kernel")?,
            round_trip_ms: number(n, cells[3], "sweep round trip")?,
        });
    }
    if sweep.is_empty() {
        return Err((lines.last().map_or(1, |l| l.0), "the sweep has no rows".into()));
    }
    c.expect("`time ./timing` prints")?;
    c.expect("kernel is.")?;
    Ok(Report {
        gpu: gpu.to_string(),
        elems,
        blocks,
        context_ms,
        whole_process_ms: rows[0],
        launch_only_ms: rows[1],
        launch_plus_sync_ms: rows[2],
        first_launch_ms: rows[3],
        warm_ms: rows[4],
        round_trip_ms: rows[5],
        cpu_ms: rows[6],
        runs,
        warmups,
        scale_cold_ms,
        scale_warm_ms,
        sweep,
    })
}
