//! The instrument's output: a table for people and JSON with every sample
//! and the device, driver and clock metadata.

use std::fmt::Write;

use serde::Serialize;

use crate::measure::{FirstLaunch, Measurement};
use crate::mode::{Mode, Traffic};
use crate::sampling::Stop;

/// The device the measurements ran on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub driver_cuda_version: String,
    pub l2_bytes: u64,
    /// Device-to-device copy rate measured in this process, read plus write.
    pub copy_ceiling_gb_s: f64,
    /// Why there are no clock readings, if there are none.
    pub clocks_unavailable: Option<String>,
    /// Why there is no CUPTI mode, if there is none.
    pub cupti_unavailable: Option<String>,
    /// Which modes the driver cannot run, and which it can, if it cannot
    /// run them all ([`crate::driver::unavailable`]).
    pub modes_unavailable: Option<String>,
}

impl DeviceInfo {
    /// The device's facts, with what this process measured and why any
    /// part of the report is missing.
    pub fn new(
        facts: cuda_objects::DeviceFacts,
        copy_ceiling_gb_s: f64,
        clocks_unavailable: Option<String>,
        cupti_unavailable: Option<String>,
    ) -> DeviceInfo {
        DeviceInfo {
            modes_unavailable: crate::driver::unavailable(facts.driver),
            name: facts.name,
            compute_capability: facts.compute_capability,
            driver_cuda_version: facts.driver.to_string(),
            l2_bytes: facts.l2_bytes,
            copy_ceiling_gb_s,
            clocks_unavailable,
            cupti_unavailable,
        }
    }
}

/// The device line of a table: name, compute capability, driver, L2.
impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (cc, driver, l2) = (
            self.compute_capability,
            &self.driver_cuda_version,
            self.l2_bytes >> 20,
        );
        write!(
            f,
            "{} (compute capability {}.{}, driver CUDA {driver}), L2 {l2} MiB",
            self.name, cc.0, cc.1
        )
    }
}

/// Everything measured for one kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub kernel: String,
    pub device: DeviceInfo,
    pub traffic: Option<Traffic>,
    pub first_launch: Option<FirstLaunch>,
    /// The course's number for comparison: mean of 10 after 3 warm-ups.
    pub course_mean_of_10_ms: Option<f64>,
    pub measurements: Vec<Measurement>,
    pub recommended: Mode,
}

fn stop_name(m: &Measurement) -> &'static str {
    match m.stop {
        Stop::NoiseTarget => "noise target",
        Stop::SampleBudget => "sample budget",
        Stop::TimeBudget => "time budget",
    }
}

/// What a table prints instead of a median for a mode that rejected more
/// samples than its rule allows.
pub fn too_many_rejected(m: &Measurement) -> String {
    let floor = match m.floor_ms {
        Some(f) if m.below_floor > 0 => format!(", {} of them below the memory's {f:.5} ms", m.below_floor),
        _ => String::new(),
    };
    format!(
        "no median: {} of {} samples impossible (below {} ms{floor}), more than {}% allowed",
        m.rejected,
        m.samples.len(),
        m.rejection.floor_ms,
        100.0 * m.rejection.max_fraction
    )
}

/// The notes under a table for a mode that rejected a few samples: those
/// below the timer's resolution, and those faster than the memory allows,
/// each on its own line where there are any.
pub fn rejected_lines(m: &Measurement) -> Vec<String> {
    let below_timer = m.rejected - m.below_floor.min(m.rejected);
    let mut lines = Vec::new();
    if below_timer > 0 {
        lines.push(format!(
            "{below_timer} of {} samples rejected as impossible (below {} ms) and left out",
            m.samples.len(),
            m.rejection.floor_ms
        ));
    }
    if m.below_floor > 0 {
        lines.push(format!(
            "{} of {} samples rejected as faster than the memory allows (below {:.5} ms, the declared traffic at the memory's peak) and left out",
            m.below_floor,
            m.samples.len(),
            m.floor_ms.unwrap_or(f64::NAN)
        ));
    }
    lines
}

