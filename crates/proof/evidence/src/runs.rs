//! A run's names: the run name in a transcript's file name, the group of
//! runs a name picks, and a GPU's name as the one file-name word runs and
//! pages are named with.
//!
//! Not for: where a run must stand and what it may be called (that is
//! [`crate::transcript::place`]).

use crate::transcript::Transcript;

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

/// A GPU's name as one file-name word, as `ci/gpu-session.sh` names runs:
/// `NVIDIA H200` gives `h200`.
pub fn gpu_word(name: &str) -> String {
    file_word(name.strip_prefix("NVIDIA ").unwrap_or(name))
}

/// Any text as one lower-case file-name (or anchor) word: each run of
/// characters that are not ASCII letters or digits becomes one `-`, none
/// at either end (`NVIDIA H200 CUDA 13.0` gives `nvidia-h200-cuda-13-0`).
pub fn file_word(text: &str) -> String {
    let word: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    word.split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::{in_group, run_name};

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
        assert_eq!(run_name("e/l/2026-11-30T054300Z-h200-cxx.txt"), "h200-cxx");
        assert_eq!(run_name("e/l/2026-11-30T054300Z-h200-cxx-2.txt"), "h200-cxx");
        assert_eq!(
            run_name("2026-11-30T054300Z-h200-cxx-cuda13.5.txt"),
            "h200-cxx-cuda13.5"
        );
    }
}
