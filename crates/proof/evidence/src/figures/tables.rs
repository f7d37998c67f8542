//! The figures `evidence/README.md` and `evidence/instrument/README.md` name:
//! each `<!-- figure NAME -->TEXT<!-- /figure -->` block there holds the
//! text the query of that name here gives on the evidence, written in by
//! `cargo run -p evidence -- figures --write` ([`crate::figures::query`] is the
//! language). A lesson's figures are its report package's `FIGURES`.

use lesson_spec::Figure;

/// In the order the documents name them first.
pub const FIGURES: &[Figure] = &[
    // evidence/README.md
    Figure {
        name: "aa-pairs",
        query: r#"{false_alarms("same_commit", "pairs")}"#,
    },
    Figure {
        name: "aa-same-alarms",
        query: r#"{false_alarms("same_commit", "alarms")}"#,
    },
    Figure {
        name: "aa-same",
        query: r#"{false_alarms("same_commit", "compared")}"#,
    },
    Figure {
        name: "aa-same-unsure",
        query: r#"{false_alarms("same_commit", "unsure")}"#,
    },
    Figure {
        name: "aa-split-alarms",
        query: r#"{false_alarms("split_half", "alarms")}"#,
    },
    Figure {
        name: "aa-split",
        query: r#"{false_alarms("split_half", "compared")}"#,
    },
    Figure {
        name: "aa-split-unsure",
        query: r#"{false_alarms("split_half", "unsure")}"#,
    },
    Figure {
        name: "row4",
        query: r#"{median(runs("day09-timing", "h200-cxx", "row 4 after warm-up, ms")) as .3}"#,
    },
    // evidence/instrument/README.md
    Figure {
        name: "sessions",
        query: r#"
| session | what changed | recommended | vs ncu | spread | GPU ms |
|---|---|---|---|---|---|
| 49bf342 | graph mode: 8 launches a graph | {recommended("49bf342")} | {instrument("49bf342", "recommended", "vs_ncu") as .3} | {instrument("49bf342", "recommended", "spread") * 100 as .2}% | {instrument("49bf342", "recommended", "gpu_ms") as .0} |
| 53d6e0e | graphs of about 5 ms | {recommended("53d6e0e")} | {instrument("53d6e0e", "recommended", "vs_ncu") as .3} | {instrument("53d6e0e", "recommended", "spread") * 100 as .2}% | {instrument("53d6e0e", "recommended", "gpu_ms") as .0} |
| 838b3ca | cold-cache flush keeps the device busy | {recommended("838b3ca")} | {instrument("838b3ca", "recommended", "vs_ncu") as .3} | {instrument("838b3ca", "recommended", "spread") * 100 as .2}% | {instrument("838b3ca", "recommended", "gpu_ms") as .0} |
| d06f36e | CUPTI mode, then recommended | {recommended("d06f36e")} | {instrument("d06f36e", "recommended", "vs_ncu") as .3} | {instrument("d06f36e", "recommended", "spread") * 100 as .2}% | {instrument("d06f36e", "recommended", "gpu_ms") as .0} |
| da732cd | graph with programmatic edges (graph-pdl) | {recommended("da732cd")} | {instrument("da732cd", "recommended", "vs_ncu") as .3} | {instrument("da732cd", "recommended", "spread") * 100 as .2}% | {instrument("da732cd", "recommended", "gpu_ms") as .0} |
| d2636a5 | cold-cache flush reads instead of writing | {recommended("d2636a5")} | {instrument("d2636a5", "recommended", "vs_ncu") as .3} | {instrument("d2636a5", "recommended", "spread") * 100 as .2}% | {instrument("d2636a5", "recommended", "gpu_ms") as .0} |
| 6dfa944 | (same instrument) | {recommended("6dfa944")} | {instrument("6dfa944", "recommended", "vs_ncu") as .3} | {instrument("6dfa944", "recommended", "spread") * 100 as .2}% | {instrument("6dfa944", "recommended", "gpu_ms") as .0} |
| d28b11e | isolated mode | {recommended("d28b11e")} | {instrument("d28b11e", "recommended", "vs_ncu") as .3} | {instrument("d28b11e", "recommended", "spread") * 100 as .2}% | {instrument("d28b11e", "recommended", "gpu_ms") as .0} |
| 0334369 | noise target 0.25% | {recommended("0334369")} | {instrument("0334369", "recommended", "vs_ncu") as .3} | {instrument("0334369", "recommended", "spread") * 100 as .2}% | {instrument("0334369", "recommended", "gpu_ms") as .0} |
| 1b45835-a | isolated: an untimed flush before each replay | {recommended("1b45835-a")} | {instrument("1b45835-a", "recommended", "vs_ncu") as .3} | {instrument("1b45835-a", "recommended", "spread") * 100 as .2}% | {instrument("1b45835-a", "recommended", "gpu_ms") as .0} |
| 1b45835-b | (second session) | {recommended("1b45835-b")} | {instrument("1b45835-b", "recommended", "vs_ncu") as .3} | {instrument("1b45835-b", "recommended", "spread") * 100 as .2}% | {instrument("1b45835-b", "recommended", "gpu_ms") as .0} |
| a3595f5 | isolated refuses launches that do not start with a kernel | {recommended("a3595f5")} | {instrument("a3595f5", "recommended", "vs_ncu") as .3} | {instrument("a3595f5", "recommended", "spread") * 100 as .2}% | {instrument("a3595f5", "recommended", "gpu_ms") as .0} |
"#,
    },
    Figure {
        name: "course-spread",
        query: r#"{instrument("1b45835-a 1b45835-b a3595f5", "course", "spread") * 100 as .2}% over the same processes in the last three sessions, {range(instrument("d06f36e da732cd d2636a5 6dfa944 d28b11e 0334369", "course", "spread")) * 100 as .2}% in the others since d06f36e"#,
    },
    Figure {
        name: "final-sessions",
        query: r#"
```text
{table("1b45835-a 1b45835-b a3595f5")}
```
"#,
    },
    Figure {
        name: "isolated-final",
        query: r#"{max(abs(instrument("1b45835-a 1b45835-b a3595f5", "Isolated", "vs_ncu") - 1)) * 100 as .1}% of ncu in all three sessions of the final version ({instrument("1b45835-a 1b45835-b a3595f5", "Isolated", "vs_ncu") as .3}), with a spread of {instrument("1b45835-a 1b45835-b a3595f5", "Isolated", "spread") * 100 as .2}%"#,
    },
    Figure {
        name: "isolated-gpu-ms",
        query: r#"{range(instrument("1b45835-a 1b45835-b a3595f5", "Isolated", "gpu_ms")) as .0}"#,
    },
    Figure {
        name: "isolated-first-spread",
        query: r#"{range(instrument("d28b11e 0334369", "Isolated", "spread")) * 100 as .2}"#,
    },
    Figure {
        name: "graph-pdl",
        query: r#"{range((instrument("*", "GraphPdl", "vs_ncu") - 1) * 100) as .1}% above ncu, with a spread of {range(instrument("*", "GraphPdl", "spread")) * 100 as .2}%"#,
    },
    Figure {
        name: "pdl-saves",
        query: r#"{range((instrument("*", "Graph", "median") - instrument("*", "GraphPdl", "median")) * 1000) as .2} us a launch off plain graph replay (**graph**, {range((instrument("*", "Graph", "vs_ncu") - 1) * 100) as .1}%)"#,
    },
    Figure {
        name: "cold-cache",
        query: r#"{range((instrument("d2636a5 6dfa944 d28b11e 0334369 1b45835-a 1b45835-b a3595f5", "ColdCache", "vs_ncu") - 1) * 100) as .1}"#,
    },
    Figure {
        name: "cold-cache-writing",
        query: r#"{range((instrument("838b3ca d06f36e da732cd", "ColdCache", "vs_ncu") - 1) * 100) as .0}% ({range((instrument("49bf342 53d6e0e", "ColdCache", "vs_ncu") - 1) * 100) as .0}% before 838b3ca"#,
    },
    Figure {
        name: "course-and-hot",
        query: r#"{range((instrument("*", "course", "vs_ncu") - 1) * 100, (instrument("*", "Hot", "vs_ncu") - 1) * 100) as .1}"#,
    },
    Figure {
        name: "cupti",
        query: r#"{range((instrument("*", "Cupti", "vs_ncu") - 1) * 100) as .1}"#,
    },
    Figure {
        name: "do-bench",
        query: r#"{range((instrument("*", "triton.testing.do_bench", "vs_ncu") - 1) * 100) as .0}"#,
    },
    Figure {
        name: "cupyx",
        query: r#"{range((instrument("*", "cupyx.profiler.benchmark", "vs_ncu") - 1) * 100) as .0}"#,
    },
    Figure {
        name: "earlier-sessions",
        query: r#"
```text
{table("49bf342 53d6e0e 838b3ca")}
```
"#,
    },
    Figure {
        name: "between-sessions",
        query: r#"
```text
{table("d06f36e da732cd d2636a5 6dfa944 d28b11e 0334369")}
```
"#,
    },
];
