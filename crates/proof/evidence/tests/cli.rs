//! The one `evidence` binary: the GPU machine's build of it
//! (`--no-default-features`, ci/build-for-gpu.sh) links no HTML or plotting
//! crate, and the GPU session's subcommands answer from the registry.

use std::collections::BTreeSet;
use std::process::{Command, Output};

fn evidence(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The packages `evidence` links (normal and build dependencies) with
/// `features`, as `cargo tree` resolves them from the lock file.
fn linked(features: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            "evidence",
            "-e",
            "normal,build",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    stdout(&out)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_gpu_build_links_no_html_or_plotting_crate() {
    let gpu = linked(&["--no-default-features"]);
    // The check can fail: the default build reaches every one.
    let full = linked(&[]);
    for html_or_plots in ["maud", "pulldown-cmark", "plotters"] {
        assert!(
            full.contains(html_or_plots),
            "the default build links {html_or_plots}"
        );
        assert!(
            !gpu.contains(html_or_plots),
            "the GPU build links {html_or_plots}"
        );
    }
    for needed in ["lessons", "lesson-spec", "clap"] {
        assert!(gpu.contains(needed), "{gpu:?}");
    }
}

#[test]
fn lessons_and_recipes_come_from_the_registry() {
    let names: Vec<&str> = lessons::LESSONS.iter().map(|l| l.name()).collect();
    let out = evidence(&["lessons"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), names);
    for lesson in lessons::LESSONS {
        let out = evidence(&["recipe", "--lesson", lesson.name()]);
        assert!(out.status.success(), "{}", lesson.name());
        assert_eq!(stdout(&out), lesson.recipe().to_lines());
    }
    let unknown = evidence(&["recipe", "--lesson", "day99-none"]);
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert_eq!(unknown.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("no lesson is named `day99-none` (known: "),
        "{stderr}"
    );
}

#[test]
fn check_of_a_folder_with_no_runs_fails_in_one_line() {
    let empty = tempfile::tempdir().unwrap();
    let out = evidence(&["--evidence", empty.path().to_str().unwrap(), "check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no transcripts found"), "{stderr}");
}
