//! The course's rules from CUDA-CODE-STYLE.md, as checks that fail CI.
//!
//! - rule 1, no host clocks outside the allow-listed files ([`host_clock`]),
//!   in C, C++, CUDA, Rust, Python and shell, by a rule table;
//! - rule 8, verbatim blocks identical in every lesson `.cu` ([`verbatim`]);
//! - rule 9, snippet markers well formed and every quote of a snippet or a
//!   transcript in a document equal to its source ([`blocks`], [`quotes`]);
//! - rule 10, each lesson builds alone with its README's nvcc line ([`lessons`]).
//!
//! The lessons are the registry's (the `lessons` crate, the list `evidence`
//! compiles in), read from the checkout being checked. Each rule returns
//! its findings as [`Problem`]s, one line each when printed.
//!
//! `tests/it/repository.rs` runs them all over this repository, so `cargo test`
//! enforces them; `cargo xtask check` prints the same findings for a person.
//!
//! Not for: rules a compiler or clippy already keeps, or taking a lesson
//! away (`export`).

pub mod blocks;
pub mod host_clock;
pub mod lessons;
pub mod problem;
pub mod quotes;
pub mod verbatim;

use std::path::{Path, PathBuf};

pub use problem::{read_text, Problem, Problems};

/// The allow-list of the shared crates' files that may read a host clock,
/// relative to the root.
pub const ALLOW_LIST: &str = "ci/host-clock-allow.txt";

/// A lesson's own allow-list, in its directory, with paths relative to it:
/// a lesson that reads a host clock on purpose says so where it lives.
pub const LESSON_ALLOW_LIST: &str = "host-clock-allow.txt";

/// Rule 1 over every C, C++, CUDA, Rust, Python and shell file of the
/// project: each hit no allow-list entry allows, and each entry that allows
/// nothing.
pub fn check_host_clocks(root: &Path) -> Vec<Problem> {
    let mut lists = vec![(PathBuf::from(ALLOW_LIST), PathBuf::new())];
    let mut problems = Vec::new();
    match lessons::lessons(root) {
        Ok(registered) => {
            for lesson in registered {
                let rel = lesson.dir.strip_prefix(root).unwrap_or(&lesson.dir).to_path_buf();
                if lesson.dir.join(LESSON_ALLOW_LIST).is_file() {
                    lists.push((rel.join(LESSON_ALLOW_LIST), rel));
                }
            }
        }
        Err(e) => problems.push(Problem::from_error(&e)),
    }
    let mut allow = host_clock::AllowList::default();
    for (source, base) in lists {
        match read_text(&root.join(&source)) {
            Ok(text) => problems.extend(allow.add(&text, &source, &base)),
            Err(e) => problems.push(e),
        }
    }
    let mut hits = Vec::new();
    for rel in crate::files::project_files(root) {
        match read_text(&root.join(&rel)) {
            Ok(text) => hits.extend(host_clock::scan(&rel, &text)),
            Err(e) => problems.push(e),
        }
    }
    problems.extend(allow.judge(&hits));
    problems
}

/// The files the shared allow-list names, relative to the root: what a copy
/// of the repository needs beside the lessons for rule 1 to pass there.
pub fn shared_allow_listed(root: &Path) -> Result<Vec<PathBuf>, Problem> {
    let text = read_text(&root.join(ALLOW_LIST))?;
    let listed = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    Ok(listed
        .filter_map(|l| l.split_once(": "))
        .map(|(path, _)| PathBuf::from(path))
        .collect())
}

/// Rule 8 over every lesson `.cu`.
pub fn check_verbatim(root: &Path) -> Vec<Problem> {
    let mut sources: Vec<(PathBuf, String)> = Vec::new();
    let registered = match lessons::lessons(root) {
        Ok(registered) => registered,
        Err(e) => return vec![Problem::from_error(&e)],
    };
    for lesson in registered {
        let rel = lesson.cu.strip_prefix(root).unwrap_or(&lesson.cu).to_path_buf();
        match read_text(&lesson.cu) {
            Ok(text) => sources.push((rel, text)),
            Err(e) => return vec![e],
        }
    }
    verbatim::check(&sources)
}

/// Rule 9: snippet markers in every source file, quotes in every Markdown file.
pub fn check_snippets(root: &Path) -> Vec<Problem> {
    let mut problems = Vec::new();
    for rel in crate::files::project_files(root) {
        let is_source = matches!(
            host_clock::kind_of(&rel, ""),
            Some(host_clock::Kind::C | host_clock::Kind::Rust)
        );
        let is_doc = rel.extension().is_some_and(|e| e == "md");
        if !is_source && !is_doc {
            continue;
        }
        let text = match read_text(&root.join(&rel)) {
            Ok(text) => text,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        if is_source {
            if let Err(p) = blocks::parse(&rel, &text, blocks::Kind::Snippet) {
                problems.extend(p.0);
            }
        } else {
            problems.extend(quotes::check(root, &rel, &text));
        }
    }
    problems
}

/// Rule 10: every lesson's README and `.cu` header agree on the nvcc line,
/// and with `nvcc` given, the lesson copied alone builds with it. The
/// builds run side by side, in as many threads as CPUs (each nvcc is one
/// process on one core), and the problems come in the lessons' order.
pub fn check_lessons(root: &Path, nvcc: Option<&Path>) -> Vec<Problem> {
    let all = match lessons::lessons(root) {
        Ok(all) => all,
        Err(e) => return vec![Problem::from_error(&e)],
    };
    let check = |lesson: &lessons::Lesson| {
        let line = lessons::check_build_lines(lesson)?;
        nvcc.map_or(Ok(()), |nvcc| lessons::build_alone(lesson, nvcc, &line))
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = all.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let threads: Vec<_> = all
            .chunks(chunk)
            .map(|lessons| scope.spawn(move || lessons.iter().map(check).collect::<Vec<_>>()))
            .collect();
        let checked = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        checked
            .filter_map(|r| r.err())
            .map(|e| Problem::from_error(e.as_ref()))
            .collect()
    })
}

/// The workspace root this crate was compiled in, for its own tests: the
/// commands read the repository they are run in (`lessons::repository`).
pub fn repository_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

/// The nvcc the build would use (crates/course/cuda-build's search order);
/// its error names the places searched and the command that provisions one.
pub fn find_nvcc(root: &Path) -> Result<PathBuf, cuda_build::LocateError> {
    cuda_build::locate(&|name| std::env::var_os(name), &|p| p.is_file(), Some(root)).map(|t| t.nvcc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::lessons::{find_repository, is_repository};

    #[test]
    fn the_repository_is_found_from_any_folder_inside_it_and_not_from_outside() {
        let root = repository_root();
        assert!(is_repository(&root));
        let lesson = &lessons::lessons(&root).unwrap()[0];
        assert_eq!(find_repository(&lesson.dir.join("src")), Some(root.clone()));
        // A member crate's manifest has no [workspace] table, so the walk passes it by.
        assert!(!is_repository(&root.join("crates/xtask")));
        assert_eq!(find_repository(Path::new("/")), None);
    }
}
