//! The figures the warm-up lesson's README and `expected-failures.txt` name, each
//! written into its `<!-- figure NAME -->` block by `cargo run -p evidence -- figures --write`.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // The lesson README.
    Figure {
        name: "wu-runs",
        query: r#"{count(runs("ref-warm-up", "h200-cxx", "first call (set-device), ms"))} of the C++ program and {count(runs("ref-warm-up", "h200-rust", "first call (set-device), ms"))} of the Rust twin, {days("ref-warm-up", "h200-cxx h200-rust")}"#,
    },
    Figure {
        name: "wu-medians",
        query: r#"
| figure | C++ median (range of its runs) | Rust median |
| --- | --- | --- |
| first call (cudaSetDevice), ms | {median(runs("ref-warm-up", "h200-cxx", "first call (set-device), ms")) as .1} ({range(runs("ref-warm-up", "h200-cxx", "first call (set-device), ms")) as .1}) | {median(runs("ref-warm-up", "h200-rust", "first call (set-device), ms")) as .1} |
| cudaMalloc 40000 B, first, ms | {median(runs("ref-warm-up", "h200-cxx", "cudaMalloc 40000 B first, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "cudaMalloc 40000 B first, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "cudaMalloc 40000 B first, ms")) as .4} |
| cudaMalloc 40000 B, second, ms | {median(runs("ref-warm-up", "h200-cxx", "cudaMalloc 40000 B second, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "cudaMalloc 40000 B second, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "cudaMalloc 40000 B second, ms")) as .4} |
| cudaMalloc 64 MiB, first, ms | {median(runs("ref-warm-up", "h200-cxx", "cudaMalloc 67108864 B first, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "cudaMalloc 67108864 B first, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "cudaMalloc 67108864 B first, ms")) as .4} |
| simple kernel, 4 threads, host #0, ms | {median(runs("ref-warm-up", "h200-cxx", "simple 4 threads host #0, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "simple 4 threads host #0, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "simple 4 threads host #0, ms")) as .4} |
| simple kernel, 4 threads, host #1, ms | {median(runs("ref-warm-up", "h200-cxx", "simple 4 threads host #1, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "simple 4 threads host #1, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "simple 4 threads host #1, ms")) as .4} |
| complex kernel, 4 threads, host #0, ms | {median(runs("ref-warm-up", "h200-cxx", "complex 4 threads host #0, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "complex 4 threads host #0, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "complex 4 threads host #0, ms")) as .4} |
| complex kernel, 4 threads, host #1, ms | {median(runs("ref-warm-up", "h200-cxx", "complex 4 threads host #1, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "complex 4 threads host #1, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "complex 4 threads host #1, ms")) as .4} |
| complex kernel, 4 threads, events warm, ms | {median(runs("ref-warm-up", "h200-cxx", "complex 4 threads warm, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "complex 4 threads warm, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "complex 4 threads warm, ms")) as .4} |
| without sync, host #1, ms | {median(runs("ref-warm-up", "h200-cxx", "without sync, host #1, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "without sync, host #1, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "without sync, host #1, ms")) as .4} |
| with sync, host #1, ms | {median(runs("ref-warm-up", "h200-cxx", "with sync, host #1, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "with sync, host #1, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "with sync, host #1, ms")) as .4} |
| with sync, events #1, ms | {median(runs("ref-warm-up", "h200-cxx", "with sync, events #1, ms")) as .4} ({range(runs("ref-warm-up", "h200-cxx", "with sync, events #1, ms")) as .4}) | {median(runs("ref-warm-up", "h200-rust", "with sync, events #1, ms")) as .4} |
"#,
    },
    Figure {
        name: "first-calls",
        query: r#"{median(runs("ref-warm-up", "h200-cxx-first-set-device h200-rust-first-set-device", "first call (set-device), ms")) as .0} ms, as `cudaMalloc` {median(runs("ref-warm-up", "h200-cxx-first-malloc h200-rust-first-malloc", "first call (malloc), ms")) as .0} ms, as a launch {median(runs("ref-warm-up", "h200-cxx-first-launch h200-rust-first-launch", "first call (launch), ms")) as .0} ms"#,
    },
    Figure {
        name: "eager-first-launch",
        query: r#"{median(runs("ref-warm-up", "h200-cxx h200-rust", "simple 4 threads host #0, ms")) as .3} ms to {median(runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "simple 4 threads host #0, ms")) as .3} ms"#,
    },
    Figure {
        name: "two-gpus",
        query: r#"{range(runs("ref-warm-up", "h200-x2-cxx-all h200-x2-rust-all", "first call (set-device), ms")) as .0} ms with both GPUs visible and {range(runs("ref-warm-up", "h200-x2-cxx-one h200-x2-rust-one", "first call (set-device), ms")) as .0} ms with `CUDA_VISIBLE_DEVICES=0`"#,
    },
    Figure {
        name: "wu-run-n",
        query: r#"{count(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, common step, bytes", "5bd757d 4777c6b"))} runs"#,
    },
    Figure {
        name: "wu-run-step",
        query: r#"followed each other by {range(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, common step, bytes", "5bd757d 4777c6b")) as ,0} bytes except at {range(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, address jumps", "5bd757d 4777c6b"))} jumps per run, {range(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, calls between jumps", "5bd757d 4777c6b"))} calls apart"#,
    },
    Figure {
        name: "wu-run-jump",
        query: r#"a median of {range(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, at a jump, median ms", "5bd757d 4777c6b")) as .4} ms against {range(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, elsewhere, median ms", "5bd757d 4777c6b")) as .4} ms for the others; of the calls over five times a run's median ({sum(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, slow calls", "5bd757d 4777c6b"))} in all), {sum(runs("ref-warm-up", "h200-cxx h200-rust", "malloc run, slow calls at a jump", "5bd757d 4777c6b"))} were at a jump"#,
    },
    Figure {
        name: "wu-pool-driver",
        query: r#"follow each other by {range(lines("h200-wu-why-pool-driver", "cuMemAlloc common step, bytes")) as ,0} bytes with {range(lines("h200-wu-why-pool-driver", "cuMemAlloc jumps"))} jumps per process, the first at the start of a 2 MiB block, and the calls at a jump take a median of {median(lines("h200-wu-why-pool-driver", "cuMemAlloc median call at a jump, ms")) as .4} ms against {median(lines("h200-wu-why-pool-driver", "cuMemAlloc median call elsewhere, ms")) as .4} ms ({count(lines("h200-wu-why-pool-driver", "cuMemAlloc jumps"))} processes), as cudaMalloc's do in the same phase"#,
    },
    Figure {
        name: "first-launch-split",
        query: r#"{median(runs("ref-warm-up", "h200-cxx h200-rust", "simple 4 threads host #0, ms")) as .3} ms to {median(runs("ref-warm-up", "h200-cxx-first-launch h200-rust-first-launch", "simple 4 threads host #0, ms")) as .3} ms, against {median(runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "simple 4 threads host #0, ms")) as .3} ms"#,
    },
    Figure {
        name: "ex1-plain-vs-first-launch",
        query: r#"{median(runs("ref-warm-up", "h200-cxx h200-rust", "simple 4 threads host #0, ms")) as .2} ms to about {median(runs("ref-warm-up", "h200-cxx-first-launch h200-rust-first-launch", "simple 4 threads host #0, ms")) as .3} ms (medians of the recorded H200 runs; single runs range {range(runs("ref-warm-up", "h200-cxx-first-launch h200-rust-first-launch", "simple 4 threads host #0, ms")) as .3} ms), close to EAGER's {range(runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "simple 4 threads host #0, ms")) as .3} ms"#,
    },
    // The reasons in expected-failures.txt.
    Figure {
        name: "xf-wu-first-call",
        query: r#"{range(runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch h200-cxx-eager h200-rust-eager", "first call (set-device), ms")) as .0} ms as cudaSetDevice, {range(runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch h200-cxx-eager h200-rust-eager", "first call (malloc), ms")) as .0} ms as cudaMalloc and {range(runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch h200-cxx-eager h200-rust-eager", "first call (launch), ms")) as .0} ms as a launch in single runs, and {range(runs("ref-warm-up", "h200-x2-cxx-all h200-x2-rust-all", "first call (set-device), ms")) as .0} ms as cudaSetDevice with two GPUs visible"#,
    },
    Figure {
        name: "xf-wu-simple",
        query: r#"{range((runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch", "simple 4 threads host #0, ms") / runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch", "simple 4 threads host #1, ms") - 1) * 100) as .0}% more than its second in single lazy runs; under CUDA_MODULE_LOADING=EAGER, with the module and its kernels loaded before the clock starts, {range((runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "simple 4 threads host #0, ms") / runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "simple 4 threads host #1, ms") - 1) * 100) as .0}%"#,
    },
    Figure {
        name: "xf-wu-complex",
        query: r#"{range((runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch", "complex 4 threads host #0, ms") / runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch", "complex 4 threads host #1, ms") - 1) * 100) as .0}% more than the second call in single lazy runs, {range((runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "complex 4 threads host #0, ms") / runs("ref-warm-up", "h200-cxx-eager h200-rust-eager", "complex 4 threads host #1, ms") - 1) * 100) as .0}% under EAGER, near the post's figure but above the 10% the claim allows in some runs"#,
    },
    Figure {
        name: "xf-wu-no-sync",
        query: r#"{range(runs("ref-warm-up", "h200-cxx h200-rust h200-cxx-first-set-device h200-rust-first-set-device h200-cxx-first-malloc h200-rust-first-malloc h200-cxx-first-launch h200-rust-first-launch h200-cxx-eager h200-rust-eager", "without sync, host #1, ms")) as .4} ms in single runs"#,
    },
];
