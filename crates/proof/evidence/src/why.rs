//! The lessons' causes over recorded runs ("why, as measured"): each
//! [`Why`] of a lesson judged on every GPU whose runs hold all its figures,
//! from the median of each figure over that GPU's runs.
//!
//! A cause that fails on a GPU is a finding about that GPU and is shown
//! with its figures; it is no problem of the evidence. [`Table::unjudged`]
//! names the causes no GPU's runs measure, whose checks never ran: the
//! repository's evidence is held to having none.
//!
//! Not for: the pages' claims over single runs ([`crate::judge`]).

use std::collections::BTreeSet;
use std::fmt::Write;

use lesson_spec::{median, Lesson, Outcome, Source, Why};

use crate::digits::number;
use crate::runs::in_group;
use crate::transcript::{Body, Transcript};

/// One figure of a cause on one GPU: every value its runs recorded, and
/// how many runs they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub source: Source,
    pub values: Vec<f64>,
    pub runs: usize,
}

impl Figure {
    pub fn median(&self) -> Option<f64> {
        median(self.values.clone())
    }
}

/// A cause on one GPU: its verdict, or `NotApplicable` where some figure
/// was not recorded there, and the figures.
#[derive(Debug, Clone, PartialEq)]
pub struct OnGpu {
    pub gpu: String,
    pub outcome: Outcome,
    pub figures: Vec<Figure>,
}

/// One cause on every GPU that recorded any of its figures.
#[derive(Debug)]
pub struct Row {
    pub why: &'static Why,
    pub gpus: Vec<OnGpu>,
}

/// A lesson's causes.
#[derive(Debug)]
pub struct Table {
    pub lesson: &'static str,
    pub rows: Vec<Row>,
}

/// Whether `t` is a successful run named by `source`, not under a sanitizer
/// (whose timings mean nothing).
fn is_source_run(t: &Transcript, source: &Source) -> bool {
    t.header.lesson == source.folder
        && t.header.exit_code == 0
        && !t.under_sanitizer()
        && source.runs.split_whitespace().any(|name| in_group(&t.file, name))
}

/// The values of `label` in one run: its report's figure of that label,
/// or, for output no lesson parses, the number after `label:` on each line.
pub fn values_in(t: &Transcript, label: &str) -> Vec<f64> {
    if let Body::Unparsed { lines } = &t.body {
        return lines
            .iter()
            .filter_map(|l| l.strip_prefix(label)?.strip_prefix(':'))
            .filter_map(|rest| rest.split_whitespace().next()?.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .collect();
    }
    crate::compare::fields(&t.body)
        .into_iter()
        .filter(|(l, _)| l == label)
        .map(|(_, v)| v)
        .collect()
}

/// `source`'s figure over the runs of `gpu` in `transcripts`.
pub fn figure(source: &Source, gpu: &str, transcripts: &[Transcript]) -> Figure {
    let mut values = Vec::new();
    let mut runs = 0;
    for t in transcripts
        .iter()
        .filter(|t| t.header.gpu_name() == gpu && is_source_run(t, source))
    {
        let found = values_in(t, source.label);
        if !found.is_empty() {
            runs += 1;
            values.extend(found);
        }
    }
    Figure {
        source: *source,
        values,
        runs,
    }
}

/// `why` on `gpu`.
pub fn judge(why: &Why, gpu: &str, transcripts: &[Transcript]) -> OnGpu {
    let figures: Vec<Figure> = why.figures.iter().map(|s| figure(s, gpu, transcripts)).collect();
    let medians: Option<Vec<f64>> = figures.iter().map(Figure::median).collect();
    let outcome = match medians {
        Some(m) => (why.check)(&m),
        None => Outcome::NotApplicable,
    };
    OnGpu {
        gpu: gpu.to_string(),
        outcome,
        figures,
    }
}

/// Every cause of `lesson` on every GPU of `transcripts` that recorded at
/// least one of its figures, GPUs in name order.
pub fn table(lesson: &dyn Lesson, transcripts: &[Transcript]) -> Table {
    let gpus: BTreeSet<&str> = transcripts.iter().map(|t| t.header.gpu_name()).collect();
    let rows = lesson
        .whys()
        .iter()
        .map(|why| Row {
            why,
            gpus: gpus
                .iter()
                .map(|gpu| judge(why, gpu, transcripts))
                .filter(|on| on.figures.iter().any(|f| f.runs > 0))
                .collect(),
        })
        .collect();
    Table {
        lesson: lesson.name(),
        rows,
    }
}

impl Table {
    /// Each cause that no GPU judged, one line each: one whose figures are
    /// recorded on no GPU together, so its check never ran.
    pub fn unjudged(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.gpus.iter().all(|g| g.outcome == Outcome::NotApplicable))
            .map(|r| {
                let missing: Vec<String> = r
                    .why
                    .figures
                    .iter()
                    .filter(|s| r.gpus.iter().all(|g| g.figures.iter().all(|f| f.source != **s || f.runs == 0)))
                    .map(describe)
                    .collect();
                format!(
                    "{}: the cause check {} is judged on no GPU: no GPU's runs hold all its figures (recorded nowhere: {})",
                    self.lesson,
                    r.why.id,
                    if missing.is_empty() { "none, but never on one GPU together".to_string() } else { missing.join("; ") }
                )
            })
            .collect()
    }
}

