//! Verdicts are knowledge only if the same code gives them again: on the
//! committed evidence, no claim and no cause reads holds in one recording
//! session and fails in another session of the same commit (`evidence
//! check` reports each as a problem; the A/A pair of fa0f7b6 is one such
//! pair). Undecided is allowed: it says the session could not tell.

use std::collections::BTreeMap;

fn evidence_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence")
}

#[test]
fn no_claim_or_cause_flips_between_holds_and_fails_on_the_same_code() {
    let transcripts = evidence::load::load(&evidence_dir()).unwrap().transcripts;
    let mut of_commit: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in evidence::sessions::of(&transcripts) {
        *of_commit
            .entry((s.short_commit().to_string(), s.gpu.clone()))
            .or_default() += 1;
    }
    assert!(
        of_commit.values().any(|n| *n > 1),
        "the evidence holds an A/A pair of sessions"
    );
    let checked = evidence::check::run(&evidence_dir()).unwrap();
    let flips: Vec<String> = checked
        .problems
        .iter()
        .map(ToString::to_string)
        .filter(|p| p.contains("of the same commit"))
        .collect();
    assert!(flips.is_empty(), "{}", flips.join("\n"));
    assert!(
        checked.closing.contains("of the same commit: 0\n"),
        "{}",
        checked.closing
    );
}
