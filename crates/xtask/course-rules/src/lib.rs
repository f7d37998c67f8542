//! The course's rules from CUDA-CODE-STYLE.md, as checks that fail CI.
//!
//! - rule 1, no host clocks outside the allow-listed files ([`clock_ban`]),
//!   in C, C++, CUDA, Rust, Python and shell;
//! - rule 8, verbatim blocks identical in every lesson `.cu` ([`verbatim`]);
//! - rule 9, snippet markers well formed and every quote of a snippet or a
//!   transcript in a document equal to its source ([`blocks`], [`quotes`]);
//! - rule 10, each lesson builds alone with its README's nvcc line ([`lessons`]);
//! - and a new lesson made to these rules from one command ([`new_lesson`]).
//!
//! The lessons are the registry's (the `lessons` crate, the list `evidence`
//! compiles in), read from the checkout being checked. Each rule returns
//! its findings as [`Problem`]s, one line each when printed.
//!
//! `tests/repository.rs` runs them all over this repository, so `cargo test`
//! enforces them; `cargo run -p course-rules -- check` prints the same
//! findings for a person.
//!
//! Not for: rules a compiler or clippy already keeps, or taking a lesson
//! away (`lesson-export`).

pub mod blocks;
pub mod clock_ban;
pub mod lessons;
pub mod lexer;
pub mod new_lesson;
pub mod problem;
pub mod quotes;
mod read;
pub mod root;
pub mod tokens;
pub mod verbatim;

use std::path::{Path, PathBuf};

pub use problem::{Problem, Problems};
pub use read::{read_text, ReadError};
pub use root::{find_repository, repository_root};

/// The allow-list of the shared crates' files that may read a host clock,
/// relative to the root.
pub const ALLOW_LIST: &str = "ci/host-clock-allow.txt";

/// A lesson's own allow-list, in its directory, with paths relative to it:
/// a lesson that reads a host clock on purpose says so where it lives.
pub const LESSON_ALLOW_LIST: &str = "host-clock-allow.txt";

/// Rule 1 over every C, C++, CUDA, Rust, Python and shell file of the
/// project, and the Rust its Rust files bring in.
pub fn check_host_clocks(root: &Path) -> Vec<Problem> {
    let (allow, mut problems) = allow_lists(root);
    let (findings, unreadable) = clock_ban::scan_project(root, &project_files::project_files(root));
    problems.extend(unreadable);
    problems.extend(
        findings
            .into_iter()
            .filter(|f| !allow.allows(f))
            .map(Problem::from),
    );
    for path in allow.entries.keys() {
        if !root.join(path).is_file() {
            problems.push(Problem::general(format!(
                "host-clock allow-list: lists {}, which does not exist",
                path.display()
            )));
        }
    }
    problems
}

/// The files the shared allow-list names, relative to the root: what a copy
/// of the repository needs beside the lessons for rule 1 to pass there.
pub fn shared_allow_listed(root: &Path) -> Result<Vec<PathBuf>, Problems> {
    let text = read_text(&root.join(ALLOW_LIST)).map_err(|e| Problems(vec![e.into()]))?;
    let list = clock_ban::AllowList::parse(&text, Path::new(ALLOW_LIST), Path::new(""))?;
    Ok(list.entries.into_keys().collect())
}

/// The shared allow-list and every lesson's, merged, with every problem
/// reading or parsing them.
fn allow_lists(root: &Path) -> (clock_ban::AllowList, Vec<Problem>) {
    let mut lists = vec![(PathBuf::from(ALLOW_LIST), PathBuf::new())];
    let mut problems = Vec::new();
    let registered = lessons::lessons(root).unwrap_or_else(|e| {
        problems.push(Problem::from_error(&e));
        Vec::new()
    });
    for lesson in registered.into_iter().map(|l| l.dir) {
        let rel = lesson.strip_prefix(root).unwrap_or(&lesson).to_path_buf();
        if lesson.join(LESSON_ALLOW_LIST).is_file() {
            lists.push((rel.join(LESSON_ALLOW_LIST), rel));
        }
    }
    let mut allow = clock_ban::AllowList::default();
    for (source, base) in lists {
        match read_text(&root.join(&source)) {
            Ok(text) => {
                if let Err(p) = allow.add(&text, &source, &base) {
                    problems.extend(p.0);
                }
            }
            Err(e) => problems.push(e.into()),
        }
    }
    (allow, problems)
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
            Err(e) => return vec![e.into()],
        }
    }
    verbatim::check(&sources)
}

/// Rule 9: snippet markers in every source file, quotes in every Markdown file.
pub fn check_snippets(root: &Path) -> Vec<Problem> {
    let mut problems = Vec::new();
    for rel in project_files::project_files(root) {
        let is_source = clock_ban::lang_of(&rel).is_some();
        let is_doc = rel.extension().is_some_and(|e| e == "md");
        if !is_source && !is_doc {
            continue;
        }
        let text = match read_text(&root.join(&rel)) {
            Ok(text) => text,
            Err(e) => {
                problems.push(e.into());
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
/// builds run side by side, one per CPU (each nvcc is one process on one
/// core), and the problems come in the lessons' order.
pub fn check_lessons(root: &Path, nvcc: Option<&Path>) -> Vec<Problem> {
    let all = match lessons::lessons(root) {
        Ok(all) => all,
        Err(e) => return vec![Problem::from_error(&e)],
    };
    let mut problems: Vec<Option<Problem>> = vec![None; all.len()];
    let mut to_build = Vec::new();
    for (i, lesson) in all.iter().enumerate() {
        match lessons::check_build_lines(lesson) {
            Err(e) => problems[i] = Some(Problem::from_error(&e)),
            Ok(line) => to_build.push((i, lesson, line)),
        }
    }
    if let Some(nvcc) = nvcc {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let next = std::sync::atomic::AtomicUsize::new(0);
        let built = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..workers.min(to_build.len()) {
                scope.spawn(|| loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((i, lesson, line)) = to_build.get(n) else {
                        break;
                    };
                    if let Err(e) = lessons::build_alone(lesson, nvcc, line) {
                        let problem = Problem::from_error(&e);
                        built
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((*i, problem));
                    }
                });
            }
        });
        for (i, problem) in built.into_inner().unwrap_or_else(|p| p.into_inner()) {
            problems[i] = Some(problem);
        }
    }
    problems.into_iter().flatten().collect()
}

/// No nvcc where the build looks; cuda-build's message, which names the
/// places searched and the command that provisions one.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct NoNvcc(#[from] pub cuda_build::LocateError);

/// The nvcc the build would use (crates/course/cuda-build's search order).
pub fn find_nvcc(root: &Path) -> Result<PathBuf, NoNvcc> {
    cuda_build::locate(&|name| std::env::var_os(name), &|p| p.is_file(), Some(root))
        .map(|t| t.nvcc)
        .map_err(NoNvcc)
}
