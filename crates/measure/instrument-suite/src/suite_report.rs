//! The output of a suite run: one row per kernel in its recommended mode,
//! the process's own calibration above them, as a table and as JSON; and
//! the few fields of that JSON a comparison reads back.
//!
//! Not for: one kernel in every mode (that is the instrument's `report`), or the
//! kernels themselves (instrument-suite's).

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use instrument::calibrate::{flags, Calibration, Flag};
use instrument::compare::Median;
use instrument::measure::Measurement;
use instrument::report::{rate_columns, too_many_rejected, DeviceInfo};
use instrument::Traffic;

/// Everything one suite run measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuiteReport {
    pub device: DeviceInfo,
    pub calibration: Calibration,
    pub kernels: Vec<KernelResult>,
}

/// One kernel of the suite, measured in one mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelResult {
    pub kernel: String,
    /// The work as a multiple of the kernel's standard size.
    pub scale: f64,
    pub traffic: Option<Traffic>,
    /// The median and its interval; no median where the mode rejected too
    /// many samples.
    pub median: Option<Median>,
    pub gb_s: Option<f64>,
    pub flags: Vec<Flag>,
    /// How many allocations of the kernel's buffers the samples were spread
    /// over (instrument-suite's BUFFER_SETS); 1 unless the caller says.
    pub buffer_sets: usize,
    /// The mode's full record, every sample included.
    pub measurement: Measurement,
}

impl KernelResult {
    /// Summarises `measurement` of `kernel` against `calibration`.
    pub fn new(
        kernel: String,
        scale: f64,
        traffic: Option<Traffic>,
        measurement: Measurement,
        calibration: &Calibration,
    ) -> KernelResult {
        let s = &measurement.summary;
        let median = measurement.median();
        let gb_s = traffic.map(|t| t.gb_s(s.median));
        KernelResult {
            kernel,
            scale,
            traffic,
            flags: median.map_or(Vec::new(), |m| flags(m.ms, gb_s, calibration)),
            median,
            gb_s,
            buffer_sets: 1,
            measurement,
        }
    }
}

/// What a comparison reads of a suite run's JSON.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SuiteView {
    pub kernels: Vec<KernelView>,
}

/// What a comparison reads of one kernel.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct KernelView {
    pub kernel: String,
    pub median: Option<Median>,
    pub flags: Vec<Flag>,
}

/// The table: the calibration, then one row per kernel.
pub fn suite_table(r: &SuiteReport) -> String {
    let mut o = String::new();
    header(&mut o, r);
    for k in &r.kernels {
        kernel_row(&mut o, k, &r.calibration);
    }
    footer(&mut o, &r.kernels);
    if let Some(why) = &r.device.modes_unavailable {
        let _ = writeln!(o, "{why}");
    }
    o
}

/// The device line, the process's calibration, and the columns.
fn header(o: &mut String, r: &SuiteReport) {
    let (d, c) = (&r.device, &r.calibration);
    let _ = writeln!(o, "{d}");
    let _ = writeln!(
        o,
        "calibration: event resolution {:.6} ms ({}), empty launch {:.5} ms, graph replay {:.5} ms, sync wake-up {:.5} ms, cudaMemcpy {:.0} GB/s, memory ceiling {:.0} GB/s",
        c.event_resolution_ms,
        if c.resolution_measured { "measured" } else { "documented" },
        c.empty_launch_ms,
        c.graph_launch_ms,
        c.sync_wakeup_ms,
        c.copy_ceiling_gb_s,
        c.ceiling_gb_s()
    );
    // The columns, as wide as kernel_row's.
    let _ = writeln!(
        o,
        "kernel            scale       mode   samples   median ms        95% CI of median   noise    GB/s ceiling   GPU ms  flags"
    );
}

/// One kernel's row: its median and flags, or why it has none.
fn kernel_row(o: &mut String, k: &KernelResult, c: &Calibration) {
    let m = &k.measurement;
    let lead = format!(
        "{:<16} {:>6} {:>10} {:>9}",
        k.kernel,
        k.scale,
        m.mode.name(),
        m.samples.len()
    );
    let Some(med) = k.median else {
        let _ = writeln!(o, "{lead} {}", too_many_rejected(m));
        return;
    };
    let (gb, frac) = rate_columns(k.gb_s, c.ceiling_gb_s());
    let flags: Vec<&str> = k.flags.iter().map(|f| f.text()).collect();
    let _ = writeln!(
        o,
        "{lead} {:>11.5} {:>23} {:>6.2}% {:>7} {:>7} {:>8.1}  {}",
        med.ms,
        format!("{:.5} .. {:.5}", med.ci.0, med.ci.1),
        100.0 * m.summary.rel_noise,
        gb,
        frac,
        m.gpu_ms_spent,
        if flags.is_empty() {
            "-".to_string()
        } else {
            flags.join(", ")
        }
    );
}

