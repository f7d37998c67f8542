//! On GPUs: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there is an NVIDIA GPU; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

use day10_block_sizes_report::Report;
use lesson_cli::testing::{assert_claims_after_the_report, assert_quiet_after_head, lesson_bin};

fn bin() -> String {
    lesson_bin(env!("CARGO_BIN_EXE_day10-block-sizes"))
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
