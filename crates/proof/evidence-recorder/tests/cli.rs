//! `evidence-recorder`, the binary a GPU session runs as `evidence`: it
//! holds the session's subcommands and no other, answers them as
//! `evidence` does, and links no HTML or plotting crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output};

fn recorder(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence-recorder"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn it_holds_the_gpu_session_s_subcommands_and_no_other() {
    let help = stdout(&recorder(&["--help"]));
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        listed,
        ["record", "check", "lessons", "recipe", "build-alone", "help"],
        "{help}"
    );
    for other in ["site", "plot", "merge", "figures"] {
        let out = recorder(&[other]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{other}: {stderr}");
        assert!(stderr.contains("unrecognized subcommand"), "{other}: {stderr}");
    }
}

#[test]
fn lessons_and_recipes_come_from_the_registry() {
    let names: Vec<&str> = lessons::LESSONS.iter().map(|l| l.name()).collect();
    let out = recorder(&["lessons"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), names);
    for lesson in lessons::LESSONS {
        let out = recorder(&["recipe", "--lesson", lesson.name()]);
        assert!(out.status.success(), "{}", lesson.name());
        assert_eq!(stdout(&out), lesson.recipe().to_lines());
    }
    let unknown = recorder(&["recipe", "--lesson", "day99-none"]);
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
    let out = recorder(&["--evidence", empty.path().to_str().unwrap(), "check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no transcripts found"), "{stderr}");
}

/// Each package of `Cargo.lock` and the packages it depends on (normal,
/// build and dev dependencies alike: the lock file does not tell them
/// apart, so what it rules out is ruled out for each kind).
fn lock_graph(lock: &str) -> BTreeMap<String, Vec<String>> {
    let mut graph = BTreeMap::new();
    for package in lock.split("[[package]]").skip(1) {
        let name = package
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .unwrap_or_default();
        let deps = package
            .split_once("dependencies = [")
            .map(|(_, rest)| rest.split(']').next().unwrap_or(""))
            .unwrap_or("")
            .lines()
            .filter_map(|l| l.trim().trim_end_matches(',').strip_prefix('"'))
            .filter_map(|d| d.trim_end_matches('"').split(' ').next())
            .map(str::to_string)
            .collect();
        graph.insert(name, deps);
    }
    graph
}

#[test]
fn the_recorder_depends_on_no_html_or_plotting_crate() {
    let lock =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../Cargo.lock")).unwrap();
    let graph = lock_graph(&lock);
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut next = vec![from.to_string()];
        while let Some(p) = next.pop() {
            if seen.insert(p.clone()) {
                next.extend(graph.get(&p).into_iter().flatten().cloned());
            }
        }
        seen
    };
    // The check can fail: the site's crate reaches all three.
    let site = reach("site-build");
    let recorder = reach("evidence-recorder");
    for html_or_plots in ["maud", "pulldown-cmark", "plotters"] {
        assert!(site.contains(html_or_plots), "site-build reaches {html_or_plots}");
        assert!(
            !recorder.contains(html_or_plots),
            "evidence-recorder reaches {html_or_plots}"
        );
    }
    assert!(recorder.contains("evidence-model"), "{recorder:?}");
}
