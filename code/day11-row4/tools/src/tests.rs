//! The report's own tests: render and parse agree, the lines are printf's,
//! the peak check is row4.cu's, a run under ncu reads its counters, the
//! claims hold on planted numbers and fail on planted faults.

use super::*;
use lesson_spec::numbered_output as body;
use lesson_spec::testkit::conformance;
use lesson_spec::LessonReport;
use lesson_spec::{Outcome, Run};

const ELEMS: usize = 16_777_827;

fn rate(bytes: f64, n: usize, ms: f64) -> Rate {
    Rate {
        ms,
        gb_s: gb_s(bytes, n, ms as f32),
    }
}

/// H200-like numbers that hold every timing claim, as the programs would
/// print them (rendered, then parsed back: every number at its printed
/// precision).
pub(crate) fn planted() -> Report {
    let sizes = [
        65_536usize,
        131_072,
        262_144,
        524_288,
        1_048_576,
        2_097_152,
        4_194_304,
        8_388_608,
        16_777_216,
        ELEMS,
    ];
    let l2 = 60.0 * 1024.0 * 1024.0;
    let sweep = sizes
        .iter()
        .map(|&n| {
            let bytes = 12 * n;
            let in_l2 = bytes as f64 <= l2;
            // Inside the L2: 6 TB/s; outside: 3.3 TB/s.
            let ms = bytes as f64 / if in_l2 { 6.0e9 } else { 3.3e9 };
            SweepRow {
                n,
                arrays_mib: bytes as f64 / (1024.0 * 1024.0),
                in_l2,
                ms,
                gb_s: gb_s(12.0, n, ms as f32),
            }
        })
        .collect();
    let report = Report {
        gpu: "NVIDIA H200 (compute capability 9.0)".into(),
        elems: ELEMS,
        threads_per_block: 256,
        l2_mib: 60.0,
        runs: 10,
        warmups: 3,
        peak: Some(Peak {
            memory_clock_mhz: 3201,
            bus_width_bits: 6144,
            gb_s: 4917.1,
        }),
        row4: rate(12.0, ELEMS, 0.0610),
        memcpy: rate(8.0, ELEMS, 0.0420),
        copy: rate(8.0, ELEMS, 0.0380),
        add4: rate(12.0, ELEMS, 0.0560),
        sweep,
        flush_mib: 120.0,
        each: rate(12.0, ELEMS, 0.0612),
        cold: rate(12.0, ELEMS, 0.0615),
        ncu: None,
    };
    parse(&body(&report.render())).unwrap()
}

fn outcome(id: &str, r: &Report) -> Outcome {
    let claim = claims::CLAIMS.iter().find(|c| c.id == id).unwrap();
    let run = Run {
        report: r,
        environment: "",
    };
    (claim.check)(&run, &[run])
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let r = planted();
    assert_eq!(parse(&body(&r.render())), Ok(r.clone()));
    assert_eq!(r.sweep.len(), 10);
    assert_eq!(r.sweep.iter().filter(|s| s.in_l2).count(), 7);
    assert_eq!(r.gpu_name(), "NVIDIA H200");
}

#[test]
fn the_report_reads_as_row4_cu_prints_it() {
    let text = planted().render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "n = 16777827 floats, 64.0 MiB per buffer, 256 threads/block; L2 cache 60.0 MiB"
    );
    assert_eq!(
        lines[6],
        "  3201 MHz memory clock x 2 (double data rate) x 6144-bit bus = 4917.1 GB/s"
    );
    let row = conformance::c_printf(
        "  %-44s %9.5f %9.1f %7.1f%%\n",
        &[
            "row 4: vectorAdd, 12 bytes per element",
            "0.0610",
            "3300.6",
            "67.1",
        ],
    );
    assert!(text.contains(&row), "{row:?} in\n{text}");
    let r = planted();
    let s = &r.sweep[0];
    let args = [
        s.n.to_string(),
        s.arrays_mib.to_string(),
        "yes".into(),
        s.ms.to_string(),
        s.gb_s.to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sweep = conformance::c_printf("%12zu %16.1f %6s %11.5f %9.1f\n", &args);
    assert_eq!(sweep, format!("{}\n", lines[16]));
}

#[test]
fn without_a_peak_the_figure_is_not_available_and_parses_back() {
    let mut r = planted();
    r.peak = None;
    let text = r.render();
    assert!(text.contains("\n  not available: the device reports no memory clock or bus width\n\n"));
    let row = conformance::c_printf(
        "  %-44s %9.5f %9.1f %8s\n",
        &["row 4: vectorAdd, 12 bytes per element", "0.061", "3300.6", "-"],
    );
    assert!(text.contains(&row), "{row:?} in\n{text}");
    assert_eq!(parse(&body(&text)), Ok(r.clone()));
    assert_eq!(r.peak_failure(), None);
    assert_eq!(outcome("d11-below-theoretical-peak", &r), Outcome::NotApplicable);
}

