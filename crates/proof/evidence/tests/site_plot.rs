//! The lesson charts built from the committed evidence: every point is the
//! median of the runs inside their range, and the SVG draws each band.

use std::path::Path;

use evidence::site::plot::{describe, from_spec, svg, Chart, Reference};
use evidence::transcript::{self, Transcript};
use lesson_spec::Parsed;

/// The lesson's one chart of `runs`, drawn, with `references` beside them.
fn lesson_chart(lesson: &str, program: &str, runs: &[&Transcript], references: &[&Transcript]) -> Chart {
    fn parsed<'a>(ts: &[&'a Transcript]) -> Vec<&'a dyn Parsed> {
        ts.iter().filter_map(|t| t.body.parsed()).collect()
    }
    let specs = lessons::find(lesson)
        .unwrap()
        .charts(program, &parsed(runs), &parsed(references));
    assert_eq!(specs.len(), 1);
    from_spec(&specs[0], describe(runs))
}

fn evidence() -> Vec<Transcript> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence");
    evidence::load::transcript_files(&dir)
        .iter()
        .map(|f| transcript::read(f).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn named<'a>(all: &'a [Transcript], lesson: &str, name: &str) -> Vec<&'a Transcript> {
    let suffix = format!("-{name}.txt");
    all.iter()
        .filter(|t| t.header.lesson == lesson && t.header.exit_code == 0 && t.file.ends_with(&suffix))
        .collect()
}

fn assert_spread_drawn(chart: &Chart, series: usize) {
    assert_eq!(chart.series.len(), series);
    for s in &chart.series {
        assert!(!s.points.is_empty(), "{}", s.name);
        for p in &s.points {
            assert!(p.low <= p.median && p.median <= p.high, "{}: {p:?}", s.name);
        }
        assert!(
            s.points.iter().any(|p| p.low < p.high),
            "{}: several runs never agree to the last digit",
            s.name
        );
    }
    let drawn = svg(chart).unwrap();
    assert_eq!(drawn.matches("<polygon").count(), series, "one band per series");
}

#[test]
fn day09_sweep_shows_each_curve_with_the_runs_spread() {
    let all = evidence();
    let group = named(&all, "day09-timing", "h200-cxx");
    assert!(group.len() > 1);
    let chart = lesson_chart("day09-timing", "cxx", &group, &[]);
    assert_spread_drawn(&chart, 3);
    assert!(chart.subtitle.contains(&format!("{} run(s)", group.len())));
}

#[test]
fn day53_bandwidth_marks_the_reference_copy_beside_the_spread() {
    let all = evidence();
    let reference = named(&all, "day53-pinned", "h200-torch-reference");
    let chart = lesson_chart(
        "day53-pinned",
        "rust",
        &named(&all, "day53-pinned", "h200-rust"),
        &reference,
    );
    assert_spread_drawn(&chart, 2);
    assert!(
        matches!(&chart.references[..], [Reference { value, .. }] if *value > 0.0),
        "{:?}",
        chart.references
    );
    let none = lesson_chart(
        "day53-pinned",
        "rust",
        &named(&all, "day53-pinned", "h200-rust"),
        &[],
    );
    assert!(none.references.is_empty(), "no reference runs, no mark");
}
