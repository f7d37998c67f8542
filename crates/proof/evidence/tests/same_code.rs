//! Verdicts are knowledge only if the same code gives them again: on the
//! committed evidence, no claim and no cause reads holds in one recording
//! session and fails in another session of the same commit on the same
//! machine (the A/A pair of fa0f7b6 is one such pair). Undecided is
//! allowed: it says the session could not tell.

use std::collections::{BTreeMap, BTreeSet};

use lesson_spec::State;

fn evidence_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence")
}

#[test]
fn no_claim_or_cause_flips_between_holds_and_fails_on_the_same_code() {
    let transcripts = evidence::load::load(&evidence_dir()).unwrap().transcripts;
    let sessions = evidence::sessions::of(&transcripts);
    // Sessions of one commit on one machine.
    let mut same: BTreeMap<(String, String, String, String), Vec<usize>> = BTreeMap::new();
    for (i, s) in sessions.iter().enumerate() {
        let key = (
            s.short_commit().to_string(),
            s.gpu.clone(),
            s.driver.clone(),
            s.host.clone(),
        );
        same.entry(key).or_default().push(i);
    }
    let pairs: Vec<&Vec<usize>> = same.values().filter(|v| v.len() > 1).collect();
    assert!(!pairs.is_empty(), "the evidence holds an A/A pair of sessions");
    let mut flips = Vec::new();
    let mut problems = Vec::new();
    let (mut claims_compared, mut causes_compared) = (0, 0);
    for (lesson, table) in lessons::LESSONS
        .iter()
        .zip(evidence::check::every_lesson(&transcripts, &mut problems))
    {
        let per = evidence::verdicts::per_session(&table, &sessions);
        for ((claim, column), by) in &per {
            for group in &pairs {
                let states: BTreeSet<State> = group.iter().filter_map(|i| by.get(i)?.state()).collect();
                claims_compared += usize::from(!states.is_empty());
                if states.contains(&State::Holds) && states.contains(&State::Fails) {
                    flips.push(format!(
                        "{} {claim} ({}): {states:?}",
                        lesson.name(),
                        column.label()
                    ));
                }
            }
        }
        for why in lesson.whys() {
            for group in &pairs {
                let gpu = &sessions[group[0]].gpu;
                let states: BTreeSet<State> = group
                    .iter()
                    .filter_map(|i| {
                        let runs = &sessions[*i].runs;
                        evidence::why::judge_session(why, gpu, runs, &transcripts).state
                    })
                    .collect();
                causes_compared += usize::from(!states.is_empty());
                if states.contains(&State::Holds) && states.contains(&State::Fails) {
                    flips.push(format!("{}: {states:?} on {gpu}", why.id));
                }
            }
        }
    }
    assert!(claims_compared > 0 && causes_compared > 0, "nothing compared");
    assert!(flips.is_empty(), "{}", flips.join("\n"));
}
