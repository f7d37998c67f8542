//! The Markdown block a user pastes into a bug report, for one kernel or an
//! A/B pair (issue 44's rows), and the medians `--spread-from` reads back.
//! Pure formatting, tested without a GPU.

use std::fmt::Write;

use instrument::calibrate::Calibration;
use instrument::compare::Comparison;
use instrument::measure::Measurement;
use instrument::report::{rejected_lines, too_many_rejected, DeviceInfo};
use instrument::Traffic;
use serde::Serialize;

use instrument::session::{beside_ncu, Choice};

/// Everything a block says about one kernel's run.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub kernel: String,
    pub file: String,
    pub toolkit: String,
    pub device: DeviceInfo,
    pub launch: String,
    pub choice: Choice,
    pub calibration: Calibration,
    pub traffic: Option<Traffic>,
    pub ops: Option<u64>,
    /// The command as typed, quoted for a shell.
    pub command: String,
    /// Why the arguments were not checked against the parameters, if not.
    pub params_unchecked: Option<String>,
    /// Medians of earlier processes of the same run (`--spread-from`).
    pub other_medians: Vec<f64>,
}

/// Medians of earlier runs' JSON (`--json` of one kernel), one per text;
/// the error names what is not such a run.
pub fn medians_of_runs(texts: &[(String, String)]) -> Result<Vec<f64>, String> {
    texts
        .iter()
        .map(|(name, text)| {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("{name} is not JSON: {e}"))?;
            let m = &v["measurement"];
            match (m["too_many_rejected"].as_bool(), m["summary"]["median"].as_f64()) {
                (Some(false), Some(ms)) => Ok(ms),
                (Some(true), _) => Err(format!("{name} has no median (too many samples rejected)")),
                _ => Err(format!("{name} is not a kernel-timer run of one kernel (--json)")),
            }
        })
        .collect()
}

/// The spread of this process's median and the others', as the instrument's
/// `process_spread` measures it, in one line.
fn spread(run: &Run, median: f64) -> Option<String> {
    if run.other_medians.is_empty() {
        return None;
    }
    let mut all = run.other_medians.clone();
    all.push(median);
    let sd = instrument::compare::process_spread(&all)?;
    Some(format!(
        "sd {:.2}% of the median over {} processes (this one and {} from --spread-from)",
        100.0 * sd,
        all.len(),
        all.len() - 1
    ))
}

/// The block for one measurement.
pub fn block(run: &Run, m: &Measurement) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "#### Kernel time: `{}` from `{}`\n", run.kernel, run.file);
    common_rows(&mut o, run);
    measurement_rows(&mut o, run, m, "");
    let _ = writeln!(o, "| Clocks | {} |", clocks(&[m]));
    footer(&mut o, run);
    o
}

/// The block for an A/B run: both medians and the label.
pub fn ab_block(
    run: &Run,
    b_kernel: &str,
    rounds: usize,
    (a, b): (&Measurement, &Measurement),
    c: Option<&Comparison>,
) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "#### A/B in one process: A `{}`, B `{b_kernel}`, from `{}`\n",
        run.kernel, run.file
    );
    common_rows(&mut o, run);
    measurement_rows(&mut o, run, a, "A: ");
    measurement_rows(&mut o, run, b, "B: ");
    let verdict = match c {
        Some(c) => format!(
            "**{}**: B - A = {:+.2}% (95% interval {:+.2}% .. {:+.2}%), SAME within +-1% of A",
            c.label.name(),
            100.0 * c.rel,
            100.0 * c.rel_ci.0,
            100.0 * c.rel_ci.1
        ),
        None => "no label: a side has no median".into(),
    };
    let _ = writeln!(o, "| B against A | {verdict} |");
    let _ = writeln!(
        o,
        "| Turns | A then B in each of {rounds} rounds, on the same buffers |"
    );
    let _ = writeln!(o, "| Clocks | {} |", clocks(&[a, b]));
    footer(&mut o, run);
    o
}

