//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_cli::testing).

use lesson_cli::testing::{
    assert_no_driver_failure, assert_one_line_failure, assert_quiet_on_closed_pipe,
    assert_standard_command_line, lesson_bin, run_without_driver,
};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_day09-timing"))
}

#[test]
fn without_a_driver_it_exits_1_with_one_line() {
    assert_no_driver_failure(&bin());
}

#[test]
fn usage_errors_help_and_version_are_claps() {
    assert_standard_command_line(&bin(), "day09-timing", env!("CARGO_PKG_VERSION"));
}

#[test]
fn a_closed_stdout_ends_it_quietly() {
    assert_quiet_on_closed_pipe(&bin(), &["--help"]);
}

/// `--json` names a file the whole measurement is written to at the end; a
/// path that cannot be written fails before anything is measured, even
/// before the driver is looked for, not after the run.
#[test]
fn an_unwritable_json_path_fails_before_anything_runs() {
    let output = run_without_driver(&bin(), &["--stats", "--json", "/nonexistent/dir/x.json"]);
    let line = assert_one_line_failure(&output, "/nonexistent/dir/x.json");
    assert!(!line.contains("driver"), "{line}");
}
