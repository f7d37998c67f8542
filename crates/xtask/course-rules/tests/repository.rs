//! The rules, run over this repository, and each one shown to fail on a
//! planted violation in a copy of the lessons.

use std::path::{Path, PathBuf};

use course_rules::{find_nvcc, repository_root, Problem};

/// Each rule's problems as `course-rules check` prints them: these tests
/// hold the lines a person reads.
fn lines(problems: Vec<Problem>) -> Vec<String> {
    problems.iter().map(Problem::to_string).collect()
}

fn check_host_clocks(root: &Path) -> Vec<String> {
    lines(course_rules::check_host_clocks(root))
}

fn check_verbatim(root: &Path) -> Vec<String> {
    lines(course_rules::check_verbatim(root))
}

fn check_snippets(root: &Path) -> Vec<String> {
    lines(course_rules::check_snippets(root))
}

fn check_lessons(root: &Path, nvcc: Option<&Path>) -> Vec<String> {
    lines(course_rules::check_lessons(root, nvcc))
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
fn scratch_copy(tag: &str) -> PathBuf {
    let root = repository_root();
    let dir = std::env::temp_dir().join(format!("course-rules-planted-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["code", "ci", "evidence", "crates/course/host-clock"] {
        course_rules::lessons::copy_dir(&root.join(sub), &dir.join(sub)).unwrap();
    }
    copy_shared_allow_listed(&root, &dir);
    copy_registry(&root, &dir);
    dir
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from:?} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_planted_host_clock_fails_even_in_an_allowed_file() {
    let dir = scratch_copy("clock");
    assert_clean(check_host_clocks(&dir));
    let pinned = dir.join("code/day53-pinned/pinned.cu");
    edit(
        &pinned,
        "int main() {",
        "int main() {\n    auto t0 = std::chrono::steady_clock::now();",
    );
    let problems = check_host_clocks(&dir);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with("code/day53-pinned/pinned.cu:"),
        "{problems:?}"
    );
    assert!(problems[0].contains(": std::chrono: "), "{problems:?}");
    assert!(problems[1].contains(": steady_clock: "), "{problems:?}");
}

#[test]
fn a_drifted_verbatim_copy_fails_naming_lesson_block_and_line() {
    let dir = scratch_copy("verbatim");
    assert_clean(check_verbatim(&dir));
    edit(
        &dir.join("code/day53-pinned/pinned.cu"),
        "std::exit(EXIT_FAILURE);",
        "std::abort();",
    );
    let problems = check_verbatim(&dir);
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
    let dir = scratch_copy("snippet");
    assert_clean(check_snippets(&dir));
    let timing = dir.join("code/day09-timing/timing.cu");
    edit(&timing, "    // end snippet\n\n    // Row 2.", "\n    // Row 2.");
    let problems = check_snippets(&dir);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("snippet `cold-launch` starts inside")
                || p.contains("snippet `launch-clock` starts inside snippet `cold-launch`")),
        "{problems:?}"
    );

    let dir = scratch_copy("quote");
    edit(
        &dir.join("code/day09-timing/README.md"),
        "vectorAdd<<<",
        "vectorAdd <<<",
    );
    let problems = check_snippets(&dir);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("cargo run -p course-rules -- sync")),
        "{problems:?}"
    );
}

#[test]
fn a_lesson_that_needs_a_file_outside_its_directory_fails_to_build_alone() {
    let root = repository_root();
    let nvcc = find_nvcc(&root).expect("nvcc: run ci/provision.sh (the test command does)");
    let dir = scratch_copy("alone");
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
    let problems = check_lessons(&dir, Some(&nvcc));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("copied alone does not build for sm_75"),
        "{problems:?}"
    );
}

#[test]
fn a_readme_and_header_that_disagree_on_the_build_line_fail() {
    let dir = scratch_copy("buildline");
    edit(
        &dir.join("code/day53-pinned/README.md"),
        "-lineinfo -o pinned",
        "-o pinned",
    );
    let problems = check_lessons(&dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("the README builds with"), "{problems:?}");
}

#[test]
fn a_file_that_is_not_utf8_is_still_checked_and_an_empty_file_is_clean() {
    let dir = scratch_copy("encoding");
    assert_clean(check_host_clocks(&dir));
    // Latin-1 bytes in a comment, then a host clock in code.
    let mut bytes = b"// caf\xe9 \xff\xfe\nvoid f() { gettimeofday(0, 0); }\n".to_vec();
    std::fs::write(dir.join("code/day09-timing/latin1.cu"), &bytes).unwrap();
    let problems = check_host_clocks(&dir);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("code/day09-timing/latin1.cu:2:12: gettimeofday:"),
        "{problems:?}"
    );
    bytes.clear();
    std::fs::write(dir.join("code/day09-timing/latin1.cu"), &bytes).unwrap();
    std::fs::write(dir.join("code/day09-timing/empty.rs"), b"").unwrap();
    assert_clean(check_host_clocks(&dir));
}