#[test]
fn a_rate_above_the_peak_past_the_l2_is_a_measurement_error() {
    let mut r = planted();
    assert_eq!(r.peak_failure(), None);
    // Inside the L2 a rate above the peak is the point, not an error.
    assert!(r.sweep[0].gb_s > 4917.1);
    r.copy.gb_s = 5000.0;
    assert_eq!(
        r.peak_failure().as_deref(),
        Some("measurement error: copy kernel at 5000.0 GB/s exceeds the theoretical peak of 4917.1 GB/s")
    );
    let mut r = planted();
    r.sweep[8].gb_s = 4917.2;
    assert_eq!(
        r.peak_failure().as_deref(),
        Some("measurement error: a sweep row past the L2 at 4917.2 GB/s exceeds the theoretical peak of 4917.1 GB/s")
    );
    assert!(
        matches!(outcome("d11-below-theoretical-peak", &r), Outcome::Fails(why, _) if why.contains("sweep n = 16777216 4917.2 GB/s"))
    );
}

#[test]
fn a_claim_over_sweep_rows_names_every_one() {
    // One row more than row4.cu has today: the claim names it too.
    let mut r = planted();
    let mut extra = r.sweep[0].clone();
    extra.n = 32 * 1024;
    r.sweep.insert(0, extra);
    let labels: Vec<String> = r.figures().into_iter().map(|f| f.0).collect();
    let rates: Vec<&String> = labels
        .iter()
        .filter(|l| l.starts_with("sweep n=") && l.ends_with(", GB/s"))
        .collect();
    assert_eq!(rates.len(), 11);
    let claim = claims::CLAIMS
        .iter()
        .find(|c| c.id == "d11-small-n-measures-the-cache")
        .unwrap();
    let named: Vec<&String> = labels
        .iter()
        .filter(|l| {
            claim.figures[1..]
                .iter()
                .any(|p| lesson_spec::figure_matches(p, l))
        })
        .collect();
    assert_eq!(named, rates);
}

#[test]
fn the_planted_report_holds_every_timing_claim() {
    let r = planted();
    for c in claims::CLAIMS {
        let got = outcome(c.id, &r);
        let ncu_only = c.id == "d11-bytes-are-twelve";
        assert_eq!(got == Outcome::NotApplicable, ncu_only, "{}", c.id);
        assert!(ncu_only || matches!(got, Outcome::Holds(_)), "{}: {got:?}", c.id);
    }
}

#[test]
fn each_timing_claim_fails_on_its_own_fault() {
    let mut r = planted();
    r.row4.gb_s = 0.74 * r.copy.gb_s;
    assert!(
        matches!(outcome("d11-row4-near-copy-ceiling", &r), Outcome::Fails(why, _) if why.contains("is 74.0% of the copy kernel's"))
    );

    let mut r = planted();
    r.add4.gb_s = r.row4.gb_s + 0.02 * r.copy.gb_s;
    assert!(
        matches!(outcome("d11-vector-loads-help", &r), Outcome::Fails(why, _) if why.contains(": 2.0% of the copy kernel's"))
    );

    let mut r = planted();
    r.sweep[0].gb_s = 1200.0;
    assert!(matches!(
        outcome("d11-small-n-measures-the-cache", &r),
        Outcome::Fails(why, _) if why == "at or below the peak of 4917.1 GB/s inside the L2: n = 65536: 1200 GB/s"
    ));

    let mut r = planted();
    r.cold.ms = r.row4.ms * 1.025;
    assert!(
        matches!(outcome("d11-cold-cache-at-full-n", &r), Outcome::Fails(why, _) if why.contains("+2.5%"))
    );
    r.cold.ms = r.row4.ms * 0.975;
    assert!(
        matches!(outcome("d11-cold-cache-at-full-n", &r), Outcome::Fails(why, _) if why.contains("-2.5%"))
    );
}

