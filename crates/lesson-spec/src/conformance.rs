//! The checks every lesson's report package runs in its tests, written
//! once: the recipe's nvcc line is the one its README and .cu give, its
//! expected failures name its own claims, and a C++ and a Rust transcript
//! of the lesson give the same fields. Each panics with what differs, as a
//! test assertion does.
//!
//! Not for: a lesson's own numbers (its round-trip and fixture tests).

use crate::lines::numbered_output;
use crate::nvcc_line::documented_nvcc_line;
use crate::{ExpectedFailures, LessonReport};

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
