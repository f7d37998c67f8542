//! How every binary of the workspace ends: silently when its reader goes
//! away (`prog | head -2`), as a C program does ([`quiet_on_closed_pipe`]);
//! otherwise any error, and any output that cannot be written (a full
//! disk), is one line on stderr and exit code 1, never a panic ([`parse`],
//! [`finish`], [`flushed`]). Usage errors stay clap's (its message, exit
//! code 2). [`OwnMessage`] is a clap value parser whose refusal quotes the
//! value rather than echoing it as typed, which a line break would break.
//!
//! Not for: parsing command lines (clap does), CUDA's error shapes
//! (`cuda-check` makes them; a lesson prints them through `lesson-cli`), or
//! testing that a binary ends so (`lesson_spec::testkit`'s `full_disk` and `cli`).

mod value;
pub use value::OwnMessage;

use std::io::{self, Write};
use std::process::ExitCode;

/// Restores the default action of `SIGPIPE`, which Rust ignores (the next
/// `print!` would panic instead), and turns the panic of any other failed
/// `print!`, and only that panic, into one line and exit code 1. Call it
/// first thing in `main`.
pub fn quiet_on_closed_pipe() {
    // SAFETY: setting a signal's disposition to its default has no
    // preconditions; no handler of ours is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied());
        match message.and_then(output_failure) {
            Some(line) => exit_with(&line),
            None => previous(info),
        }
    }));
}

/// The standard library's words for a `print!` that failed: `failed
/// printing to stdout: No space left on device (os error 28)`.
const PRINT_PANIC: &str = "failed printing to ";

/// The one line for a panic that is a failed `print!`/`eprint!`, or `None`
/// for any other panic, which stays a panic (a bug to see).
fn output_failure(message: &str) -> Option<String> {
    let rest = message.strip_prefix(PRINT_PANIC)?;
    let (stream, cause) = rest.split_once(": ")?;
    Some(format!("error: writing to {stream}: {cause}"))
}

/// The one line for output that could not be written to stdout.
fn stdout_failure(e: &io::Error) -> String {
    format!("error: writing to stdout: {e}")
}

/// Prints `line` on stderr, if stderr can still be written, and exits 1.
fn exit_with(line: &str) -> ! {
    let _ = writeln!(io::stderr(), "{line}");
    std::process::exit(1)
}

/// Parses the command line as `P::parse` does (clap's usage message and exit
/// code 2 for a bad one; `--help` and `--version` print and exit 0), except
/// that help or version text that cannot be written is one line and exit 1.
pub fn parse<P: clap::Parser>() -> P {
    match P::try_parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            // A usage error keeps clap's exit code 2 whatever becomes of
            // its message; help and version text must reach stdout.
            if e.use_stderr() {
                e.exit()
            }
            if let Err(failure) = e.print().and_then(|()| io::stdout().flush()) {
                if failure.kind() != io::ErrorKind::BrokenPipe {
                    exit_with(&stdout_failure(&failure));
                }
            }
            std::process::exit(e.exit_code())
        }
    }
}

/// `error: ` and the error with its causes (`anyhow`'s `{:#}`), folded onto
/// one line.
pub fn error_line(e: &anyhow::Error) -> String {
    format!("error: {e:#}").replace('\n', " ")
}

/// `e` and each of its causes joined by `: `, as [`error_line`] shows them
/// (anyhow's `{:#}`), for a checker that lists every problem as a line of
/// its own rather than failing on the first.
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        line.push_str(": ");
        line.push_str(&c.to_string());
        cause = c.source();
    }
    line.replace('\n', " ")
}

/// The exit code for a finished `main`: the code it chose, or 1 with the
/// error printed as one line; see [`flushed`].
pub fn finish(outcome: anyhow::Result<ExitCode>) -> ExitCode {
    let code = match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{}", error_line(&e));
            ExitCode::FAILURE
        }
    };
    flushed(code)
}

/// `code`, once what is still buffered for stdout is written; if it cannot
/// be (a full disk), one line and exit code 1. Without this the standard
/// library flushes after `main` returns and drops the error.
pub fn flushed(code: ExitCode) -> ExitCode {
    match io::stdout().flush() {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            let _ = writeln!(io::stderr(), "{}", stdout_failure(&e));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn an_error_and_its_causes_make_one_line() {
        let inner: anyhow::Result<()> = Err(anyhow::anyhow!("permission denied\n(os error 13)"));
        let e = inner.context("writing out/x.json").unwrap_err();
        assert_eq!(
            error_line(&e),
            "error: writing out/x.json: permission denied (os error 13)"
        );
    }

    #[test]
    fn a_typed_error_with_its_causes_reads_as_error_line_does() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such\nfile");
        let e = anyhow::Error::new(io).context("reading x.toml");
        let as_dyn: &(dyn std::error::Error + 'static) = e.as_ref();
        assert_eq!(with_causes(as_dyn), "reading x.toml: no such file");
        assert_eq!(format!("error: {}", with_causes(as_dyn)), error_line(&e));
    }

    #[test]
    fn only_a_failed_print_is_an_output_failure() {
        assert_eq!(
            output_failure("failed printing to stdout: No space left on device (os error 28)").as_deref(),
            Some("error: writing to stdout: No space left on device (os error 28)")
        );
        assert_eq!(output_failure("index out of bounds: the len is 1"), None);
        assert_eq!(output_failure("failed printing to"), None);
    }
}
