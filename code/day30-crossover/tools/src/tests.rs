//! The report's own tests: what the twin renders parses back, and every line
//! is one of crossover.cu's printf formats.

use super::*;
use lesson_spec::numbered_output as body;

/// Known numbers, as a run would print them.
pub(crate) fn known() -> Report {
    let cell = |measured_us: f64, model_us: f64| Cell {
        measured_us,
        model_us,
        error_percent: (100.0 * (measured_us / model_us - 1.0)).round(),
    };
    let kernel = |name: &str, crossovers: Vec<Crossover>| KernelBlock {
        name: name.into(),
        bytes: 12.0,
        ops: 2.0,
        h2d_bytes: 8.0,
        h2d_calls: 2,
        d2h_bytes: 4.0,
        d2h_fixed: 0.0,
        d2h_calls: 1,
        crossovers,
        sizes: vec![
            SizeRow {
                n: 1024,
                cells: vec![
                    cell(0.5, 0.75),
                    cell(4.5, 4.25),
                    cell(30.0, 25.0),
                    cell(40.0, 45.0),
                ],
            },
            SizeRow {
                n: 16_777_216,
                cells: vec![
                    cell(16000.0, 15000.0),
                    cell(55.0, 52.25),
                    cell(4100.0, 4000.0),
                    cell(25000.0, 24000.0),
                ],
            },
        ],
    };
    let x = |predicted: Option<f64>, measured: Option<f64>| Crossover { predicted, measured };
    Report {
        gpu: "Test GPU (compute capability 9.0)".into(),
        constants: Constants {
            floor_us: 4.25,
            floor_calls: 15,
            gpu_gb_s: 4200.5,
            gpu_bw_mib: 256,
            gpu_gops: 60000.5,
            gpu_rate_chains: 8,
            copies: vec![
                CopyCost {
                    fixed_us: 8.5,
                    gb_s: 52.25,
                },
                CopyCost {
                    fixed_us: 7.5,
                    gb_s: 50.5,
                },
                CopyCost {
                    fixed_us: 12.75,
                    gb_s: 10.25,
                },
                CopyCost {
                    fixed_us: 11.5,
                    gb_s: 9.5,
                },
            ],
            copy_small_kib: 4,
            copy_large_mib: 64,
            cpu_gb_s: 12.25,
            cpu_bw_mib: 64,
            cpu_gops: 3.125,
            cpu_chain: 16,
        },
        sweep_min: 16,
        sweep_max: 16_777_216,
        kernels: vec![
            kernel(
                "saxpy",
                vec![
                    x(Some(4500.0), Some(8192.0)),
                    x(Some(40000.0), Some(131072.0)),
                    x(None, None),
                ],
            ),
            kernel(
                "poly64",
                vec![
                    x(Some(120.0), Some(128.0)),
                    x(Some(900.0), Some(1024.0)),
                    x(Some(2000.0), Some(2048.0)),
                ],
            ),
        ],
        learner: Learner {
            bytes: 8.0,
            ops: 32.0,
            in_bytes: 4.0,
            out_bytes: 4.0,
            rows: vec![
                LearnerRow {
                    predicted: Some(700.0),
                    gpu_ns: 0.0019,
                    cpu_ns: 10.25,
                },
                LearnerRow {
                    predicted: Some(800.0),
                    gpu_ns: 0.16,
                    cpu_ns: 10.25,
                },
                LearnerRow {
                    predicted: None,
                    gpu_ns: 12.5,
                    cpu_ns: 10.25,
                },
            ],
        },
    }
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let text = known().render();
    assert_eq!(parse(&body(&text)), Ok(known()));
}

#[test]
fn a_crossover_prints_as_its_n_or_never() {
    assert_eq!(crossover_text(Some(725_059.0)), "725059");
    assert_eq!(crossover_text(None), "never");
}

#[test]
fn the_known_report_holds_every_claim() {
    let r = known();
    let run = lesson_spec::Run {
        report: &r,
        environment: "",
    };
    for claim in <Report as LessonReport>::claims() {
        let outcome = (claim.check)(&run, &[run]);
        let planted = lesson_spec::planted(claim, &run, &[run]);
        assert!(
            matches!(outcome, lesson_spec::Outcome::Holds(_)),
            "{}: {outcome:?}",
            claim.id
        );
        assert!(
            !matches!(planted, lesson_spec::Outcome::Holds(_)),
            "{} holds planted",
            claim.id
        );
    }
}

lesson_spec::conformance_tests! {
    report: Report,
    cu: "crossover.cu",
    printed: [known().render()],
    evidence: ("2026-12-04T080111Z-h200-cxx.txt", "2026-12-04T080124Z-h200-rust.txt"),
    then: |cxx, rust| {
        // Both programs printed every kernel, every size and Part 3.
        assert_eq!(cxx.kernels.len(), 5);
        assert_eq!(cxx.figures().len(), rust.figures().len());
    },
}
