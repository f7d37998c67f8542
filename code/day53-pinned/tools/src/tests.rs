//! The report's own tests: what the twin renders parses back, the
//! transcripts conform, the reference tool's output parses.

use super::*;
use lesson_spec::testkit::conformance;
use lesson_spec::LessonReport;
use lesson_spec::ReferenceOutput;

use lesson_spec::numbered_output as body;

const ELEMS: usize = 16 * 1024 * 1024 + 611;

/// Every part of the report, as the twin renders it, for known numbers.
fn rendered() -> String {
    let elems = ELEMS;
    [
        render::gpu_line("Test GPU", (9, 0)),
        render::part1_header(10, 3),
        render::part1_row(1, 0.090, 0.028),
        render::part1_row(256, 40.734, 4.865),
        render::part2_header(10),
        render::part2_row("pageable", 9.916, 9.939),
        render::part2_row("pinned", 0.004, 1.223),
        render::part3_header(elems, 10, 3),
        render::part3_row("device-resident", elems, 0.052),
        render::part3_row("zero-copy", elems, 1.314),
        render::part3_summary(0.052, 1.314, 14),
    ]
    .join("\n")
}

#[test]
fn what_the_twin_renders_parses_back_to_the_same_numbers() {
    let r = parse(&body(&rendered())).unwrap();
    assert_eq!(r.gpu, "Test GPU (compute capability 9.0)");
    let rows: Vec<(u64, f64, f64)> = r
        .bandwidth
        .iter()
        .map(|b| (b.mib, b.pageable_ms, b.pinned_ms))
        .collect();
    assert_eq!(rows, [(1, 0.090, 0.028), (256, 40.734, 4.865)]);
    assert_eq!(r.bandwidth[1].pinned_gb_s, 55.2);
    assert_eq!(r.bandwidth[1].ratio, 8.37);
    assert_eq!(
        (
            r.async_pageable.call_ms,
            r.async_pageable.completion_ms,
            r.async_pageable.call_percent
        ),
        (9.916, 9.939, 99.8)
    );
    assert_eq!(
        (r.async_pinned.call_ms, r.async_pinned.call_percent),
        (0.004, 0.3)
    );
    assert_eq!((r.resident_ms, r.zero_copy_ms), (0.052, 1.314));
    assert_eq!(r.zero_copy_ratio, 25.27);
}

// Two runs recorded on the H200 by ci/gpu-session.sh.
lesson_spec::conformance_tests! {
    report: Report,
    cu: "pinned.cu",
    printed: [rendered()],
    evidence: ("2026-11-29T222957Z-h200-cxx.txt", "2026-11-29T225128Z-h200-rust.txt"),
    then: |cxx, rust| {
        assert_eq!(cxx.figures().len(), 2 * 5 + 9);
        assert_eq!(cxx.gpu, rust.gpu);
    },
}

#[test]
fn the_reference_tools_transcript_parses() {
    let file = "2026-11-29T223006Z-h200-torch-reference.txt";
    let text = conformance::evidence_transcript::<Report>(env!("CARGO_MANIFEST_DIR"), file);
    let p = PinnedCopy::parse(&body(&text)).unwrap();
    assert_eq!(p.mib, 256);
    assert!(p.tool.starts_with("PyTorch "), "{}", p.tool);
    assert_eq!(p.figures(), [("256 MiB pinned, GB/s".to_string(), p.gb_s)]);
}
