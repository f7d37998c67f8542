//! A lesson page's claims about its numbers, and the list of places where a
//! claim is known not to hold.
//!
//! A claim is a named statement of the page with a check over one run's
//! report and its peers (the other runs of the same program on the same
//! GPU). The same definition serves `evidence check` over every recorded
//! transcript and a lesson's `--claims` on the learner's own GPU. Its plant
//! ([`Claim::plant`]) removes the effect it states, so a check that cannot
//! fail is caught ([`planted`]). A check's [`Outcome`] carries a [`Margin`]
//! ([`judged`]), or says why it has none ([`yes_no`]).

use std::collections::BTreeMap;

use crate::lines::ParseFailure;

/// How one claim came out on one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Holds(Margin),
    /// It does not hold; the numbers behind that.
    Fails(String, Margin),
    /// A variant the claim is not about, or a comparison with no runs.
    NotApplicable,
}

impl Outcome {
    pub fn holds(&self) -> bool {
        matches!(self, Outcome::Holds(_))
    }

    pub fn margin(&self) -> Option<Margin> {
        match self {
            Outcome::Holds(m) | Outcome::Fails(_, m) => Some(*m),
            Outcome::NotApplicable => None,
        }
    }
}

/// How far a verdict sits from its threshold, so that a verdict inside the
/// noise shows as one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Margin {
    /// The largest share by which every figure the check reads may move,
    /// each by that share of itself, before the verdict changes ([`judged`],
    /// as a cause's intervals widen in [`crate::why::margin`]), up to 1.
    Share(f64),
    /// A yes/no verdict with no threshold to sit near, and why: `a count of
    /// errors`.
    None(&'static str),
}

impl Margin {
    /// The nearer threshold of two; a verdict with no margin has the least.
    pub fn least(self, other: Margin) -> Margin {
        match (self, other) {
            (Margin::Share(a), Margin::Share(b)) => Margin::Share(a.min(b)),
            (Margin::None(why), _) | (_, Margin::None(why)) => Margin::None(why),
        }
    }

    /// `margin 12.0%`, `margin over 100%`, `no margin: a count of errors`.
    pub fn words(self) -> String {
        match self {
            Margin::Share(m) if m >= 1.0 => "margin over 100%".into(),
            Margin::Share(m) => format!("margin {:.1}%", m * 100.0),
            Margin::None(why) => format!("no margin: {why}"),
        }
    }
}

/// A claim's or a cause's verdict over a recording session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Holds,
    Fails,
    /// The session's runs disagree, or the figures' intervals straddle
    /// the threshold.
    Undecided,
}

impl State {
    pub fn word(self) -> &'static str {
        match self {
            State::Holds => "holds",
            State::Fails => "fails",
            State::Undecided => "undecided",
        }
    }

    /// A claim over a session's runs that it held and failed on; `None`
    /// where it applies to none.
    pub fn of_runs(holds: usize, fails: usize) -> Option<State> {
        match (holds, fails) {
            (0, 0) => None,
            (_, 0) => Some(State::Holds),
            (0, _) => Some(State::Fails),
            _ => Some(State::Undecided),
        }
    }
}

/// The reason [`verdict`] gives for its verdict's missing margin.
pub const NO_THRESHOLD: &str = "a yes/no check";

/// A verdict with no margin ([`NO_THRESHOLD`]), `why` giving the numbers of
/// a failure: a cause's margin comes from its figures' intervals instead.
pub fn verdict(holds: bool, why: impl FnOnce() -> String) -> Outcome {
    yes_no(holds, NO_THRESHOLD, why)
}

/// A claim that is yes or no, with the reason it has no margin.
pub fn yes_no(holds: bool, no_margin: &'static str, why: impl FnOnce() -> String) -> Outcome {
    if holds {
        Outcome::Holds(Margin::None(no_margin))
    } else {
        Outcome::Fails(why(), Margin::None(no_margin))
    }
}

