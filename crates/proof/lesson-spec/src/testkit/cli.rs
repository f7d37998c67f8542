//! What each lesson's tests hold its built binary to. Without a GPU
//! (`tests/cli.rs`): clap's usage errors and `--help`/`--version`, one-line
//! failures with exit code 1, no driver, and a closed stdout. On a GPU
//! (`tests/on_gpu.rs`, ignored elsewhere): the `--claims` block and a reader
//! that leaves after a few lines.
//!
//! Not for: a lesson's own numbers (its report package tests those).

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `bin` with `args`, asking for a backtrace, so that one shows in the test.
fn command(bin: &str, args: &[&str]) -> Command {
    let mut command = Command::new(bin);
    command.args(args).env("RUST_BACKTRACE", "1");
    command
}

/// The output of `command`, which runs `bin`.
fn output_of(mut command: Command, bin: &str) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"))
}

pub fn run(bin: &str, args: &[&str]) -> Output {
    output_of(command(bin, args), bin)
}

/// Asserts nothing on stdout and no sign of a panic on stderr.
fn assert_quiet_failure(output: &Output, stderr: &str) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.is_empty(), "stdout: {stdout}");
    for sign in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!stderr.contains(sign), "{sign} in {stderr:?}");
    }
}

/// Asserts exit code 1, nothing on stdout, and exactly one stderr line
/// that contains `expected` and no sign of a panic. Returns the line.
pub fn assert_one_line_failure(output: &Output, expected: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "exit code; stderr: {stderr}");
    assert_quiet_failure(output, &stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
    assert!(stderr.ends_with('\n'), "a finished line: {stderr:?}");
    assert!(stderr.contains(expected), "{expected:?} not in {stderr:?}");
    stderr.trim_end().to_string()
}

/// Asserts a usage error as clap reports it (exit code 2, its pointer to
/// `--help`), containing `expected`, quietly.
pub fn assert_usage_error(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "exit code; stderr: {stderr}");
    assert_quiet_failure(output, &stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(expected), "{expected:?} not in {stderr:?}");
    assert!(stderr.contains("For more information, try '--help'."), "{stderr}");
}

