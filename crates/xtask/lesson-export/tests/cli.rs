//! The `lesson-export` binary's command line, run for real: which
//! repository it reads, `--help` and `--version`, and its exit codes.

use std::path::Path;
use std::process::{Command, Output};

use course_rules::repository_root;

const BIN: &str = env!("CARGO_BIN_EXE_lesson-export");

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("lesson-export runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_and_version_work_and_usage_errors_exit_2() {
    let root = repository_root();
    let out = run_in(&root, &["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("lesson-export {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = run_in(&root, &["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let help = text(&out.stdout);
    assert!(
        help.contains("Usage: lesson-export [OPTIONS] <LESSON> <DIR>"),
        "{help}"
    );
    for args in [
        &[][..],
        &["day09-timing"],
        &["day09-timing", "a", "b"],
        &["--bogus", "l", "d"],
    ] {
        let out = run_in(&root, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("--help"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn outside_any_repository_it_fails_with_one_line_and_exit_1() {
    let outside = std::env::temp_dir().join(format!("lesson-export-cli-outside-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let dest = outside.join("out");
    let dest = dest.to_str().unwrap();
    for args in [
        vec!["day09-timing", dest],
        vec!["--root", outside.to_str().unwrap(), "day09-timing", dest],
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
