//! On a GPU: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there is an NVIDIA GPU; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

lesson_spec::gpu_tests!("ref-warm-up", ref_warm_up_report::Report);

#[test]
#[ignore = "needs an NVIDIA GPU: runs the lesson with each --first"]
fn the_report_names_the_first_call_it_made() {
    for (first, call) in [
        ("set-device", "cudaSetDevice(0)"),
        ("malloc", "cudaMalloc(40000 bytes)"),
        ("launch", "emptyKernel<<<1, 1>>>"),
    ] {
        let output = lesson_spec::testkit::cli::run(&bin(), &["--first", first]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report = ref_warm_up_report::parse(&lesson_spec::numbered_output(&stdout)).unwrap();
        assert_eq!(
            (report.first.name.as_str(), report.first.call.as_str()),
            (first, call)
        );
    }
}
