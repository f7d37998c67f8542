//! The figures Day 11's README and `expected-failures.txt` name: the query of
//! each (the language: `crates/proof/evidence/src/figures/query.rs`) gives
//! the text `cargo run -p evidence -- figures --write` writes into its block.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // The lesson README.
    Figure {
        name: "d11-runs",
        query: r#"{count(runs("day11-row4", "h200-cxx", "row 4, ms"))} C++ and {count(runs("day11-row4", "h200-rust", "row 4, ms"))} Rust runs, and {count(runs("day11-row4", "h200-cxx-ncu", "ncu profiled launches"))} under Nsight Compute"#,
    },
    Figure {
        name: "d11-table",
        query: r#"
| line | C++, ms | Rust, ms | GB/s | of peak |
| --- | ---: | ---: | ---: | ---: |
| row 4 | {median(runs("day11-row4", "h200-cxx", "row 4, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "row 4, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| cudaMemcpy device to device | {median(runs("day11-row4", "h200-cxx", "cudaMemcpy device to device, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "cudaMemcpy device to device, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "cudaMemcpy device to device, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "cudaMemcpy device to device, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| copy kernel, float4 | {median(runs("day11-row4", "h200-cxx", "copy kernel float4, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "copy kernel float4, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| vectorAdd, float4 | {median(runs("day11-row4", "h200-cxx", "vectorAdd float4, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "vectorAdd float4, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "vectorAdd float4, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "vectorAdd float4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| per-launch events, no flush | {median(runs("day11-row4", "h200-cxx", "per-launch events no flush, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "per-launch events no flush, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events no flush, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events no flush, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| per-launch events, L2 flushed | {median(runs("day11-row4", "h200-cxx", "per-launch events L2 flushed, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "per-launch events L2 flushed, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 65536 | {median(runs("day11-row4", "h200-cxx", "sweep n=65536, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=65536, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 131072 | {median(runs("day11-row4", "h200-cxx", "sweep n=131072, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=131072, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=131072, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=131072, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 262144 | {median(runs("day11-row4", "h200-cxx", "sweep n=262144, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=262144, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=262144, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=262144, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 524288 | {median(runs("day11-row4", "h200-cxx", "sweep n=524288, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=524288, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=524288, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=524288, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 1048576 | {median(runs("day11-row4", "h200-cxx", "sweep n=1048576, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=1048576, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=1048576, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=1048576, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 2097152 | {median(runs("day11-row4", "h200-cxx", "sweep n=2097152, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=2097152, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=2097152, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=2097152, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 4194304 | {median(runs("day11-row4", "h200-cxx", "sweep n=4194304, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=4194304, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=4194304, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=4194304, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 8388608 | {median(runs("day11-row4", "h200-cxx", "sweep n=8388608, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=8388608, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=8388608, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=8388608, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 16777216 | {median(runs("day11-row4", "h200-cxx", "sweep n=16777216, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=16777216, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=16777216, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=16777216, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
| sweep, n = 16777827 | {median(runs("day11-row4", "h200-cxx", "sweep n=16777827, ms")) as .5} | {median(runs("day11-row4", "h200-rust", "sweep n=16777827, ms")) as .5} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=16777827, GB/s")) as ,0} | {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=16777827, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .1}% |
"#,
    },
    Figure {
        name: "d11-row4",
        query: r#"{median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) as ,0} GB/s, {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) * 100 as .0}% of the float4 copy kernel's {median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) as ,0} GB/s; as shares of the {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) as ,0} GB/s peak, {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .0}% and {median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * 100 as .0}%"#,
    },
    Figure {
        name: "d11-copy-1gib",
        query: r#"{median(lines("h200-d11-why", "copy4 1 GiB, GB/s")) as ,0} GB/s against {median(lines("h200-d11-why", "copy4 64 MiB, GB/s")) as ,0} at 64 MiB in the `why` runs; Nsight Compute sees the 64 MiB copy at {median(lines("h200-d11-why-ncu-full", "ncu copy4 grid 16385, dram__throughput.avg.pct_of_peak_sustained_elapsed")) as .1}% of the DRAM's peak throughput against {median(lines("h200-d11-why-ncu-full", "ncu copy4 grid 262144, dram__throughput.avg.pct_of_peak_sustained_elapsed")) as .1}% over 1 GiB, with {median(lines("h200-d11-why-ncu-full", "ncu copy4 grid 16385, dram__bytes_write.sum")) / (4 * 16777827) * 100 as .0}% of its output written to DRAM by its end"#,
    },
    Figure {
        name: "d11-float4",
        query: r#"{median(runs("day11-row4", "h200-cxx h200-rust", "vectorAdd float4, GB/s")) as ,0} GB/s, {(median(runs("day11-row4", "h200-cxx h200-rust", "vectorAdd float4, GB/s")) - median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s"))) / median(runs("day11-row4", "h200-cxx h200-rust", "copy kernel float4, GB/s")) * 100 as .0} points of the copy kernel's rate above row 4"#,
    },
    Figure {
        name: "d11-per-thread",
        query: r#"1, 2, 4 and 8 elements per thread {median(lines("h200-d11-why", "scalar 1 per thread, ms")) as .4}, {median(lines("h200-d11-why", "scalar 2 per thread, ms")) as .4}, {median(lines("h200-d11-why", "scalar 4 per thread, ms")) as .4} and {median(lines("h200-d11-why", "scalar 8 per thread, ms")) as .4}, float4 {median(lines("h200-d11-why", "vectorAdd4, ms")) as .4}; float4 launched over row 4's grid, four times the blocks it needs, {median(lines("h200-d11-why", "vectorAdd4 at row 4's grid, ms")) as .4} against row 4's {median(lines("h200-d11-why", "row 4, ms")) as .4}"#,
    },
    Figure {
        name: "d11-floor",
        query: r#"{range(median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=131072, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=262144, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=524288, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=1048576, ms")) * 1000) as .2} us at the median whatever n, so the rate there ({median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, GB/s")) as ,0} GB/s at 64 Ki elements) is the floor of a launch divided into a few bytes; the highest rate inside the L2, {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=2097152, GB/s")) as ,0} GB/s at 2 Mi elements (24 MiB), is above full n's but below the peak"#,
    },
    Figure {
        name: "d11-graph",
        query: r#"{median(lines("h200-d11-why", "graph n=65536, ms")) * 1000 as .2} us against {median(lines("h200-d11-why", "sweep n=65536, ms")) * 1000 as .2} launched one by one in the `why` runs, and an empty kernel {median(lines("h200-d11-why", "empty kernel in a graph, ms")) * 1000 as .2} us in a graph against {median(lines("h200-d11-why", "empty kernel launched, ms")) * 1000 as .2} launched"#,
    },
    Figure {
        name: "d11-ncu-reads",
        query: r#"{median(lines("h200-d11-why-ncu-sweep", "ncu vectorAdd grid 8192, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .0}% and {median(lines("h200-d11-why-ncu-sweep", "ncu vectorAdd grid 16384, dram__bytes_read.sum")) / (8 * 4194304) * 100 as .0}% of their inputs from DRAM, at L2 hit rates of {median(lines("h200-d11-why-ncu-sweep", "ncu vectorAdd grid 8192, lts__t_sector_hit_rate.pct")) as .0}% and {median(lines("h200-d11-why-ncu-sweep", "ncu vectorAdd grid 16384, lts__t_sector_hit_rate.pct")) as .0}%"#,
    },
    Figure {
        name: "d11-graph-read",
        query: r#"24 and 32 MiB at {median(lines("h200-d11-why", "graph read-only 24 MiB, GB/s")) as ,0} and {median(lines("h200-d11-why", "graph read-only 32 MiB, GB/s")) as ,0} GB/s, above the {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) as ,0} GB/s DRAM peak, and 192 MiB at {median(lines("h200-d11-why", "graph read-only 192 MiB, GB/s")) as ,0}"#,
    },
    Figure {
        name: "d11-cold",
        query: r#"{median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, ms")) * 1000 as .1} us against {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms")) * 1000 as .1} us back to back ({(median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, ms")) / median(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms")) - 1) * 100 as .1}%), and {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events no flush, ms")) * 1000 as .1} us with the same per-launch events and no flush"#,
    },
    Figure {
        name: "d11-spin",
        query: r#"{median(lines("h200-d11-why", "per-launch events behind a spin kernel, ms")) * 1000 as .1} us against {median(lines("h200-d11-why", "per-launch events no flush, ms")) * 1000 as .1} with nothing queued and {median(lines("h200-d11-why", "per-launch events L2 flushed, ms")) * 1000 as .1} behind the flush (the `why` runs' medians)"#,
    },
    Figure {
        name: "d11-ncu-flush",
        query: r#"{median(runs("day11-row4", "h200-cxx-ncu", "ncu duration, ms, median")) * 1000 as .1} us with its flush and {median(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu duration, ms, median")) * 1000 as .1} us"#,
    },
    Figure {
        name: "d11-read",
        query: r#"{median(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes read per element, median")) as .3} bytes per element; but of the 4 bytes each element writes only {median(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes written per element, median")) as .2} reach DRAM during the launch, under ncu's default cache control (it flushes the caches before each profiled launch)"#,
    },
    Figure {
        name: "d11-none",
        query: r#"{median(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes written per element, median")) as .2} bytes per element and the whole {median(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, median")) as .2} ({count(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, median"))} processes)"#,
    },
    Figure {
        name: "d11-none-first",
        query: r#"the smallest launch of each process moves {range(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, smallest")) as .2} bytes per element, but the largest moves {range(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, largest")) as .2}"#,
    },
    Figure {
        name: "d11-first",
        query: r#"{median(lines("h200-d11-why-ncu-first", "ncu vectorAdd launch 0, dram__bytes_write.sum")) / 16777216 as .2} bytes per element to DRAM, and {median(lines("h200-d11-why-ncu-first-flush", "ncu vectorAdd launch 0, dram__bytes_write.sum")) / 16777216 as .2} when a read-only flush runs between the copies and it"#,
    },
    Figure {
        name: "d11-clocks",
        query: r#"the lowest and highest SM clock read {min(lines("h200-d11-why", "SM clock after the check launch, MHz"))} and {max(lines("h200-d11-why", "SM clock after the per-launch rows, MHz"))} MHz, the memory clock {min(lines("h200-d11-why", "memory clock after the check launch, MHz"))} and {max(lines("h200-d11-why", "memory clock after the per-launch rows, MHz"))} MHz"#,
    },
    Figure {
        name: "d11-offsets",
        query: r#"0, 1 and 32 elements run at {median(lines("h200-d11-why-coalesce", "offset 0, GB/s")) as ,0}, {median(lines("h200-d11-why-coalesce", "offset 1, GB/s")) as ,0} and {median(lines("h200-d11-why-coalesce", "offset 32, GB/s")) as ,0} GB/s; strides of 1, 2, 4 and 32 at {median(lines("h200-d11-why-coalesce", "stride 1, GB/s")) as ,0}, {median(lines("h200-d11-why-coalesce", "stride 2, GB/s")) as ,0}, {median(lines("h200-d11-why-coalesce", "stride 4, GB/s")) as ,0} and {median(lines("h200-d11-why-coalesce", "stride 32, GB/s")) as ,0} GB/s"#,
    },
    // Issue 43's measurements (the `causes` phase, gpu-phases/why-mix.cu).
    Figure {
        name: "d11-mix",
        query: r#"{median(lines("h200-d11-why-mix", "mix read-only 1 GiB, GB/s")) as ,0} GB/s reading only, {median(lines("h200-d11-why-mix", "mix write-only 1 GiB, GB/s")) as ,0} writing only, {median(lines("h200-d11-why-mix", "mix 3 reads to 1 write 1 GiB, GB/s")) as ,0} reading three arrays for one written, {median(lines("h200-d11-why-mix", "mix 2 reads to 1 write 1 GiB, GB/s")) as ,0} reading two for one (the float4 vectorAdd) and {median(lines("h200-d11-why-mix", "mix copy 1 GiB, GB/s")) as ,0} copying (one for one), each over 1 GiB per array (medians of {count(lines("h200-d11-why-mix", "mix copy 1 GiB, GB/s"))} processes)"#,
    },
    Figure {
        name: "d11-copy-fit",
        query: r#"copy4 takes {median(lines("h200-d11-why-mix", "copy4 16 MiB per array, us")) as ,1} us at 16 MiB per array, {median(lines("h200-d11-why-mix", "copy4 64 MiB per array, us")) as ,1} at 64 MiB, {median(lines("h200-d11-why-mix", "copy4 256 MiB per array, us")) as ,1} at 256 MiB and {median(lines("h200-d11-why-mix", "copy4 1024 MiB per array, us")) as ,1} at 1 GiB, and the line through the two largest is t = {median(lines("h200-d11-why-mix", "copy4 256 MiB per array, us")) - (median(lines("h200-d11-why-mix", "copy4 1024 MiB per array, us")) - median(lines("h200-d11-why-mix", "copy4 256 MiB per array, us"))) / 3 as .1} us + bytes read and written / {1610612736 / ((median(lines("h200-d11-why-mix", "copy4 1024 MiB per array, us")) - median(lines("h200-d11-why-mix", "copy4 256 MiB per array, us"))) * 1000) as ,0} GB/s (the `causes` runs' medians)"#,
    },
    Figure {
        name: "d11-gpu-launch",
        query: r#"each takes the GPU {median(lines("h200-d11-why-mix", "empty kernel queued behind a spin, us per launch")) as .2} us, against {median(lines("h200-d11-why-mix", "empty kernel back to back, us per launch")) as .2} us launched back to back (medians of {count(lines("h200-d11-why-mix", "empty kernels queued ahead"))} processes, in {sum(lines("h200-d11-why-mix", "empty kernels queued ahead"))} of which every launch was queued before the first ran)"#,
    },
    Figure {
        name: "d11-warm-cold",
        query: r#"
| footprint, MiB | vectorAdd4 warm, us | cold, us | warm / cold | read-only warm, us | cold, us | warm / cold |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| 12 | {median(lines("h200-d11-why-mix", "footprint 12 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 12 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 12 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 12 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 12 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 12 MiB read-only warm/cold")) as .2} |
| 24 | {median(lines("h200-d11-why-mix", "footprint 24 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 24 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 24 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 24 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 24 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 24 MiB read-only warm/cold")) as .2} |
| 36 | {median(lines("h200-d11-why-mix", "footprint 36 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 36 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 36 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 36 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 36 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 36 MiB read-only warm/cold")) as .2} |
| 48 | {median(lines("h200-d11-why-mix", "footprint 48 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 48 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 48 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 48 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 48 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 48 MiB read-only warm/cold")) as .2} |
| 60 | {median(lines("h200-d11-why-mix", "footprint 60 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 60 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 60 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 60 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 60 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 60 MiB read-only warm/cold")) as .2} |
| 72 | {median(lines("h200-d11-why-mix", "footprint 72 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 72 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 72 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 72 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 72 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 72 MiB read-only warm/cold")) as .2} |
| 96 | {median(lines("h200-d11-why-mix", "footprint 96 MiB vectorAdd4 persistent warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 96 MiB vectorAdd4 persistent cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 96 MiB vectorAdd4 persistent warm/cold")) as .2} | {median(lines("h200-d11-why-mix", "footprint 96 MiB read-only warm, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 96 MiB read-only cold, us")) as .2} | {median(lines("h200-d11-why-mix", "footprint 96 MiB read-only warm/cold")) as .2} |
"#,
    },
    Figure {
        name: "d11-ncu-one-pass",
        query: r#"with one metric (replay passes per launch: {median(lines("h200-d11-why-ncu-passes-one", "ncu passes vectorAdd launch 0"))}) the three launches at 2 Mi elements read {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 3, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}%, {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% of their inputs from DRAM, and at 64 Ki {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 0, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}%, {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 1, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 2, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}%; with the `why` phase's four metrics (replay passes per launch: {median(lines("h200-d11-why-ncu-passes-four", "ncu passes vectorAdd launch 0"))}) the same launches read {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 3, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}%, {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% at 2 Mi and {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 0, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}%, {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 1, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 2, dram__bytes_read.sum")) / (8 * 65536) * 100 as .1}% at 64 Ki"#,
    },
    Figure {
        name: "d11-latency",
        query: r#"{median(lines("h200-d11-why-mix", "pointer chase 256 MiB, ns per load")) as ,0} ns from DRAM (a 256 MiB cycle) and {median(lines("h200-d11-why-mix", "pointer chase 8 MiB, ns per load")) as ,0} ns from the L2 (8 MiB); the {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) as ,0} GB/s peak times the DRAM latency is {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * median(lines("h200-d11-why-mix", "pointer chase 256 MiB, ns per load")) / 1024 / 1024 as .1} MiB in flight across the GPU, {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * median(lines("h200-d11-why-mix", "pointer chase 256 MiB, ns per load")) / 132 / 1024 as .1} KiB per SM of its 132"#,
    },
    Figure {
        name: "d11-fetch",
        query: r#"stride 16 reads run at {median(lines("h200-d11-why-mix", "stride 16 read, GB/s")) as ,0} GB/s of useful bytes with the fetch granularity as the device sets it ({median(lines("h200-d11-why-mix", "L2 fetch granularity as set, bytes")) as .0} bytes) and {median(lines("h200-d11-why-mix", "stride 16 read at 32-byte fetch, GB/s")) as ,0} at 32 bytes, stride 32 at {median(lines("h200-d11-why-mix", "stride 32 read, GB/s")) as ,0} and {median(lines("h200-d11-why-mix", "stride 32 read at 32-byte fetch, GB/s")) as ,0}; Nsight Compute counts DRAM bytes read per useful byte of {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 0, dram__bytes_read.sum")) / 33554432 as .1}, {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 1, dram__bytes_read.sum")) / 33554432 as .1} and {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 2, dram__bytes_read.sum")) / 33554432 as .1} at strides 8, 16 and 32, and {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 3, dram__bytes_read.sum")) / 33554432 as .1}, {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 4, dram__bytes_read.sum")) / 33554432 as .1} and {median(lines("h200-d11-why-ncu-stride", "ncu strideRead launch 5, dram__bytes_read.sum")) / 33554432 as .1} at 32-byte fetches"#,
    },
    Figure {
        name: "d11-stride-writes",
        query: r#"strides 1, 8 and 32 write at {median(lines("h200-d11-why-mix", "stride 1 write, GB/s")) as ,0}, {median(lines("h200-d11-why-mix", "stride 8 write, GB/s")) as ,0} and {median(lines("h200-d11-why-mix", "stride 32 write, GB/s")) as ,0} GB/s of useful bytes, and read {median(lines("h200-d11-why-ncu-stride", "ncu strideWrite launch 0, dram__bytes_read.sum")) / 33554432 as .1}, {median(lines("h200-d11-why-ncu-stride", "ncu strideWrite launch 1, dram__bytes_read.sum")) / 33554432 as .1} and {median(lines("h200-d11-why-ncu-stride", "ncu strideWrite launch 2, dram__bytes_read.sum")) / 33554432 as .1} bytes from DRAM per useful byte written"#,
    },
    // The reasons in expected-failures.txt.
    Figure {
        name: "xf-small-n",
        query: r#"{range(median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=131072, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=262144, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=524288, ms")) * 1000, median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=1048576, ms")) * 1000) as .2} us at the median whatever n, the floor of the host's back-to-back launch calls (replayed in a CUDA graph the 64 Ki-element launch takes {median(lines("h200-d11-why", "graph n=65536, ms")) * 1000 as .2} us), so the rate there ({median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=65536, GB/s")) as .0} GB/s at 64 Ki elements) is the launch's, not the cache's; the highest, {median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=2097152, GB/s")) as .0} GB/s at 2 Mi elements (24 MiB), is above full n's {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, GB/s")) as .0} but {(1 - median(runs("day11-row4", "h200-cxx h200-rust", "sweep n=2097152, GB/s")) / median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s"))) * 100 as .0}% below the {median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) as .0} GB/s peak"#,
    },
    Figure {
        name: "xf-cold",
        query: r#"{median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, ms")) as .4} ms against row 4's {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms")) as .4} ms ({(median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, ms")) / median(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms")) - 1) * 100 as .1}% at the medians, {range((runs("day11-row4", "h200-cxx h200-rust", "per-launch events L2 flushed, ms") / runs("day11-row4", "h200-cxx h200-rust", "row 4, ms") - 1) * 100) as .1}% in single runs) and, with the same per-launch events and no flush (its start event stamped on an idle stream, so no control), {median(runs("day11-row4", "h200-cxx h200-rust", "per-launch events no flush, ms")) as .4} ms; the flush only reads, so it leaves no dirty lines behind, while under ncu a launch ends with {(4 - median(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes written per element, median"))) / 4 * 100 as .0}% of its output not yet written to DRAM"#,
    },
    Figure {
        name: "xf-cold-none",
        query: r#"{median(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes written per element, median")) as .2} bytes per element, not {median(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes written per element, median")) as .2}"#,
    },
    Figure {
        name: "xf-bytes",
        query: r#"{range(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes read per element, median")) as .3} at each run's median launch), but of the 4 bytes each element writes only {range(runs("day11-row4", "h200-cxx-ncu", "ncu DRAM bytes written per element, median")) as .3} reach DRAM inside the launch under ncu's default cache control, which flushes the caches before each profiled launch: the rest of the output is still in the 60 MiB L2 when the launch ends; with ncu told to leave the caches alone (cache control none), each launch also writing back what the launch before it left, the median launch moves {range(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, median")) as .3} bytes per element, but the first profiled launch of each process moves {range(runs("day11-row4", "h200-cxx-ncu-cache-control-none", "ncu DRAM bytes per element, largest")) as .2}, so the claim fails at that launch there too"#,
    },
    Figure {
        name: "xf-ceiling-3819bed",
        query: r#"{count(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms", "3819bed"))} the first two lines the program times, row 4 and cudaMemcpy device to device, read {max(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms", "3819bed")) as .4} and {max(runs("day11-row4", "h200-cxx h200-rust", "cudaMemcpy device to device, ms", "3819bed")) as .4} ms against medians of {median(runs("day11-row4", "h200-cxx h200-rust", "row 4, ms")) as .4} and {median(runs("day11-row4", "h200-cxx h200-rust", "cudaMemcpy device to device, ms")) as .4} ms over every run, while the same process's full-n sweep row read {max(runs("day11-row4", "h200-cxx h200-rust", "sweep n=16777827, ms", "3819bed")) as .4} ms at most"#,
    },
    Figure {
        name: "d11-restore-size",
        query: r#"with the four metrics launches two and three at 2 Mi elements read {median(lines("h200-d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% of their inputs from DRAM beside a 256 MiB output allocation, and {median(lines("h200-d11-why-ncu-l2-one-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-one-big-out", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% with one metric ({count(lines("h200-d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum"))} processes of each)"#,
    },
    Figure {
        name: "d11-clock-probe",
        query: r#"{min(lines("h200-d11-why", "SM clock counted in a kernel during 40 launches of row 4, MHz")) as ,0} to {max(lines("h200-d11-why", "SM clock counted in a kernel during 40 launches of row 4, MHz")) as ,0} MHz in {count(lines("h200-d11-why", "SM clock counted in a kernel during 40 launches of row 4, MHz"))} runs"#,
    },
    Figure {
        name: "xf-restore-size",
        query: r#"beside a 256 MiB output allocation the four-metric launches two and three read {median(lines("h200-d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% of their inputs from DRAM, as beside the 8 MiB one ({median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}%)"#,
    },
    Figure {
        name: "xf-replay",
        query: r#"with the four-metric set launches two and three at 2 Mi elements read {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-four", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% of their inputs from DRAM, and {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 4, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% and {median(lines("h200-d11-why-ncu-l2-one", "ncu vectorAdd launch 5, dram__bytes_read.sum")) / (8 * 2097152) * 100 as .1}% with one metric"#,
    },
    Figure {
        name: "xf-warm-l2",
        query: r#"warm / cold {median(lines("h200-d11-why-mix", "footprint 24 MiB vectorAdd4 persistent warm/cold")) as .2} at 24 MiB and {median(lines("h200-d11-why-mix", "footprint 96 MiB vectorAdd4 persistent warm/cold")) as .2} at 96 MiB"#,
    },
    Figure {
        name: "xf-littles",
        query: r#"{median(runs("day11-row4", "h200-cxx h200-rust", "theoretical peak, GB/s")) * median(lines("h200-d11-why-mix", "pointer chase 256 MiB, ns per load")) / 132 as ,0} bytes per SM"#,
    },
];
