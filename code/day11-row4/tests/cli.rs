//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_cli::testing).

use lesson_cli::testing::{
    assert_no_driver_failure, assert_quiet_on_closed_pipe, assert_standard_command_line, lesson_bin,
};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_day11-row4"))
}

#[test]
fn without_a_driver_it_exits_1_with_one_line() {
    assert_no_driver_failure(&bin());
}

#[test]
fn usage_errors_help_and_version_are_claps() {
    assert_standard_command_line(&bin(), "day11-row4", env!("CARGO_PKG_VERSION"));
}

#[test]
fn a_closed_stdout_ends_it_quietly() {
    assert_quiet_on_closed_pipe(&bin(), &["--help"]);
}