/// ncu's CSV as `ncu --csv --print-units base` writes it, for `launches`
/// of (grid, read bytes, written bytes, ns).
fn ncu_csv(launches: &[(u64, u64, u64, u64)]) -> String {
    let mut s = String::from(
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
    );
    for (id, (grid, read, write, ns)) in launches.iter().enumerate() {
        for (metric, unit, v) in [
            ("dram__bytes_read.sum", "byte", read),
            ("dram__bytes_write.sum", "byte", write),
            ("gpu__time_duration.sum", "ns", ns),
        ] {
            // Thousands separators, as ncu prints them.
            let digits = v.to_string();
            let mut grouped = String::new();
            for (i, ch) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i) % 3 == 0 {
                    grouped.push(',');
                }
                grouped.push(ch);
            }
            s.push_str(&format!(
                "\"{id}\",\"659\",\"row4\",\"127.0.0.1\",\"vectorAdd(const float *, const float *, float *, unsigned long)\",\"1\",\"7\",\"(256, 1, 1)\",\"({grid}, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"{metric}\",\"{unit}\",\"{grouped}\"\n"
            ));
        }
    }
    s
}

fn under_ncu(csv: &str) -> String {
    let report = planted().render();
    format!(
        "==WARNING== Note: Running with unmodified GPU clocks.\n==PROF== Connected to process 659 (/tmp/row4)\n{report}==PROF== Disconnected from process 659\n{csv}"
    )
}

#[test]
fn a_run_under_ncu_reads_its_dram_counters() {
    let bytes = 12 * ELEMS as u64;
    let text = under_ncu(&ncu_csv(&[
        (65_539, bytes * 2 / 3, bytes / 3, 61_000),
        (65_539, bytes * 2 / 3 + 1_000_000, bytes / 3 - 3_000_000, 60_000),
    ]));
    let r = parse(&body(&text)).unwrap();
    let ncu = r.ncu.as_ref().unwrap();
    assert_eq!(ncu.launches.len(), 2);
    assert_eq!(ncu.launches[0].bytes_per_element(ELEMS), 12.0);
    assert_eq!(ncu.launches[1].duration_ns, 60_000.0);
    assert!(matches!(outcome("d11-bytes-are-twelve", &r), Outcome::Holds(_)));
    // Under the profiler, the timing claims say nothing.
    assert_eq!(outcome("d11-row4-near-copy-ceiling", &r), Outcome::NotApplicable);
    assert_eq!(outcome("d11-cold-cache-at-full-n", &r), Outcome::NotApplicable);
    let figures = r.figures();
    assert!(figures.contains(&("ncu profiled launches".to_string(), 2.0)));
    let per_element = |which: &str| {
        let label = format!("ncu DRAM bytes per element, {which}");
        figures.iter().find(|f| f.0 == label).map(|f| f.1)
    };
    assert_eq!(per_element("largest"), Some(12.0));
    assert_eq!(
        per_element("smallest"),
        Some(ncu.launches[1].bytes_per_element(ELEMS))
    );
}

#[test]
fn bytes_per_element_off_by_three_percent_fail_by_launch() {
    let n = ELEMS as u64;
    let text = under_ncu(&ncu_csv(&[
        (65_539, 8 * n, 4 * n, 61_000),
        (65_539, 8 * n, 3 * n, 61_000),
    ]));
    let r = parse(&body(&text)).unwrap();
    assert!(matches!(
        outcome("d11-bytes-are-twelve", &r),
        Outcome::Fails(why, _)
            if why == "DRAM bytes per element off 12 by 3% or more: launch 1: 11.000 (read 8.000, written 3.000)"
    ));
}

#[test]
fn an_ncu_launch_that_is_not_full_n_is_refused() {
    let text = under_ncu(&ncu_csv(&[(65_539, 1, 1, 1), (256, 1, 1, 1)]));
    let err = parse(&body(&text)).unwrap_err();
    assert!(
        err.message.contains("a launch of 256 blocks, not full n's 65539"),
        "{err:?}"
    );
}

// The first plain pair of the lesson's first H200 session.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "row4.cu",
    printed: [planted().render()],
    // A run under ncu: the bytes-per-element claim reads its counters.
    claim_figures_from: ["2026-12-01T213049Z-h200-cxx-ncu.txt"],
    evidence: ("2026-12-01T213037Z-h200-cxx.txt", "2026-12-01T213037Z-h200-rust.txt"),
    then: |cxx, rust| assert_eq!(cxx.gpu, rust.gpu),
}

/// A line with text after what the .cu prints (a doctored transcript) is
/// refused, naming its line: each line is read whole, with the template it
/// is printed with, not picked apart word by word.
#[test]
fn a_line_with_text_after_what_the_cu_prints_is_refused_by_its_number() {
    let report = planted().render();
    for (line, doctored) in [
        ("Times are means of ", " and 2 more"),
        ("  row 4: vectorAdd, 12 bytes per element", " 5.0"),
    ] {
        let at = report.lines().position(|l| l.starts_with(line)).unwrap();
        let text: Vec<String> = report
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == at {
                    format!("{l}{doctored}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let err = parse(&body(&text.join("\n"))).unwrap_err();
        assert_eq!(err.line, at + 1, "{err}");
    }
}