#[test]
fn a_readme_that_repeats_its_build_line_differently_fails() {
    let dir = scratch_copy("repeated");
    assert_clean(check_lessons(&dir, None));
    let readme = dir.join("code/day09-timing/README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    text.push_str("\n```\nnvcc -std=c++17 -O2 -arch=sm_90 -o timing timing.cu\n```\n");
    std::fs::write(&readme, text).unwrap();
    let problems = check_lessons(&dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("and also with `nvcc -std=c++17 -O2"),
        "{problems:?}"
    );
}

/// Copies the files the shared allow-list names, which rule 1 requires to
/// exist, into the scratch copy `dir`.
fn copy_shared_allow_listed(root: &Path, dir: &Path) {
    for listed in course_rules::shared_allow_listed(root).unwrap() {
        let target = dir.join(&listed);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(root.join(&listed), target).unwrap();
    }
}

#[test]
fn a_planted_host_clock_in_a_script_or_in_included_rust_fails() {
    let dir = scratch_copy("scripts");
    assert_clean(check_host_clocks(&dir));
    edit(
        &dir.join("code/day09-timing/gpu-phases/peer_timers.py"),
        "import sys\n",
        "import sys\nimport time\nT0 = time.perf_counter()\n",
    );
    edit(
        &dir.join("code/ref-warm-up/gpu-phases/two-gpus.sh"),
        "\n",
        "\nt0=$(date +%s%N)\n",
    );
    std::fs::write(
        dir.join("code/day53-pinned/reference/uptime.py"),
        "up = open('/proc/uptime').read()\n",
    )
    .unwrap();
    edit(
        &dir.join("code/day09-timing/src/main.rs"),
        "mod ffi;\n",
        "mod ffi;\ninclude!(\"clock.inc\");\n",
    );
    std::fs::write(
        dir.join("code/day09-timing/src/clock.inc"),
        "fn now() -> std::time::Instant { std::time::Instant::now() }\n",
    )
    .unwrap();
    let problems = check_host_clocks(&dir);
    let found: Vec<&str> = problems
        .iter()
        .map(|p| p.split(": host clocks").next().unwrap())
        .collect();
    let expected = [
        "code/day09-timing/gpu-phases/peer_timers.py:18:6: time.perf_counter",
        "code/day09-timing/src/clock.inc:1:13: std::time::Instant",
        "code/day09-timing/src/clock.inc:1:34: std::time::Instant",
        "code/day53-pinned/reference/uptime.py:1:12: /proc/uptime",
        "code/ref-warm-up/gpu-phases/two-gpus.sh:",
    ];
    assert_eq!(found.len(), 6, "{problems:#?}");
    for want in expected {
        assert!(
            found.iter().any(|f| f.starts_with(want)),
            "{want} not in {found:#?}"
        );
    }
    assert_eq!(
        found
            .iter()
            .filter(|f| f.contains("two-gpus.sh:") && f.contains(": date +%"))
            .count(),
        2
    );

    // A lesson's allow-list sanctions a script's clock as it does a .cu's.
    let allow = dir.join("code/day09-timing/host-clock-allow.txt");
    let list = std::fs::read_to_string(&allow).unwrap();
    std::fs::write(
        &allow,
        format!("{list}gpu-phases/peer_timers.py: time.perf_counter: a planted exception\n"),
    )
    .unwrap();
    let problems = check_host_clocks(&dir);
    assert_eq!(problems.len(), 5, "{problems:#?}");
    assert!(
        !problems.iter().any(|p| p.contains("peer_timers.py")),
        "{problems:#?}"
    );
}

/// The registry the rules find the lessons in, into the scratch copy `dir`.
fn copy_registry(root: &Path, dir: &Path) {
    let registry = dir.join(::lessons::REGISTRY);
    std::fs::create_dir_all(registry.parent().unwrap()).unwrap();
    std::fs::copy(root.join(::lessons::REGISTRY), registry).unwrap();
}

#[test]
fn the_lessons_are_the_registrys_not_every_folder_with_a_cu() {
    let dir = scratch_copy("registry");
    // A folder the registry does not name is no lesson, whatever it holds.
    std::fs::create_dir_all(dir.join("code/scratchpad")).unwrap();
    std::fs::write(dir.join("code/scratchpad/try.cu"), "int main() { return 0; }\n").unwrap();
    assert_clean(check_lessons(&dir, None));
    // A registered lesson without its program is a finding, not skipped.
    std::fs::remove_file(dir.join("code/day53-pinned/pinned.cu")).unwrap();
    let problems = check_lessons(&dir, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("registered as a lesson"), "{problems:?}");
}
