//! The lesson charts built from the committed evidence: every point is the
//! median of the runs inside their range, and the SVG draws each band.

use std::path::Path;

use evidence::site::plot::{describe, svg};
use evidence::transcript::{self, Transcript};
use lesson_spec::Parsed;

/// The lesson's one chart of `runs`, with `references` beside them, and
/// the subtitle it is drawn under.
fn lesson_chart(
    lesson: &str,
    program: &str,
    runs: &[&Transcript],
    references: &[&Transcript],
) -> (lesson_spec::Chart, String) {
    fn parsed<'a>(ts: &[&'a Transcript]) -> Vec<&'a dyn Parsed> {
        ts.iter().filter_map(|t| t.body.parsed()).collect()
    }
    let specs = lessons::find(lesson)
        .unwrap()
        .charts(program, &parsed(runs), &parsed(references));
    assert_eq!(specs.len(), 1);
    (specs[0].clone(), describe(runs))
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

fn assert_spread_drawn((chart, subtitle): &(lesson_spec::Chart, String), series: usize) {
    assert_eq!(chart.series.len(), series);
    for s in &chart.series {
        assert!(!s.points.is_empty(), "{}", s.name);
        assert!(
            s.points.iter().all(|(_, v)| !v.is_empty()),
            "{}: a point with no runs",
            s.name
        );
        assert!(
            s.points.iter().any(|(_, v)| v.iter().any(|x| *x != v[0])),
            "{}: several runs never agree to the last digit",
            s.name
        );
    }
    let drawn = svg(chart, subtitle).unwrap();
    assert_eq!(drawn.matches("<polygon").count(), series, "one band per series");
}

#[test]
fn day09_sweep_shows_each_curve_with_the_runs_spread() {
    let all = evidence();
    let group = named(&all, "day09-timing", "h200-cxx");
    assert!(group.len() > 1);
    let chart = lesson_chart("day09-timing", "cxx", &group, &[]);
    assert_spread_drawn(&chart, 3);
    assert!(chart.1.contains(&format!("{} run(s)", group.len())));
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
        matches!(&chart.0.marks[..], [lesson_spec::Mark { value, .. }] if *value > 0.0),
        "{:?}",
        chart.0.marks
    );
    let none = lesson_chart(
        "day53-pinned",
        "rust",
        &named(&all, "day53-pinned", "h200-rust"),
        &[],
    );
    assert!(none.0.marks.is_empty(), "no reference runs, no mark");
}
