//! The report's own tests: what the twin renders parses back, the table
//! is warmup.cu's, the transcripts conform.

use super::*;
use lesson_spec::testkit::conformance;
use lesson_spec::LessonReport;
use lesson_spec::{numbered_output as body, Outcome, ParseFailure, Run};

fn known() -> Report {
    let kernel = |kernel: &str, threads, host: [f64; 4], events: [f64; 4], warm| KernelRows {
        kernel: kernel.into(),
        threads,
        host_ms: host,
        events_ms: events,
        warm_ms: warm,
    };
    Report {
        gpu: "Test GPU (compute capability 9.0)".into(),
        visible_gpus: 2,
        visible_devices: None,
        module_loading: Some("EAGER".into()),
        setup: Setup {
            elems: 10000,
            timed_runs: 10,
            warmup_runs: 3,
            part4_threads: 4,
        },
        first: FirstCall {
            name: "launch".into(),
            call: first_call_text("launch", 0, 40000),
            ms: 412.5,
        },
        mallocs: vec![
            MallocRow {
                bytes: 40000,
                first_ms: 0.25,
                second_ms: 0.0125,
                tenth_ms: 0.01,
            },
            MallocRow {
                bytes: 64 << 20,
                first_ms: 1.5,
                second_ms: 0.5,
                tenth_ms: 0.25,
            },
        ],
        kernels: vec![
            kernel(
                "simple",
                4,
                [2.5, 0.02, 0.0175, 0.015],
                [2.25, 0.005, 0.004, 0.004],
                0.003,
            ),
            kernel("complex", 256, [0.5, 0.25, 0.25, 0.25], [0.4, 0.2, 0.2, 0.2], 0.2),
        ],
        no_sync_host_ms: [0.008, 0.004, 0.003, 0.003],
        no_sync_events_ms: [0.25, 0.2, 0.2, 0.2],
        sync_host_ms: [0.25, 0.25, 0.25, 0.25],
        sync_events_ms: [0.2, 0.2, 0.2, 0.2],
        malloc_run: Some(MallocRun {
            bytes: 40000,
            part2_first: 0x7f12_3400_0000,
            before: 0x7f12_3401_0000,
            calls: (0..6u64)
                .map(|i| RunCall {
                    ms: if i == 3 { 0.125 } else { 0.0055 },
                    address: 0x7f12_3402_0000 + 0xa000 * i + if i >= 3 { 0x20_0000 } else { 0 },
                })
                .collect(),
        }),
        // The post's figures as the closing table prints warmup.cu's kThen*
        // (a launch first), to its three decimals.
        then: Then {
            first_call_ms: 3500.0,
            malloc_ratio: 6.269,
            simple_over_percent: 67.925,
            complex_over_percent: 1.818,
            no_sync_max_ms: 0.021,
            sync_first_ms: 0.272,
        },
    }
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let report = known();
    let text = report.render();
    assert_eq!(parse(&body(&text)).unwrap(), report);
    assert!(text.contains("\nfirst call: launch      emptyKernel<<<1, 1>>>       412.500 ms\n"));
    assert!(text.contains("\nGPUs visible: 2, CUDA_VISIBLE_DEVICES unset, CUDA_MODULE_LOADING=EAGER\n"));
    assert!(text.contains(
        "\nbefore them: Part 2's first at 0x7f1234000000, Part 3's array (the last) at 0x7f1234010000\n"
    ));
    // C's printf is the oracle for warmup.cu's Part 5 row format.
    let row = |args: &[&str]| conformance::c_printf("\n%5d  %10.4f  %#18x  %+14d\n", args);
    assert!(text.contains(&row(&["1", "0.0055", "0x7f1234020000", "65536"])));
    assert!(text.contains(&row(&["4", "0.125", "0x7f123423e000", "2138112"])));
    assert_eq!(report.figures().len(), 1 + 2 * 3 + 2 * 5 + (4 + 2) + 9);
}

#[test]
fn part5_with_a_wrong_distance_names_its_line() {
    let text = known().render().replace("+2138112", "+40960");
    let lines = body(&text);
    let ParseFailure { line: n, message } = parse(&lines).unwrap_err();
    assert!(
        lines.iter().any(|&(m, l)| m == n && l.contains("+40960")),
        "{message}"
    );
    assert!(message.contains("call 4"), "{message}");
}

