//! The binary's command line, its failure without a driver and its end on
//! a closed stdout, run for real on any machine (see lesson_spec::testkit::cli).

lesson_spec::cli_tests!("day10-block-sizes");