/// `holds` on the measured `figures` it reads, with the margin a cause's
/// has on figures known exactly. Up to 16 figures; a check over a sweep
/// judges each row and takes [`every`] row.
pub fn judged(figures: &[f64], holds: impl Fn(&[f64]) -> bool, why: impl FnOnce() -> String) -> Outcome {
    let points: Vec<(f64, f64)> = figures.iter().map(|&v| (v, v)).collect();
    let margin = Margin::Share(crate::why::margin(&holds, &points, &[]).unwrap_or(0.0));
    if holds(figures) {
        Outcome::Holds(margin)
    } else {
        Outcome::Fails(why(), margin)
    }
}

/// Every one of `outcomes` (a sweep's rows): holds where each that applies
/// holds, by the least margin; fails with the first failure, by the
/// largest margin of the failing ones (all of them must move to hold).
pub fn every(outcomes: impl IntoIterator<Item = Outcome>) -> Outcome {
    let mut out = Outcome::NotApplicable;
    for o in outcomes {
        out = match (out, o) {
            (a, Outcome::NotApplicable) => a,
            (Outcome::NotApplicable, b) => b,
            (Outcome::Holds(a), Outcome::Holds(b)) => Outcome::Holds(a.least(b)),
            (Outcome::Holds(_), f @ Outcome::Fails(..)) | (f @ Outcome::Fails(..), Outcome::Holds(_)) => f,
            (Outcome::Fails(why, Margin::Share(a)), Outcome::Fails(_, Margin::Share(b))) => {
                Outcome::Fails(why, Margin::Share(a.max(b)))
            }
            (Outcome::Fails(why, a), Outcome::Fails(_, b)) => Outcome::Fails(why, a.least(b)),
        };
    }
    out
}

/// The median, or `None` for no values.
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// One run as a claim sees it: its report and the environment it ran in
/// (`VAR=value` words, as a transcript header writes them).
pub struct Run<'a, R: ?Sized> {
    pub report: &'a R,
    pub environment: &'a str,
}

impl<R: ?Sized> Run<'_, R> {
    pub fn has_env(&self, assignment: &str) -> bool {
        self.environment.split_whitespace().any(|e| e == assignment)
    }
}

impl<R: ?Sized> Clone for Run<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: ?Sized> Copy for Run<'_, R> {}

/// A check: the run, then its peers (every run of the same program on the
/// same GPU, itself included).
pub type Check<R> = fn(&Run<R>, &[Run<R>]) -> Outcome;

/// One claim of a lesson page.
pub struct Claim<R: 'static> {
    /// Short and stable: tables and expected-failure lists name it.
    pub id: &'static str,
    /// The page's statement, with the threshold the check reads it as.
    pub statement: &'static str,
    /// The label ([`crate::LessonReport::figures`]) of every number `check`
    /// reads, on this run and its peers; a `*` stands for the rows of a
    /// sweep the run decides ([`figure_matches`]). Empty only for a claim
    /// that reads no number, with a comment saying why. The conformance
    /// tests hold every label to a parsed report's figures.
    pub figures: &'static [&'static str],
    pub check: Check<R>,
    /// Removes the effect the claim states from a report (or makes its
    /// rival true): the check must then fail ([`planted`]).
    pub plant: fn(&mut R),
}

/// Claim `claim` on `run` among `peers`, each report changed by the
/// claim's plant first: a claim that does not fail here cannot fail.
pub fn planted<R: Clone>(claim: &Claim<R>, run: &Run<R>, peers: &[Run<R>]) -> Outcome {
    let plant = |r: &R| {
        let mut r = r.clone();
        (claim.plant)(&mut r);
        r
    };
    let (mine, theirs): (R, Vec<R>) = (plant(run.report), peers.iter().map(|p| plant(p.report)).collect());
    let peers: Vec<Run<R>> = (theirs.iter().zip(peers))
        .map(|(report, p)| Run {
            report,
            environment: p.environment,
        })
        .collect();
    (claim.check)(
        &Run {
            report: &mine,
            environment: run.environment,
        },
        &peers,
    )
}

/// A claim's id, statement and figures, without its report type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimInfo {
    pub id: &'static str,
    pub statement: &'static str,
    /// As [`Claim::figures`].
    pub figures: &'static [&'static str],
}

