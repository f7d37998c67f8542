//! `evidence record` as a person meets it: programs killed by a signal, hung
//! programs under `--timeout`, a recorder killed or stopped mid-run, and
//! several recorders starting at once with the same name.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use evidence::transcript;

/// A fresh folder for one test's transcripts. They are recorded under a
/// lesson of their own, which no lesson parser claims.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evidence-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn recorder(dir: &Path, name: &str, options: &[&str], command: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence"));
    cmd.args(["record", "--dir"])
        .arg(dir)
        .args(["--lesson", "scratch", "--name", name])
        .args(options)
        .arg("--")
        .args(command);
    cmd
}

fn text_of(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Polls, 100 ms apart for at most 20 s, until `ready` gives a value.
fn poll<T>(what: &str, mut ready: impl FnMut() -> Option<T>) -> T {
    for _ in 0..200 {
        if let Some(value) = ready() {
            return value;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what} did not happen within 20 s");
}

/// The one transcript under `dir` once it holds `line`.
fn transcript_holding(dir: &Path, line: &str) -> (PathBuf, String) {
    poll(&format!("a transcript holding {line:?}"), || {
        let files = evidence::transcript_files(dir);
        let file = files.first()?;
        let text = std::fs::read_to_string(file).ok()?;
        text.lines().any(|l| l == line).then(|| (file.clone(), text))
    })
}

/// Waits for the recorder to end by itself; kills it and fails if it hangs.
fn finished(mut child: Child) -> Output {
    let ended = poll("the recorder's end", || child.try_wait().ok().flatten());
    let mut out = child.wait_with_output().unwrap();
    out.status = ended;
    out
}

fn spawn(mut cmd: Command) -> Child {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

#[test]
fn a_program_killed_by_a_signal_is_recorded_with_the_signal() {
    let dir = scratch("signal");
    let out = recorder(&dir, "t", &[], &["sh", "-c", "echo a; kill -9 $$"])
        .output()
        .unwrap();
    let (path, err) = text_of(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n# exit code: signal 9 (SIGKILL)\n"), "{text}");
    assert!(!text.contains("# ended by:"), "the program ended itself: {text}");
    assert!(text.ends_with("# ---\na\n"), "{text}");
}

#[test]
fn a_hung_program_is_ended_by_the_timeout_and_says_so() {
    let dir = scratch("timeout");
    // The shell waits on a sleep of its own, which holds the output open:
    // ending only the shell would leave the recorder waiting for the sleep.
    let cmd = recorder(
        &dir,
        "t",
        &["--timeout", "1"],
        &["sh", "-c", "echo started; sleep 30; echo never"],
    );
    let out = finished(spawn(cmd));
    let (path, err) = text_of(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n# exit code: signal 9 (SIGKILL)\n"), "{text}");
    assert!(text.contains("\n# ended by: timeout (1 s)\n"), "{text}");
    assert!(text.ends_with("# ---\nstarted\n"), "{text}");
    assert!(Path::new(&path).with_extension("json").is_file());
}

#[test]
fn a_bad_timeout_is_a_usage_error() {
    for bad in ["0", "-1", "soon", "nan"] {
        let out = recorder(&scratch("bad-timeout"), "t", &["--timeout", bad], &["true"])
            .output()
            .unwrap();
        let (_, err) = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "clap's usage error; {bad}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn a_recorder_killed_mid_run_leaves_the_header_and_the_lines_so_far() {
    let dir = scratch("killed");
    let cmd = recorder(
        &dir,
        "t",
        &[],
        &["sh", "-c", "echo first; echo second >&2; sleep 5; echo late"],
    );
    let mut child = spawn(cmd);
    let (path, _) = transcript_holding(&dir, "second");
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# lesson: scratch\n"), "{text}");
    assert!(
        text.ends_with("\n# exit code: unfinished\n# ---\nfirst\nsecond\n"),
        "{text}"
    );
}

#[test]
fn a_recorder_stopped_by_sigterm_ends_the_program_and_finishes_the_transcript() {
    let dir = scratch("sigterm");
    let cmd = recorder(&dir, "t", &[], &["sh", "-c", "echo first; sleep 30; echo never"]);
    let child = spawn(cmd);
    let (path, _) = transcript_holding(&dir, "first");
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = finished(child);
    let (_, err) = text_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("SIGTERM") && err.contains(&path.display().to_string()),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n# exit code: signal 15 (SIGTERM)\n"), "{text}");
    assert!(text.contains("\n# ended by: the recorder's SIGTERM\n"), "{text}");
    assert!(text.ends_with("# ---\nfirst\n"), "{text}");
    assert!(path.with_extension("json").is_file());
}

#[test]
fn a_recorder_started_with_sigint_ignored_keeps_ignoring_it() {
    let dir = scratch("ignored");
    // sh starts a background job with SIGINT ignored, as for `evidence record &`.
    let script = format!(
        "{} record --dir {} --lesson scratch --name t -- sh -c 'sleep 2; echo done' & \
         sleep 1; kill -INT $!; wait $!",
        env!("CARGO_BIN_EXE_evidence"),
        dir.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    let (path, err) = text_of(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n# exit code: 0\n"), "{text}");
    assert!(text.ends_with("# ---\ndone\n"), "{text}");
}

#[test]
fn recorders_starting_together_never_overwrite_each_other() {
    let dir = scratch("together");
    // Six recorders inside about a second: whatever the clock, at least two
    // start in the same second and so want the same file name.
    let children: Vec<Child> = (0..6)
        .map(|k| {
            let who = format!("WHO={k}");
            spawn(recorder(
                &dir,
                "same",
                &[&who],
                &["sh", "-c", "sleep 1; echo \"$WHO\""],
            ))
        })
        .collect();
    let mut paths = Vec::new();
    for (k, child) in children.into_iter().enumerate() {
        let out = finished(child);
        let (path, err) = text_of(&out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with(&format!("# ---\n{k}\n")), "{path}: {text}");
        let t = transcript::parse(&path, &text).unwrap();
        assert_eq!(t.header.environment, format!("WHO={k}"));
        paths.push(path);
    }
    let mut distinct = paths.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 6, "{paths:#?}");
    assert_eq!(evidence::transcript_files(&dir).len(), 6);
}