/// Rejected samples of the kernels that have a median, and which kernels'
/// samples were spread over several allocations.
fn footer(o: &mut String, kernels: &[KernelResult]) {
    for k in kernels.iter().filter(|k| k.median.is_some()) {
        for line in instrument::report::rejected_lines(&k.measurement) {
            let _ = writeln!(o, "{}: {line}", k.kernel);
        }
    }
    let spread: Vec<String> = kernels
        .iter()
        .filter(|k| k.buffer_sets > 1)
        .map(|k| format!("{} over {}", k.kernel, k.buffer_sets))
        .collect();
    if !spread.is_empty() {
        let _ = writeln!(
            o,
            "samples spread over allocations of the kernel's buffers: {}",
            spread.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use instrument::reject::Rejection;
    use instrument::sampling::{Budget, Stop, Warmup};
    use instrument::stats::summarize;
    use instrument::Mode;

    /// The JSON JsonOut writes of a report.
    fn to_json(report: &SuiteReport) -> String {
        serde_json::to_string_pretty(report).unwrap()
    }

    fn calibration() -> Calibration {
        Calibration {
            event_resolution_ms: 0.001,
            resolution_measured: true,
            empty_launch_ms: 0.002,
            graph_launch_ms: 0.003,
            sync_wakeup_ms: 0.01,
            copy_ceiling_gb_s: 4000.0,
            memory_peak_gb_s: None,
        }
    }

    fn measurement(values: &[f64], rejected: usize) -> Measurement {
        Measurement {
            mode: Mode::Isolated,
            launches_per_sample: 1,
            warmup: Warmup::Count(1),
            budget: Budget::default(),
            samples: values
                .iter()
                .map(|&ms| instrument::samples::Sample {
                    ms,
                    clocks: None,
                    dropped: false,
                    rejected: ms < 0.001,
                    below_floor: false,
                })
                .collect(),
            summary: summarize(values).unwrap(),
            stop: Stop::NoiseTarget,
            dropped: 0,
            rejected,
            rejection: Rejection::default(),
            below_floor: 0,
            floor_ms: None,
            too_many_rejected: Rejection::default().too_many(rejected, values.len()),
            gpu_ms_spent: 1.0,
            clocks_unavailable: None,
        }
    }

    fn report(kernels: Vec<KernelResult>) -> SuiteReport {
        SuiteReport {
            device: DeviceInfo {
                name: "a GPU".into(),
                compute_capability: (9, 0),
                driver_cuda_version: "13.0".into(),
                l2_bytes: 60 << 20,
                copy_ceiling_gb_s: 4000.0,
                clocks_unavailable: None,
                cupti_unavailable: None,
                modes_unavailable: None,
            },
            calibration: calibration(),
            kernels,
        }
    }

    #[test]
    fn a_kernel_faster_than_the_memory_ceiling_is_flagged_in_the_table_and_the_json() {
        let traffic = Traffic {
            bytes_read: 300_000_000,
            bytes_written: 0,
        };
        // 300 MB in 0.05 ms is 6000 GB/s, above the 4000 measured.
        let k = KernelResult::new(
            "fast".into(),
            1.0,
            Some(traffic),
            measurement(&[0.05; 30], 0),
            &calibration(),
        );
        assert_eq!(k.flags, [Flag::AboveMemoryCeiling]);
        let r = report(vec![k]);
        let table = suite_table(&r);
        assert!(table.contains("above the memory ceiling"), "{table}");
        let json: serde_json::Value = serde_json::from_str(&to_json(&r)).unwrap();
        assert_eq!(json["kernels"][0]["flags"][0], "AboveMemoryCeiling");
        assert_eq!(json["calibration"]["event_resolution_ms"], 0.001);
    }

    #[test]
    fn too_many_rejections_print_no_median_and_the_json_reads_back_without_one() {
        let mut values = vec![0.002; 20];
        values[0] = -0.1318;
        values[1] = -0.001;
        let k = KernelResult::new("noisy".into(), 1.0, None, measurement(&values, 2), &calibration());
        assert_eq!(k.median, None);
        let r = report(vec![k]);
        let table = suite_table(&r);
        assert!(table.contains("no median: 2 of 20 samples impossible"), "{table}");
        let view: SuiteView = serde_json::from_str(&to_json(&r)).unwrap();
        assert_eq!(view.kernels[0].kernel, "noisy");
        assert_eq!(view.kernels[0].median, None);
    }

    #[test]
    fn buffer_sets_are_named_under_the_table_where_there_are_several() {
        let one = KernelResult::new(
            "one".into(),
            1.0,
            None,
            measurement(&[0.05; 30], 0),
            &calibration(),
        );
        let mut four = one.clone();
        four.kernel = "four".into();
        four.buffer_sets = 4;
        let table = suite_table(&report(vec![one.clone(), four]));
        assert!(
            table.ends_with("samples spread over allocations of the kernel's buffers: four over 4\n"),
            "{table}"
        );
        assert!(!suite_table(&report(vec![one])).contains("allocations"));
    }

    #[test]
    fn a_median_reads_back_as_written() {
        let k = KernelResult::new(
            "ok".into(),
            1.02,
            None,
            measurement(&[0.057; 25], 0),
            &calibration(),
        );
        let view: SuiteView = serde_json::from_str(&to_json(&report(vec![k]))).unwrap();
        let m = view.kernels[0].median.unwrap();
        assert_eq!((m.ms, m.ci), (0.057, (0.057, 0.057)));
        assert!(view.kernels[0].flags.is_empty());
    }
}