/// A table's rate and ceiling columns: GB/s and its share of
/// `ceiling_gb_s`, or `-` and `-` where no traffic was declared.
pub fn rate_columns(gb_s: Option<f64>, ceiling_gb_s: f64) -> (String, String) {
    gb_s.map_or(("-".into(), "-".into()), |gb| {
        (format!("{gb:.0}"), format!("{:.0}%", 100.0 * gb / ceiling_gb_s))
    })
}

/// The human table: one row per mode, then the course's numbers beside it.
pub fn table(r: &Report) -> String {
    let mut o = String::new();
    header(&mut o, r);
    for m in &r.measurements {
        mode_row(&mut o, r, m);
    }
    footer(&mut o, r);
    o
}

/// The kernel and device line, the declared traffic, and the columns.
fn header(o: &mut String, r: &Report) {
    let d = &r.device;
    let _ = writeln!(o, "{} on {d}", r.kernel);
    if let Some(t) = &r.traffic {
        let _ = writeln!(
            o,
            "declared traffic: {} B read + {} B written per launch; copy ceiling measured here: {:.0} GB/s",
            t.bytes_read, t.bytes_written, d.copy_ceiling_gb_s
        );
    }
    // The columns, as wide as mode_row's.
    let _ = writeln!(
        o,
        "mode         batch   samples  median ms      95% CI of median     min ms     max ms   noise     GB/s ceiling    GPU ms    stopped on"
    );
}

/// One mode's row: its statistics, or why it has none.
fn mode_row(o: &mut String, r: &Report, m: &Measurement) {
    let s = &m.summary;
    let gb_s = r.traffic.map(|t| t.gb_s(s.median));
    let (gb, frac) = rate_columns(gb_s, r.device.copy_ceiling_gb_s);
    let samples = if m.dropped > 0 {
        format!("{}-{}", m.samples.len(), m.dropped)
    } else {
        m.samples.len().to_string()
    };
    let mark = if m.mode == r.recommended { "*" } else { " " };
    if m.too_many_rejected {
        let _ = writeln!(
            o,
            "{:<11} {:>6} {:>9} {}",
            format!("{}{mark}", m.mode.name()),
            m.launches_per_sample,
            samples,
            too_many_rejected(m)
        );
        return;
    }
    let _ = writeln!(
        o,
        "{:<11} {:>6} {:>9} {:>10.5} {:>21} {:>10.5} {:>10.5} {:>6.2}% {:>8} {:>7} {:>9.1} {:>13}",
        format!("{}{mark}", m.mode.name()),
        m.launches_per_sample,
        samples,
        s.median,
        format!("{:.5} .. {:.5}", s.median_ci.0, s.median_ci.1),
        s.min,
        s.max,
        100.0 * s.rel_noise,
        gb,
        frac,
        m.gpu_ms_spent,
        stop_name(m)
    );
}

/// The key, rejected samples, the single numbers beside the table, and
/// what is missing or what the clocks did.
fn footer(o: &mut String, r: &Report) {
    let d = &r.device;
    let _ = writeln!(
        o,
        "* recommended for this kernel; samples shown as taken-dropped where throttled samples were left out"
    );
    for m in r.measurements.iter().filter(|m| !m.too_many_rejected) {
        for line in rejected_lines(m) {
            let _ = writeln!(o, "{}: {line}", m.mode.name());
        }
    }
    if let Some(f) = &r.first_launch {
        let _ = writeln!(o, "first launch (once per process, not sampled): {:.5} ms", f.ms);
    }
    if let Some(c) = r.course_mean_of_10_ms {
        let _ = writeln!(o, "course method (mean of 10 after 3 warm-ups): {c:.5} ms");
    }
    if let Some(why) = &d.cupti_unavailable {
        let _ = writeln!(o, "no cupti mode: {why}");
    }
    if let Some(why) = &d.modes_unavailable {
        let _ = writeln!(o, "{why}");
    }
    if let Some(why) = &d.clocks_unavailable {
        let _ = writeln!(o, "no clock checks: {why}");
    } else {
        clock_line(o, &r.measurements);
    }
}

