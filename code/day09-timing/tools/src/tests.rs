//! The report's own tests: render and parse agree, the page's transcript
//! is rendered byte for byte, the consistency checks are timing.cu's.

use super::*;
use lesson_spec::LessonReport;

/// The numbers of the lesson page's Tesla T4 transcript (CUDA 13.0 run).
fn t4() -> Report {
    Report {
        gpu_name: "Tesla T4".into(),
        compute_capability: (7, 5),
        device: 0,
        elems: 16_777_827,
        threads_per_block: 256,
        blocks: 65_539,
        warmups: 3,
        runs: 10,
        context_ms: 424.730,
        whole_ms: 1594.357,
        launch_only_ms: 0.005,
        launch_plus_sync_ms: 0.777,
        cold_ms: 0.940,
        warm_ms: 0.768,
        round_trip_ms: 45.362,
        cpu_ms: 18.909,
        scale_cold_ms: 0.618,
        scale_warm_ms: 0.550,
        sweep: vec![
            SweepRow {
                n: 1024,
                cpu_ms: 0.002,
                kernel_ms: 0.004,
                round_trip_ms: 0.028,
            },
            SweepRow {
                n: 65536,
                cpu_ms: 0.067,
                kernel_ms: 0.005,
                round_trip_ms: 0.255,
            },
            SweepRow {
                n: 1_048_576,
                cpu_ms: 1.158,
                kernel_ms: 0.052,
                round_trip_ms: 2.930,
            },
            SweepRow {
                n: 4_194_304,
                cpu_ms: 4.326,
                kernel_ms: 0.195,
                round_trip_ms: 11.331,
            },
        ],
    }
}

#[test]
fn renders_the_lesson_pages_transcript_byte_for_byte() {
    let want = Report::page().unwrap().transcript;
    let got = t4().render();
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got, want);
}

use lesson_spec::numbered_output as body;

#[test]
fn the_pages_figures_are_its_t4_runs() {
    use lesson_spec::Lesson;
    let (source, figures) = lesson_spec::Entry::<Report>::NEW.page_figures().unwrap();
    assert_eq!(source, "the lesson page's Tesla T4 run (CUDA 13.0)");
    assert_eq!(figures, t4().figures());
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let mut report = t4();
    report.device = 3;
    let text = report.render();
    assert_eq!(parse(&body(&text)), Ok(report));
}

// Two runs recorded on the H200 by ci/gpu-session.sh.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "timing.cu",
    printed: [t4().render()],
    evidence: ("2026-11-29T223246Z-h200-cxx.txt", "2026-11-29T223247Z-h200-rust.txt"),
    then: |cxx, rust| {
        assert_eq!(cxx.figures().len(), 10 + 3 * 4);
        assert_eq!(
            (cxx.gpu_name.as_str(), cxx.compute_capability),
            ("NVIDIA H200", (9, 0))
        );
        assert_eq!(
            (&cxx.gpu_name, cxx.elems, cxx.blocks),
            (&rust.gpu_name, rust.elems, rust.blocks)
        );
        assert_eq!((cxx.runs, cxx.warmups), (rust.runs, rust.warmups));
    },
}

#[test]
fn the_context_line_names_the_device_used() {
    let mut r = t4();
    r.device = 1;
    assert!(
        r.render()
            .contains("\ncudaSetDevice(1), the first CUDA call in this process:   424.730 ms\n"),
        "{}",
        r.render()
    );
}

#[test]
fn consistent_timings_pass() {
    assert_eq!(t4().consistency_failure(), None);
}

#[test]
fn a_round_trip_faster_than_its_kernel_is_broken_timing() {
    let mut r = t4();
    r.round_trip_ms = 0.5;
    let msg = r.consistency_failure().unwrap();
    assert_eq!(
        msg,
        "timing broken: copies + kernel (0.500 ms) came out faster than the kernel alone (0.768 ms)"
    );
}

#[test]
fn a_process_shorter_than_a_round_trip_is_broken_timing() {
    let mut r = t4();
    r.whole_ms = 40.0;
    let msg = r.consistency_failure().unwrap();
    assert!(
        msg.starts_with("timing broken: the whole process (40.000 ms)"),
        "{msg}"
    );
}
