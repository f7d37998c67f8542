//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_spec::testkit::cli).

lesson_spec::cli_tests!("day09-timing");

/// `--json` names a file the whole measurement is written to at the end; a
/// path that cannot be written fails before anything is measured, even
/// before the driver is looked for, not after the run.
#[test]
fn an_unwritable_json_path_fails_before_anything_runs() {
    let output = lesson_spec::testkit::cli::run_without_driver(
        &bin(),
        &["--stats", "--json", "/nonexistent/dir/x.json"],
    );
    let line = lesson_spec::testkit::cli::assert_one_line_failure(&output, "/nonexistent/dir/x.json");
    assert!(!line.contains("driver"), "{line}");
}
