//! The rules, run over this repository, and each one shown to fail on a
//! planted violation in a copy of the lessons.

use crate::support::{copy_registry, copy_shared_allow_listed};

use std::path::Path;

use xtask::rules::{find_nvcc, repository_root, Problem};

/// Each rule's problems as `cargo xtask check` prints them: these tests
/// hold the lines a person reads.
fn lines(problems: Vec<Problem>) -> Vec<String> {
    problems.iter().map(Problem::to_string).collect()
}

fn check_host_clocks(root: &Path) -> Vec<String> {
    lines(xtask::rules::check_host_clocks(root))
}

fn check_verbatim(root: &Path) -> Vec<String> {
    lines(xtask::rules::check_verbatim(root))
}

fn check_snippets(root: &Path) -> Vec<String> {
    lines(xtask::rules::check_snippets(root))
}

fn check_lessons(root: &Path, nvcc: Option<&Path>) -> Vec<String> {
    lines(xtask::rules::check_lessons(root, nvcc))
}

fn assert_clean(problems: Vec<String>) {
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn no_host_clocks_outside_the_allow_list() {
    assert_clean(check_host_clocks(&repository_root()));
}

#[test]
fn verbatim_blocks_are_identical_in_every_lesson() {
    assert_clean(check_verbatim(&repository_root()));
}

#[test]
fn snippets_are_well_formed_and_every_quote_matches_its_source() {
    assert_clean(check_snippets(&repository_root()));
}

#[test]
fn every_lesson_copied_alone_builds_with_its_readme_line() {
    let root = repository_root();
    let nvcc = find_nvcc(&root).expect("nvcc: run ci/provision.sh (the test command does)");
    assert_clean(check_lessons(&root, Some(&nvcc)));
}

/// A scratch copy of what the rules read: the lessons, the allow-list and
/// the evidence the READMEs quote.
/// Removed when dropped: each copy is about 40 MB.
fn scratch_copy(tag: &str) -> tempfile::TempDir {
    let root = repository_root();
    let scratch = tempfile::Builder::new()
        .prefix(&format!("course-rules-planted-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    for sub in ["code", "ci", "evidence", "crates/course/host-clock"] {
        xtask::rules::lessons::copy_dir(&root.join(sub), &dir.join(sub)).unwrap();
    }
    copy_shared_allow_listed(&root, dir);
    copy_registry(&root, dir);
    scratch
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from:?} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A planted file of rule 1's own (tests/planted/), and its lines that must be hits.
fn planted(name: &str) -> (String, usize) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/planted")
            .join(name),
    )
    .unwrap();
    let hits = text.lines().filter(|l| l.ends_with("HIT")).count();
    (text, hits)
}

#[test]
fn planted_host_clocks_are_named_by_path_and_line_even_in_an_allowed_file() {
    let scratch = scratch_copy("clock");
    let dir = scratch.path();
    assert_clean(check_host_clocks(dir));
    let mut expected = 0;
    for (name, to) in [
        ("clock.cu", "code/day09-timing/planted.cu"),
        ("clock.rs", "code/day09-timing/planted.rs"),
        ("clock.py", "code/day09-timing/planted.py"),
        ("clock.sh", "code/day09-timing/planted"),
    ] {
        let (text, hits) = planted(name);
        std::fs::write(dir.join(to), text).unwrap();
        expected += hits;
    }
    // A file that is not UTF-8 is still read; an empty one is clean.
    let (cu, _) = planted("clock.cu");
    let gettimeofday = cu.lines().find(|l| l.starts_with("gettimeofday")).unwrap();
    let mut latin1 = b"// caf\xe9 \xff\xfe\n".to_vec();
    latin1.extend_from_slice(gettimeofday.as_bytes());
    std::fs::write(dir.join("code/day09-timing/latin1.cu"), latin1).unwrap();
    std::fs::write(dir.join("code/day09-timing/empty.rs"), b"").unwrap();
    // Day 9's .cu may read clock_gettime, not a chrono clock.
    let chrono = cu
        .lines()
        .find(|l| l.starts_with("auto a = std::chrono::"))
        .unwrap();
    edit(
        &dir.join("code/day09-timing/timing.cu"),
        "int main() {",
        &format!("int main() {{\n{chrono}"),
    );
    let problems = check_host_clocks(dir);
    assert_eq!(problems.len(), expected + 2, "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("code/day09-timing/latin1.cu:2: gettimeofday: ")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("code/day09-timing/timing.cu:") && p.contains(": chrono clock: ")),
        "{problems:#?}"
    );
    assert!(!problems
        .iter()
        .any(|p| p.starts_with("code/day09-timing/timing.cu:") && p.contains("clock_gettime")));

    // A lesson's allow-list sanctions a script's row as it does a .cu's; an
    // entry that allows nothing is a problem of its own.
    let allow = dir.join("code/day09-timing/host-clock-allow.txt");
    let list = std::fs::read_to_string(&allow).unwrap();
    let entries = "planted: date +%s, $EPOCHREALTIME, $EPOCHSECONDS, /proc/uptime: planted\n\
                   timing.cu: rdtsc: planted, allows nothing\n";
    std::fs::write(&allow, format!("{list}{entries}")).unwrap();
    let after = check_host_clocks(dir);
    assert!(
        !after.iter().any(|p| p.starts_with("code/day09-timing/planted:")),
        "{after:#?}"
    );
    let stale = format!("code/day09-timing/host-clock-allow.txt:{}: allows `rdtsc` in code/day09-timing/timing.cu, which has none: remove the entry", list.lines().count() + 2);
    assert!(after.contains(&stale), "{after:#?}");
    assert_eq!(
        after.len(),
        problems.len() - planted("clock.sh").1 + 1,
        "{after:#?}"
    );
}