fn common_rows(o: &mut String, run: &Run) {
    let d = &run.device;
    let _ = writeln!(o, "| | |\n|---|---|");
    let _ = writeln!(
        o,
        "| GPU | {} (compute capability {}.{}), L2 {} MiB |",
        d.name,
        d.compute_capability.0,
        d.compute_capability.1,
        d.l2_bytes >> 20
    );
    let _ = writeln!(o, "| Driver | supports CUDA {} |", d.driver_cuda_version);
    let _ = writeln!(o, "| Toolkit | {} |", run.toolkit);
    let _ = writeln!(o, "| Launch | {} |", run.launch);
    let mode = run.choice.mode.name();
    let pilot = run
        .choice
        .pilot_ms
        .map_or(String::new(), |p| format!(", hot pilot {p:.5} ms"));
    let _ = writeln!(o, "| Mode | {mode}: {}{pilot} |", run.choice.why);
    let _ = writeln!(o, "| Beside Nsight Compute | {} |", beside_ncu(run.choice.mode));
}

fn measurement_rows(o: &mut String, run: &Run, m: &Measurement, side: &str) {
    let kept = m.samples.len() - m.dropped - m.rejected;
    let stop = match m.stop {
        instrument::sampling::Stop::NoiseTarget => "the noise target",
        instrument::sampling::Stop::SampleBudget => "the sample budget",
        instrument::sampling::Stop::TimeBudget => "the GPU-time budget",
    };
    let _ = writeln!(
        o,
        "| {side}Samples | {kept} kept of {} ({} launches each; {} dropped as throttled), stopped on {stop}, {:.1} ms of GPU time |",
        m.samples.len(),
        m.launches_per_sample,
        m.dropped,
        m.gpu_ms_spent
    );
    if m.too_many_rejected {
        let _ = writeln!(o, "| {side}Median | {} |", too_many_rejected(m));
        return;
    }
    let s = &m.summary;
    let _ = writeln!(
        o,
        "| {side}Median | **{:.5} ms** per launch, 95% interval {:.5} .. {:.5} ms (noise {:.2}%, min {:.5}, max {:.5}) |",
        s.median,
        s.median_ci.0,
        s.median_ci.1,
        100.0 * s.rel_noise,
        s.min,
        s.max
    );
    let rejected = rejected_lines(m);
    let _ = writeln!(
        o,
        "| {side}Rejected | {} |",
        if rejected.is_empty() {
            "none".to_string()
        } else {
            rejected.join("; ")
        }
    );
    let _ = writeln!(o, "| {side}Rates | {} |", rates(run, s.median));
    if let Some(line) = spread(run, s.median) {
        let _ = writeln!(o, "| {side}Spread between processes | {line} |");
    }
}

/// Declared bytes and operations per launch at `ms`.
fn rates(run: &Run, ms: f64) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &run.traffic {
        let gb = t.gb_s(ms);
        parts.push(format!(
            "{gb:.0} GB/s ({} B per launch), {:.0}% of the memory's {:.0} GB/s ceiling",
            t.total(),
            100.0 * gb / run.calibration.ceiling_gb_s(),
            run.calibration.ceiling_gb_s()
        ));
    }
    if let Some(ops) = run.ops {
        parts.push(format!(
            "{:.1} Gop/s ({ops} operations per launch; no compute ceiling is measured)",
            ops as f64 / (ms * 1e-3) / 1e9
        ));
    }
    if parts.is_empty() {
        "none declared (--bytes-read, --bytes-written, --ops)".into()
    } else {
        parts.join("; ")
    }
}