/// The SM clock's range over every sample's reading, and how many were
/// taken while throttled; nothing when no sample has a reading.
fn clock_line(o: &mut String, measurements: &[Measurement]) {
    let readings: Vec<_> = measurements
        .iter()
        .flat_map(|m| m.samples.iter().filter_map(|s| s.clocks.as_ref()))
        .collect();
    let sm: Vec<u32> = readings.iter().map(|c| c.sm_mhz).collect();
    let throttled = readings.iter().filter(|c| c.throttled).count();
    if let (Some(lo), Some(hi)) = (sm.iter().min(), sm.iter().max()) {
        let _ = writeln!(
            o,
            "SM clock {lo} to {hi} MHz over {} readings, {throttled} while throttled",
            readings.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_counts_reads_and_writes() {
        let t = Traffic {
            bytes_read: 134_222_616,
            bytes_written: 67_111_308,
        };
        assert_eq!(t.total(), 201_333_924);
        // 201,333,924 bytes in 0.057 ms is 3532 GB/s.
        assert!((t.gb_s(0.057) - 3532.17).abs() < 0.01, "{}", t.gb_s(0.057));
    }

    #[test]
    fn samples_below_the_memory_floor_get_their_own_line_under_the_table() {
        use crate::samples::Sample;
        let sample = |ms: f64, rejected: bool, below_floor: bool| Sample {
            ms,
            clocks: None,
            dropped: false,
            rejected,
            below_floor,
        };
        let samples = vec![
            sample(0.0577, false, false),
            sample(0.0185, true, true),
            sample(-0.1, true, false),
            sample(0.0578, false, false),
        ];
        let m = Measurement {
            mode: Mode::Isolated,
            launches_per_sample: 1,
            warmup: crate::sampling::Warmup::Count(1),
            budget: crate::sampling::Budget::default(),
            summary: robust_stats::stats::summarize(&[0.0577, 0.0578]).unwrap(),
            stop: crate::sampling::Stop::NoiseTarget,
            dropped: 0,
            rejected: 2,
            rejection: crate::reject::Rejection {
                max_fraction: 0.5,
                ..Default::default()
            },
            below_floor: 1,
            floor_ms: Some(0.02815),
            too_many_rejected: false,
            samples,
            gpu_ms_spent: 1.0,
            clocks_unavailable: None,
        };
        assert_eq!(
            rejected_lines(&m),
            [
                "1 of 4 samples rejected as impossible (below 0.0005 ms) and left out",
                "1 of 4 samples rejected as faster than the memory allows (below 0.02815 ms, the declared traffic at the memory's peak) and left out"
            ]
        );
        let too_many = Measurement {
            too_many_rejected: true,
            ..m
        };
        assert!(
            too_many_rejected(&too_many).contains(
                "2 of 4 samples impossible (below 0.0005 ms, 1 of them below the memory's 0.02815 ms)"
            ),
            "{}",
            too_many_rejected(&too_many)
        );
    }

    fn device_on(driver: i32) -> DeviceInfo {
        let facts = cuda_objects::DeviceFacts {
            name: "a GPU".into(),
            compute_capability: (9, 0),
            l2_bytes: 60 << 20,
            driver: cuda_objects::DriverVersion(driver),
        };
        DeviceInfo::new(facts, 4000.0, None, None)
    }

    #[test]
    fn a_driver_too_old_for_some_modes_is_said_under_the_table_in_one_line() {
        let report = |device| Report {
            kernel: "vectorAdd, n = 4".into(),
            device,
            traffic: None,
            first_launch: None,
            course_mean_of_10_ms: None,
            measurements: Vec::new(),
            recommended: Mode::Graph,
        };
        let old = table(&report(device_on(12020)));
        let line = old
            .lines()
            .find(|l| l.starts_with("graph-pdl and isolated need a driver of the r545 series"))
            .unwrap_or_else(|| panic!("no driver line in {old}"));
        assert!(line.contains("this driver supports CUDA 12.2"), "{line}");
        assert!(!table(&report(device_on(13000))).contains("r545"));
    }
}