#[test]
fn a_drifted_verbatim_copy_fails_naming_lesson_block_and_line() {
    let scratch = scratch_copy("verbatim");
    let dir = scratch.path();
    assert_clean(check_verbatim(dir));
    edit(
        &dir.join("code/day53-pinned/pinned.cu"),
        "std::exit(EXIT_FAILURE);",
        "std::abort();",
    );
    let problems = check_verbatim(dir);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.starts_with("code/day53-pinned/pinned.cu:"), "{p}");
    assert!(
        p.contains("verbatim block `cuda-check` differs from code/day09-timing/timing.cu:"),
        "{p}"
    );
    assert!(p.contains("std::abort();"), "{p}");
}

#[test]
fn a_broken_snippet_or_an_edited_quote_fails() {
    let scratch = scratch_copy("snippet");
    let dir = scratch.path();
    assert_clean(check_snippets(dir));
    let timing = dir.join("code/day09-timing/timing.cu");
    edit(&timing, "    // end snippet\n\n    // Row 2.", "\n    // Row 2.");
    let problems = check_snippets(dir);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("snippet `cold-launch` starts inside")
                || p.contains("snippet `launch-clock` starts inside snippet `cold-launch`")),
        "{problems:?}"
    );

    let scratch = scratch_copy("quote");
    let dir = scratch.path();
    edit(
        &dir.join("code/day09-timing/README.md"),
        "vectorAdd<<<",
        "vectorAdd <<<",
    );
    let problems = check_snippets(dir);
    assert!(
        problems.iter().any(|p| p.contains("cargo xtask sync")),
        "{problems:?}"
    );
}

#[test]
fn a_lesson_that_needs_a_file_outside_its_directory_fails_to_build_alone() {
    let root = repository_root();
    let nvcc = find_nvcc(&root).expect("nvcc: run ci/provision.sh (the test command does)");
    let scratch = scratch_copy("alone");
    let dir = scratch.path();
    // Day 9 alone: the planted include is in its .cu, and the other lessons'
    // builds (each an nvcc run) are every_lesson_copied_alone's to prove.
    for entry in std::fs::read_dir(dir.join("code")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("day09-timing") {
            std::fs::remove_dir_all(path).unwrap();
        }
    }
    let registry = dir.join(::lessons::REGISTRY);
    let kept: String = std::fs::read_to_string(&registry)
        .unwrap()
        .lines()
        .filter(|l| {
            !l.contains("-report = { path = \"../../../code/") || l.starts_with("day09-timing-report")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&registry, kept).unwrap();
    edit(
        &dir.join("code/day09-timing/timing.cu"),
        "#include <vector>\n",
        "#include <vector>\n#include \"../shared/helpers.h\"\n",
    );
    let problems = check_lessons(dir, Some(&nvcc));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("copied alone does not build for sm_75"),
        "{problems:?}"
    );
}

#[test]
fn a_readme_and_header_that_disagree_on_the_build_line_fail() {
    let scratch = scratch_copy("buildline");
    let dir = scratch.path();
    edit(
        &dir.join("code/day53-pinned/README.md"),
        "-lineinfo -o pinned",
        "-o pinned",
    );
    let problems = check_lessons(dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("the README builds with"), "{problems:?}");
}

#[test]
fn a_readme_that_repeats_its_build_line_differently_fails() {
    let scratch = scratch_copy("repeated");
    let dir = scratch.path();
    assert_clean(check_lessons(dir, None));
    let readme = dir.join("code/day09-timing/README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    text.push_str("\n```\nnvcc -std=c++17 -O2 -arch=sm_90 -o timing timing.cu\n```\n");
    std::fs::write(&readme, text).unwrap();
    let problems = check_lessons(dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("and also with `nvcc -std=c++17 -O2"),
        "{problems:?}"
    );
}

#[test]
fn the_lessons_are_the_registrys_not_every_folder_with_a_cu() {
    let scratch = scratch_copy("registry");
    let dir = scratch.path();
    // A folder the registry does not name is no lesson, whatever it holds.
    std::fs::create_dir_all(dir.join("code/scratchpad")).unwrap();
    std::fs::write(dir.join("code/scratchpad/try.cu"), "int main() { return 0; }\n").unwrap();
    assert_clean(check_lessons(dir, None));
    // A registered lesson without its program is a finding, not skipped.
    std::fs::remove_file(dir.join("code/day53-pinned/pinned.cu")).unwrap();
    let problems = check_lessons(dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("registered as a lesson"), "{problems:?}");
}
