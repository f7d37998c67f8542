//! The binary's command line and its failure without a GPU, run for real.

use lesson_cli::testing::{assert_one_line_failure, driver_present, run};

const BIN: &str = env!("CARGO_BIN_EXE_day09-timing");

#[test]
fn without_a_driver_it_exits_1_with_one_line() {
    if driver_present() {
        eprintln!("skipped: this machine has a CUDA driver, so the no-driver path cannot be reached");
        return;
    }
    let line = assert_one_line_failure(&run(BIN, &[]), "no CUDA driver found");
    assert!(line.starts_with("error: "), "{line}");
}

#[test]
fn bad_flags_exit_1_with_one_line_before_touching_cuda() {
    assert_one_line_failure(&run(BIN, &["--frobnicate"]), "unknown flag `--frobnicate`");
    assert_one_line_failure(&run(BIN, &["--device", "zero"]), "`zero` is not a device number");
    assert_one_line_failure(&run(BIN, &["--device"]), "--device needs a device number");
}

#[test]
fn help_prints_usage_and_exits_0() {
    let out = run(BIN, &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Usage: day09-timing [--device N]"), "{text}");
    assert!(out.stderr.is_empty());
}
