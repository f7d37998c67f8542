//! The report's own tests: what the twin renders parses back, each part's
//! lines are events.cu's, the transcripts conform.

use super::*;
use lesson_spec::LessonReport;
use lesson_spec::{numbered_output as body, ParseFailure};
use parts::{
    Case, Inside, Launch, LaunchRow, Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8, Spread, Wait,
};

/// A report whose numbers all print exactly at the program's precision.
fn known() -> Report {
    Report {
        gpu: "Test GPU (compute capability 9.0)".into(),
        launch: Part1 {
            reps: 20,
            rows: [(0.01, 3.1, 15.2), (1.0, 3.0, 1010.3), (10.0, 3.2, 10012.1)]
                .into_iter()
                .map(|(kernel_ms, launch_us, sync_us)| LaunchRow {
                    kernel_ms,
                    launch_us,
                    sync_us,
                })
                .collect(),
        },
        spread: Part2 {
            kernel_ms: 0.1,
            reps: 50,
            events: Spread {
                median_ms: 0.1002,
                iqr_ms: 0.0001,
            },
            events_sync: Spread {
                median_ms: 0.1064,
                iqr_ms: 0.0014,
            },
            host: Spread {
                median_ms: 0.1123,
                iqr_ms: 0.0041,
            },
        },
        wait: Part3 {
            kernel_ms: 50.0,
            reps: 5,
            spin: Wait {
                wait_ms: 50.123,
                cpu_ms: 50.001,
                latency_us: 12.3,
                after_calls_us: Some(-1.5),
            },
            blocking: Wait {
                wait_ms: 50.2,
                cpu_ms: 0.301,
                latency_us: 80.1,
                after_calls_us: Some(70.4),
            },
        },
        disable_timing: Part4 {
            rounds: 5,
            ops: 1000,
            chain: 100,
            host_timing_us: 1.234,
            host_disabled_us: 1.0,
            chain_none_us: 2.1,
            chain_timing_us: 2.3,
            chain_disabled_us: 2.2,
        },
        cross_stream: Part5 {
            producer_ms: 5.0,
            reps: 5,
            issue_ms: 0.021,
            gap_ms: 0.003,
        },
        interval: Part6 {
            kernel_ms: 1.0,
            reps: 3,
            queued: Case {
                extra_ms: 5.0,
                interval_ms: 1.01,
            },
            delayed: Case {
                extra_ms: 3.0,
                interval_ms: 4.02,
            },
            competing: Case {
                extra_ms: 5.0,
                interval_ms: 6.01,
            },
        },
        boost: Part7 {
            cycles: 200000,
            idle_ms: 1500.0,
            idle_mhz: 1980,
            launches: (0..20)
                .map(|i| Launch {
                    ms: if i < 3 { 0.1201 } else { 0.101 },
                    mhz: if i < 3 { 1500 } else { 1980 },
                    inside: Some(Inside {
                        kernel_ms: 0.1005,
                        call_us: if i == 0 { 40.5 } else { 4.5 },
                    }),
                })
                .collect(),
        },
        pattern: Part8 {
            cycles: 200000,
            page_ms: 0.101,
            time_kernel_ms: 0.1012,
        },
    }
}

/// The whole report as the Rust twin prints it.
fn rendered(r: &Report) -> String {
    [
        render::gpu_line("Test GPU", (9, 0)),
        render::part1(&r.launch),
        render::part2(&r.spread),
        render::part3(&r.wait),
        render::part4(&r.disable_timing),
        render::part5(&r.cross_stream),
        render::part6(&r.interval),
        render::part7(&r.boost),
        render::part8(&r.pattern, 100, 3, 10),
    ]
    .join("\n")
}

/// The known report with every verdict failing, so that the printf
/// check sees both words of each.
fn failing() -> String {
    let mut r = known();
    r.launch.rows[0].launch_us = 99.0;
    r.spread.events.iqr_ms = 1.0;
    r.wait.blocking.cpu_ms = 50.0;
    r.wait.blocking.latency_us = 0.0;
    r.disable_timing.host_disabled_us = 9.0;
    r.cross_stream.gap_ms = -1.0;
    r.interval.delayed.interval_ms = 1.0;
    r.boost
        .launches
        .iter_mut()
        .for_each(|l| (l.ms, l.mhz) = (1.0, 1980));
    r.pattern.page_ms = 2.0;
    let failing = rendered(&r);
    assert!(failing.matches("does not hold").count() >= 11, "{failing}");
    failing
}

