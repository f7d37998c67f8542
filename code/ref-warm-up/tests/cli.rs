//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_spec::testkit::cli).

lesson_spec::cli_tests!("ref-warm-up");

#[test]
fn a_device_with_another_first_call_is_a_usage_error() {
    let output = lesson_spec::testkit::cli::run(&bin(), &["--device", "1", "--first", "launch"]);
    lesson_spec::testkit::cli::assert_usage_error(&output, "--device other than 0 needs --first set-device");
}