/// The SM and memory clocks' range over every sample's reading.
fn clocks(ms: &[&Measurement]) -> String {
    if let Some(why) = ms.iter().find_map(|m| m.clocks_unavailable.clone()) {
        return format!("not read: {why}");
    }
    let readings: Vec<_> = ms
        .iter()
        .flat_map(|m| m.samples.iter().filter_map(|s| s.clocks.as_ref()))
        .collect();
    let range = |v: Vec<u32>| match (v.iter().min(), v.iter().max()) {
        (Some(lo), Some(hi)) if lo == hi => format!("{lo}"),
        (Some(lo), Some(hi)) => format!("{lo} to {hi}"),
        _ => "-".into(),
    };
    if readings.is_empty() {
        return "no readings".into();
    }
    let throttled = readings.iter().filter(|c| c.throttled).count();
    format!(
        "SM {} MHz, memory {} MHz over {} readings, {throttled} while throttled",
        range(readings.iter().map(|c| c.sm_mhz).collect()),
        range(readings.iter().map(|c| c.memory_mhz).collect()),
        readings.len()
    )
}

fn footer(o: &mut String, run: &Run) {
    if let Some(why) = &run.params_unchecked {
        let _ = writeln!(o, "| Arguments | not checked against the parameters: {why} |");
    }
    let _ = writeln!(o, "\nReproduce with:\n\n```\n{}\n```", run.command);
}

