//! The checks every lesson's report package runs against its README, its
//! `.cu`, its twin and its evidence, declared in each package by
//! [`crate::conformance_tests!`]. Each panics with what differs, as a test
//! assertion does.

use crate::nvcc_line::documented_nvcc_line;
use crate::testkit::cu_formats::lines_not_in;
use crate::testkit::twin_order;
use crate::{figure_matches, numbered_output, LessonReport};

use std::path::{Path, PathBuf};

/// The recipe's nvcc line is the lesson's one documented line
/// ([`documented_nvcc_line`]), and writes `binary`.
pub fn assert_recipe_is_the_documented_nvcc_line<R: LessonReport>(readme: &str, cu: &str, binary: &str) {
    let documented = documented_nvcc_line(readme, cu).unwrap_or_else(|e| panic!("{}: {e}", R::LESSON));
    assert_eq!(
        R::recipe().nvcc,
        documented,
        "{}'s recipe and its documented nvcc line",
        R::LESSON
    );
    assert_eq!(R::recipe().binary(), Some(binary), "the nvcc line's -o");
}

/// Every explanation paragraph of the lesson's README names one of its
/// cause checks and each check is named
/// ([`crate::testkit::why_named::unnamed_causes`]); every check's id is
/// shaped as one, unique, and reads a figure.
pub fn assert_every_cause_is_named<R: LessonReport>(readme: &str) {
    let ids: Vec<&str> = R::whys().iter().map(|w| w.id).collect();
    let mut problems =
        crate::testkit::why_named::unnamed_causes(&format!("code/{}/README.md", R::LESSON), readme, &ids);
    for (i, id) in ids.iter().enumerate() {
        if !crate::testkit::why_named::is_why_id(id) {
            problems.push(format!("`{id}` is not shaped `<prefix>-why-<name>`"));
        }
        if ids[..i].contains(id) {
            problems.push(format!("`{id}` is declared twice"));
        }
    }
    for w in R::whys() {
        if w.figures.is_empty() {
            problems.push(format!("`{}` reads no figure", w.id));
        }
    }
    assert!(problems.is_empty(), "{}:\n{}", R::LESSON, problems.join("\n"));
}

/// Every line of the lesson's expected-failure list names one of its claims.
pub fn assert_expected_failures_name_its_claims<R: LessonReport>() {
    if let Err(errors) = crate::on_this_gpu::expected_failures::<R>() {
        panic!("{}'s expected-failures.txt: {errors:?}", R::LESSON);
    }
}

/// The report in `text` (a transcript or a program's output alone); one
/// that does not parse fails the test, naming `which` text and the line.
pub fn parse_or_fail<R: LessonReport>(which: &str, text: &str) -> R {
    R::parse(&numbered_output(text)).unwrap_or_else(|e| panic!("{}: {which}, {e}", R::LESSON))
}

/// The C++ and Rust transcripts `cxx` and `rust` of the lesson's evidence
/// give the same figures, by label, in order. Returns both, for the
/// lesson's own further checks.
pub fn assert_same_fields_in_evidence<R: LessonReport>(manifest_dir: &str, cxx: &str, rust: &str) -> (R, R) {
    let [cxx, rust] =
        [cxx, rust].map(|file| parse_or_fail::<R>(file, &evidence_transcript::<R>(manifest_dir, file)));
    let labels = |r: &R| r.figures().into_iter().map(|f| f.0).collect::<Vec<_>>();
    assert_eq!(labels(&cxx), labels(&rust), "the C++ and Rust reports' figures");
    (cxx, rust)
}

/// Every figure pattern the lesson's claims name ([`crate::Claim::figures`])
/// matches a label some report of `reports` gives: a misspelt label, or one
/// renamed in `figures` and not in the claim, fails, named with its claim.
pub fn assert_claims_name_figures_of<R: LessonReport>(reports: &[R]) {
    assert!(
        !reports.is_empty(),
        "{}: no parsed report to hold the claims' figures to",
        R::LESSON
    );
    let labels: Vec<String> = reports.iter().flat_map(R::figures).map(|f| f.0).collect();
    let unknown: Vec<String> = R::claims()
        .iter()
        .flat_map(|c| c.figures.iter().map(move |pattern| (c.id, *pattern)))
        .filter(|(_, pattern)| !labels.iter().any(|l| figure_matches(pattern, l)))
        .map(|(id, pattern)| format!("{id}: {pattern:?}"))
        .collect();
    assert!(
        unknown.is_empty(),
        "{}: figures its claims name that no parsed report gives:\n  {}\nthe reports' labels:\n  {}",
        R::LESSON,
        unknown.join("\n  "),
        labels.join("\n  ")
    );
}

/// The report of the run the lesson's page prints ([`LessonReport::page`]),
/// if it has one; one that does not parse fails the test.
pub fn assert_the_page_run_parses<R: LessonReport>() -> Option<R> {
    let page = R::page()?;
    Some(parse_or_fail::<R>(page.source, page.transcript))
}

