//! The command line every lesson binary shares, on top of clap.
//!
//! - [`DeviceArg`]: `--device N`, flattened into each lesson's own clap
//!   `Args` struct; 0 by default, the device the course's programs use.
//! - [`open_device`]: the preamble every lesson runs on that device (the
//!   driver looked for, the context made current, the GPU's name read),
//!   giving a [`Device`].
//! - [`run`]: a lesson's whole `main`. It parses the lesson's `Args` with
//!   clap, runs the lesson, and turns every way it can end into an exit
//!   code: 0 for a lesson that passed its own checks; clap's message and 2
//!   for a command line it cannot run with (`--help` and `--version` print
//!   and exit 0); one line on stderr and 1 for anything else.
//! - [`ClaimsArg`], [`Printed`] and [`print_claims`]: `--claims`, the
//!   page's claims checked on the report just printed.
//! - [`error_line`] and [`CheckFailed`]: that one line, in the course's
//!   shapes where the course has one.
//! - [`check`]: a GPU result against the CPU reference, the course's way
//!   (the first mismatching index, the values as C's `%.9g`).
//!
//! Not for: a lesson's own flags (they belong to its `Args` struct), making
//! CUDA errors (`cuda-check` makes them; this crate prints them), owning
//! device memory or timing kernels (`cuda-objects`, `time-kernel`), the
//! closed-pipe rule itself (`cli-exit` has it; [`run`] applies it), or
//! testing a lesson's binary against these promises (`lesson_spec`'s
//! `cli_tests!`, a dev-dependency).

pub mod check;
mod claims;
mod device;
mod error_line;

use std::process::ExitCode;

pub use claims::{print_claims, ClaimsArg, Printed};
pub use device::{open_device, open_device_timed, Device, DeviceArg};
pub use error_line::{error_line, CheckFailed};

/// The `main` of a lesson binary: `lesson` is the program, given the
/// command line clap parsed into `A`. Returns the process's exit code.
pub fn run<A, F>(lesson: F) -> ExitCode
where
    A: clap::Parser,
    F: FnOnce(A) -> anyhow::Result<()>,
{
    // First, so that even `--help` into a closed pipe ends quietly.
    cli_exit::quiet_on_closed_pipe();
    // A usage error prints clap's message and exits 2; `--help` and
    // `--version` print and exit 0. Either way the lesson never starts.
    let args = cli_exit::parse::<A>();
    cli_exit::flushed(match lesson(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_line(&e));
            ExitCode::FAILURE
        }
    })
}
