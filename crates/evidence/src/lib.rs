//! Recorded lesson runs as data.
//!
//! - [`transcript`] parses a transcript (header, body, sanitizer lines), the
//!   body by its lesson, and refuses one that cannot be true (a field
//!   missing or repeated, an impossible date, commit, exit status or
//!   number, a file in the wrong folder or under the wrong name); a
//!   malformed file is an error naming the file and the line, never a panic.
//! - [`twin`] writes a transcript's JSON twin and holds it to the transcript.
//! - [`load`] reads the evidence folder as every command reads it: each
//!   transcript, each twin, no run dated in the future or counted twice.
//! - [`merge`] adds GPU sessions' evidence folders to the evidence, all or
//!   nothing, each run held to [`load`]'s checks and nothing replaced.
//! - [`atomic`] writes a file whole or not at all; [`capped`] reads one
//!   evidence file, a regular one and no larger than its cap; [`folder_lock`]
//!   holds a folder for one process (a merge, a site being staged).
//! - [`claims`] applies the lessons' claims (and the shared sanitizer claim)
//!   to recorded runs; [`check`] tables them over every transcript, and
//!   [`why`] judges the lessons' causes per GPU ("why, as measured").
//! - [`compare`] sets two runs, or two groups of runs by their medians, side
//!   by side with ratios.
//! - [`plot`] draws the lessons' sweeps as SVG from the evidence.
//! - [`record`] runs a program and writes its transcript and JSON twin.
//! - [`figures`] writes the documents' figure blocks from the evidence,
//!   and finds the blocks the evidence has made stale.
//! - [`sessions`] groups the runs into recording sessions (one machine,
//!   one commit, one stretch of time); [`history`] follows each figure a
//!   claim or a cause reads over a GPU's sessions, and [`changes`] labels
//!   what moved between a GPU's last two sessions (robust-stats' rule) and
//!   which verdicts flipped, with the rate of false alarms measured.
//! - [`site`] writes the evidence as a static site: every claim on every
//!   GPU, each lesson's figures and charts, every transcript.
//! - [`instrument`] tables the time-kernel instrument's proof against ncu
//!   and the peer tools.
//!
//! Not for: running lessons' checks (they check themselves) or timing
//! anything itself.

pub mod atomic;
pub mod capped;
pub mod changes;
pub mod check;
pub mod claims;
pub mod compare;
pub mod figures;
pub mod folder_lock;
pub mod history;
pub mod instrument;
pub mod load;
pub mod merge;
pub mod plot;
pub mod record;
pub mod sessions;
pub mod site;
pub mod transcript;
pub mod twin;
pub mod why;

use std::fmt;
use std::path::{Path, PathBuf};

use transcript::Transcript;

/// A transcript, or a list beside it, that cannot be read as one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    /// 1-based; 0 when the file could not be read at all.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // No line to name when the file could not be read at all.
        match self.line {
            0 => write!(f, "{}: {}", self.file, self.message),
            line => write!(f, "{}:{line}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// The transcripts (`*.txt`) under `dir`, one folder deep, in name order.
pub fn transcript_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Ok(inner) = std::fs::read_dir(&path) {
                files.extend(
                    inner
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|e| e == "txt")),
                );
            }
        }
    }
    files.sort();
    files
}

/// The successful runs of `lesson` whose file names end `-<name>.txt`.
pub fn group<'a>(all: &'a [Transcript], lesson: &str, name: &str) -> Vec<&'a Transcript> {
    all.iter()
        .filter(|t| t.header.lesson == lesson && t.header.exit_code == 0 && in_group(&t.file, name))
        .collect()
}

/// The run's name in a transcript's file name: what follows its date,
/// less the `-N` that `evidence record` adds for a clash (`h200-cxx` from
/// `.../2026-12-01T213005Z-h200-cxx-2.txt`).
pub fn run_name(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    let stem = name.strip_suffix(".txt").unwrap_or(name);
    let after_date = stem.get("2026-11-30T054300Z-".len()..).unwrap_or(stem);
    match after_date.rsplit_once('-') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => after_date,
    }
}

/// Whether `file` is a run named `name`: `...-NAME.txt`, or `...-NAME-N.txt`,
/// the name `evidence record` gives a run that started in the same second
/// as another of the same name.
pub fn in_group(file: &str, name: &str) -> bool {
    let Some(stem) = file.strip_suffix(".txt") else {
        return false;
    };
    let suffix = format!("-{name}");
    let numbered = |(head, n): (&str, &str)| {
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && head.ends_with(&suffix)
    };
    stem.ends_with(&suffix) || stem.rsplit_once('-').is_some_and(numbered)
}

#[cfg(test)]
mod tests {
    use super::in_group;

    #[test]
    fn a_run_numbered_for_a_clash_stays_in_its_group() {
        assert!(in_group("e/l/2026-11-30T054300Z-h200-cxx.txt", "h200-cxx"));
        assert!(in_group("e/l/2026-11-30T054300Z-h200-cxx-2.txt", "h200-cxx"));
        assert!(!in_group("e/l/2026-11-30T054300Z-h200-cxx-eager.txt", "h200-cxx"));
        assert!(in_group(
            "e/l/2026-11-30T054300Z-h200-cxx-eager-3.txt",
            "h200-cxx-eager"
        ));
        assert!(!in_group("e/l/2026-11-30T054300Z-h200-rust.txt", "h200-cxx"));
        assert!(!in_group("e/l/2026-11-30T054300Z-h200-cxx.json", "h200-cxx"));
    }

    #[test]
    fn a_run_s_name_is_what_follows_its_date_less_a_clash_number() {
        use super::run_name;
        assert_eq!(run_name("e/l/2026-11-30T054300Z-h200-cxx.txt"), "h200-cxx");
        assert_eq!(run_name("e/l/2026-11-30T054300Z-h200-cxx-2.txt"), "h200-cxx");
        assert_eq!(
            run_name("2026-11-30T054300Z-h200-cxx-cuda13.5.txt"),
            "h200-cxx-cuda13.5"
        );
    }

    #[test]
    fn a_parse_error_names_its_line_and_no_line_when_the_file_was_not_read() {
        let at = |line| crate::ParseError {
            file: "e/l/x.txt".into(),
            line,
            message: "m".into(),
        };
        assert_eq!(at(3).to_string(), "e/l/x.txt:3: m");
        assert_eq!(at(0).to_string(), "e/l/x.txt: m");
    }
}
