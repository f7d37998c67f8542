//! What tests hold a binary of the workspace to when its output cannot be
//! written: stdout on `/dev/full` (every write fails with `ENOSPC`, as on a
//! full disk) gives one `error: writing to stdout: ...` line on stderr and
//! exit code 1, never a panic.
//!
//! Not for: the closed-pipe case (a reader that leaves ends the program
//! quietly; [`crate::testkit::cli`] holds lessons to that).

use std::fs::File;
use std::process::{Command, Stdio};

/// Asserts that `cmd`, its stdout full, ends with exit code 1 and one line
/// on stderr saying stdout could not be written, and no sign of a panic.
pub fn assert_full_stdout_is_one_line(cmd: &mut Command) {
    let full = File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full, which every Linux has");
    let out = cmd
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{cmd:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{cmd:?}: one line: {stderr:?}");
    assert!(
        stderr.starts_with("error: writing to stdout: No space left on device"),
        "{cmd:?}: {stderr:?}"
    );
    for sign in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!stderr.contains(sign), "{cmd:?}: {sign} in {stderr:?}");
    }
}
