//! Nsight Compute's counters for vectorAdd, as `gpu-phases/ncu.sh` records
//! them: `ncu --csv` prints one row per launch and metric after the
//! program's own output, and this module reads those rows into launches.
//!
//! Every profiled launch must be a full-n one (its grid is full n's), so a
//! launch count that reaches past row 4 into the sweep's smaller sizes is
//! an error here, not a wrong bytes-per-element figure.

use lesson_spec::{median, quoted, ParseFailure};
use serde::Serialize;

/// The metrics the phase asks ncu for.
pub const READ: &str = "dram__bytes_read.sum";
pub const WRITE: &str = "dram__bytes_write.sum";
pub const DURATION: &str = "gpu__time_duration.sum";

/// The first line of ncu's CSV output.
pub const HEADER_START: &str = "\"ID\",";

/// What ncu measured, launch by launch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ncu {
    pub launches: Vec<NcuLaunch>,
}

/// One profiled launch of vectorAdd.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NcuLaunch {
    pub id: u32,
    pub grid: u64,
    pub read_bytes: f64,
    pub write_bytes: f64,
    pub duration_ns: f64,
}

impl NcuLaunch {
    /// DRAM bytes read plus written, per element of `elems`.
    pub fn bytes_per_element(&self, elems: usize) -> f64 {
        (self.read_bytes + self.write_bytes) / elems as f64
    }

    /// The achieved DRAM throughput, GB/s.
    pub fn gb_s(&self) -> f64 {
        (self.read_bytes + self.write_bytes) / self.duration_ns
    }
}

impl Ncu {
    /// Medians over the launches, for `evidence compare` and figure blocks.
    pub fn figures(&self, elems: usize) -> Vec<(String, f64)> {
        let med = |pick: &dyn Fn(&NcuLaunch) -> f64| {
            median(self.launches.iter().map(pick).collect()).unwrap_or(0.0)
        };
        let per_element = self.launches.iter().map(|l| l.bytes_per_element(elems));
        vec![
            ("ncu profiled launches".into(), self.launches.len() as f64),
            (
                "ncu DRAM bytes read per element, median".into(),
                med(&|l| l.read_bytes / elems as f64),
            ),
            (
                "ncu DRAM bytes written per element, median".into(),
                med(&|l| l.write_bytes / elems as f64),
            ),
            (
                "ncu DRAM bytes per element, median".into(),
                med(&|l| l.bytes_per_element(elems)),
            ),
            // The launches furthest from the median, either way: what the
            // bytes-per-element claim holds to 12, as it holds every launch.
            (
                "ncu DRAM bytes per element, smallest".into(),
                per_element.clone().fold(f64::INFINITY, f64::min),
            ),
            (
                "ncu DRAM bytes per element, largest".into(),
                per_element.fold(f64::NEG_INFINITY, f64::max),
            ),
            ("ncu DRAM throughput, GB/s, median".into(), med(&|l| l.gb_s())),
            ("ncu duration, ms, median".into(), med(&|l| l.duration_ns / 1.0e6)),
        ]
    }
}

/// The cells of a CSV line whose every cell is quoted.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('"').trim_end_matches('"');
    inner.split("\",\"").map(str::to_string).collect()
}

/// `(65539, 1, 1)` -> 65539 x 1 x 1.
fn dims(n: usize, text: &str) -> Result<u64, ParseFailure> {
    let inner = text.trim().trim_start_matches('(').trim_end_matches(')');
    inner
        .split(',')
        .map(|d| d.trim().parse::<u64>())
        .try_fold(1u64, |acc, d| d.map(|d| acc * d))
        .map_err(|_| {
            ParseFailure::at(
                n,
                format!("expected a size such as (65539, 1, 1), got {}", quoted(text)),
            )
        })
}

/// A metric's value in its base unit (bytes or ns), from ncu's value with
/// thousands separators and its unit.
fn value(n: usize, text: &str, unit: &str) -> Result<f64, ParseFailure> {
    let scale = match unit {
        "byte" | "ns" | "nsecond" => 1.0,
        "Kbyte" | "us" | "usecond" => 1.0e3,
        "Mbyte" | "ms" | "msecond" => 1.0e6,
        "Gbyte" | "s" | "second" => 1.0e9,
        "Tbyte" => 1.0e12,
        other => return Err(ParseFailure::at(n, format!("unknown ncu unit {}", quoted(other)))),
    };
    let v: f64 = lesson_spec::number(n, &text.replace(',', ""), "ncu metric value")?;
    Ok(v * scale)
}

/// ncu's CSV: `header` (its line number and text), then `rows`. Every launch
/// needs all three metrics and full n's grid (`full_grid` blocks).
pub fn parse(header: (usize, &str), rows: &[(usize, &str)], full_grid: u64) -> Result<Ncu, ParseFailure> {
    let names = cells(header.1);
    let col = |name: &str| {
        names
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| ParseFailure::at(header.0, format!("ncu's CSV header has no {name:?} column")))
    };
    let (id, grid, metric, unit, val) = (
        col("ID")?,
        col("Grid Size")?,
        col("Metric Name")?,
        col("Metric Unit")?,
        col("Metric Value")?,
    );
    let mut launches: Vec<NcuLaunch> = Vec::new();
    for &(n, line) in rows {
        let c = cells(line);
        if c.len() != names.len() {
            return Err(ParseFailure::at(
                n,
                format!("an ncu row has {} cells, its header {}", c.len(), names.len()),
            ));
        }
        let launch_id: u32 = lesson_spec::number(n, &c[id], "ncu launch ID")?;
        let launch_grid = dims(n, &c[grid])?;
        if launch_grid != full_grid {
            return Err(ParseFailure::at(
                n,
                format!("ncu profiled a launch of {launch_grid} blocks, not full n's {full_grid}: the launch count reaches past row 4"),
            ));
        }
        let index = match launches.iter().position(|l| l.id == launch_id) {
            Some(i) => i,
            None => {
                launches.push(NcuLaunch {
                    id: launch_id,
                    grid: launch_grid,
                    read_bytes: f64::NAN,
                    write_bytes: f64::NAN,
                    duration_ns: f64::NAN,
                });
                launches.len() - 1
            }
        };
        let v = value(n, &c[val], &c[unit])?;
        let l = &mut launches[index];
        match c[metric].as_str() {
            READ => l.read_bytes = v,
            WRITE => l.write_bytes = v,
            DURATION => l.duration_ns = v,
            other => {
                return Err(ParseFailure::at(
                    n,
                    format!("an ncu metric this lesson does not ask for: {}", quoted(other)),
                ))
            }
        }
    }
    if let Some(l) = launches
        .iter()
        .find(|l| l.read_bytes.is_nan() || l.write_bytes.is_nan() || l.duration_ns.is_nan())
    {
        return Err(ParseFailure::at(
            rows.last().map_or(header.0, |r| r.0),
            format!("ncu launch {} lacks one of {READ}, {WRITE}, {DURATION}", l.id),
        ));
    }
    if launches.is_empty() {
        return Err(ParseFailure::at(header.0, "ncu's CSV has no rows"));
    }
    Ok(Ncu { launches })
}
