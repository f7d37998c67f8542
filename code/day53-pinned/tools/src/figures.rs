//! The figures Day 53's README names, each written into its
//! `<!-- figure NAME -->` block by `cargo run -p evidence -- figures --write`.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // The lesson README.
    Figure {
        name: "pinned-large",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "64 MiB pinned, GB/s", "aab7b89")) as .1} and {median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) as .1} GB/s (both programs' medians in the session of aab7b89), and PyTorch's pinned 256 MiB copy, measured alongside, {median(runs("day53-pinned", "h200-torch-reference", "256 MiB pinned, GB/s", "aab7b89")) as .1} GB/s (the median of {count(runs("day53-pinned", "h200-torch-reference", "256 MiB pinned, GB/s", "aab7b89"))} runs); over every session, the programs' 256 MiB copy {median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s")) as .1} GB/s and PyTorch's {median(runs("day53-pinned", "h200-torch-reference", "256 MiB pinned, GB/s")) as .1} GB/s"#,
    },
    Figure {
        name: "pinned-of-link",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) / 63.015 * 100 as .0}"#,
    },
    Figure {
        name: "pinned-of-link-all",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s")) / 63.015 * 100 as .0}"#,
    },
    Figure {
        name: "d53-fixed",
        query: r#"{1.048576 / median(runs("day53-pinned", "h200-cxx h200-rust", "1 MiB pinned, GB/s", "aab7b89")) * 1000 - 1.048576 / median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) * 1000 as .1} us longer than its bytes at the 256 MiB copy's rate, and the 4 MiB copy {4.194304 / median(runs("day53-pinned", "h200-cxx h200-rust", "4 MiB pinned, GB/s", "aab7b89")) * 1000 - 4.194304 / median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) * 1000 as .1} us (medians of the session of aab7b89)"#,
    },
    Figure {
        name: "pinned-over-pageable",
        query: r#"{range(median(runs("day53-pinned", "h200-cxx h200-rust", "1 MiB pinned, GB/s", "aab7b89")) / median(runs("day53-pinned", "h200-cxx h200-rust", "1 MiB pageable, GB/s", "aab7b89")), median(runs("day53-pinned", "h200-cxx h200-rust", "4 MiB pinned, GB/s", "aab7b89")) / median(runs("day53-pinned", "h200-cxx h200-rust", "4 MiB pageable, GB/s", "aab7b89")), median(runs("day53-pinned", "h200-cxx h200-rust", "16 MiB pinned, GB/s", "aab7b89")) / median(runs("day53-pinned", "h200-cxx h200-rust", "16 MiB pageable, GB/s", "aab7b89")), median(runs("day53-pinned", "h200-cxx h200-rust", "64 MiB pinned, GB/s", "aab7b89")) / median(runs("day53-pinned", "h200-cxx h200-rust", "64 MiB pageable, GB/s", "aab7b89")), median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) / median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pageable, GB/s", "aab7b89"))) as .1}"#,
    },
    Figure {
        name: "pageable-large",
        query: r#"{range(median(runs("day53-pinned", "h200-cxx h200-rust", "64 MiB pageable, GB/s")), median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pageable, GB/s"))) as .1}"#,
    },
    Figure {
        name: "pageable-rotated",
        query: r#"
| size | pageable, one buffer | pageable, rotated | pinned, one buffer | pinned, rotated |
| --- | ---: | ---: | ---: | ---: |
| 1 MiB | {median(lines("h200-pageable-rotated", "1 MiB pageable one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "1 MiB pageable rotated, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "1 MiB pinned one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "1 MiB pinned rotated, GB/s")) as .1} |
| 4 MiB | {median(lines("h200-pageable-rotated", "4 MiB pageable one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "4 MiB pageable rotated, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "4 MiB pinned one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "4 MiB pinned rotated, GB/s")) as .1} |
| 16 MiB | {median(lines("h200-pageable-rotated", "16 MiB pageable one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "16 MiB pageable rotated, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "16 MiB pinned one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "16 MiB pinned rotated, GB/s")) as .1} |
| 64 MiB | {median(lines("h200-pageable-rotated", "64 MiB pageable one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "64 MiB pageable rotated, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "64 MiB pinned one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "64 MiB pinned rotated, GB/s")) as .1} |
| 256 MiB | {median(lines("h200-pageable-rotated", "256 MiB pageable one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "256 MiB pageable rotated, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "256 MiB pinned one buffer, GB/s")) as .1} | {median(lines("h200-pageable-rotated", "256 MiB pinned rotated, GB/s")) as .1} |
"#,
    },
    Figure {
        name: "pinned-over-rotated",
        query: r#"{range(median(lines("h200-pageable-rotated", "1 MiB pinned rotated, GB/s")) / median(lines("h200-pageable-rotated", "1 MiB pageable rotated, GB/s")), median(lines("h200-pageable-rotated", "4 MiB pinned rotated, GB/s")) / median(lines("h200-pageable-rotated", "4 MiB pageable rotated, GB/s")), median(lines("h200-pageable-rotated", "16 MiB pinned rotated, GB/s")) / median(lines("h200-pageable-rotated", "16 MiB pageable rotated, GB/s")), median(lines("h200-pageable-rotated", "64 MiB pinned rotated, GB/s")) / median(lines("h200-pageable-rotated", "64 MiB pageable rotated, GB/s")), median(lines("h200-pageable-rotated", "256 MiB pinned rotated, GB/s")) / median(lines("h200-pageable-rotated", "256 MiB pageable rotated, GB/s"))) as .1} times as fast as the pageable one, size by size, where from one buffer the same passes give {range(median(lines("h200-pageable-rotated", "1 MiB pinned one buffer, GB/s")) / median(lines("h200-pageable-rotated", "1 MiB pageable one buffer, GB/s")), median(lines("h200-pageable-rotated", "4 MiB pinned one buffer, GB/s")) / median(lines("h200-pageable-rotated", "4 MiB pageable one buffer, GB/s")), median(lines("h200-pageable-rotated", "16 MiB pinned one buffer, GB/s")) / median(lines("h200-pageable-rotated", "16 MiB pageable one buffer, GB/s")), median(lines("h200-pageable-rotated", "64 MiB pinned one buffer, GB/s")) / median(lines("h200-pageable-rotated", "64 MiB pageable one buffer, GB/s")), median(lines("h200-pageable-rotated", "256 MiB pinned one buffer, GB/s")) / median(lines("h200-pageable-rotated", "256 MiB pageable one buffer, GB/s"))) as .1}"#,
    },
    Figure {
        name: "async-pageable-share",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "async pageable call, ms")) / median(runs("day53-pinned", "h200-cxx h200-rust", "async pageable completion, ms")) * 100 as .1}"#,
    },
    Figure {
        name: "async-pinned",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "async pinned call, ms")) * 1000 as .0} us, {median(runs("day53-pinned", "h200-cxx h200-rust", "async pinned call, ms")) / median(runs("day53-pinned", "h200-cxx h200-rust", "async pinned completion, ms")) * 100 as .1}% of the copy"#,
    },
    Figure {
        name: "zero-copy-ratio",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "zero-copy / resident")) as .0}"#,
    },
    Figure {
        name: "zero-copy-bandwidth",
        query: r#"{134.222616 / median(runs("day53-pinned", "h200-cxx h200-rust", "zero-copy kernel, ms")) as .0} GB/s counting the bytes written too, against the resident kernel's {134.222616 / median(runs("day53-pinned", "h200-cxx h200-rust", "device-resident kernel, ms")) / 1000 as .1} TB/s"#,
    },
    Figure {
        name: "zero-copy-read",
        query: r#"{67.111308 / median(runs("day53-pinned", "h200-cxx h200-rust", "zero-copy kernel, ms")) as .0} GB/s, {67.111308 / median(runs("day53-pinned", "h200-cxx h200-rust", "zero-copy kernel, ms")) / median(runs("day53-pinned", "h200-cxx h200-rust", "64 MiB pinned, GB/s")) * 100 as .0}% of the pinned 64 MiB copy's rate"#,
    },
    Figure {
        name: "d53-runs",
        query: r#"{count(runs("day53-pinned", "h200-cxx", "1 MiB pinned, GB/s"))} of the C++ program, {count(runs("day53-pinned", "h200-rust", "1 MiB pinned, GB/s"))} of the Rust twin, each beside a PyTorch run"#,
    },
    Figure {
        name: "programs-agree",
        query: r#"{max(abs(median(runs("day53-pinned", "h200-rust", "1 MiB pinned, GB/s")) / median(runs("day53-pinned", "h200-cxx", "1 MiB pinned, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "4 MiB pinned, GB/s")) / median(runs("day53-pinned", "h200-cxx", "4 MiB pinned, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "16 MiB pinned, GB/s")) / median(runs("day53-pinned", "h200-cxx", "16 MiB pinned, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "64 MiB pinned, GB/s")) / median(runs("day53-pinned", "h200-cxx", "64 MiB pinned, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "256 MiB pinned, GB/s")) / median(runs("day53-pinned", "h200-cxx", "256 MiB pinned, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "device-resident kernel, ms")) / median(runs("day53-pinned", "h200-cxx", "device-resident kernel, ms")) - 1), abs(median(runs("day53-pinned", "h200-rust", "zero-copy kernel, ms")) / median(runs("day53-pinned", "h200-cxx", "zero-copy kernel, ms")) - 1), abs(median(runs("day53-pinned", "h200-rust", "zero-copy / resident")) / median(runs("day53-pinned", "h200-cxx", "zero-copy / resident")) - 1)) * 100 as .1}% on every pinned size and on all of Part 3, and within {max(abs(median(runs("day53-pinned", "h200-rust", "1 MiB pageable, GB/s")) / median(runs("day53-pinned", "h200-cxx", "1 MiB pageable, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "4 MiB pageable, GB/s")) / median(runs("day53-pinned", "h200-cxx", "4 MiB pageable, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "16 MiB pageable, GB/s")) / median(runs("day53-pinned", "h200-cxx", "16 MiB pageable, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "64 MiB pageable, GB/s")) / median(runs("day53-pinned", "h200-cxx", "64 MiB pageable, GB/s")) - 1), abs(median(runs("day53-pinned", "h200-rust", "256 MiB pageable, GB/s")) / median(runs("day53-pinned", "h200-cxx", "256 MiB pageable, GB/s")) - 1)) * 100 as .0}% on pageable copies"#,
    },
    Figure {
        name: "h200-bandwidth",
        query: r#"
| size | pageable C++, GB/s | pageable Rust, GB/s | pinned C++, GB/s | pinned Rust, GB/s |
| ---: | ---: | ---: | ---: | ---: |
| 1 MiB | {median(runs("day53-pinned", "h200-cxx", "1 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-rust", "1 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-cxx", "1 MiB pinned, GB/s")) as .2} | {median(runs("day53-pinned", "h200-rust", "1 MiB pinned, GB/s")) as .2} |
| 4 MiB | {median(runs("day53-pinned", "h200-cxx", "4 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-rust", "4 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-cxx", "4 MiB pinned, GB/s")) as .2} | {median(runs("day53-pinned", "h200-rust", "4 MiB pinned, GB/s")) as .2} |
| 16 MiB | {median(runs("day53-pinned", "h200-cxx", "16 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-rust", "16 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-cxx", "16 MiB pinned, GB/s")) as .2} | {median(runs("day53-pinned", "h200-rust", "16 MiB pinned, GB/s")) as .2} |
| 64 MiB | {median(runs("day53-pinned", "h200-cxx", "64 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-rust", "64 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-cxx", "64 MiB pinned, GB/s")) as .2} | {median(runs("day53-pinned", "h200-rust", "64 MiB pinned, GB/s")) as .2} |
| 256 MiB | {median(runs("day53-pinned", "h200-cxx", "256 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-rust", "256 MiB pageable, GB/s")) as .1} | {median(runs("day53-pinned", "h200-cxx", "256 MiB pinned, GB/s")) as .2} | {median(runs("day53-pinned", "h200-rust", "256 MiB pinned, GB/s")) as .2} |
"#,
    },
    Figure {
        name: "h200-async-zero-copy",
        query: r#"
| median | H200 C++ | H200 Rust |
| --- | ---: | ---: |
| pageable `cudaMemcpyAsync` call, ms | {median(runs("day53-pinned", "h200-cxx", "async pageable call, ms")) as .3} | {median(runs("day53-pinned", "h200-rust", "async pageable call, ms")) as .3} |
| pageable completion, ms | {median(runs("day53-pinned", "h200-cxx", "async pageable completion, ms")) as .3} | {median(runs("day53-pinned", "h200-rust", "async pageable completion, ms")) as .3} |
| pinned `cudaMemcpyAsync` call, ms | {median(runs("day53-pinned", "h200-cxx", "async pinned call, ms")) as .4} | {median(runs("day53-pinned", "h200-rust", "async pinned call, ms")) as .4} |
| pinned completion, ms | {median(runs("day53-pinned", "h200-cxx", "async pinned completion, ms")) as .3} | {median(runs("day53-pinned", "h200-rust", "async pinned completion, ms")) as .3} |
| device-resident kernel, ms | {median(runs("day53-pinned", "h200-cxx", "device-resident kernel, ms")) as .3} | {median(runs("day53-pinned", "h200-rust", "device-resident kernel, ms")) as .3} |
| zero-copy kernel, ms | {median(runs("day53-pinned", "h200-cxx", "zero-copy kernel, ms")) as .3} | {median(runs("day53-pinned", "h200-rust", "zero-copy kernel, ms")) as .3} |
| zero-copy / resident | {median(runs("day53-pinned", "h200-cxx", "zero-copy / resident")) as .2} | {median(runs("day53-pinned", "h200-rust", "zero-copy / resident")) as .2} |
"#,
    },
    Figure {
        name: "xf-link",
        query: r#"{median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) as .1} GB/s against PyTorch's {median(runs("day53-pinned", "h200-torch-reference", "256 MiB pinned, GB/s", "aab7b89")) as .1}, {median(runs("day53-pinned", "h200-cxx h200-rust", "256 MiB pinned, GB/s", "aab7b89")) / 63.015 * 100 as .0}% of PCIe Gen 5 x16's 63.0 GB/s"#,
    },
];