/// What C's printf prints for `format` and `args`, through the shell's
/// printf(1), which formats with the same conversions: the oracle a report
/// package holds its renderer's lines to, so they stay the .cu's own.
pub fn c_printf(format: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("printf")
        .arg(format)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run printf(1): {e}"));
    assert!(out.status.success(), "printf {format:?} {args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("printf prints text")
}

/// Every line of `printed` (texts the lesson's renderer made) is one that a
/// `std::printf` format of `cu` prints.
pub fn assert_prints_only_the_cus_formats<R: LessonReport, S: AsRef<str>>(
    cu: &str,
    printed: impl IntoIterator<Item = S>,
) {
    let mut seen = 0;
    for text in printed {
        let stray = lines_not_in(cu, text.as_ref());
        assert!(
            stray.is_empty(),
            "lines {}'s .cu does not print: {stray:#?}",
            R::LESSON
        );
        seen += text.as_ref().lines().count();
    }
    assert!(
        seen > 0,
        "{}: no rendered text to hold to the .cu's formats",
        R::LESSON
    );
}

/// The twin's `lesson` takes the `.cu`'s "Row N" and "Part N" blocks in the
/// `.cu`'s order, and defines the functions named after them in that order
/// too (`twin_order` says what counts as a label).
pub fn assert_twin_follows_the_cu<R: LessonReport>(cu: &str, main_rs: &str) {
    // Without either body there is nothing to compare, and the check would pass unseen.
    let starts = |text: &str, opening: &str| text.lines().any(|l| l.starts_with(opening));
    assert!(
        starts(cu, "int main("),
        "{}: no `int main(` in the .cu",
        R::LESSON
    );
    assert!(
        starts(main_rs, "fn lesson("),
        "{}: no `fn lesson(` in src/main.rs",
        R::LESSON
    );
    let (want, got) = (twin_order::cu_labels(cu), twin_order::twin_labels(main_rs));
    assert_eq!(
        got,
        want,
        "{}: the twin's blocks (src/main.rs's lesson) against the .cu's main",
        R::LESSON
    );
    let defined = twin_order::twin_function_labels(main_rs);
    let called: Vec<&String> = got.iter().filter(|l| defined.contains(l)).collect();
    assert_eq!(
        defined.iter().collect::<Vec<_>>(),
        called,
        "{}: src/main.rs defines its block functions in another order than lesson calls them",
        R::LESSON
    );
}

/// The lesson's `evidence/<lesson>/` seen from its report package in
/// `manifest_dir`: the repository's, or, in a lesson taken away with
/// `cargo xtask export`, the export's own `<DIR>/evidence`. Neither fails
/// the test: a test with no transcript to read must not pass as if it had
/// checked one.
pub fn evidence_dir<R: LessonReport>(manifest_dir: &str) -> PathBuf {
    let report = Path::new(manifest_dir);
    let places = [report.join("../../../evidence"), report.join("../evidence")];
    match places.iter().find(|p| p.join(R::LESSON).is_dir()) {
        Some(evidence) => evidence.join(R::LESSON),
        None => panic!(
            "{}: no evidence/{} at {} or {}",
            R::LESSON,
            R::LESSON,
            places[0].display(),
            places[1].display()
        ),
    }
}

/// The transcript `file` of the lesson's evidence ([`evidence_dir`]),
/// gzip'd or not ([`crate::read_transcript`]); a missing one fails the test.
pub fn evidence_transcript<R: LessonReport>(manifest_dir: &str, file: &str) -> String {
    let path = evidence_dir::<R>(manifest_dir).join(file);
    crate::read_transcript(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A report package's conformance tests, declared once in its test module:
///
/// ```ignore
/// lesson_spec::conformance_tests! {
///     report: Report,
///     cu: "timing.cu",
///     printed: [t4().render()],
///     evidence: ("2026-11-29T223246Z-h200-cxx.txt", "2026-11-29T223247Z-h200-rust.txt"),
///     then: |cxx: Report, rust: Report| assert_eq!(cxx.elems, rust.elems),
/// }
/// ```
///
/// `cu` is the lesson's program beside `tools/` (the nvcc line's `-o` is
/// its stem; the twin, `src/main.rs` beside it, follows its rows and parts);
/// `printed`, texts the renderer makes, each line of which must
/// be one of the .cu's printf formats; `claim_figures_from`, transcripts in
/// `evidence/<lesson>/` with figures the others lack that a claim names (a
/// profiled run's), left out where there are none; `evidence`, a C++ and a
/// Rust transcript in `evidence/<lesson>/` (left out until the lesson's
/// first GPU session), and `then`, the lesson's own checks on the pair they
/// give. The figures every claim names are held to the reports of
/// `printed`, `claim_figures_from`, `evidence` and the page's run.
#[macro_export]
macro_rules! conformance_tests {
    (
        report: $report:ty,
        cu: $cu:literal,
        printed: $printed:expr
        $(, claim_figures_from: [$($also:expr),* $(,)?])?
        $(, evidence: ($cxx:expr, $rust:expr) $(, then: $then:expr)?)?
        $(,)?
    ) => {
        #[test]
        fn the_recipe_is_the_readme_and_header_nvcc_line() {
            let stem = $cu.strip_suffix(".cu").expect("a .cu file");
            $crate::testkit::conformance::assert_recipe_is_the_documented_nvcc_line::<$report>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                stem,
            );
        }

        #[test]
        fn why_named_every_explanation_paragraph_names_a_cause_check_of_this_lesson() {
            $crate::testkit::conformance::assert_every_cause_is_named::<$report>(include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../README.md"
            )));
        }

        #[test]
        fn the_expected_failures_name_this_lessons_claims() {
            $crate::testkit::conformance::assert_expected_failures_name_its_claims::<$report>();
        }

        #[test]
        fn the_twin_takes_the_cus_rows_and_parts_in_its_order() {
            $crate::testkit::conformance::assert_twin_follows_the_cu::<$report>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../src/main.rs")),
            );
        }

        #[test]
        fn every_line_the_renderer_prints_is_a_printf_format_of_the_cu() {
            $crate::testkit::conformance::assert_prints_only_the_cus_formats::<$report, _>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                $printed,
            );
        }

        #[test]
        fn the_pages_run_parses() {
            $crate::testkit::conformance::assert_the_page_run_parses::<$report>();
        }

        #[test]
        fn every_figure_a_claim_names_is_one_a_report_gives() {
            let mut reports: Vec<$report> = $printed
                .into_iter()
                .map(|text| {
                    $crate::testkit::conformance::parse_or_fail::<$report>("a printed text", AsRef::<str>::as_ref(&text))
                })
                .collect();
            let transcripts: &[&str] = &[$($($also,)*)? $($cxx, $rust)?];
            for file in transcripts {
                let text = $crate::testkit::conformance::evidence_transcript::<$report>(env!("CARGO_MANIFEST_DIR"), file);
                reports.push($crate::testkit::conformance::parse_or_fail::<$report>(file, &text));
            }
            reports.extend($crate::testkit::conformance::assert_the_page_run_parses::<$report>());
            $crate::testkit::conformance::assert_claims_name_figures_of::<$report>(&reports);
        }

        $(
            #[test]
            fn the_cxx_and_rust_transcripts_in_evidence_give_the_same_fields() {
                let (cxx, rust) = $crate::testkit::conformance::assert_same_fields_in_evidence::<$report>(
                    env!("CARGO_MANIFEST_DIR"),
                    $cxx,
                    $rust,
                );
                // The lesson's own checks on the pair, where it has some.
                let then: fn($report, $report) = |_, _| {};
                $(let then: fn($report, $report) = $then;)?
                then(cxx, rust);
            }
        )?
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chart, Claim, Lines, NoReference, Outcome, ParseFailure, Recipe};

    /// A lesson of one figure whose claim names it and a misspelling of it.
    #[derive(Debug, Clone, serde::Serialize)]
    struct Misspelt;

    impl LessonReport for Misspelt {
        const LESSON: &'static str = "misspelt";
        type Reference = NoReference;
        fn parse(_: &Lines<'_>) -> Result<Self, ParseFailure> {
            Ok(Misspelt)
        }
        fn claims() -> &'static [Claim<Self>] {
            &[Claim {
                id: "warm-below-cold",
                statement: "row 4 is below row 3",
                figures: &["row 3 first launch, ms", "row 4 afetr warm-up, ms"],
                check: |_, _| Outcome::Holds(crate::Margin::Share(1.0)),
                plant: |_| {},
            }]
        }
        fn whys() -> &'static [crate::Why] {
            &[]
        }
        fn expected_failures() -> &'static str {
            ""
        }
        fn recipe() -> Recipe {
            unreachable!("not recorded")
        }
        fn figures(&self) -> Vec<(String, f64)> {
            vec![
                ("row 3 first launch, ms".into(), 0.94),
                ("row 4 after warm-up, ms".into(), 0.77),
            ]
        }
        fn charts(_: &str, _: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
            Vec::new()
        }
    }

    #[test]
    #[should_panic(
        expected = "figures its claims name that no parsed report gives:\n  warm-below-cold: \"row 4 afetr warm-up, ms\"\n"
    )]
    fn a_misspelt_figure_of_a_claim_fails_by_name() {
        assert_claims_name_figures_of::<Misspelt>(&[Misspelt]);
    }

    #[test]
    #[should_panic(expected = "no parsed report")]
    fn no_report_is_no_pass() {
        assert_claims_name_figures_of::<Misspelt>(&[]);
    }
}
