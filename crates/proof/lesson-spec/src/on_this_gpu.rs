//! A lesson's `--claims`: its page's claims, checked on the report it just
//! printed on the learner's own GPU.
//!
//! The twin hands over the text it printed, not its numbers: the claims are
//! checked on exactly what `evidence check` would read from a transcript of
//! the same run, through the same parser and the same claim code. Not for:
//! claims that compare runs (one run has no peers; `evidence check` over
//! recorded runs answers those).

use crate::claims::{ExpectedFailures, Outcome, Run};
use crate::lines::{numbered_output, ParseFailure};
use crate::report::LessonReport;

/// What `--claims` prints after the report, and how many claims failed
/// where the lesson knows of no failure on this GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimsBlock {
    pub text: String,
    pub unexpected_failures: usize,
}

/// Why the claims could not be checked on a printed report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimsBlockError {
    /// The report does not parse: the first line it could not read.
    #[error("the report's {0}")]
    Report(ParseFailure),
    /// The lesson's expected-failure list is malformed: every bad line.
    #[error("{lesson}'s expected-failures.txt: {}", lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    ExpectedFailures {
        lesson: &'static str,
        lines: Vec<ParseFailure>,
    },
}

/// The expected-failure list of `R`, each entry naming one of its claims
/// or causes; or every bad line.
pub(crate) fn expected_failures<R: LessonReport>() -> Result<ExpectedFailures, Vec<ParseFailure>> {
    let mut ids: Vec<&str> = R::claims().iter().map(|c| c.id).collect();
    ids.extend(R::whys().iter().map(|w| w.id));
    ExpectedFailures::parse(R::expected_failures(), &ids)
}

