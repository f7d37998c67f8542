//! The recorded transcripts a lesson's own files name, carried into its
//! export: a report package's tests read the lesson's C++/Rust pair from
//! `evidence/<lesson>/` and its README quotes a run from there, so an
//! exported lesson holds those files under its own `evidence/<lesson>/`
//! (where lesson-testkit's `evidence_dir` looks in an export) and its tests
//! check what the repository's do.

use std::collections::BTreeSet;
use std::path::Path;

/// Every transcript file name (`<UTC date>-NAME.txt`, the recorder's
/// naming) that appears in `text`.
pub fn named_in(text: &str) -> BTreeSet<String> {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
    text.split(|c: char| !is_name_char(c))
        .filter(|word| is_transcript_name(word))
        .map(str::to_string)
        .collect()
}

/// `2026-11-29T223246Z-h200-cxx.txt`: a date, `T`, six digits, `Z-`, a
/// name, `.txt`.
fn is_transcript_name(word: &str) -> bool {
    let b = word.as_bytes();
    let digits = |range: std::ops::Range<usize>| b[range].iter().all(u8::is_ascii_digit);
    b.len() > 23
        && word.ends_with(".txt")
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..17)
        && &b[17..19] == b"Z-"
}

/// Copies each transcript that a file of `files` names and that
/// `evidence_dir` holds into `dest`; returns how many. A name with no such
/// file is left alone: the tests that read it fail in the repository first.
pub fn copy_named(files: &[std::path::PathBuf], evidence_dir: &Path, dest: &Path) -> std::io::Result<usize> {
    let mut names = BTreeSet::new();
    for file in files {
        if let Ok(text) = std::fs::read_to_string(file) {
            names.extend(named_in(&text));
        }
    }
    let mut copied = 0;
    for name in names {
        let from = evidence_dir.join(&name);
        if from.is_file() {
            std::fs::create_dir_all(dest)?;
            std::fs::copy(&from, dest.join(&name))?;
            copied += 1;
        }
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_names_are_found_in_code_and_markdown() {
        let text = r#"evidence: ("2026-11-29T223246Z-h200-cxx.txt", "2026-11-29T223247Z-h200-rust.txt"),
<!-- transcript: evidence/day10-block-sizes/2026-12-01T213033Z-h200-cxx.txt -->
not one: 2026-11-29-h200.txt, 2026-11-29T2232Z-x.txt, notes.txt, 2026-11-29T223246Z-h200-cxx.json"#;
        let want: BTreeSet<String> = [
            "2026-11-29T223246Z-h200-cxx.txt",
            "2026-11-29T223247Z-h200-rust.txt",
            "2026-12-01T213033Z-h200-cxx.txt",
        ]
        .map(String::from)
        .into();
        assert_eq!(named_in(text), want);
    }

    #[test]
    fn only_named_transcripts_that_exist_are_copied() {
        let base = std::env::temp_dir().join(format!("lesson-export-transcripts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (evidence, dest) = (base.join("evidence"), base.join("out/evidence/l"));
        std::fs::create_dir_all(&evidence).unwrap();
        for name in ["2026-01-01T000000Z-a.txt", "2026-01-01T000001Z-b.txt"] {
            std::fs::write(evidence.join(name), name).unwrap();
        }
        let source = base.join("lib.rs");
        std::fs::write(
            &source,
            "\"2026-01-01T000000Z-a.txt\" \"2026-01-01T000009Z-gone.txt\"",
        )
        .unwrap();
        assert_eq!(copy_named(&[source], &evidence, &dest).unwrap(), 1);
        assert!(dest.join("2026-01-01T000000Z-a.txt").is_file());
        assert!(!dest.join("2026-01-01T000001Z-b.txt").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
