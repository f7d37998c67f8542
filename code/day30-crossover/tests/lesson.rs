//! The binary as a user meets it: its command line, its failure without a
//! driver and its end on a closed stdout, on any machine; and, on a GPU
//! (`cargo test -- --ignored`; LESSON_BIN_DIR runs a binary built
//! elsewhere, as ci/gpu-session.sh's .evidence-bin), what only a real run
//! shows.

mod cli {
    lesson_spec::cli_tests!("day30-crossover");
}

mod on_gpu {
    use day30_crossover_report::Report;

    lesson_spec::gpu_tests!("day30-crossover", Report);
}