#[test]
fn the_closing_table_sets_the_posts_figures_beside_this_runs() {
    let rows = known().then_and_now();
    let labels: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(labels[0], "first call (launch), ms");
    assert_eq!(rows[0].1, 3500.0);
    assert_eq!(rows[1].2, 20.0);
    // 2.5 ms against 0.02 ms: 12400% more.
    assert!((rows[2].2 - 12400.0).abs() < 1e-9);
    assert_eq!(rows[2].1, 67.925);
    assert_eq!(rows[4].2, 0.008);
    let text = known().render();
    assert!(text.contains("\nfirst cudaMalloc over second, x                     6.269       20.000\n"));
    // The "then" column is read from the output, the .cu's kThen* as it
    // printed them: a program built with another figure is read with it.
    let edited = text.replace(
        "second, x                     6.269",
        "second, x                     7.125",
    );
    assert_eq!(parse(&body(&edited)).unwrap().then.malloc_ratio, 7.125);
}

#[test]
fn the_headings_print_the_cus_configuration_and_read_it_back() {
    // Parts 3 and 4 say what warmup.cu ran with (kElems, kTimedRuns,
    // kWarmupRuns, its first block size): a build with other constants
    // prints and parses its own, the way a "Try it" edit of the .cu does.
    let mut report = known();
    report.setup = Setup {
        elems: 20000,
        timed_runs: 25,
        warmup_runs: 5,
        part4_threads: 32,
    };
    let text = report.render();
    assert!(text.contains("\nPart 3: the post's kernels, N = 20000 floats, 4 calls each\n"));
    assert!(text.contains("warm = events, mean of 25 after 5 warm-ups\n"));
    assert!(text.contains("\nPart 4: the missing synchronise, complex kernel, 32 threads per block, 4 calls"));
    assert_eq!(parse(&body(&text)).unwrap().setup, report.setup);
}

const CXX: &str = "2026-11-30T051656Z-h200-cxx.txt";

// Two runs recorded on the H200 by ci/gpu-session.sh.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "warmup.cu",
    printed: [known().render()],
    // A run whose first call is a cudaMalloc: the first-call claims
    // name its figure too.
    claim_figures_from: ["2026-11-30T051716Z-h200-cxx-first-malloc.txt"],
    evidence: (CXX, "2026-11-30T051657Z-h200-rust.txt"),
    then: |cxx, rust| {
        // Recorded before Part 5 existed: they parse, without its figures.
        assert_eq!(cxx.figures().len(), 1 + 2 * 3 + 4 * 5 + (4 + 2));
        assert_eq!(cxx.malloc_run, None);
        assert_eq!(cxx.gpu, rust.gpu);
        assert_eq!(cxx.first.name, "set-device");
    },
}

#[test]
fn the_renderer_prints_warmup_cus_lines() {
    // The recorded C++ report, parsed and printed again by the Rust
    // renderer: the same lines, word for word. The numbers themselves
    // may differ in the last digit, since the ratios are recomputed
    // from the printed (rounded) times.
    let text = conformance::evidence_transcript::<Report>(env!("CARGO_MANIFEST_DIR"), CXX);
    let lines = body(&text);
    let printed: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .map(|w| {
                w.chars()
                    .map(|c| if c.is_ascii_digit() { '0' } else { c })
                    .collect()
            })
            .collect()
    };
    assert_eq!(words(&parse(&lines).unwrap().render()), words(&printed));
}

#[test]
fn the_recipe_records_each_first_call_and_eager() {
    let lines = Report::recipe().to_lines();
    for v in [
        "variant first-set-device 5 -- --first set-device",
        "variant first-malloc 5 -- --first malloc",
        "variant first-launch 5 -- --first launch",
        "variant eager 5 CUDA_MODULE_LOADING=EAGER",
        "sanitizer memcheck",
    ] {
        assert!(lines.lines().any(|l| l == v), "{v} missing from\n{lines}");
    }
}

