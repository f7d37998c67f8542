//! The checks every lesson's report package runs in its tests, written
//! once and declared in each package by [`crate::conformance_tests!`]: the
//! recipe's nvcc line is the one its README and .cu give, its expected
//! failures name its own claims, every line its renderer prints is one of
//! its .cu's printf formats, and a C++ and a Rust transcript of the lesson
//! in `evidence/` give the same fields. Each panics with what differs, as a
//! test assertion does.
//!
//! Not for: a lesson's own numbers (its round-trip and fixture tests).

use crate::cu_formats::lines_not_in;
use crate::lines::numbered_output;
use crate::nvcc_line::documented_nvcc_line;
use crate::{twin_order, ExpectedFailures, LessonReport};

use std::path::{Path, PathBuf};

/// The recipe's nvcc line is the lesson's one documented line (its README's
/// and its `.cu`'s header's, see [`documented_nvcc_line`]), and writes
/// `binary`.
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

/// Every line of the lesson's expected-failure list is well formed and
/// names one of its claims.
pub fn assert_expected_failures_name_its_claims<R: LessonReport>() {
    let ids: Vec<&str> = R::claims().iter().map(|c| c.id).collect();
    if let Err(errors) = ExpectedFailures::parse(R::expected_failures(), &ids) {
        panic!("{}'s expected-failures.txt: {errors:?}", R::LESSON);
    }
}

/// Parses a C++ and a Rust transcript of the lesson (headers and all) and
/// asserts the same figures, by label, in the same order. Returns both, for
/// the lesson's own further checks.
pub fn assert_same_fields<R: LessonReport>(cxx: &str, rust: &str) -> (R, R) {
    let parse = |which: &str, text: &str| {
        R::parse(&numbered_output(text))
            .unwrap_or_else(|(line, e)| panic!("the {which} transcript, line {line}: {e}"))
    };
    let (cxx, rust) = (parse("C++", cxx), parse("Rust", rust));
    let labels = |r: &R| r.figures().into_iter().map(|f| f.0).collect::<Vec<_>>();
    assert_eq!(labels(&cxx), labels(&rust), "the C++ and Rust reports' figures");
    (cxx, rust)
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

/// Every line of each of `printed` (texts the lesson's renderer made) is
/// what one of `cu`'s `std::printf` formats prints: the renderer writes the
/// C++ program's own lines, where no transcript of both exists yet too.
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
/// too (see [`crate::twin_order`]).
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

/// The lesson's `evidence/<lesson>/` seen from the report package in
/// `manifest_dir` (`<lesson>/report`): the repository's
/// (`code/<lesson>/report/../../../evidence`), or, in a lesson taken away
/// with `course-rules export`, the export's own (`<DIR>/evidence`), where
/// the export copies every transcript the lesson's files name. Neither is a
/// test failure that names both places: a test with no transcript to read
/// must not pass as if it had checked one.
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

/// The transcript `file` of the lesson's evidence (see [`evidence_dir`]),
/// as recorded. A file that is not there fails the test, naming it.
pub fn evidence_transcript<R: LessonReport>(manifest_dir: &str, file: &str) -> String {
    let path = evidence_dir::<R>(manifest_dir).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// [`assert_same_fields`] over the C++ and Rust transcripts `cxx` and
/// `rust` in the lesson's evidence.
pub fn assert_same_fields_in_evidence<R: LessonReport>(manifest_dir: &str, cxx: &str, rust: &str) -> (R, R) {
    assert_same_fields::<R>(
        &evidence_transcript::<R>(manifest_dir, cxx),
        &evidence_transcript::<R>(manifest_dir, rust),
    )
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
/// `cu` is the lesson's program beside `report/` (the nvcc line's `-o` is
/// its stem; the twin, `src/main.rs` beside it, follows its rows and parts);
/// `printed`, texts the renderer makes, each line of which must
/// be one of the .cu's printf formats; `evidence`, a C++ and a Rust
/// transcript in `evidence/<lesson>/` (left out until the lesson's first
/// GPU session), and `then`, the lesson's own checks on the pair they give.
#[macro_export]
macro_rules! conformance_tests {
    (
        report: $report:ty,
        cu: $cu:literal,
        printed: $printed:expr
        $(, evidence: ($cxx:expr, $rust:expr) $(, then: $then:expr)?)?
        $(,)?
    ) => {
        #[test]
        fn the_recipe_is_the_readme_and_header_nvcc_line() {
            let stem = $cu.strip_suffix(".cu").expect("a .cu file");
            $crate::conformance::assert_recipe_is_the_documented_nvcc_line::<$report>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                stem,
            );
        }

        #[test]
        fn the_expected_failures_name_this_lessons_claims() {
            $crate::conformance::assert_expected_failures_name_its_claims::<$report>();
        }

        #[test]
        fn the_twin_takes_the_cus_rows_and_parts_in_its_order() {
            $crate::conformance::assert_twin_follows_the_cu::<$report>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../src/main.rs")),
            );
        }

        #[test]
        fn every_line_the_renderer_prints_is_a_printf_format_of_the_cu() {
            $crate::conformance::assert_prints_only_the_cus_formats::<$report, _>(
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../", $cu)),
                $printed,
            );
        }

        $(
            #[test]
            fn the_cxx_and_rust_transcripts_in_evidence_give_the_same_fields() {
                let (cxx, rust) = $crate::conformance::assert_same_fields_in_evidence::<$report>(
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
