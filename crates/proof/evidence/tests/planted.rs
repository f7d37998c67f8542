//! Every claim and every cause of every lesson fails on its planted
//! figures (its rival true, or its effect absent): a check that cannot
//! fail fails this test. Claims are planted on every committed run they
//! apply to, with their peers; causes on their planted medians. A check
//! planted here that cannot fail (`|_| holds`) must be caught.

use std::collections::BTreeMap;

use lesson_spec::claims::unfalsified_claims;
use lesson_spec::why::lines;
use lesson_spec::{Margin, Outcome, Parsed, Run, Why};

/// Each cause of `whys` that does not fail on its own planted figures,
/// with what it said: a check that cannot fail, or planted figures that do
/// not make the rival true.
fn unfalsified(whys: &[Why]) -> Vec<String> {
    whys.iter()
        .filter_map(|w| {
            if w.planted.len() != w.figures.len() {
                return Some(format!(
                    "{}: {} planted figures for {} figures",
                    w.id,
                    w.planted.len(),
                    w.figures.len()
                ));
            }
            match (w.check)(w.planted) {
                Outcome::Fails(..) => None,
                other => Some(format!(
                    "{}: {other:?} on its planted figures {:?}",
                    w.id, w.planted
                )),
            }
        })
        .collect()
}

fn evidence_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence")
}

#[test]
fn every_cause_fails_on_its_planted_figures() {
    let mut wrong = Vec::new();
    for lesson in lessons::LESSONS {
        wrong.extend(unfalsified(lesson.whys()));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_cause_that_cannot_fail_is_caught() {
    static CANNOT_FAIL: Why = Why {
        id: "t-why-always",
        cause: "always holds",
        figures: &[lines("t-why", "a")],
        check: |_| Outcome::Holds(lesson_spec::Margin::Share(1.0)),
        rival: "anything",
        rival_figure: "none",
        tells_rival_apart: false,
        planted: &[1.0],
    };
    let caught = unfalsified(std::slice::from_ref(&CANNOT_FAIL));
    assert_eq!(caught.len(), 1, "{caught:?}");
    assert!(caught[0].starts_with("t-why-always: Holds"), "{caught:?}");
}

#[test]
fn every_claim_fails_on_its_plant_over_the_committed_runs() {
    let transcripts = evidence::load::load(&evidence_dir()).unwrap().transcripts;
    let mut wrong = Vec::new();
    for lesson in lessons::LESSONS {
        // The peers a claim compares with: one GPU's runs of one program.
        let mut groups: BTreeMap<(String, String), Vec<Run<'_, dyn Parsed>>> = BTreeMap::new();
        for t in transcripts.iter().filter(|t| t.header.lesson == lesson.name()) {
            if t.under_sanitizer() {
                continue;
            }
            if let Some(report) = t.body.report() {
                let key = (t.header.gpu.clone(), format!("{:?}", t.program()));
                groups.entry(key).or_default().push(Run {
                    report,
                    environment: &t.header.environment,
                });
            }
        }
        let groups: Vec<_> = groups.into_values().collect();
        for problem in unfalsified_claims(*lesson, &groups) {
            wrong.push(format!("{}: {problem}", lesson.name()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every claim judged on the committed runs carries a margin where it holds
/// or fails, but for the few yes/no claims, which say why they have none; a
/// claim written with `verdict` (no reason given) is caught here.
#[test]
fn every_claim_has_a_margin_or_says_why_it_has_none() {
    let transcripts = evidence::load::load(&evidence_dir()).unwrap().transcripts;
    let mut problems = Vec::new();
    let mut without: std::collections::BTreeSet<(&str, &str)> = Default::default();
    for table in evidence::check::every_lesson(&transcripts, &mut problems) {
        for (id, cell) in table.rows.iter().flat_map(|r| &r.cells) {
            if let Some(Margin::None(why)) = cell.margin() {
                without.insert((id, why));
            }
        }
    }
    assert_eq!(
        without.into_iter().collect::<Vec<_>>(),
        [
            ("d30-intense-wins-with-copies", "a crossover, or none"),
            ("sanitizer-clean", "a count of errors"),
        ]
    );
}
