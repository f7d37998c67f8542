//! The figures the events lesson's README and `expected-failures.txt` name, each
//! written into its `<!-- figure NAME -->` block by `cargo run -p evidence -- figures --write`.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // The lesson README.
    Figure {
        name: "ev-runs",
        query: r#"{count(runs("ref-events-and-timing", "h200-cxx", "events median, ms"))} of the C++ program and {count(runs("ref-events-and-timing", "h200-rust", "events median, ms"))} of the Rust twin, {days("ref-events-and-timing", "h200-cxx h200-rust")}"#,
    },
    Figure {
        name: "ev-medians",
        query: r#"
| figure | C++ median (range of its runs) | Rust median |
| --- | --- | --- |
| Part 1: launch alone behind the 10 ms kernel, us | {median(runs("ref-events-and-timing", "h200-cxx", "10 ms kernel, launch alone, us")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "10 ms kernel, launch alone, us")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "10 ms kernel, launch alone, us")) as .1} |
| Part 1: launch + sync, 10 ms kernel, us | {median(runs("ref-events-and-timing", "h200-cxx", "10 ms kernel, launch + sync, us")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "10 ms kernel, launch + sync, us")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "10 ms kernel, launch + sync, us")) as .1} |
| Part 2: events spread (IQR / median), % | {median(runs("ref-events-and-timing", "h200-cxx", "events spread, %")) as .2} ({range(runs("ref-events-and-timing", "h200-cxx", "events spread, %")) as .2}) | {median(runs("ref-events-and-timing", "h200-rust", "events spread, %")) as .2} |
| Part 2: host clock + sync spread, % | {median(runs("ref-events-and-timing", "h200-cxx", "host+sync spread, %")) as .2} ({range(runs("ref-events-and-timing", "h200-cxx", "host+sync spread, %")) as .2}) | {median(runs("ref-events-and-timing", "h200-rust", "host+sync spread, %")) as .2} |
| Part 3: spinning wait, CPU share, % | {median(runs("ref-events-and-timing", "h200-cxx", "spin wait CPU share, %")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "spin wait CPU share, %")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "spin wait CPU share, %")) as .1} |
| Part 3: blocking wait, CPU share, % | {median(runs("ref-events-and-timing", "h200-cxx", "blocking wait CPU share, %")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "blocking wait CPU share, %")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "blocking wait CPU share, %")) as .1} |
| Part 3: spinning wake-up, us | {median(runs("ref-events-and-timing", "h200-cxx", "spin wake-up, us")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "spin wake-up, us")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "spin wake-up, us")) as .1} |
| Part 3: blocking wake-up, us | {median(runs("ref-events-and-timing", "h200-cxx", "blocking wake-up, us")) as .1} ({range(runs("ref-events-and-timing", "h200-cxx", "blocking wake-up, us")) as .1}) | {median(runs("ref-events-and-timing", "h200-rust", "blocking wake-up, us")) as .1} |
| Part 4: record + wait, timing events, us | {median(runs("ref-events-and-timing", "h200-cxx", "record + wait, timing event, us")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "record + wait, timing event, us")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "record + wait, timing event, us")) as .3} |
| Part 4: record + wait, DisableTiming, us | {median(runs("ref-events-and-timing", "h200-cxx", "record + wait, DisableTiming, us")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "record + wait, DisableTiming, us")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "record + wait, DisableTiming, us")) as .3} |
| Part 4: chain link, timing events, us | {median(runs("ref-events-and-timing", "h200-cxx", "chain link, timing events, us")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "chain link, timing events, us")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "chain link, timing events, us")) as .3} |
| Part 4: chain link, DisableTiming, us | {median(runs("ref-events-and-timing", "h200-cxx", "chain link, DisableTiming, us")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "chain link, DisableTiming, us")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "chain link, DisableTiming, us")) as .3} |
| Part 5: the host's calls, ms | {median(runs("ref-events-and-timing", "h200-cxx", "cross-stream calls, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "cross-stream calls, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "cross-stream calls, ms")) as .4} |
| Part 5: producer end to consumer start, ms | {median(runs("ref-events-and-timing", "h200-cxx", "producer end to consumer start, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "producer end to consumer start, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "producer end to consumer start, ms")) as .4} |
| Part 6: interval, work queued ahead, ms | {median(runs("ref-events-and-timing", "h200-cxx", "interval, queued ahead, ms")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "interval, queued ahead, ms")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "interval, queued ahead, ms")) as .3} |
| Part 6: interval, host delay inside, ms | {median(runs("ref-events-and-timing", "h200-cxx", "interval, host delay, ms")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "interval, host delay, ms")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "interval, host delay, ms")) as .3} |
| Part 6: interval, competing stream, ms | {median(runs("ref-events-and-timing", "h200-cxx", "interval, competing stream, ms")) as .3} ({range(runs("ref-events-and-timing", "h200-cxx", "interval, competing stream, ms")) as .3}) | {median(runs("ref-events-and-timing", "h200-rust", "interval, competing stream, ms")) as .3} |
| Part 7: first launches after idle, ms | {median(runs("ref-events-and-timing", "h200-cxx", "first launches after idle, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "first launches after idle, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "first launches after idle, ms")) as .4} |
| Part 7: steady launches, ms | {median(runs("ref-events-and-timing", "h200-cxx", "steady launches, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "steady launches, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "steady launches, ms")) as .4} |
| Part 7: SM clock over the first launches, MHz | {median(runs("ref-events-and-timing", "h200-cxx", "SM clock, first launches, MHz")) as .0} ({range(runs("ref-events-and-timing", "h200-cxx", "SM clock, first launches, MHz")) as .0}) | {median(runs("ref-events-and-timing", "h200-rust", "SM clock, first launches, MHz")) as .0} |
| Part 8: the page's pattern, ms | {median(runs("ref-events-and-timing", "h200-cxx", "page pattern, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "page pattern, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "page pattern, ms")) as .4} |
| Part 8: timeKernel, ms | {median(runs("ref-events-and-timing", "h200-cxx", "timeKernel, ms")) as .4} ({range(runs("ref-events-and-timing", "h200-cxx", "timeKernel, ms")) as .4}) | {median(runs("ref-events-and-timing", "h200-rust", "timeKernel, ms")) as .4} |
"#,
    },
    Figure {
        name: "ev-wake-upper",
        query: r#"{median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "spin wake-up, us", "5bd757d 4777c6b")) as .1} us spinning and {median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "blocking wake-up, us", "5bd757d 4777c6b")) as .1} us blocking (medians)"#,
    },
    Figure {
        name: "ev-wake-lower",
        query: r#"{median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "spin wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1} us spinning ({range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "spin wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1}) and {median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "blocking wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1} us blocking ({range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "blocking wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1})"#,
    },
    Figure {
        name: "ev-wake-diff",
        query: r#"{median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "blocking wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b") - runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "spin wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1} us more (median of each run's difference, {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "blocking wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b") - runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "spin wait after the calls less the kernel, us (signed)", "5bd757d 4777c6b")) as .1})"#,
    },
    Figure {
        name: "ev-record-wait",
        query: r#"a record call took {median(lines("h200-ev-why-chain", "record call, timing event, us")) as .3} us with a timing event and {median(lines("h200-ev-why-chain", "record call, DisableTiming event, us")) as .3} us with a DisableTiming one, a stream wait {median(lines("h200-ev-why-chain", "stream wait call, timing event, us")) as .3} and {median(lines("h200-ev-why-chain", "stream wait call, DisableTiming event, us")) as .3} us (medians of {count(lines("h200-ev-why-chain", "record call, timing event, us"))} rounds)"#,
    },
    Figure {
        name: "ev-chain",
        query: r#"{median(lines("h200-ev-why-chain", "chain link launched, timing event, us")) as .2} us launched, against {median(lines("h200-ev-why-chain", "launch call per link, timing event, us")) as .2} us in the host's launch calls alone; replayed as a CUDA graph, {median(lines("h200-ev-why-chain", "chain link in a graph, timing event, us")) as .2} us with a timing event, {median(lines("h200-ev-why-chain", "chain link in a graph, DisableTiming event, us")) as .2} us with a DisableTiming one and {median(lines("h200-ev-why-chain", "chain link in a graph, no event, us")) as .2} us with none (medians of {count(lines("h200-ev-why-chain", "chain link launched, timing event, us"))} rounds)"#,
    },
    Figure {
        name: "ev-idle-n",
        query: r#"{count(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, kernel ms", "5bd757d 4777c6b"))} runs, all at commits 5bd757d and 4777c6b"#,
    },
    Figure {
        name: "ev-idle-first",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, ms", "5bd757d 4777c6b")) as .4} ms between its events, against {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, ms", "5bd757d 4777c6b")) as .4} ms in steady state, while the kernel's own `%globaltimer` duration was {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, kernel ms", "5bd757d 4777c6b")) as .4} ms on the first launch and {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, kernel ms", "5bd757d 4777c6b")) as .4} ms in steady state"#,
    },
    Figure {
        name: "ev-idle-call",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, launch call us", "5bd757d 4777c6b")) as .1} us on the first launch against {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, launch call us", "5bd757d 4777c6b")) as .1} us in steady state; in each run the first launch's interval exceeds steady state by a median of {median((runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, ms", "5bd757d 4777c6b") - runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, ms", "5bd757d 4777c6b")) * 1000) as .1} us and its launch call by {median(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, launch call us", "5bd757d 4777c6b") - runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, launch call us", "5bd757d 4777c6b")) as .1} us"#,
    },
    Figure {
        name: "ev-idle-second",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launches 2 and 3 after idle, ms", "5bd757d 4777c6b") / runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, ms", "5bd757d 4777c6b")) as .3} times steady state in these runs, and at least 5% over it in {sum(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launches 2 and 3 after idle, ms", "5bd757d 4777c6b") >= runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, ms", "5bd757d 4777c6b") * 1.05)} of them"#,
    },
    // The reasons in expected-failures.txt.
    Figure {
        name: "xf-ev-queued",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx h200-rust", "interval, queued ahead, ms")) as .3} ms"#,
    },
    Figure {
        name: "xf-ev-clock",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx h200-rust", "SM clock, first launches, MHz")) as .0} MHz over the first launches after the idle period and {range(runs("ref-events-and-timing", "h200-cxx h200-rust", "SM clock, steady launches, MHz")) as .0} MHz in steady state"#,
    },
    Figure {
        name: "xf-ev-idle-path",
        query: r#"the first launch call took {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, launch call us", "5bd757d 4777c6b")) as .1} us against {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, launch call us", "5bd757d 4777c6b")) as .1} us in steady state, while the kernel's own %globaltimer duration was {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "launch 1 after idle, kernel ms", "5bd757d 4777c6b")) as .4} ms on the first launch and {range(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "steady launches, kernel ms", "5bd757d 4777c6b")) as .4} ms in steady state"#,
    },
    Figure {
        name: "xf-ev-launch",
        query: r#"{range(runs("ref-events-and-timing", "h200-cxx", "10 ms kernel, launch alone, us")) as .1} us in single runs of the C++ program and {range(runs("ref-events-and-timing", "h200-rust", "10 ms kernel, launch alone, us")) as .1} us of the Rust twin, against {range(runs("ref-events-and-timing", "h200-cxx h200-rust", "0.01 ms kernel, launch alone, us")) as .1} us behind the 0.01 ms kernel"#,
    },
    Figure {
        name: "xf-ev-chain",
        query: r#"{sum(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "chain link, DisableTiming, us") <= runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "chain link, timing events, us") * 1.05)} of {count(runs("ref-events-and-timing", "h200-cxx h200-rust h200-cxx-cuda13.5 h200-rust-cuda13.5", "chain link, DisableTiming, us"))} runs"#,
    },
];
