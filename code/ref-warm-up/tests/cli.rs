//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_testkit::cli).

lesson_testkit::cli_tests!("ref-warm-up");

#[test]
fn a_device_with_another_first_call_is_a_usage_error() {
    let output = lesson_testkit::cli::run(&bin(), &["--device", "1", "--first", "launch"]);
    lesson_testkit::cli::assert_usage_error(&output, "--device other than 0 needs --first set-device");
}
