//! How a build script stops: one `error:` line and exit code 1, never a panic.

/// Prints `error: <message>` and ends the build script with exit code 1.
///
/// Cargo shows a build script's stderr under its own heading, so one plain line
/// reads better there than a panic's message and backtrace hint.
pub fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}
