//! The command line every lesson binary shares.
//!
//! [`run`] parses the flags, prints `--help`, runs the lesson and turns every
//! way it can end into one line and an exit code: 0 for a lesson that passed
//! its own checks, 1 for anything else (a bad flag, no driver, a CUDA error, a
//! failed check). No panic, no backtrace, no exit code 101.
//!
//! Not for: anything CUDA does (`cuda-check` makes those errors; this crate
//! only prints them).

use std::error::Error;
use std::ffi::OsString;
use std::fmt;
use std::process::ExitCode;

use cuda_check::CudaError;

/// What a lesson binary runs with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The CUDA device ordinal, `--device N`; 0 by default as in the course.
    pub device: usize,
    /// `--stats`: print the measurement instrument's view after the report.
    pub stats: bool,
    /// `--json PATH`: write the instrument's measurements there.
    pub json: Option<std::path::PathBuf>,
}

/// The optional flags a lesson accepts beyond `--device` and `--help`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extras {
    /// `--stats` and `--json PATH`.
    pub stats: bool,
}

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Help,
    Run(Options),
}

/// A command line the lesson cannot run with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (try --help)", self.0)
    }
}

impl Error for UsageError {}

/// A lesson's own check failed; the text is printed exactly as given, so the
/// Rust and C++ programs fail with the same line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFailed(pub String);

impl fmt::Display for CheckFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for CheckFailed {}

/// Parses the arguments after the program name.
pub fn parse<I>(args: I, extras: Extras) -> Result<Request, UsageError>
where
    I: IntoIterator<Item = OsString>,
{
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(arg) = arg.to_str().map(str::to_owned) else {
            return Err(UsageError(format!("argument {arg:?} is not valid UTF-8")));
        };
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "-h" | "--help" if inline.is_none() => return Ok(Request::Help),
            "--stats" if extras.stats && inline.is_none() => options.stats = true,
            "--json" if extras.stats => {
                let value = flag_value(inline, &mut args, "--json needs a file path")?;
                if value.is_empty() {
                    return Err(UsageError("--json needs a file path".into()));
                }
                options.json = Some(value.into());
            }
            "--device" => {
                let value = flag_value(inline, &mut args, "--device needs a device number")?;
                options.device = value
                    .parse()
                    .map_err(|_| UsageError(format!("--device: `{value}` is not a device number")))?;
            }
            _ if flag.starts_with('-') => return Err(UsageError(format!("unknown flag `{arg}`"))),
            _ => return Err(UsageError(format!("unexpected argument `{arg}`"))),
        }
    }
    Ok(Request::Run(options))
}

/// A flag's value: written inline (`--flag=value`) or as the next argument.
fn flag_value(
    inline: Option<String>,
    args: &mut impl Iterator<Item = OsString>,
    missing: &str,
) -> Result<String, UsageError> {
    match inline {
        Some(v) => Ok(v),
        None => args
            .next()
            .and_then(|v| v.into_string().ok())
            .ok_or_else(|| UsageError(missing.into())),
    }
}