fn outcome(id: &str, run: &Report, peers: &[&Report]) -> Outcome {
    let claim = Report::claims().iter().find(|c| c.id == id).unwrap();
    let runs: Vec<Run<Report>> = peers
        .iter()
        .map(|report| Run {
            report: *report,
            environment: "",
        })
        .collect();
    (claim.check)(
        &Run {
            report: run,
            environment: "",
        },
        &runs,
    )
}

fn with_first(name: &str, ms: f64, gpus: u32, visible: Option<&str>) -> Report {
    let mut r = known();
    r.module_loading = None;
    r.first.name = name.into();
    r.first.ms = ms;
    r.visible_gpus = gpus;
    r.visible_devices = visible.map(String::from);
    r
}

#[test]
fn the_gpu_count_claim_needs_both_groups() {
    let id = "wu-gpus-first-call-per-gpu";
    let two = with_first("set-device", 620.0, 2, None);
    let one = with_first("set-device", 230.0, 1, Some("0"));
    let host_with_one = with_first("set-device", 230.0, 1, None);
    // A one-GPU transcript, or two GPUs with no limited runs beside them.
    assert_eq!(
        outcome(id, &host_with_one, &[&host_with_one]),
        Outcome::NotApplicable
    );
    assert_eq!(outcome(id, &two, &[&two, &host_with_one]), Outcome::NotApplicable);
    assert!(outcome(id, &two, &[&two, &one]).holds());
    let close = with_first("set-device", 300.0, 2, None);
    assert!(matches!(outcome(id, &close, &[&close, &one]), Outcome::Fails(..)));
    // Only runs with the same first call are compared.
    let malloc = with_first("malloc", 230.0, 1, Some("0"));
    assert_eq!(outcome(id, &two, &[&two, &malloc]), Outcome::NotApplicable);
}

#[test]
fn whichever_first_call_compares_with_the_other_calls() {
    let id = "wu-post-first-call-whichever";
    let set = with_first("set-device", 400.0, 1, None);
    assert_eq!(outcome(id, &set, &[&set]), Outcome::NotApplicable);
    let launch = with_first("launch", 450.0, 1, None);
    assert!(outcome(id, &set, &[&set, &launch]).holds());
    let slow = with_first("malloc", 1000.0, 1, None);
    assert!(matches!(outcome(id, &set, &[&set, &slow]), Outcome::Fails(..)));
}

#[test]
fn eager_is_compared_with_lazy_runs_of_the_same_first_call() {
    let id = "wu-eager-warms-first-launch";
    let eager = with_first("set-device", 400.0, 1, None);
    let eager = Report {
        module_loading: Some("EAGER".into()),
        ..eager
    };
    let mut lazy = with_first("set-device", 400.0, 1, None);
    lazy.kernels[0].host_ms[0] = 3.0;
    assert_eq!(outcome(id, &lazy, &[&lazy, &eager]), Outcome::NotApplicable);
    assert_eq!(outcome(id, &eager, &[&eager]), Outcome::NotApplicable);
    assert!(outcome(id, &eager, &[&eager, &lazy]).holds());
    lazy.kernels[0].host_ms[0] = 2.0;
    assert!(matches!(
        outcome(id, &eager, &[&eager, &lazy]),
        Outcome::Fails(..)
    ));
}

#[test]
fn one_run_checks_the_posts_claims_on_its_own_numbers() {
    let mut r = with_first("set-device", 412.5, 1, None);
    r.kernels[0].host_ms = [0.089, 0.053, 0.051, 0.051];
    let alone = |id: &str, r: &Report| outcome(id, r, &[r]);
    assert!(matches!(
        alone("wu-post-first-call-seconds", &r),
        Outcome::Fails(..)
    ));
    assert!(alone("wu-post-first-malloc-8x", &r).holds());
    assert!(alone("wu-post-simple-first-launch-68", &r).holds());
    assert!(alone("wu-post-no-sync-reads-launch", &r).holds());
    assert_eq!(alone("wu-post-first-call-whichever", &r), Outcome::NotApplicable);
    r.first.name = "malloc".into();
    assert_eq!(alone("wu-post-first-malloc-8x", &r), Outcome::NotApplicable);
    r.first.name = "launch".into();
    assert_eq!(
        alone("wu-post-simple-first-launch-68", &r),
        Outcome::NotApplicable
    );
}
