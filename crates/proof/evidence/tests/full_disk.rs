//! Every `evidence` subcommand that prints, with its stdout on a full disk
//! (`/dev/full`): one line and exit code 1, never a panic with exit code 101.

use std::process::Command;

use lesson_spec::testkit::full_disk::assert_full_stdout_is_one_line;

fn evidence(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence"));
    cmd.args(args);
    cmd
}

const EVIDENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../evidence");

#[test]
fn lessons_into_a_full_disk_is_one_line() {
    assert_full_stdout_is_one_line(&mut evidence(&["lessons"]));
}

#[test]
fn check_into_a_full_disk_is_one_line() {
    assert_full_stdout_is_one_line(&mut evidence(&["check", "--evidence", EVIDENCE]));
}

#[test]
fn recipe_and_help_into_a_full_disk_are_one_line() {
    assert_full_stdout_is_one_line(&mut evidence(&["recipe", "--lesson", "day09-timing"]));
    assert_full_stdout_is_one_line(&mut evidence(&["--help"]));
    assert_full_stdout_is_one_line(&mut evidence(&["--version"]));
    assert_full_stdout_is_one_line(&mut evidence(&["record", "--help"]));
}

#[test]
fn record_into_a_full_disk_is_one_line_after_the_transcript_is_written() {
    let dir_scratch = tempfile::tempdir().unwrap();
    let dir = dir_scratch.path().to_path_buf();
    let mut cmd = evidence(&["record", "--lesson", "day09-timing", "--name", "t", "--evidence"]);
    cmd.arg(&dir).args(["--", "true"]);
    assert_full_stdout_is_one_line(&mut cmd);
    let written = evidence::load::transcript_files(&dir);
    assert_eq!(written.len(), 1, "{written:?}");
    let text = std::fs::read_to_string(&written[0]).unwrap();
    assert!(text.contains("\n# exit code: 0\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
