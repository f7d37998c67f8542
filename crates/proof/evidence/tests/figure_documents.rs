//! The figures against the committed documents and evidence: every defined
//! figure evaluates, and a lesson README stays prose a person can edit.

use std::path::{Path, PathBuf};

use evidence::figures::blocks::{defined, Evidence};
use evidence::figures::query;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Each figure a lesson or the evidence documents define gives a text on
/// the committed evidence, named by the figure if it does not.
#[test]
fn every_defined_figure_evaluates_on_the_committed_evidence() {
    let ev = Evidence::new(&repository().join("evidence"));
    let figures = defined();
    assert!(figures.len() > 100, "only {} figures defined", figures.len());
    let failed: Vec<String> = figures
        .iter()
        .filter_map(|(owner, f)| {
            let e = query::fill(&ev, f.query.trim_matches('\n')).err()?;
            Some(format!("{owner}: figure `{}`: {e}", f.name))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The bytes of `text` inside HTML comments (figure and transcript
/// markers, any other), per cent of all its bytes.
fn machine_share(text: &str) -> f64 {
    let mut machine = 0;
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        let close = rest[open..].find("-->").map_or(rest.len(), |i| open + i + 3);
        machine += close - open;
        rest = &rest[close..];
    }
    100.0 * machine as f64 / text.len() as f64
}

#[test]
fn machine_share_counts_every_comment_whole() {
    assert_eq!(machine_share("abcdefghij"), 0.0);
    assert_eq!(machine_share("<!-- a -->0123456789<!-- b -->0123456789"), 50.0);
    assert_eq!(machine_share("0123456789<!-- never closed"), 100.0 * 17.0 / 27.0);
}

/// At most 15% of each lesson README's bytes are machine text: a figure's
/// query lives beside the lesson's claims, not in the README.
#[test]
fn a_lesson_readme_is_at_most_15_percent_machine_text() {
    let mut over = Vec::new();
    for entry in std::fs::read_dir(repository().join("code")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        let Ok(text) = std::fs::read_to_string(&readme) else {
            continue;
        };
        let share = machine_share(&text);
        eprintln!(
            "{}: {share:.1}% machine text of {} bytes",
            readme.display(),
            text.len()
        );
        if share > 15.0 {
            over.push(format!("{}: {share:.1}%", readme.display()));
        }
    }
    assert!(over.is_empty(), "over 15% machine text: {over:#?}");
}
