//! On a GPU: what only a real run of the lesson can show. Run with `cargo
//! test -- --ignored` where there is an NVIDIA GPU; set LESSON_BIN_DIR to run
//! a lesson binary built elsewhere (ci/gpu-session.sh's .evidence-bin).

lesson_spec::gpu_tests!("day11-row4", day11_row4_report::Report);