/// Where a figure comes from, as a reader is told: `diagnostics/*-d10-why
/// "vectorAdd at 64 threads, ms"`.
pub fn describe(source: &Source) -> String {
    let runs: Vec<String> = source.runs.split_whitespace().map(|r| format!("*-{r}")).collect();
    format!("{}/{} \"{}\"", source.folder, runs.join(" "), source.label)
}

/// A verdict in a word, as `evidence check` prints it.
pub fn word(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Holds => "holds",
        Outcome::Fails(_) => "fails",
        Outcome::NotApplicable => "not measured",
    }
}

/// The table as text: each cause, then each GPU's verdict and the figures
/// behind it (median, range and how many values from how many runs).
pub fn render(table: &Table) -> String {
    let mut out = String::new();
    if table.rows.iter().all(|r| r.gpus.is_empty()) {
        let _ = writeln!(
            out,
            "{}: why, as measured: no run here holds the figures of its {} cause(s)",
            table.lesson,
            table.rows.len()
        );
        return out;
    }
    let _ = writeln!(out, "{}: why, as measured", table.lesson);
    for row in &table.rows {
        let _ = writeln!(out, "  {}  {}", row.why.id, row.why.cause);
        if row.gpus.is_empty() {
            let _ = writeln!(out, "    (no GPU recorded its figures)");
        }
        for on in &row.gpus {
            let detail = match &on.outcome {
                Outcome::Fails(why) => format!(": {why}"),
                _ => String::new(),
            };
            let _ = writeln!(out, "    {}: {}{detail}", on.gpu, word(&on.outcome));
            for f in &on.figures {
                let _ = writeln!(out, "      {:<14} {}", spread(f), describe(&f.source));
            }
        }
    }
    out
}

