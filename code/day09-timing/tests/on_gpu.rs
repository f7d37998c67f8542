//! On GPUs: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there are NVIDIA GPUs; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

use lesson_cli::testing::{lesson_bin, run};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_day09-timing"))
}

#[test]
#[ignore = "needs two NVIDIA GPUs: runs the lesson on device 1"]
fn the_report_names_the_device_it_ran_on() {
    let output = run(&bin(), &["--device", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(
        stdout.contains("\ncudaSetDevice(1), the first CUDA call in this process: "),
        "{stdout}"
    );
    assert!(!stdout.contains("cudaSetDevice(0)"), "{stdout}");
}
