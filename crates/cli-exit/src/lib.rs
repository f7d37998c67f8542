//! How every binary of the workspace ends.
//!
//! - [`quiet_on_closed_pipe`]: a program whose reader went away (`prog | head
//!   -2`) stops there, silently, as a C program does. Rust ignores `SIGPIPE`
//!   and turns the next `print!` into a panic with a backtrace instead.
//! - [`finish`]: an error becomes one line on stderr and exit code 1; usage
//!   errors are clap's business (its message, exit code 2) and never get
//!   here.
//!
//! Not for: parsing command lines (clap does) or CUDA's error shapes
//! (`cuda-check` makes them; a lesson prints them through `lesson-cli`).

use std::process::ExitCode;

/// Restores the default action of `SIGPIPE`, so a write to a closed pipe
/// ends the process quietly instead of returning an error every `print!`
/// would turn into a panic. Call it first thing in `main`.
pub fn quiet_on_closed_pipe() {
    // SAFETY: setting a signal's disposition to its default has no
    // preconditions; no handler of ours is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// `error: ` and the error with its causes (`anyhow`'s `{:#}`), folded onto
/// one line.
pub fn error_line(e: &anyhow::Error) -> String {
    format!("error: {e:#}").replace('\n', " ")
}

/// The exit code for a finished `main`: the code it chose, or 1 with the
/// error printed as one line.
pub fn finish(outcome: anyhow::Result<ExitCode>) -> ExitCode {
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{}", error_line(&e));
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
}