/// `args` as one shell line, each word quoted where it needs it.
pub fn shell_line(args: impl IntoIterator<Item = String>) -> String {
    args.into_iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use instrument::clocks::ClockReading;
    use instrument::reject::Rejection;
    use instrument::samples::Sample;
    use instrument::sampling::{Budget, Stop, Warmup};
    use instrument::Mode;

    fn run() -> Run {
        Run {
            kernel: "transpose".into(),
            file: "t.cu".into(),
            toolkit: "nvcc 13.0".into(),
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
            launch: "grid 1x1x1".into(),
            choice: Choice {
                mode: Mode::Isolated,
                pilot_ms: Some(0.1),
                why: "because".into(),
            },
            calibration: Calibration {
                event_resolution_ms: 0.000032,
                resolution_measured: true,
                empty_launch_ms: 0.002,
                graph_launch_ms: 0.002,
                sync_wakeup_ms: 0.01,
                copy_ceiling_gb_s: 4000.0,
                memory_peak_gb_s: Some(5000.0),
            },
            traffic: Some(Traffic {
                bytes_read: 250_000_000,
                bytes_written: 250_000_000,
            }),
            ops: Some(1_000_000_000),
            command: "kernel-timer t.cu transpose --arg 'f32[4]'".into(),
            params_unchecked: None,
            other_medians: Vec::new(),
        }
    }

    fn measurement(ms: &[f64], rejected: usize) -> Measurement {
        let clocks = |sm| ClockReading {
            sm_mhz: sm,
            memory_mhz: 2619,
            reasons: vec![],
            throttled: false,
        };
        let mut samples: Vec<Sample> = ms
            .iter()
            .enumerate()
            .map(|(i, &ms)| Sample {
                ms,
                clocks: Some(clocks(1980 - 15 * (i as u32 % 2))),
                dropped: false,
                rejected: false,
                below_floor: false,
            })
            .collect();
        for _ in 0..rejected {
            samples.push(Sample {
                ms: 0.0,
                clocks: None,
                dropped: false,
                rejected: true,
                below_floor: false,
            });
        }
        Measurement {
            mode: Mode::Isolated,
            launches_per_sample: 1,
            warmup: Warmup::Count(1),
            budget: Budget::default(),
            summary: instrument::stats::summarize(ms).unwrap(),
            stop: Stop::NoiseTarget,
            dropped: 0,
            rejected,
            rejection: Rejection::default(),
            below_floor: 0,
            floor_ms: None,
            too_many_rejected: false,
            samples,
            gpu_ms_spent: 12.0,
            clocks_unavailable: None,
        }
    }

    #[test]
    fn the_block_says_median_interval_rejections_clocks_rates_and_the_command() {
        let m = measurement(&[0.1, 0.2, 0.3, 0.2, 0.2], 1);
        let text = block(&run(), &m);
        for line in [
            "#### Kernel time: `transpose` from `t.cu`",
            "| GPU | a GPU (compute capability 9.0), L2 60 MiB |",
            "| Mode | isolated: because, hot pilot 0.10000 ms |",
            "| Samples | 5 kept of 6 (1 launches each; 0 dropped as throttled), stopped on the noise target, 12.0 ms of GPU time |",
            "| Median | **0.20000 ms** per launch, 95% interval",
            "| Rejected | 1 of 6 samples rejected as impossible (below 0.0005 ms) and left out |",
            "| Rates | 2500 GB/s (500000000 B per launch), 50% of the memory's 5000 GB/s ceiling; 5000.0 Gop/s",
            "| Clocks | SM 1965 to 1980 MHz, memory 2619 MHz over 5 readings, 0 while throttled |",
            "kernel-timer t.cu transpose --arg 'f32[4]'",
        ] {
            assert!(text.contains(line), "no {line:?} in\n{text}");
        }
    }

    #[test]
    fn earlier_runs_medians_give_the_spread_between_processes() {
        let run_json = |ms: f64| {
            format!(
                r#"{{"run": {{}}, "measurement": {{"too_many_rejected": false, "summary": {{"median": {ms}}}}}}}"#
            )
        };
        let texts = vec![
            ("a.json".to_string(), run_json(0.099)),
            ("b.json".to_string(), run_json(0.101)),
        ];
        let medians = medians_of_runs(&texts).unwrap();
        assert_eq!(medians, [0.099, 0.101]);
        let mut r = run();
        r.other_medians = medians;
        let text = block(&r, &measurement(&[0.1, 0.1, 0.1], 0));
        assert!(
            text.contains("| Spread between processes | sd 1.00% of the median over 3 processes (this one and 2 from --spread-from) |"),
            "{text}"
        );
        assert!(!block(&run(), &measurement(&[0.1], 0)).contains("Spread"));
        for (bad, says) in [
            ("{", "c.json is not JSON"),
            (r#"{"ab": []}"#, "c.json is not a kernel-timer run of one kernel"),
            (
                r#"{"measurement": {"too_many_rejected": true, "summary": {"median": 1}}}"#,
                "c.json has no median",
            ),
        ] {
            let e = medians_of_runs(&[("c.json".to_string(), bad.to_string())]).unwrap_err();
            assert!(e.starts_with(says), "{e}");
        }
    }

    #[test]
    fn too_many_rejections_print_no_median() {
        let mut m = measurement(&[0.1, 0.2], 3);
        m.too_many_rejected = true;
        let text = block(&run(), &m);
        assert!(
            text.contains("| Median | no median: 3 of 5 samples impossible"),
            "{text}"
        );
        assert!(!text.contains("**"), "{text}");
    }

    #[test]
    fn the_ab_block_carries_the_label_and_both_medians() {
        let a = measurement(&[1.0; 50], 0);
        let b = measurement(&[1.02; 50], 0);
        let c = instrument::compare::compare(a.median().unwrap(), b.median().unwrap(), 0.01);
        let text = ab_block(&run(), "transpose_slow", 10, (&a, &b), Some(&c));
        assert!(
            text.contains("| B against A | **SLOWER**: B - A = +2.00%"),
            "{text}"
        );
        assert!(
            text.contains("| A: Median | **1.00000 ms**") && text.contains("| B: Median | **1.02000 ms**")
        );
    }

    #[test]
    fn a_shell_line_quotes_what_a_shell_would_split_or_expand() {
        let words = ["kernel-timer", "t.cu", "k", "--arg", "f32[8]=random:1", "it's"].map(String::from);
        assert_eq!(
            shell_line(words),
            r"kernel-timer t.cu k --arg 'f32[8]=random:1' 'it'\''s'"
        );
    }
}