// Two runs recorded on the H200 by ci/gpu-session.sh.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "events.cu",
    printed: [rendered(&known()), failing()],
    evidence: ("2026-11-30T051623Z-h200-cxx.txt", "2026-11-30T051626Z-h200-rust.txt"),
    then: |cxx, rust| {
        // Recorded before the `after calls` and Part 7's kernel and call
        // columns: they parse, without those figures.
        assert_eq!(cxx.figures().len(), 3 * 2 + 28);
        assert_eq!(cxx.gpu, rust.gpu);
        assert_eq!(cxx.boost.launches.len(), 20);
        assert!(!cxx.boost.has_inside());
        assert_eq!(cxx.wait.blocking.after_calls_us, None);
    },
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let want = known();
    let got = parse(&body(&rendered(&want))).unwrap();
    assert_eq!(got, want);
}

#[test]
fn the_known_report_holds_every_claim_but_the_queued_one() {
    let r = known();
    let run = lesson_spec::Run {
        report: &r,
        environment: "",
    };
    let failing: Vec<&str> = Report::claims()
        .iter()
        .filter(|c| !(c.check)(&run, &[run]).holds())
        .map(|c| c.id)
        .collect();
    assert_eq!(failing, ["ev-queued-ahead-inside"]);
    assert!(rendered(&r).contains("verdict, queued ahead: does not hold"));
}

#[test]
fn a_report_with_the_newer_columns_has_their_figures() {
    let figures = known().figures();
    assert_eq!(figures.len(), 3 * 2 + 28 + 2 + 4);
    let get = |name: &str| figures.iter().find(|f| f.0 == name).map(|f| f.1);
    assert_eq!(
        get("blocking wait after the calls less the kernel, us (signed)"),
        Some(70.4)
    );
    assert_eq!(get("launch 1 after idle, ms"), Some(0.1201));
    assert_eq!(get("launch 1 after idle, kernel ms"), Some(0.1005));
    assert_eq!(get("launch 1 after idle, launch call us"), Some(40.5));
    assert_eq!(get("steady launches, launch call us"), Some(4.5));
    assert_eq!(get("launches 2 and 3 after idle, ms"), Some(0.1201));
}

#[test]
fn a_transcript_with_the_newer_columns_parses_and_prints_back() {
    // known-rendered.txt is the renderer's own output under a
    // transcript header; its Part 3 and Part 7 carry the new columns.
    let text = include_str!("../tests/fixtures/known-rendered.txt");
    let got = parse(&body(text)).unwrap();
    assert!(got.boost.has_inside());
    assert_eq!(got.wait.spin.after_calls_us, Some(-1.5));
    assert_eq!(got.boost.launches[0].inside.map(|i| i.call_us), Some(40.5));
}

#[test]
fn the_renderer_prints_the_known_numbers_as_recorded_here() {
    // `rendered(&known())` under a transcript header, kept to see a
    // change in the renderer's layout as a diff.
    let text = include_str!("../tests/fixtures/known-rendered.txt");
    let printed: Vec<&str> = body(text).iter().map(|l| l.1).collect();
    let want = rendered(&known()).replace("Test GPU", "NVIDIA H200");
    assert_eq!(printed.join("\n").trim_end(), want);
}

#[test]
fn claims_reads_the_report_as_the_twin_prints_it() {
    // Printed::line writes each rendered part and a newline, as here.
    let printed = rendered(&known()) + "\n";
    let block = lesson_spec::claims_block::<Report>(&printed, "Test GPU", "").unwrap();
    assert_eq!(block.unexpected_failures, 1, "{}", block.text);
    assert!(
        block.text.contains("DOES NOT HOLD  ev-queued-ahead-inside"),
        "{}",
        block.text
    );
}

#[test]
fn a_report_cut_short_names_the_line_where_it_ends() {
    let text = rendered(&known());
    let cut: Vec<&str> = text.lines().take_while(|l| !l.starts_with("Part 7")).collect();
    let cut = cut.join("\n");
    let lines = body(&cut);
    let ParseFailure { line, message } = parse(&lines).unwrap_err();
    assert_eq!(line, lines.len() + 1, "{message}");
    assert!(message.contains("Part 7"), "{message}");
}

#[test]
fn the_boost_charts_plot_every_launch_of_every_run() {
    let (a, mut b) = (known(), known());
    b.boost.launches[0].ms = 0.2;
    let charts = Report::charts("cxx", &[&a, &b], &[]);
    assert_eq!(charts.len(), 2);
    let points = &charts[0].series[0].points;
    assert_eq!(points.len(), 20);
    assert_eq!(points[0], (1.0, vec![0.1201, 0.2]));
    assert_eq!(charts[0].series[1].points[0], (1.0, vec![0.1005, 0.1005]));
    assert_eq!(charts[1].series[0].points[19], (20.0, vec![1980.0, 1980.0]));
}
