//! instrument-suite's command line, its failures without a driver and its
//! end on a closed stdout, run for real on any machine (see
//! lesson_spec::testkit::cli).

use lesson_spec::testkit::cli::{
    assert_no_driver_failure, assert_one_line_failure, assert_quiet_on_closed_pipe,
    assert_standard_command_line, assert_usage_error, lesson_bin, run, run_without_driver,
};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_instrument-suite"))
}

/// A fresh folder of the test's own, removed with the guard.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a scratch directory")
}

#[test]
fn without_a_driver_it_exits_1_with_one_line() {
    assert_no_driver_failure(&bin());
}

#[test]
fn usage_errors_help_and_version_are_claps() {
    assert_standard_command_line(&bin(), "instrument-suite", env!("CARGO_PKG_VERSION"));
    assert_usage_error(&run(&bin(), &["--scale", "0"]), "is not a positive number");
    // A negative scale is a value to refuse, not a flag clap does not know.
    assert_usage_error(&run(&bin(), &["--scale", "-1"]), "`-1` is not a positive number");
    assert_usage_error(
        &run(&bin(), &["--scale", "nan"]),
        "`nan` is not a positive number",
    );
    assert_usage_error(&run(&bin(), &["--kernel", "nope"]), "invalid value 'nope'");
    assert_usage_error(&run(&bin(), &["compare", "a.json"]), "required");
}

#[test]
fn a_closed_stdout_ends_it_quietly() {
    assert_quiet_on_closed_pipe(&bin(), &["--help"]);
}

#[test]
fn a_json_path_that_cannot_be_written_fails_before_cuda_is_asked() {
    let scratch = scratch();
    let path = scratch.path().join("no-such-dir").join("x.json");
    let output = run_without_driver(&bin(), &["--json", path.to_str().unwrap()]);
    let line = assert_one_line_failure(&output, "cannot create");
    assert!(!line.contains("driver"), "the path fails first: {line}");
}

#[test]
fn the_cubin_is_written_without_a_gpu_and_a_missing_run_is_one_line() {
    let scratch = scratch();
    let dir = scratch.path();
    let cubin = dir.join("suite.cubin");
    let output = run_without_driver(&bin(), &["cubin", cubin.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(&std::fs::read(&cubin).unwrap()[..4], b"\x7fELF");
    let missing = dir.join("missing.json");
    let output = run(
        &bin(),
        &["compare", missing.to_str().unwrap(), missing.to_str().unwrap()],
    );
    assert_one_line_failure(&output, "reading");
    // An A/A run to measure the spread from that is not there: one line too.
    std::fs::write(dir.join("a.json"), r#"{"kernels": []}"#).unwrap();
    let a = dir.join("a.json");
    let output = run(
        &bin(),
        &[
            "compare",
            a.to_str().unwrap(),
            a.to_str().unwrap(),
            "--spread-from",
            missing.to_str().unwrap(),
        ],
    );
    let line = assert_one_line_failure(&output, "reading");
    assert!(line.contains("missing.json"), "{line}");
}

#[test]
fn the_cupti_mode_without_libcupti_is_one_line_before_any_gpu_work() {
    let output = run_without_driver(&bin(), &["--mode", "graph", "--mode", "cupti"]);
    let line = assert_one_line_failure(&output, "error: ");
    // Where libcupti is installed the driver is what is missing next.
    if line.contains("libcupti") {
        assert!(
            line.starts_with("error: the cupti mode: libcupti was not found"),
            "{line}"
        );
    } else {
        assert!(line.contains("no CUDA driver found"), "{line}");
    }
}
