//! The judging of the lesson pages' claims on recorded runs: each lesson's
//! own claims (its report package defines them), and the one claim every
//! lesson shares, that compute-sanitizer found nothing.
//!
//! A claim that does not hold on some GPU for a known reason is listed in
//! the lesson's `expected-failures.txt`; `check` then reports it as expected
//! to fail there, and fails on anything else.

use lesson_spec::{yes_no, ClaimInfo, ExpectedFailures, Lesson, Outcome, Parsed, Run};

use crate::problem::Problem;
use crate::transcript::{Program, Transcript};

/// The claim every lesson shares.
pub const SANITIZER_CLEAN: ClaimInfo = ClaimInfo {
    id: "sanitizer-clean",
    statement: "compute-sanitizer reports no errors and no hazards",
    // It reads the sanitizer's summary line and the exit code, not a figure
    // of the report.
    figures: &[],
};

/// Every claim of `lesson`, its own first.
pub fn all(lesson: &dyn Lesson) -> Vec<ClaimInfo> {
    let mut claims = lesson.claims();
    claims.push(SANITIZER_CLEAN);
    claims
}

/// The lesson's expected-failure list (claims and causes), or every bad line in it, each
/// naming `code/<lesson>/tools/expected-failures.txt` and its line.
pub fn expected(lesson: &dyn Lesson) -> Result<ExpectedFailures, Vec<Problem>> {
    // A cause may be listed too: one that fails on a GPU its README is
    // stated for.
    let mut ids: Vec<&str> = all(lesson).iter().map(|c| c.id).collect();
    ids.extend(lesson.whys().iter().map(|w| w.id));
    let file = format!("code/{}/tools/expected-failures.txt", lesson.name());
    ExpectedFailures::parse(lesson.expected_failures(), &ids).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| Problem::at(&file, e.line, e.message))
            .collect()
    })
}

fn sanitizer_clean(t: &Transcript) -> Outcome {
    if !t.under_sanitizer() {
        return Outcome::NotApplicable;
    }
    let clean = t.sanitizer.iter().any(|l| {
        l.contains("ERROR SUMMARY: 0 errors") || l.contains("0 hazards displayed (0 errors, 0 warnings)")
    });
    yes_no(clean && t.header.exit_code == 0, "a count of errors", || {
        t.sanitizer
            .last()
            .cloned()
            .unwrap_or_else(|| "no sanitizer summary line".into())
    })
}

/// A transcript as a claim sees it, if its lesson's claims apply to it: a
/// successful run of the lesson's program, not under a sanitizer, whose
/// timings mean nothing.
fn as_run(t: &Transcript) -> Option<Run<'_, dyn Parsed>> {
    if t.under_sanitizer() {
        return None;
    }
    Some(Run {
        report: t.body.report()?,
        environment: &t.header.environment,
    })
}

/// Claim `claim` of `lesson` on `t` among `peers`, the runs of the same
/// program on the same GPU ([`Peers::of_run`]).
pub fn check_among(
    lesson: &dyn Lesson,
    claim: &str,
    t: &Transcript,
    peers: &[Run<'_, dyn Parsed>],
) -> Outcome {
    if claim == SANITIZER_CLEAN.id {
        return sanitizer_clean(t);
    }
    let Some(run) = as_run(t) else {
        return Outcome::NotApplicable;
    };
    lesson.check(claim, run, peers)
}

/// The runs a claim may compare with, grouped once by lesson, GPU and
/// program: each transcript's peers looked up rather than filtered from
/// every run for every claim (which made `check` quadratic in the evidence).
pub struct Peers<'a> {
    groups: std::collections::HashMap<PeerKey, Vec<Run<'a, dyn Parsed>>>,
}

/// Lesson, GPU and program.
type PeerKey = (String, String, Program);

impl<'a> Peers<'a> {
    pub fn of(all: &'a [Transcript]) -> Self {
        let mut groups: std::collections::HashMap<_, Vec<_>> = Default::default();
        for t in all {
            if let Some(run) = as_run(t) {
                groups.entry(Self::key(t)).or_default().push(run);
            }
        }
        Peers { groups }
    }

    /// The runs of `t`'s lesson and program on `t`'s GPU, `t` among them
    /// when its claims apply to it.
    pub fn of_run(&self, t: &Transcript) -> &[Run<'a, dyn Parsed>] {
        self.groups.get(&Self::key(t)).map_or(&[], Vec::as_slice)
    }

    fn key(t: &Transcript) -> PeerKey {
        (t.header.lesson.clone(), t.header.gpu.clone(), t.program())
    }
}
