//! The report's own tests: render and parse agree, the rows are printf's,
//! the decisions are blocks.cu's, the recipe is the documented line.

use super::*;
use lesson_spec::numbered_output as body;
use lesson_spec::testkit::conformance;
use lesson_spec::LessonReport;

const ELEMS: usize = 16_777_827;
const SIZES: [u32; 11] = [32, 64, 96, 100, 128, 192, 256, 384, 512, 768, 1024];

/// A row of `threads` at `mean_ms`, 0.5% spread, set against `best_ms`;
/// the word in the last column is the twin's to decide, so any will do.
fn row(threads: u32, mean_ms: f64, best_ms: f64, work: f64) -> Row {
    let warps = threads.div_ceil(32);
    let blocks = (2048 / (warps * 32)).min(32);
    Row {
        threads,
        blocks_per_sm: blocks,
        occupancy_pct: f64::from(blocks * warps) / 64.0 * 100.0,
        mean_ms,
        spread_pct: 0.5,
        rate: work * ELEMS as f64 / (mean_ms * 1.0e6),
        vs_best_pct: (mean_ms / best_ms - 1.0) * 100.0,
        noise: if mean_ms == best_ms {
            Noise::Best
        } else {
            Noise::Outside
        },
    }
}

fn table(means: [f64; 11], suggested: f64, work: f64) -> Table {
    let best = means.iter().copied().fold(f64::INFINITY, f64::min);
    Table {
        rows: SIZES
            .iter()
            .zip(means)
            .map(|(&t, m)| row(t, m, best, work))
            .collect(),
        suggested: Row {
            noise: Noise::Within,
            ..row(1024, suggested, best, work)
        },
    }
}

/// A report with plausible H200-like numbers that holds every claim, as
/// the programs would print it (rendered, then parsed back, so every
/// number is at its printed precision).
pub(crate) fn planted() -> Report {
    let report = Report {
        gpu: "NVIDIA H200 (compute capability 9.0)".into(),
        sms: 132,
        max_threads_per_sm: 2048,
        max_blocks_per_sm: 32,
        elems: ELEMS,
        repeats: 5,
        runs: 10,
        warmups: 3,
        vector_add: table(
            [
                0.0900, 0.0650, 0.0640, 0.0645, 0.0610, 0.0608, 0.0606, 0.0607, 0.0609, 0.0612, 0.0615,
            ],
            0.0614,
            VECTOR_ADD_BYTES_PER_ELEMENT,
        ),
        fma_chains: 8,
        fma_steps: 256,
        fma: table(
            [1.10, 1.06, 1.05, 1.36, 1.04, 1.04, 1.035, 1.04, 1.045, 1.05, 1.06],
            1.06,
            4096.0,
        ),
    };
    parse(&body(&report.render())).unwrap()
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let r = planted();
    assert_eq!(parse(&body(&r.render())), Ok(r.clone()));
    assert_eq!(r.vector_add.rows.len(), 11);
    assert_eq!(r.gpu_name(), "NVIDIA H200");
    let best = r.vector_add.best().unwrap();
    assert_eq!(
        (best.threads, best.mean_ms, best.noise),
        (256, 0.0606, Noise::Best)
    );
}

#[test]
fn the_report_reads_as_blocks_cu_prints_it() {
    let text = planted().render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "GPU: NVIDIA H200 (compute capability 9.0)");
    assert_eq!(
        lines[1],
        "132 SMs, each holding at most 2048 threads and 32 blocks"
    );
    assert_eq!(
        lines[2],
        "n = 16777827 elements; each configuration is timed 5 times with timeKernel,"
    );
    assert_eq!(lines[3], "each a mean of 10 runs after 3 warm-ups");
    assert_eq!(lines[5], "vectorAdd, 12 bytes per element (memory-bound)");
    assert!(text.contains("\nfmaChains, 8 chains x 256 FMAs = 4096 flops per element (compute-bound)\n"));
    assert!(text.ends_with(
        "the larger of the two spreads: a difference smaller than the spread\nis no difference.\n"
    ));
}

/// blocks.cu's printf formats, through printf(1), against the renderer.
#[test]
fn rows_and_headers_are_blocks_cus_printf_lines() {
    let r = planted();
    let text = r.render();
    let header = conformance::c_printf(
        "%8s %10s %10s %11s %8s %9s %9s  %s\n",
        &[
            "threads",
            "blocks/SM",
            "occupancy",
            "mean (ms)",
            "spread",
            "GB/s",
            "vs best",
            "within noise",
        ],
    );
    assert!(text.contains(&header), "{header:?}");
    for row in r.vector_add.rows.iter().chain([&r.vector_add.suggested]) {
        let args = [
            row.threads.to_string(),
            row.blocks_per_sm.to_string(),
            row.occupancy_pct.to_string(),
            row.mean_ms.to_string(),
            row.spread_pct.to_string(),
            row.rate.to_string(),
            row.vs_best_pct.to_string(),
            row.noise.word().to_string(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let want = conformance::c_printf("%8d %10d %9.1f%% %11.5f %7.2f%% %9.1f %+8.1f%%  %s\n", &args);
        assert!(text.contains(&want), "{want:?} not in\n{text}");
    }
}

#[test]
fn a_row_with_a_cell_missing_names_its_line() {
    let text = planted().render().replacen("  best\n", "\n", 1);
    let err = parse(&body(&text)).unwrap_err();
    assert_eq!(err.line, 14, "{err:?}");
    assert!(err.message.contains("%  {}\", got \"     256 "), "{err:?}");
}

// The first plain pair of the lesson's first H200 session.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "blocks.cu",
    printed: [planted().render()],
    evidence: ("2026-12-01T213005Z-h200-cxx.txt", "2026-12-01T213007Z-h200-rust.txt"),
    then: |cxx, rust| assert_eq!(cxx.gpu, rust.gpu),
}

#[test]
fn figures_name_every_configuration_once() {
    let f = planted().figures();
    assert_eq!(f.len(), 2 * (11 * 3 + 4));
    let mut labels: Vec<&str> = f.iter().map(|(l, _)| l.as_str()).collect();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), f.len());
    assert!(f.contains(&("vectorAdd 256 threads, ms".to_string(), 0.0606)));
}