/// The command-line promises every lesson binary keeps: clap's usage
/// errors, before CUDA is touched; `--help` with the shared `--device N`
/// and `--version`, or one line and exit code 1 where stdout is full.
pub fn assert_standard_command_line(bin: &str, name: &str, version: &str) {
    assert_usage_error(
        &run(bin, &["--frobnicate"]),
        "unexpected argument '--frobnicate' found",
    );
    assert_usage_error(
        &run(bin, &["--device", "zero"]),
        "invalid value 'zero' for '--device <N>'",
    );
    assert_usage_error(
        &run(bin, &["--device"]),
        "a value is required for '--device <N>' but none was supplied",
    );

    let help = run(bin, &["--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert_eq!(help.status.code(), Some(0), "{help:?}");
    assert!(text.contains(&format!("Usage: {name} [OPTIONS]")), "{text}");
    assert!(text.contains("--device <N>"), "{text}");
    assert!(help.stderr.is_empty(), "{help:?}");

    let printed = run(bin, &["--version"]);
    assert_eq!(printed.status.code(), Some(0), "{printed:?}");
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        format!("{name} {version}\n")
    );

    // Help that cannot be written (a full disk) is one line and exit 1.
    for flag in ["--help", "--version"] {
        crate::testkit::full_disk::assert_full_stdout_is_one_line(Command::new(bin).arg(flag));
    }
}

/// Asserts that the lesson, run where no CUDA driver can be loaded, fails in
/// one line that says so.
///
/// The test makes that machine itself rather than waiting for one: every
/// file name cudarc tries when it loads the driver is shadowed by an empty
/// file on `LD_LIBRARY_PATH`. The loader stops at the first file it finds
/// by a name and refuses an empty one ("file too short"), so no driver loads
/// here or on a GPU machine, and the test checks the same thing on both. If
/// a driver did load anyway, the lesson would run, print its report and exit
/// 0, and this assertion would fail rather than pass unchecked.
pub fn assert_no_driver_failure(bin: &str) {
    let line = assert_one_line_failure(&run_without_driver(bin, &[]), "no CUDA driver found");
    assert!(line.starts_with("error: "), "{line}");
}

/// Runs `bin` where no driver loads ([`assert_no_driver_failure`]).
pub fn run_without_driver(bin: &str, args: &[&str]) -> Output {
    let shadow = shadowed_driver_dir();
    // Ahead of whatever the caller had, which may hold other libraries the
    // binary needs.
    let old = std::env::var_os("LD_LIBRARY_PATH");
    let paths = std::iter::once(shadow.clone()).chain(old.iter().flat_map(std::env::split_paths));
    let search_path = std::env::join_paths(paths).expect("LD_LIBRARY_PATH entries join");
    let mut command = command(bin, args);
    command.env("LD_LIBRARY_PATH", search_path);
    let output = output_of(command, bin);
    let _ = std::fs::remove_dir_all(&shadow);
    output
}

/// A fresh folder holding an empty file under each name cudarc tries.
fn shadowed_driver_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "testkit-no-driver-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    // The same two names cudarc's own loader asks for.
    for name in ["cuda", "nvcuda"]
        .into_iter()
        .flat_map(cudarc::get_lib_name_candidates)
    {
        let path = dir.join(name);
        std::fs::write(&path, b"").unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    dir
}

/// Asserts that the lesson, run with `args` into a pipe nobody reads, ends
/// as a C program does: killed by `SIGPIPE`, nothing on stderr.
pub fn assert_quiet_on_closed_pipe(bin: &str, args: &[&str]) {
    let output = run_into_closed_pipe(bin, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert_eq!(
        output.status.signal(),
        Some(libc::SIGPIPE),
        "ended by SIGPIPE, as a C program does: {:?}",
        output.status
    );
}

/// Runs `bin` with its stdout a pipe whose read end is already closed.
pub fn run_into_closed_pipe(bin: &str, args: &[&str]) -> Output {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (read_end, write_end) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read_end);
    let mut command = command(bin, args);
    command.stdout(Stdio::from(write_end));
    output_of(command, bin)
}

/// The lesson binary to test: `compiled` (the test's
/// `env!("CARGO_BIN_EXE_<name>")`), or the binary of that name in
/// `LESSON_BIN_DIR` where it is set, for a machine the binaries were carried
/// to (ci/gpu-session.sh's `.evidence-bin`).
pub fn lesson_bin(compiled: &str) -> String {
    let Some(dir) = std::env::var_os("LESSON_BIN_DIR") else {
        return compiled.to_string();
    };
    let name = std::path::Path::new(compiled)
        .file_name()
        .expect("a binary path ends in its name");
    PathBuf::from(dir).join(name).to_string_lossy().into_owned()
}

/// Asserts what `--claims` adds on a GPU: the whole report (it parses as
/// `R`), then the block with each of `R`'s claims once and the summary
/// line; exit 0 (a claim that does not hold is a finding). Returns stdout.
pub fn assert_claims_after_the_report<R: crate::LessonReport>(bin: &str) -> String {
    let output = run(bin, &["--claims"]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let (report, block) = stdout
        .split_once("\nThe page's claims, checked on this run:\n")
        .unwrap_or_else(|| panic!("no claims block after the report:\n{stdout}"));
    if let Err(e) = R::parse(&crate::numbered_output(report)) {
        panic!("the report before the claims, {e}\n{report}");
    }
    for claim in R::claims() {
        let marked = block
            .lines()
            .filter(|l| l.contains(&format!(" {}: ", claim.id)))
            .count();
        assert_eq!(marked, 1, "claim {} once in:\n{block}", claim.id);
    }
    let summary = block.lines().last().unwrap_or("");
    assert!(
        summary.contains(" hold, ") && summary.ends_with(" not checked"),
        "{block}"
    );
    stdout
}

/// Asserts that `bin args | head -n lines` ends quietly: the lesson either
/// finishes its writes before it notices (exit 0) or is ended by SIGPIPE
/// as a C program is; never a panic or exit 101.
pub fn assert_quiet_after_head(bin: &str, args: &[&str], lines: usize) {
    use std::io::{BufRead, BufReader};
    let mut child = command(bin, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    let mut reader = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut line = String::new();
    for _ in 0..lines {
        line.clear();
        let read = reader.read_line(&mut line).expect("read a line of the report");
        assert!(read > 0, "the lesson printed fewer than {lines} lines");
    }
    drop(reader);
    let output = child.wait_with_output().expect("wait for the lesson");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert!(
        output.status.success() || output.status.signal() == Some(libc::SIGPIPE),
        "exit 0 or SIGPIPE, as the C++ program: {:?}",
        output.status
    );
}

/// A lesson's `tests/cli.rs`, declared: `lesson_spec::cli_tests!("dayNN-topic");`
/// makes `bin()` ([`lesson_bin`]) and the tests every lesson binary passes
/// on any machine; the lesson's own flags get tests of their own below it.
#[macro_export]
macro_rules! cli_tests {
    ($lesson:literal) => {
        /// The lesson's binary, as Cargo built it or from `LESSON_BIN_DIR`.
        fn bin() -> String {
            $crate::testkit::cli::lesson_bin(env!(concat!("CARGO_BIN_EXE_", $lesson)))
        }

        #[test]
        fn without_a_driver_it_exits_1_with_one_line() {
            $crate::testkit::cli::assert_no_driver_failure(&bin());
        }

        #[test]
        fn usage_errors_help_and_version_are_claps() {
            $crate::testkit::cli::assert_standard_command_line(&bin(), $lesson, env!("CARGO_PKG_VERSION"));
        }

        #[test]
        fn a_closed_stdout_ends_it_quietly() {
            $crate::testkit::cli::assert_quiet_on_closed_pipe(&bin(), &["--help"]);
        }
    };
}

/// A lesson's `tests/on_gpu.rs`, declared:
/// `lesson_spec::gpu_tests!("dayNN-topic", dayNN_topic_report::Report);` makes
/// `bin()` and the tests only a GPU can run, each ignored with that reason
/// (`ci/build-for-gpu.sh` carries them to the GPU machine).
#[macro_export]
macro_rules! gpu_tests {
    ($lesson:literal, $report:ty) => {
        /// The lesson's binary, as Cargo built it or from `LESSON_BIN_DIR`.
        fn bin() -> String {
            $crate::testkit::cli::lesson_bin(env!(concat!("CARGO_BIN_EXE_", $lesson)))
        }

        #[test]
        #[ignore = "needs an NVIDIA GPU: runs the lesson with --claims"]
        fn claims_checks_every_claim_of_the_page_after_the_report() {
            $crate::testkit::cli::assert_claims_after_the_report::<$report>(&bin());
        }

        #[test]
        #[ignore = "needs an NVIDIA GPU: runs the lesson into `head -2`"]
        fn a_reader_that_leaves_after_two_lines_ends_it_quietly() {
            $crate::testkit::cli::assert_quiet_after_head(&bin(), &[], 2);
        }
    };
}