/// `median [min..max] (N values, R runs)`, or `-` when none was recorded.
pub fn spread(f: &Figure) -> String {
    let Some(m) = f.median() else {
        return "-".into();
    };
    let low = f.values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = f.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let range = if low == high {
        String::new()
    } else {
        format!(" [{}..{}]", number(low), number(high))
    };
    format!(
        "{}{range} ({} values, {} runs)",
        number(m),
        f.values.len(),
        f.runs
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::parse;

    fn run(file: &str, gpu: &str, lines: &[&str]) -> Transcript {
        let text = format!(
            "# lesson: diagnostics\n# date: 2026-12-02T13:05:50Z\n# gpu: {gpu} (compute capability 9.0)\n\
             # driver: 580.159.04 (CUDA 13.0)\n# cuda runtime: runtime 13.0\n# nvcc: release 13.0\n\
             # host: Linux x86_64, 16 cores\n# command: ./why time\n\
             # environment: (nothing that changes behaviour)\n# commit: db4248d\n# exit code: 0\n# ---\n{}\n",
            lines.join("\n")
        );
        parse(&format!("evidence/diagnostics/{file}"), &text).expect("a transcript")
    }

    static WHY: Why = Why {
        id: "t-why-less",
        cause: "a is below b",
        figures: &[
            lesson_spec::why::lines("t-why", "a"),
            lesson_spec::why::lines("t-why", "b"),
        ],
        check: |m| lesson_spec::verdict(m[0] < m[1], || format!("{} >= {}", m[0], m[1])),
    };

    #[test]
    fn a_cause_is_judged_per_gpu_on_the_medians_of_its_runs() {
        let runs = [
            run(
                "2026-12-02T130550Z-h200-t-why.txt",
                "NVIDIA H200",
                &["a: 1", "a: 5", "b: 2"],
            ),
            run(
                "2026-12-02T130551Z-h200-t-why.txt",
                "NVIDIA H200",
                &["a: 1", "b: 3"],
            ),
            run("2026-12-02T130552Z-t4-t-why.txt", "Tesla T4", &["a: 9", "b: 3"]),
            // Another run's name and a GPU with only one figure.
            run(
                "2026-12-02T130553Z-h200-t-why-ncu.txt",
                "NVIDIA H200",
                &["a: 100", "b: 0"],
            ),
            run("2026-12-02T130554Z-a100-t-why.txt", "NVIDIA A100", &["a: 1"]),
        ];
        let h200 = judge(&WHY, "NVIDIA H200", &runs);
        assert_eq!(h200.outcome, Outcome::Holds);
        assert_eq!(h200.figures[0].values, [1.0, 5.0, 1.0]);
        assert_eq!(h200.figures[0].runs, 2);
        assert_eq!(
            judge(&WHY, "Tesla T4", &runs).outcome,
            Outcome::Fails("9 >= 3".into())
        );
        assert_eq!(judge(&WHY, "NVIDIA A100", &runs).outcome, Outcome::NotApplicable);
        assert_eq!(judge(&WHY, "NVIDIA L4", &runs).figures[0].runs, 0);
    }

    #[test]
    fn a_cause_whose_figures_no_gpu_holds_together_is_unjudged_and_named() {
        static MISSPELT: Why = Why {
            id: "t-why-misspelt",
            cause: "a is below c",
            figures: &[
                lesson_spec::why::lines("t-why", "a"),
                lesson_spec::why::lines("t-why", "c"),
            ],
            check: |_| Outcome::Holds,
        };
        let runs = [run(
            "2026-12-02T130550Z-h200-t-why.txt",
            "NVIDIA H200",
            &["a: 1", "b: 2"],
        )];
        let table = Table {
            lesson: "t",
            rows: vec![
                Row {
                    why: &WHY,
                    gpus: vec![judge(&WHY, "NVIDIA H200", &runs)],
                },
                Row {
                    why: &MISSPELT,
                    gpus: vec![judge(&MISSPELT, "NVIDIA H200", &runs)],
                },
            ],
        };
        assert_eq!(
            table.unjudged(),
            [
                "t: the cause check t-why-misspelt is judged on no GPU: no GPU's runs hold all its figures \
              (recorded nowhere: diagnostics/*-t-why \"c\")"
            ]
        );
    }

    #[test]
    fn spread_names_median_range_values_and_runs() {
        let f = Figure {
            source: lesson_spec::why::lines("t-why", "a"),
            values: vec![0.0605, 0.0601, 0.06123],
            runs: 2,
        };
        assert_eq!(spread(&f), "0.0605 [0.0601..0.06123] (3 values, 2 runs)");
        assert_eq!(describe(&f.source), "diagnostics/*-t-why \"a\"");
    }
}
