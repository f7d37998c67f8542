//! The binary's command line and its failure without a GPU, run for real.

use lesson_cli::testing::{assert_no_driver_failure, assert_standard_command_line};

const BIN: &str = env!("CARGO_BIN_EXE_day09-timing");

#[test]
fn without_a_driver_it_exits_1_with_one_line() {
    assert_no_driver_failure(BIN);
}

#[test]
fn bad_flags_and_help_behave() {
    assert_standard_command_line(BIN, "day09-timing");
}
