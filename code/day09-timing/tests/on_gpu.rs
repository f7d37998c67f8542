//! On a GPU: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there is an NVIDIA GPU; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

lesson_spec::gpu_tests!("day09-timing", day09_timing_report::Report);

#[test]
#[ignore = "needs two NVIDIA GPUs: runs the lesson on device 1"]
fn on_two_gpus_the_report_names_the_device_it_ran_on() {
    let output = lesson_spec::testkit::cli::run(&bin(), &["--device", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(
        stdout.contains("\ncudaSetDevice(1), the first CUDA call in this process: "),
        "{stdout}"
    );
    assert!(!stdout.contains("cudaSetDevice(0)"), "{stdout}");
}
