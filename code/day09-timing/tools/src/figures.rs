//! The figures Day 9's README and `expected-failures.txt` name: the query of
//! each (the language: `crates/proof/evidence/src/figures/query.rs`) gives
//! the text `cargo run -p evidence -- figures --write` writes into its block.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // The lesson README.
    Figure {
        name: "row1-seconds",
        query: r#"{median(runs("day09-timing", "h200-cxx", "row 1 whole process, ms")) / 1000 as .2} s for the C++ program and {median(runs("day09-timing", "h200-rust", "row 1 whole process, ms")) / 1000 as .2} s for the Rust twin"#,
    },
    Figure {
        name: "context-seconds",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "context (first CUDA call), ms")) / 1000 as .2}"#,
    },
    Figure {
        name: "row3-extra",
        query: r#"{(median(runs("day09-timing", "h200-cxx h200-rust", "row 3 first launch, ms")) - median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms"))) * 1000 as .0} us"#,
    },
    Figure {
        name: "scale-extra",
        query: r#"{(median(runs("day09-timing", "h200-cxx h200-rust", "vectorScale first launch, ms")) - median(runs("day09-timing", "h200-cxx h200-rust", "vectorScale after warm-up, ms"))) * 1000 as .0} us"#,
    },
    Figure {
        name: "row4-ms",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) as .3}"#,
    },
    Figure {
        name: "row4-tb-s",
        query: r#"{201.333924 / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) / 1000 as .1}"#,
    },
    Figure {
        name: "row4-of-ceiling",
        query: r#"{range(201.333924 / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) / copy_ceiling("*") * 100) as .0}"#,
    },
    Figure {
        name: "d09-row4-ncu",
        query: r#"{median(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu duration, ms, median")) * 1000 as .1} us launched back to back and {median(runs("day11-row4", "h200-cxx-ncu", "ncu duration, ms, median")) * 1000 as .1} us on a clean L2, against row 4's {median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) * 1000 as .1} us"#,
    },
    Figure {
        name: "row5-over-row4",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 5 round trip, ms")) / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) as .0}"#,
    },
    Figure {
        name: "row5-staging",
        query: r#"{median(lines("h200-round-trip-pinned", "row 5 pageable, ms")) as .1} ms pageable and {median(lines("h200-round-trip-pinned", "row 5 pinned, ms")) as .2} ms pinned (medians of {count(lines("h200-round-trip-pinned", "row 5 pinned, ms"))} passes; pageable took {range(lines("h200-round-trip-pinned", "row 5 pageable, ms") / lines("h200-round-trip-pinned", "row 5 pinned, ms")) as .1} times as long within a pass)"#,
    },
    Figure {
        name: "row5-plain",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 5 round trip, ms")) as .1}"#,
    },
    Figure {
        name: "row5-rates",
        query: r#"{201.333924 / median(lines("h200-round-trip-pinned", "row 5 pinned, ms")) as .1} GB/s pinned, {201.333924 / median(lines("h200-round-trip-pinned", "row 5 pinned, ms")) / 63.015 * 100 as .0}% of the PCIe Gen 5 x16 link's 63.0 GB/s, against {201.333924 / median(lines("h200-round-trip-pinned", "row 5 pageable, ms")) as .1} GB/s pageable, {201.333924 / median(lines("h200-round-trip-pinned", "row 5 pageable, ms")) / 63.015 * 100 as .0}%"#,
    },
    Figure {
        name: "d09-runs",
        query: r#"{count(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms"))} of the C++ program, {count(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms"))} of the Rust twin, {days("day09-timing", "h200-cxx h200-rust")}"#,
    },
    Figure {
        name: "d09-medians",
        query: r#"
| | T4 (page) | H200 C++ | H200 Rust |
| --- | ---: | ---: | ---: |
| context, ms | 424.730 | {median(runs("day09-timing", "h200-cxx", "context (first CUDA call), ms")) as .1} | {median(runs("day09-timing", "h200-rust", "context (first CUDA call), ms")) as .1} |
| row 1, whole process, ms | 1594.357 | {median(runs("day09-timing", "h200-cxx", "row 1 whole process, ms")) as .1} | {median(runs("day09-timing", "h200-rust", "row 1 whole process, ms")) as .1} |
| row 3, first launch, ms | 0.940 | {median(runs("day09-timing", "h200-cxx", "row 3 first launch, ms")) as .3} | {median(runs("day09-timing", "h200-rust", "row 3 first launch, ms")) as .3} |
| row 4, kernel, ms | 0.768 | {median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms")) as .3} | {median(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms")) as .3} |
| row 5, round trip, ms | 45.362 | {median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms")) as .1} | {median(runs("day09-timing", "h200-rust", "row 5 round trip, ms")) as .1} |
| CPU, one thread, ms | 18.909 | {median(runs("day09-timing", "h200-cxx", "CPU, full n, ms")) as .1} | {median(runs("day09-timing", "h200-rust", "CPU, full n, ms")) as .1} |
"#,
    },
    Figure {
        name: "kernel-speedup",
        query: r#"{0.768 / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) as .1}"#,
    },
    Figure {
        name: "first-launch-over-kernel",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 3 first launch, ms")) / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) as .1}"#,
    },
    Figure {
        name: "sync-overhead-median",
        query: r#"{(median(runs("day09-timing", "h200-cxx h200-rust", "row 2 plus a sync, ms")) - median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms"))) / median(runs("day09-timing", "h200-cxx h200-rust", "row 4 after warm-up, ms")) * 100 as .0}"#,
    },
    Figure {
        name: "launch-us",
        query: r#"{median(runs("day09-timing", "h200-cxx", "row 2 around the launch, ms")) * 1000 as .0}"#,
    },
    Figure {
        name: "added-us",
        query: r#"{(median(runs("day09-timing", "h200-cxx", "row 2 plus a sync, ms")) - median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms"))) * 1000 as .0}"#,
    },
    Figure {
        name: "round-trip-over-cpu",
        query: r#"{(median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms")) / median(runs("day09-timing", "h200-cxx", "CPU, full n, ms")) - 1) * 100 as .0}% for the C++ program and {(median(runs("day09-timing", "h200-rust", "row 5 round trip, ms")) / median(runs("day09-timing", "h200-rust", "CPU, full n, ms")) - 1) * 100 as .0}% for the Rust twin"#,
    },
    Figure {
        name: "pinned-round-trip-of-cpu",
        query: r#"{median(lines("h200-round-trip-pinned", "row 5 pinned, ms")) / median(runs("day09-timing", "h200-cxx h200-rust", "CPU, full n, ms")) * 100 as .0}"#,
    },
    Figure {
        name: "sweep-round-trip-over-cpu",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=1048576 round trip, ms")) / median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=1048576 CPU, ms")) as .2} times the CPU's time at 1 Mi elements and {median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=4194304 round trip, ms")) / median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=4194304 CPU, ms")) as .2} times at 4 Mi"#,
    },
    Figure {
        name: "sweep-round-trip-wins",
        query: r#"{sum(runs("day09-timing", "h200-cxx h200-rust", "sweep n=1048576 round trip, ms") < runs("day09-timing", "h200-cxx h200-rust", "sweep n=1048576 CPU, ms"))} of {count(runs("day09-timing", "h200-cxx h200-rust", "sweep n=1048576 CPU, ms"))} runs at 1 Mi and {sum(runs("day09-timing", "h200-cxx h200-rust", "sweep n=4194304 round trip, ms") < runs("day09-timing", "h200-cxx h200-rust", "sweep n=4194304 CPU, ms"))} at 4 Mi"#,
    },
    Figure {
        name: "eager-moves",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 3 first launch, ms")) as .2} ms to about {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms")) as .2} ms and `vectorScale`'s cold row from about {median(runs("day09-timing", "h200-cxx h200-rust", "vectorScale first launch, ms")) as .2} ms to about {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale first launch, ms")) as .2} ms, still {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms")) / median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 4 after warm-up, ms")) as .1} and {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale first launch, ms")) / median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale after warm-up, ms")) as .1} times their warm values (medians of every plain run and of the {count(runs("day09-timing", "h200-cxx-eager", "row 3 first launch, ms"))} and {count(runs("day09-timing", "h200-rust-eager", "row 3 first launch, ms"))} EAGER runs of the two programs)"#,
    },
    Figure {
        name: "eager-gap",
        query: r#"`vectorScale`'s first launch still takes {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale first launch, ms")) as .3} ms against {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale after warm-up, ms")) as .3} ms warm, and row 3 {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms")) as .3} ms against row 4's {median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 4 after warm-up, ms")) as .3} (medians of {count(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms"))} EAGER runs)"#,
    },
    Figure {
        name: "row4-config",
        query: r#"{median(runs("day10-block-sizes", "h200-cxx h200-rust", "vectorAdd 32 threads, ms")) as .4} ms with 32 threads per block against {median(runs("day10-block-sizes", "h200-cxx h200-rust", "vectorAdd 192 threads, ms")) as .4} with 192, and, with 256-thread blocks, {median(lines("h200-d11-why", "scalar 4 per thread, ms")) as .4} ms with four elements per thread against {median(lines("h200-d11-why", "scalar 1 per thread, ms")) as .4} with one"#,
    },
    Figure {
        name: "sweep-launch-floor",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=1024 kernel, ms")) * 1000 as .1} us at 1 Ki elements and {median(runs("day09-timing", "h200-cxx h200-rust", "sweep n=65536 kernel, ms")) * 1000 as .1} us at 64 Ki, 64 times the bytes, while an empty kernel launched the same way takes {median(lines("h200-d11-why", "empty kernel launched, ms")) * 1000 as .1} us and the 64 Ki launch replayed in a CUDA graph, without the host between launches, {median(lines("h200-d11-why", "graph n=65536, ms")) * 1000 as .1} us (Day 11's `why` runs)"#,
    },
    Figure {
        name: "eager-add",
        query: r#"{(median(runs("day09-timing", "h200-cxx h200-rust", "row 3 first launch, ms")) - median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms"))) * 1000 as .0} us"#,
    },
    Figure {
        name: "eager-scale",
        query: r#"{(median(runs("day09-timing", "h200-cxx h200-rust", "vectorScale first launch, ms")) - median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale first launch, ms"))) * 1000 as .0} us"#,
    },
    Figure {
        name: "context-spread",
        query: r#"{max(runs("day09-timing", "h200-cxx h200-rust", "context (first CUDA call), ms")) - min(runs("day09-timing", "h200-cxx h200-rust", "context (first CUDA call), ms")) as .0}"#,
    },
    Figure {
        name: "row1-over-row4",
        query: r#"{median(runs("day09-timing", "h200-cxx", "row 1 whole process, ms")) / median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms")) as ,0} for the C++ program's medians and {median(runs("day09-timing", "h200-rust", "row 1 whole process, ms")) / median(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms")) as ,0} for the Rust twin's"#,
    },
    Figure {
        name: "round-trip-wins",
        query: r#"{sum(runs("day09-timing", "h200-cxx h200-rust", "row 5 round trip, ms") < runs("day09-timing", "h200-cxx h200-rust", "CPU, full n, ms"))} of the {count(runs("day09-timing", "h200-cxx h200-rust", "CPU, full n, ms"))} plain recorded runs came out the other way, {sum(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "a67c6ce") < runs("day09-timing", "h200-rust", "CPU, full n, ms", "a67c6ce"))} of them"#,
    },
    Figure {
        name: "kernel-cells-apart",
        query: r#"{max(abs(per_commit(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms")) - per_commit(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms"))), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1024 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=1024 kernel, ms"))), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=65536 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 kernel, ms"))), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1048576 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 kernel, ms"))), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=4194304 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 kernel, ms")))) * 1000 as .1} us apart (the last printed digit), in every session; they differ by that digit somewhere in {sum((abs(per_commit(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms")) - per_commit(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms"))) + abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1024 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=1024 kernel, ms"))) + abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=65536 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 kernel, ms"))) + abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1048576 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 kernel, ms"))) + abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=4194304 kernel, ms")) - per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 kernel, ms")))) > 0)} of {count(abs(per_commit(runs("day09-timing", "h200-rust", "row 4 after warm-up, ms")) - per_commit(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms"))))} sessions"#,
    },
    Figure {
        name: "host-rows-runs",
        query: r#"{count(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944"))} of the C++ program, {count(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944"))} of the Rust twin"#,
    },
    Figure {
        name: "host-rows-apart",
        query: r#"{abs(median(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100 as .1}% and the full-n CPU row by {abs(median(runs("day09-timing", "h200-rust", "CPU, full n, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100 as .1}%, the sweep cells by {range(abs(median(runs("day09-timing", "h200-rust", "sweep n=1024 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=1024 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=1024 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=1024 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=65536 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=65536 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=65536 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=65536 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=1048576 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=1048576 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=1048576 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=1048576 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=4194304 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=4194304 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100, abs(median(runs("day09-timing", "h200-rust", "sweep n=4194304 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / median(runs("day09-timing", "h200-cxx", "sweep n=4194304 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1) * 100) as .0}%"#,
    },
    Figure {
        name: "session-host-apart",
        query: r#"{max(abs(per_commit(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "CPU, full n, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1024 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1024 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=65536 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=65536 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1048576 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=1048576 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=4194304 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 CPU, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-rust", "sweep n=4194304 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 round trip, ms", "2e867d8 d06f36e da732cd d2636a5 d4791bb 6dfa944")) - 1)) * 100 as .0}"#,
    },
    Figure {
        name: "session-row5",
        query: r#"{(1 - median(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "2e867d8")) / median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "2e867d8"))) * 100 as .0}% faster on row 5 in one session (2e867d8, where it also ran second in every pair) and {(median(runs("day09-timing", "h200-rust", "row 5 round trip, ms", "d2636a5")) / median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "d2636a5")) - 1) * 100 as .0}% slower in another (d2636a5)"#,
    },
    Figure {
        name: "control-apart",
        query: r#"{max(abs(per_commit(runs("day09-timing", "h200-cxx-copy", "row 5 round trip, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "CPU, full n, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1024 round trip, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1024 round trip, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=65536 CPU, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 CPU, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=65536 round trip, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 round trip, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1048576 CPU, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 CPU, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1048576 round trip, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 round trip, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=4194304 CPU, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 CPU, ms", "d4791bb")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=4194304 round trip, ms", "d4791bb")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 round trip, ms", "d4791bb")) - 1)) * 100 as .1}% ({count(runs("day09-timing", "h200-cxx-copy", "row 5 round trip, ms", "d4791bb"))} rounds) and {max(abs(per_commit(runs("day09-timing", "h200-cxx-copy", "row 5 round trip, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "row 5 round trip, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "CPU, full n, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1024 round trip, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1024 round trip, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=65536 CPU, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 CPU, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=65536 round trip, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=65536 round trip, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1048576 CPU, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 CPU, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=1048576 round trip, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=1048576 round trip, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=4194304 CPU, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 CPU, ms", "6dfa944")) - 1), abs(per_commit(runs("day09-timing", "h200-cxx-copy", "sweep n=4194304 round trip, ms", "6dfa944")) / per_commit(runs("day09-timing", "h200-cxx", "sweep n=4194304 round trip, ms", "6dfa944")) - 1)) * 100 as .1}% ({count(runs("day09-timing", "h200-cxx-copy", "row 5 round trip, ms", "6dfa944"))} rounds)"#,
    },
    Figure {
        name: "cpu-rows-first",
        query: r#"{range((1 - per_commit(runs("day09-timing", "h200-rust", "CPU, full n, ms", "576a7d4 9de3606")) / per_commit(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "576a7d4 9de3606"))) * 100) as .0}"#,
    },
    // The reasons in expected-failures.txt.
    Figure {
        name: "xf-sync-overhead",
        query: r#"{median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms")) as .3} ms at the median, so what the host clock adds to it, the launch call (row 2 alone) plus the sync and the host's wake-up, a few microseconds in all, is {range((runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 2 plus a sync, ms") - runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 4 after warm-up, ms")) / runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 4 after warm-up, ms") * 100) as .0}% of it in single runs"#,
    },
    Figure {
        name: "xf-eager-cost",
        query: r#"{median(runs("day09-timing", "h200-cxx h200-rust", "row 3 first launch, ms")) - median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "row 3 first launch, ms")) + median(runs("day09-timing", "h200-cxx h200-rust", "vectorScale first launch, ms")) - median(runs("day09-timing", "h200-cxx-eager h200-rust-eager", "vectorScale first launch, ms")) as .2} ms on the H200 (the fall of row 3's and vectorScale's cold medians), while context creation itself varies by {max(runs("day09-timing", "h200-cxx h200-rust", "context (first CUDA call), ms")) - min(runs("day09-timing", "h200-cxx h200-rust", "context (first CUDA call), ms")) as .0} ms from run to run here"#,
    },
    Figure {
        name: "xf-a67c6ce-cpu",
        query: r#"{range(runs("day09-timing", "h200-rust", "CPU, full n, ms", "a67c6ce")) as .0} ms against the C++'s {range(runs("day09-timing", "h200-cxx", "CPU, full n, ms", "a67c6ce")) as .0}"#,
    },
    Figure {
        name: "xf-launch",
        query: r#"({range(runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 2 around the launch, ms")) * 1000 as .0} us in single runs), but the kernel it queues takes only {median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms")) as .3} ms, so launch plus sync ({median(runs("day09-timing", "h200-cxx", "row 2 plus a sync, ms")) as .3} ms at the median) is {range(runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 2 plus a sync, ms") / runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 2 around the launch, ms")) as .0} times the launch alone"#,
    },
    Figure {
        name: "xf-round-trip",
        query: r#"({range(runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 5 round trip, ms", "!a67c6ce")) as .0} ms) and the single CPU thread ({range(runs("day09-timing", "h200-cxx h200-rust h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "CPU, full n, ms", "!a67c6ce")) as .0} ms) overlap in their run-to-run spread on this machine: the round trip is the slower by {(median(runs("day09-timing", "h200-cxx", "row 5 round trip, ms")) / median(runs("day09-timing", "h200-cxx", "CPU, full n, ms")) - 1) * 100 as .0}% at the C++ program's median, but a single run can come out the other way, as {sum(runs("day09-timing", "h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "row 5 round trip, ms", "!a67c6ce") < runs("day09-timing", "h200-cxx-copy h200-cxx-hostbuilt h200-cxx-hostbuilt-core3 h200-rust-core3 h200-cxx-malloc-thp h200-rust-malloc-thp h200-rust-runtime-copies h200-rust-runtime-copies-2 h200-rust-stats", "CPU, full n, ms", "!a67c6ce"))} runs of the other builds recorded here did"#,
    },
];
