//! On GPUs: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there are NVIDIA GPUs; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

use day09_timing_report::Report;
use lesson_cli::testing::{assert_claims_after_the_report, assert_quiet_after_head, lesson_bin, run};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_day09-timing"))
}

#[test]
#[ignore = "needs two NVIDIA GPUs: runs the lesson on device 1"]
fn on_two_gpus_the_report_names_the_device_it_ran_on() {
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

#[test]
#[ignore = "needs an NVIDIA GPU: runs the lesson with --claims"]
fn claims_checks_every_claim_of_the_page_after_the_report() {
    assert_claims_after_the_report::<Report>(&bin());
}

#[test]
#[ignore = "needs an NVIDIA GPU: runs the lesson into `head -2`"]
fn a_reader_that_leaves_after_two_lines_ends_it_quietly() {
    assert_quiet_after_head(&bin(), &[], 2);
}