/// Whether a claim's figure `pattern` names `label`: the same label, or,
/// for a pattern with one `*`, a label that starts with what comes before
/// it and ends with what comes after (`sweep n=*`, `add * threads, ms`).
pub fn figure_matches(pattern: &str, label: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => {
            label.len() >= head.len() + tail.len() && label.starts_with(head) && label.ends_with(tail)
        }
        None => label == pattern,
    }
}

/// Each claim of `lesson` that its plant does not make fail, one line
/// each: on every run of `groups` (each a GPU's runs of one program, the
/// peers a claim compares with) where the claim applies, the planted
/// reports must fail it; a claim that applies to no run is named too, as
/// its plant was never tried.
pub fn unfalsified_claims(
    lesson: &dyn crate::Lesson,
    groups: &[Vec<Run<'_, dyn crate::Parsed>>],
) -> Vec<String> {
    let mut out = Vec::new();
    for claim in lesson.claims() {
        let mut tried = 0;
        for group in groups {
            for run in group {
                if lesson.check(claim.id, *run, group) == Outcome::NotApplicable {
                    continue;
                }
                tried += 1;
                let planted = lesson.check_planted(claim.id, *run, group);
                if !matches!(planted, Outcome::Fails(..)) {
                    out.push(format!("{}: {planted:?} on a planted run", claim.id));
                    break;
                }
            }
        }
        if tried == 0 {
            out.push(format!(
                "{}: applies to no run, so its plant was never tried",
                claim.id
            ));
        }
    }
    out.dedup();
    out
}

/// An expected-failure list: lines of `claim | GPU name | reason`, or
/// `claim | GPU name @ commit prefix | reason` for a failure that belongs to
/// the runs of one commit (a bug since fixed, kept on the record). `#`
/// starts a comment line.
#[derive(Debug, Default, Clone)]
pub struct ExpectedFailures {
    /// (claim, GPU name, commit prefix or "") -> reason.
    entries: BTreeMap<(String, String, String), String>,
}

impl ExpectedFailures {
    /// Parses `text`, every claim named one of `known`; every malformed
    /// line is reported, as the list is fixed by editing all of them.
    pub fn parse(text: &str, known: &[&str]) -> Result<Self, Vec<ParseFailure>> {
        let mut entries = BTreeMap::new();
        let mut errors = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
            let mut bad = |message: String| errors.push(ParseFailure::at(i + 1, message));
            if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
                bad("expected `claim | GPU name | reason`".into());
                continue;
            }
            if !known.contains(&parts[0]) {
                bad(format!("no claim is named `{}`", parts[0]));
                continue;
            }
            let (gpu, commit) = match parts[1].split_once('@') {
                Some((gpu, commit)) => (gpu.trim(), commit.trim()),
                None => (parts[1], ""),
            };
            // A reason's measured ranges are figure blocks; kept as the text
            // they read as.
            entries.insert(
                (parts[0].to_string(), gpu.to_string(), commit.to_string()),
                crate::figure_blocks::plain(parts[2]),
            );
        }
        if errors.is_empty() {
            Ok(ExpectedFailures { entries })
        } else {
            Err(errors)
        }
    }

    /// Why `claim` may fail for a run on `gpu_name` at `commit`, if it may.
    /// An entry without a commit applies to every commit.
    pub fn reason(&self, claim: &str, gpu_name: &str, commit: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|((c, g, prefix), _)| c == claim && g == gpu_name && commit.starts_with(prefix.as_str()))
            .map(|(_, reason)| reason.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_pattern_is_a_label_or_a_prefix_and_a_star() {
        assert!(figure_matches("row 4, ms", "row 4, ms"));
        assert!(!figure_matches("row 4, ms", "row 4, ms "));
        assert!(figure_matches("first call (*", "first call (malloc), ms"));
        assert!(!figure_matches("first call (*", "first cudaMalloc, ms"));
        assert!(figure_matches("sweep n=*", "sweep n=1024, ms"));
        assert!(figure_matches("add * threads, ms", "add 48 threads, ms"));
        assert!(!figure_matches("add * threads, ms", "add 48 threads spread, %"));
        assert!(!figure_matches("add * threads, ms", "add threads, ms"));
    }

    fn share(o: &Outcome) -> f64 {
        match o.margin() {
            Some(Margin::Share(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_judged_claim_carries_how_far_its_figures_may_move() {
        let below = |m: &[f64]| m[0] < m[1];
        // 1 and 3 meet at 2 once each moves by half of itself.
        let held = judged(&[1.0, 3.0], below, String::new);
        assert!(held.holds() && (share(&held) - 0.5).abs() < 1e-6, "{held:?}");
        // Failing, the margin is how far they move before it holds: 3(1 - s) = 2(1 + s).
        let failed = judged(&[3.0, 2.0], below, || "3 >= 2".into());
        assert!(matches!(&failed, Outcome::Fails(why, _) if why == "3 >= 2"));
        assert!((share(&failed) - 0.2).abs() < 1e-6, "{failed:?}");
        // A compound check: the nearer threshold (2 against 2.2: s = 0.2 / 4.2).
        let both = judged(&[1.0, 3.0, 2.0, 2.2], |m| m[0] < m[1] && m[2] < m[3], String::new);
        assert!((share(&both) - 0.2 / 4.2).abs() < 1e-6, "{both:?}");
    }

    #[test]
    fn every_row_holds_by_the_least_margin_and_fails_by_the_largest_failing_one() {
        let row = |a: f64, b: f64| judged(&[a, b], |m| m[0] < m[1], || format!("{a} >= {b}"));
        let held = every([row(1.0, 3.0), row(2.0, 3.0), Outcome::NotApplicable]);
        assert!(held.holds() && (share(&held) - 0.2).abs() < 1e-6, "{held:?}");
        let failed = every([row(1.0, 3.0), row(3.0, 2.0), row(5.0, 1.0)]);
        assert!(matches!(&failed, Outcome::Fails(why, _) if why == "3 >= 2"));
        // 5 and 1 need a share of 4/6 to cross.
        assert!((share(&failed) - 4.0 / 6.0).abs() < 1e-6, "{failed:?}");
        assert_eq!(every([]), Outcome::NotApplicable);
        // A yes/no row leaves the whole without a margin.
        let mixed = every([row(1.0, 3.0), yes_no(true, "none", String::new)]);
        assert_eq!(mixed.margin(), Some(Margin::None("none")));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(Vec::new()), None);
    }

    #[test]
    fn environment_words_match_whole() {
        let run = Run {
            report: &(),
            environment: "CUDA_MODULE_LOADING=EAGER FOO=1",
        };
        assert!(run.has_env("CUDA_MODULE_LOADING=EAGER"));
        assert!(!run.has_env("CUDA_MODULE_LOADING=LAZY"));
        assert!(!run.has_env("FOO"));
    }

    #[test]
    fn expected_failures_by_gpu_and_commit_prefix() {
        let text = "# comment\n\
                    a | GPU X | always there\n\
                    b | GPU X @ abc | one commit\n";
        let list = ExpectedFailures::parse(text, &["a", "b"]).unwrap();
        assert_eq!(list.reason("a", "GPU X", "anything"), Some("always there"));
        assert_eq!(list.reason("a", "GPU Y", "anything"), None);
        assert_eq!(list.reason("b", "GPU X", "abcdef"), Some("one commit"));
        assert_eq!(list.reason("b", "GPU X", "abd"), None);
    }

    #[test]
    fn a_reasons_figure_blocks_read_as_their_text() {
        let text = "a | GPU X | took <!-- figure f -->1 to 2<!-- /figure --> ms\n";
        let list = ExpectedFailures::parse(text, &["a"]).unwrap();
        assert_eq!(list.reason("a", "GPU X", ""), Some("took 1 to 2 ms"));
    }

    #[test]
    fn every_bad_line_is_reported() {
        let text = "a | GPU\nzz | GPU | why\n a | GPU | fine\n";
        let errors = ExpectedFailures::parse(text, &["a"]).unwrap_err();
        assert_eq!(
            errors,
            [
                ParseFailure {
                    line: 1,
                    message: "expected `claim | GPU name | reason`".into()
                },
                ParseFailure {
                    line: 2,
                    message: "no claim is named `zz`".into()
                },
            ]
        );
    }
}
