//! The `xtask` binary, run for real: which repository it checks, its
//! exit codes and its one-line errors.

use crate::support::{copy_registry, copy_shared_allow_listed};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use xtask::rules::repository_root;

const BIN: &str = env!("CARGO_BIN_EXE_xtask");

/// A scratch copy of what `check --no-build` reads, with the root manifest
/// that makes it a workspace, in a fresh folder under the temp dir.
fn scratch_repository(tag: &str) -> PathBuf {
    let root = repository_root();
    let dir = std::env::temp_dir().join(format!("xtask-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["code", "ci", "evidence", "crates/course/host-clock"] {
        xtask::rules::lessons::copy_dir(&root.join(sub), &dir.join(sub)).unwrap();
    }
    copy_shared_allow_listed(&root, &dir);
    copy_registry(&root, &dir);
    std::fs::copy(root.join("Cargo.toml"), dir.join("Cargo.toml")).unwrap();
    dir
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("xtask runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_reads_the_repository_it_is_run_in_not_the_one_it_was_built_in() {
    let dir = scratch_repository("cwd");
    let pinned = dir.join("code/day53-pinned/pinned.cu");
    let source = std::fs::read_to_string(&pinned).unwrap();
    let plant = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/planted/clock.cu"))
        .unwrap();
    let chrono = plant
        .lines()
        .find(|l| l.starts_with("auto a = std::chrono::"))
        .unwrap();
    let planted = source.replacen("int main() {", &format!("int main() {{\n{chrono}"), 1);
    assert_ne!(planted, source, "the plant found its place");
    std::fs::write(&pinned, planted).unwrap();

    let out = run_in(&dir.join("code/day53-pinned"), &["check", "--no-build"]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{}",
        text(&out.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("code/day53-pinned/pinned.cu:") && l.contains(": chrono clock: ")),
        "{stdout}"
    );
    let canonical = dir.canonicalize().unwrap();
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("checked {}", canonical.display()))),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clean_repository_passes_and_says_which_one_was_checked() {
    let dir = scratch_repository("clean");
    let elsewhere = std::env::temp_dir();
    let out = run_in(
        &elsewhere,
        &["check", "--no-build", "--root", dir.to_str().unwrap()],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let canonical = dir.canonicalize().unwrap();
    assert_eq!(stdout, format!("checked {}: 0 finding(s)\n", canonical.display()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outside_any_repository_it_fails_with_one_line_and_exit_1() {
    let outside = std::env::temp_dir().join(format!("xtask-cli-outside-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let dest = outside.join("out");
    let dest = dest.to_str().unwrap();
    for args in [
        vec!["check", "--no-build"],
        vec!["check", "--root", outside.to_str().unwrap()],
        vec!["export", "day09-timing", dest],
        vec![
            "export",
            "--root",
            outside.to_str().unwrap(),
            "day09-timing",
            dest,
        ],
    ] {
        let out = run_in(&outside, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains("course's repository"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!outside.join("out").exists(), "something was written");
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn help_and_version_work_everywhere_and_usage_errors_exit_2() {
    let root = repository_root();
    let out = run_in(&root, &["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("xtask {}\n", env!("CARGO_PKG_VERSION"))
    );
    for sub in ["check", "snippet", "sync", "export", "new-lesson"] {
        let out = run_in(&root, &[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{sub}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(&format!("Usage: xtask {sub}")),
            "{sub}"
        );
    }
    for args in [
        &["frobnicate"][..],
        &["check", "--bogus"],
        &["snippet", "no-hash"],
        &["export"],
        &["export", "day09-timing"],
        &["export", "day09-timing", "a", "b"],
        &[],
    ] {
        let out = run_in(&root, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        // clap's own words: an error naming --help, or the whole help when no command is given.
        assert!(stderr.contains("--help"), "{args:?}: {stderr}");
    }
}

#[test]
fn snippet_prints_the_region_of_the_repository_it_is_run_in() {
    let root = repository_root();
    let out = run_in(
        &root.join("code"),
        &["snippet", "code/day09-timing/timing.cu#launch-clock"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!out.stdout.is_empty());
    let out = run_in(&root, &["snippet", "code/day09-timing/timing.cu#no-such-snippet"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr).lines().count(), 1, "{}", text(&out.stderr));
}

#[test]
fn a_full_stdout_is_one_line_and_exit_1_not_a_panic() {
    use lesson_spec::testkit::full_disk::assert_full_stdout_is_one_line;
    let root = repository_root();
    for args in [&["check", "--no-build"][..], &["--help"], &["snippet", "--help"]] {
        let mut cmd = Command::new(BIN);
        cmd.args(args).current_dir(&root);
        assert_full_stdout_is_one_line(&mut cmd);
    }
}