/// Checks every claim of `R` on `printed`, the report as the program
/// printed it, run on `gpu_name` under `environment` (`VAR=value` words).
/// A known failure is one the lesson's expected-failure list names for this
/// GPU (entries tied to one commit are left out: they describe old runs).
pub fn claims_block<R: LessonReport>(
    printed: &str,
    gpu_name: &str,
    environment: &str,
) -> Result<ClaimsBlock, ClaimsBlockError> {
    let report = R::parse(&numbered_output(printed)).map_err(ClaimsBlockError::Report)?;
    let known = expected_failures::<R>().map_err(|lines| ClaimsBlockError::ExpectedFailures {
        lesson: R::LESSON,
        lines,
    })?;
    // No peers but itself: a claim that compares runs says it does not apply.
    let run = Run {
        report: &report,
        environment,
    };
    let mut text = String::from("\nThe page's claims, checked on this run:\n");
    let (mut held, mut unexpected, mut expected, mut unchecked) = (0, 0, 0, 0);
    for claim in R::claims() {
        // Each verdict with its margin, as `evidence check` gives it.
        let (mark, detail) = match (claim.check)(&run, &[run]) {
            Outcome::Holds(margin) => {
                held += 1;
                ("holds", margin.words())
            }
            Outcome::Fails(numbers, margin) => match known.reason(claim.id, gpu_name, "") {
                Some(reason) => {
                    expected += 1;
                    let margin = margin.words();
                    (
                        "known failure",
                        format!("{numbers}; {margin}; known on {gpu_name}: {reason}"),
                    )
                }
                None => {
                    unexpected += 1;
                    ("DOES NOT HOLD", format!("{numbers}; {}", margin.words()))
                }
            },
            Outcome::NotApplicable => {
                unchecked += 1;
                (
                    "not checked",
                    "needs other runs or another variant (evidence check)".into(),
                )
            }
        };
        text.push_str(&format!(
            "  {mark:<14} {}: {}\n  {:<14} {detail}\n",
            claim.id, claim.statement, ""
        ));
    }
    text.push_str(&format!(
        "{held} hold, {unexpected} do not, {expected} known failure(s) on this GPU, {unchecked} not checked\n"
    ));
    Ok(ClaimsBlock {
        text,
        unexpected_failures: unexpected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::Chart;
    use crate::claims::{verdict, Claim};
    use crate::lines::{number, Cursor, Lines};
    use crate::recipe::Recipe;
    use crate::report::NoReference;

    /// A lesson that prints one line, `value: X`.
    #[derive(Debug, Clone, serde::Serialize)]
    struct Tiny {
        value: f64,
    }

    fn small(run: &Run<Tiny>, _: &[Run<Tiny>]) -> Outcome {
        crate::judged(
            &[run.report.value],
            |m| m[0] < 10.0,
            || format!("value {} ≥ 10", run.report.value),
        )
    }
    fn positive(run: &Run<Tiny>, _: &[Run<Tiny>]) -> Outcome {
        verdict(run.report.value > 0.0, || {
            format!("value {} ≤ 0", run.report.value)
        })
    }
    fn eager_only(run: &Run<Tiny>, _: &[Run<Tiny>]) -> Outcome {
        if run.has_env("CUDA_MODULE_LOADING=EAGER") {
            Outcome::Holds(crate::Margin::None("a test"))
        } else {
            Outcome::NotApplicable
        }
    }

    impl LessonReport for Tiny {
        const LESSON: &'static str = "tiny";
        type Reference = NoReference;
        fn whys() -> &'static [crate::why::Why] {
            &[]
        }
        fn parse(body: &Lines<'_>) -> Result<Self, ParseFailure> {
            let (n, rest) = Cursor::new(body).expect("value: ")?;
            Ok(Tiny {
                value: number(n, rest, "value")?,
            })
        }
        fn claims() -> &'static [Claim<Self>] {
            &[
                Claim {
                    id: "small",
                    statement: "the value is under 10",
                    figures: &["value"],
                    check: small,
                    plant: |r| r.value = 10.0,
                },
                Claim {
                    id: "positive",
                    statement: "the value is positive",
                    figures: &["value"],
                    check: positive,
                    plant: |r| r.value = 0.0,
                },
                Claim {
                    id: "eager",
                    statement: "eager only",
                    // It reads the environment alone.
                    figures: &[],
                    check: eager_only,
                    plant: |_| {},
                },
            ]
        }
        fn expected_failures() -> &'static str {
            "# known\npositive | GPU K | it reads zero there\nsmall | GPU K @ abc1234 | an old bug\n"
        }
        fn recipe() -> Recipe {
            unreachable!("not used by claims_block")
        }
        fn figures(&self) -> Vec<(String, f64)> {
            vec![("value".into(), self.value)]
        }
        fn charts(_: &str, _: &[&Self], _: &[&NoReference]) -> Vec<Chart> {
            Vec::new()
        }
    }

    #[test]
    fn each_claim_is_marked_with_the_numbers_behind_it() {
        let block = claims_block::<Tiny>("value: 12\n", "GPU X", "").unwrap();
        assert_eq!(block.unexpected_failures, 1);
        assert!(
            block
                .text
                .contains("DOES NOT HOLD  small: the value is under 10\n"),
            "{}",
            block.text
        );
        // 12 must fall by a sixth to be under 10.
        assert!(
            block.text.contains("value 12 ≥ 10; margin 16.7%"),
            "{}",
            block.text
        );
        assert!(
            block
                .text
                .contains("positive: the value is positive\n                 no margin: "),
            "{}",
            block.text
        );
        assert!(block.text.contains("holds          positive"), "{}", block.text);
        assert!(block.text.contains("not checked    eager"), "{}", block.text);
        assert!(block
            .text
            .ends_with("1 hold, 1 do not, 0 known failure(s) on this GPU, 1 not checked\n"));
    }

    #[test]
    fn a_failure_the_lesson_knows_on_this_gpu_is_marked_with_its_reason() {
        let block = claims_block::<Tiny>("value: -1\n", "GPU K", "CUDA_MODULE_LOADING=EAGER").unwrap();
        assert_eq!(block.unexpected_failures, 0);
        assert!(block.text.contains("known failure  positive"), "{}", block.text);
        assert!(
            block.text.contains("known on GPU K: it reads zero there"),
            "{}",
            block.text
        );
        assert!(block.text.contains("holds          eager"), "{}", block.text);
        // The same failure elsewhere is not known.
        let elsewhere = claims_block::<Tiny>("value: -1\n", "GPU Y", "").unwrap();
        assert_eq!(elsewhere.unexpected_failures, 1);
    }

    #[test]
    fn failures_tied_to_one_commit_are_not_known_for_a_new_run() {
        let block = claims_block::<Tiny>("value: 12\n", "GPU K", "").unwrap();
        assert_eq!(block.unexpected_failures, 1);
    }

    #[test]
    fn a_report_that_does_not_parse_names_the_line() {
        let err = claims_block::<Tiny>("nothing here\n", "GPU X", "")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("the report's line 1: expected a line starting"),
            "{err}"
        );
    }

    /// The machinery behind the repository's planted-failure test catches
    /// a claim its plant cannot make fail: `eager` reads only the
    /// environment, which no plant of the report changes.
    #[test]
    fn a_claim_its_plant_cannot_make_fail_is_named() {
        use crate::lesson::{Entry, Lesson};
        let lesson: &dyn Lesson = &Entry::<Tiny>::NEW;
        let parsed = |text: &str| lesson.parse_report(&numbered_output(text)).unwrap();
        let (a, b) = (parsed("value: 5\n"), parsed("value: 7\n"));
        let group = vec![
            Run {
                report: a.as_ref(),
                environment: "CUDA_MODULE_LOADING=EAGER",
            },
            Run {
                report: b.as_ref(),
                environment: "",
            },
        ];
        let caught = crate::claims::unfalsified_claims(lesson, &[group]);
        assert_eq!(caught, [r#"eager: Holds(None("a test")) on a planted run"#]);
    }
}