/// The line printed for an error: CUDA errors and failed checks as they are
/// (the course's shapes), anything else behind `error: `.
pub fn error_line(e: &(dyn Error + 'static)) -> String {
    if e.is::<CudaError>() || e.is::<CheckFailed>() {
        e.to_string()
    } else {
        format!("error: {e}")
    }
}

/// The `main` of a lesson binary: `usage` is the `--help` text, `lesson` the
/// program. Returns the process's exit code.
pub fn run<F>(usage: &str, extras: Extras, lesson: F) -> ExitCode
where
    F: FnOnce(&Options) -> Result<(), Box<dyn Error>>,
{
    let request = parse(std::env::args_os().skip(1), extras);
    let outcome = match request {
        Ok(Request::Help) => {
            print!("{usage}");
            return ExitCode::SUCCESS;
        }
        Ok(Request::Run(options)) => lesson(&options),
        Err(e) => Err(e.into()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A line with no newline inside: a multi-line error would break
            // the one-line promise, so fold it.
            eprintln!("{}", error_line(e.as_ref()).replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Request, UsageError> {
        parse(args.iter().map(OsString::from), Extras::default())
    }

    fn with_stats(args: &[&str]) -> Result<Request, UsageError> {
        parse(args.iter().map(OsString::from), Extras { stats: true })
    }

    #[test]
    fn stats_flags_only_where_the_lesson_takes_them() {
        let want = Options {
            device: 1,
            stats: true,
            json: Some("out.json".into()),
        };
        assert_eq!(
            with_stats(&["--stats", "--json", "out.json", "--device", "1"]),
            Ok(Request::Run(want.clone()))
        );
        assert_eq!(
            with_stats(&["--json=out.json", "--stats", "--device=1"]),
            Ok(Request::Run(want))
        );
        assert_eq!(parse_strs(&["--stats"]).unwrap_err().0, "unknown flag `--stats`");
        assert_eq!(with_stats(&["--json"]).unwrap_err().0, "--json needs a file path");
        assert_eq!(
            with_stats(&["--json="]).unwrap_err().0,
            "--json needs a file path"
        );
    }

    #[test]
    fn no_flags_runs_on_device_zero() {
        assert_eq!(parse_strs(&[]), Ok(Request::Run(Options::default())));
    }

    #[test]
    fn device_takes_a_separate_or_inline_value() {
        let on = |device| {
            Ok(Request::Run(Options {
                device,
                ..Options::default()
            }))
        };
        assert_eq!(parse_strs(&["--device", "3"]), on(3));
        assert_eq!(parse_strs(&["--device=2"]), on(2));
    }

    #[test]
    fn help_wins_wherever_it_stands() {
        assert_eq!(parse_strs(&["--help"]), Ok(Request::Help));
        assert_eq!(parse_strs(&["--device", "1", "-h"]), Ok(Request::Help));
    }

    #[test]
    fn bad_command_lines_are_one_line_errors() {
        for (args, want) in [
            (&["--device"][..], "--device needs a device number"),
            (&["--device", "x"][..], "--device: `x` is not a device number"),
            (&["--device=-1"][..], "--device: `-1` is not a device number"),
            (&["--fast"][..], "unknown flag `--fast`"),
            (&["--help=yes"][..], "unknown flag `--help=yes`"),
            (&["extra"][..], "unexpected argument `extra`"),
        ] {
            let err = parse_strs(args).unwrap_err();
            assert_eq!(err.0, want, "{args:?}");
            assert!(err.to_string().ends_with("(try --help)"));
        }
    }

    #[test]
    fn error_lines_keep_the_courses_shapes() {
        let cuda = CudaError::new(
            "a.rs",
            7,
            "f()",
            "cudaErrorInvalidValue".into(),
            "invalid argument".into(),
        );
        assert_eq!(
            error_line(&cuda),
            "CUDA error a.rs:7: f(): invalid argument (cudaErrorInvalidValue)"
        );
        let check = CheckFailed("vectorAdd wrong at 3: got 1, want 2".into());
        assert_eq!(error_line(&check), "vectorAdd wrong at 3: got 1, want 2");
        assert_eq!(
            error_line(&cuda_check::NoDriver),
            "error: no CUDA driver found (libcuda.so.1 could not be loaded); this lesson needs an NVIDIA GPU and driver"
        );
    }
}

/// Helpers for each lesson's command-line tests: run the built binary and
/// hold its failure to the promise above.
pub mod testing {
    use std::process::{Command, Output};

    /// Runs `bin` with `args` and returns its output.
    pub fn run(bin: &str, args: &[&str]) -> Output {
        Command::new(bin)
            .args(args)
            // A backtrace, if one were printed, must show up in the test.
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"))
    }

    /// Asserts exit code 1, nothing on stdout, and exactly one stderr line
    /// that contains `expected` and no sign of a panic. Returns the line.
    pub fn assert_one_line_failure(output: &Output, expected: &str) -> String {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "exit code; stderr: {stderr}");
        assert!(
            output.stdout.is_empty(),
            "stdout: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
        assert!(stderr.ends_with('\n'), "a finished line: {stderr:?}");
        for sign in ["panicked", "backtrace", "RUST_BACKTRACE", "stack backtrace"] {
            assert!(!stderr.contains(sign), "{sign} in {stderr:?}");
        }
        assert!(stderr.contains(expected), "{expected:?} not in {stderr:?}");
        stderr.trim_end().to_string()
    }

    /// The command-line promises every lesson binary keeps: bad flags fail
    /// in one line before CUDA is touched, `--help` prints the usage line
    /// and exits 0.
    pub fn assert_standard_command_line(bin: &str, name: &str) {
        assert_one_line_failure(&run(bin, &["--frobnicate"]), "unknown flag `--frobnicate`");
        assert_one_line_failure(&run(bin, &["--device", "zero"]), "`zero` is not a device number");
        assert_one_line_failure(&run(bin, &["--device"]), "--device needs a device number");
        let help = run(bin, &["--help"]);
        assert_eq!(help.status.code(), Some(0));
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(text.contains(&format!("Usage: {name} [--device N]")), "{text}");
        assert!(help.stderr.is_empty());
    }

    /// Asserts that where there is no driver the lesson fails in one line
    /// that says so. Where this machine has a driver the path cannot be
    /// reached, and it says so and returns.
    pub fn assert_no_driver_failure(bin: &str) {
        if driver_present() {
            eprintln!("skipped: this machine has a CUDA driver, so the no-driver path cannot be reached");
            return;
        }
        let line = assert_one_line_failure(&run(bin, &[]), "no CUDA driver found");
        assert!(line.starts_with("error: "), "{line}");
    }

    /// Whether this machine has a CUDA driver. The no-driver test can only
    /// mean something where there is none (CI, a laptop); elsewhere it says
    /// so and returns.
    pub fn driver_present() -> bool {
        cuda_check::require_driver().is_ok()
    }
}
