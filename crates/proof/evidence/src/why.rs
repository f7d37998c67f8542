//! The lessons' causes over recorded runs ("why, as measured"): each
//! [`Why`] of a lesson judged on every GPU whose runs hold all its figures.
//!
//! Each figure is read from the latest code that recorded it on that GPU:
//! the runs of the commit whose runs of it are the latest, every session of
//! that commit pooled (sessions pool only where the code that produced the
//! figures is unchanged). Its values give a median and the median's
//! distribution-free 95% interval (robust-stats'; up to ten values the
//! interval is their whole range, which holds the median with probability
//! 1 - 2/2^n). The cause holds where its check holds at every corner of the
//! intervals, fails where it fails at every corner, and is undecided
//! otherwise ([`lesson_spec::why::judge`]); the margin is how far the
//! intervals may widen before that changes ([`lesson_spec::why::margin`]).
//!
//! A cause that fails on a GPU is a finding about that GPU and is shown
//! with its figures; it is no problem of the evidence. A cause no GPU's
//! runs measure never had its check run: the repository's evidence is held
//! to having none (tests/evidence.rs, `every_cause_is_judged`).
//!
//! Not for: the pages' claims over single runs ([`crate::judge`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use lesson_spec::{median, Lesson, Outcome, Source, State, Why};

use crate::digits::number;
use crate::problem::Problem;
use crate::runs::in_group;
use crate::sessions::Session;
use crate::transcript::{Body, Transcript};

/// One figure of a cause on one GPU: every value the runs of one commit
/// recorded, how many runs they came from, and the commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub source: Source,
    pub values: Vec<f64>,
    pub runs: usize,
    /// The commit's first seven digits; empty where no run recorded it.
    pub commit: String,
}

impl Figure {
    pub fn median(&self) -> Option<f64> {
        median(self.values.clone())
    }

    /// The median's 95% interval (robust-stats' order statistics).
    pub fn interval(&self) -> Option<(f64, f64)> {
        robust_stats::stats::summarize(&self.values).map(|s| s.median_ci)
    }
}

/// A cause on one GPU: its check at the medians (`NotApplicable` where
/// some figure was not recorded there), its state from the intervals and
/// the margin, and the figures.
#[derive(Debug, Clone, PartialEq)]
pub struct OnGpu {
    pub gpu: String,
    pub outcome: Outcome,
    /// `None` where some figure was not recorded.
    pub state: Option<State>,
    /// How far the intervals may widen, as a share of each figure, before
    /// the state changes; `None` where undecided or not judged.
    pub margin: Option<f64>,
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
    t.figures
        .iter()
        .filter(|(l, _)| l == label)
        .map(|(_, v)| *v)
        .collect()
}

/// `source`'s figure on `gpu`: the values of the latest commit whose runs
/// in `transcripts` recorded it, all its runs pooled.
fn figure<'a>(source: &Source, gpu: &str, transcripts: impl Iterator<Item = &'a Transcript>) -> Figure {
    let short = |t: &Transcript| t.header.commit.get(..7).unwrap_or(&t.header.commit).to_string();
    let found: Vec<(&Transcript, Vec<f64>)> = transcripts
        .filter(|t| t.header.gpu_name() == gpu && is_source_run(t, source))
        .map(|t| (t, values_in(t, source.label)))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let latest = found.iter().max_by(|a, b| a.0.header.date.cmp(&b.0.header.date));
    let commit = latest.map(|(t, _)| short(t)).unwrap_or_default();
    let mine: Vec<&(&Transcript, Vec<f64>)> = found.iter().filter(|(t, _)| short(t) == commit).collect();
    Figure {
        source: *source,
        values: mine.iter().flat_map(|(_, v)| v.iter().copied()).collect(),
        runs: mine.len(),
        commit,
    }
}

/// `why` on `gpu`.
pub fn judge(why: &Why, gpu: &str, transcripts: &[Transcript]) -> OnGpu {
    let figures: Vec<Figure> = why
        .figures
        .iter()
        .map(|s| figure(s, gpu, transcripts.iter()))
        .collect();
    judged(why, gpu, figures)
}

/// `why` on `gpu` from `figures`, one per [`Why::figures`].
pub fn judged(why: &Why, gpu: &str, figures: Vec<Figure>) -> OnGpu {
    let medians: Option<Vec<f64>> = figures.iter().map(Figure::median).collect();
    let intervals: Option<Vec<(f64, f64)>> = figures.iter().map(Figure::interval).collect();
    let holds = |m: &[f64]| lesson_spec::why::holds(why, m);
    let (outcome, state, margin) = match (medians, intervals) {
        (Some(m), Some(i)) => (
            (why.check)(&m),
            Some(lesson_spec::why::judge(holds, &i)),
            lesson_spec::why::margin(
                holds,
                &i,
                &why.figures.iter().map(|s| s.exact).collect::<Vec<_>>(),
            ),
        ),
        _ => (Outcome::NotApplicable, None, None),
    };
    OnGpu {
        gpu: gpu.to_string(),
        outcome,
        state,
        margin,
        figures,
    }
}

/// Each cause of `lesson` that holds in one recording session and fails in
/// another session of the same commit on one GPU, unless the lesson's
/// expected-failure list names it for that GPU: the same code gave both.
/// A session judges a cause alone only where its runs hold every figure
/// of it (sessions of other code are not pooled in).
pub fn flips_at_one_commit(
    lesson: &str,
    whys: &[Why],
    sessions: &[Session],
    expected: &lesson_spec::ExpectedFailures,
) -> Vec<Problem> {
    let mut same: BTreeMap<(&str, &str), Vec<&Session>> = BTreeMap::new();
    for s in sessions {
        same.entry((s.gpu.as_str(), s.short_commit()))
            .or_default()
            .push(s);
    }
    let mut out = Vec::new();
    for why in whys {
        for ((gpu, commit), group) in same.iter().filter(|(_, g)| g.len() > 1) {
            let alone = |s: &&Session| -> Option<(String, OnGpu)> {
                let figures: Vec<Figure> = why
                    .figures
                    .iter()
                    .map(|f| figure(f, gpu, s.runs.iter().copied()))
                    .collect();
                figures
                    .iter()
                    .all(|f| f.runs > 0)
                    .then(|| (s.id.clone(), judged(why, gpu, figures)))
            };
            let judged: Vec<(String, OnGpu)> = group.iter().filter_map(alone).collect();
            let find = |state| judged.iter().find(|(_, on)| on.state == Some(state));
            let (Some((held, h)), Some((failed, f))) = (find(State::Holds), find(State::Fails)) else {
                continue;
            };
            if expected.reason(why.id, gpu, commit).is_none() {
                out.push(Problem::of_file(
                    format!("code/{lesson}/tools/src/why.rs"),
                    format!(
                        "{} ({gpu}) holds in session {held} (margin {}) and fails in session {failed} (margin {}) \
                         of the same commit {commit}: its threshold sits inside the noise",
                        why.id,
                        percent(h.margin),
                        percent(f.margin)
                    ),
                ));
            }
        }
    }
    out
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

/// Where a figure comes from, as a reader is told: `diagnostics/*-d10-why
/// "vectorAdd at 64 threads, ms"`.
pub fn describe(source: &Source) -> String {
    let runs: Vec<String> = source.runs.split_whitespace().map(|r| format!("*-{r}")).collect();
    format!("{}/{} \"{}\"", source.folder, runs.join(" "), source.label)
}

/// A verdict in a word, as `evidence check` prints it: [`Why::word`] of
/// its state, or `not measured`.
pub fn word(why: &Why, on: &OnGpu) -> &'static str {
    on.state.map_or("not measured", |s| why.word(s))
}

/// A margin as a percentage: `12.0%`.
fn percent(margin: Option<f64>) -> String {
    format!("{:.1}%", margin.unwrap_or(0.0) * 100.0)
}

/// The margin in words: `margin 12%`, `margin over 100%`, or nothing
/// where undecided.
pub fn margin_words(on: &OnGpu) -> String {
    match on.margin {
        Some(m) if m >= 1.0 => ", margin over 100%".into(),
        Some(m) => format!(", margin {:.1}%", m * 100.0),
        None => String::new(),
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
        let _ = writeln!(out, "    rival: {}", row.why.rival);
        let _ = writeln!(out, "    the rival would show in: {}", row.why.rival_figure);
        if row.gpus.is_empty() {
            let _ = writeln!(out, "    (no GPU recorded its figures)");
        }
        for on in &row.gpus {
            let detail = match &on.outcome {
                Outcome::Fails(why, _) => format!(" (at the medians: {why})"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "    {}: {}{}{detail}",
                on.gpu,
                word(row.why, on),
                margin_words(on)
            );
            for f in &on.figures {
                let _ = writeln!(out, "      {:<14} {}", spread(f), describe(&f.source));
            }
        }
    }
    out
}

/// `median [low..high] (N values, R runs of COMMIT)`, the brackets the
/// median's 95% interval, or `-` when none was recorded.
pub fn spread(f: &Figure) -> String {
    let (Some(m), Some((low, high))) = (f.median(), f.interval()) else {
        return "-".into();
    };
    let range = if low == high {
        String::new()
    } else {
        format!(" [{}..{}]", number(low), number(high))
    };
    format!(
        "{}{range} ({} values, {} runs of {})",
        number(m),
        f.values.len(),
        f.runs,
        f.commit
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
        rival: "b is below a",
        rival_figure: "a would be above b",
        tells_rival_apart: true,
        planted: &[2.0, 1.0],
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
        assert!(h200.outcome.holds());
        // a's interval [1, 5] straddles b's [2, 3]: the medians alone hold.
        assert_eq!(h200.state, Some(State::Undecided));
        assert_eq!(h200.margin, None);
        assert_eq!(h200.figures[0].values, [1.0, 5.0, 1.0]);
        assert_eq!(h200.figures[0].runs, 2);
        let t4 = judge(&WHY, "Tesla T4", &runs);
        assert!(matches!(&t4.outcome, Outcome::Fails(why, _) if why == "9 >= 3"));
        assert_eq!(t4.state, Some(State::Fails));
        // 9 and 3 swap order once each moves by half its value.
        assert!((t4.margin.unwrap() - 0.5).abs() < 1e-6, "{:?}", t4.margin);
        assert_eq!(judge(&WHY, "NVIDIA A100", &runs).outcome, Outcome::NotApplicable);
        assert_eq!(judge(&WHY, "NVIDIA L4", &runs).figures[0].runs, 0);
    }

    /// Two sessions of one commit an hour apart, the cause holding in the
    /// first and failing in the second, are caught; at two commits, or
    /// listed as expected on the GPU, they are not.
    #[test]
    fn a_cause_that_holds_and_fails_at_one_commit_is_a_problem() {
        let flips = |second_commit: &str, expected: &str| {
            let at = |time: &str, commit: &str, a: &str| {
                let t = run(
                    &format!("2026-12-02T{}Z-h200-t-why.txt", time.replace(':', "")),
                    "NVIDIA H200",
                    &["b: 2", a],
                );
                let mut t = t;
                t.header.date = format!("2026-12-02T{time}Z");
                t.header.commit = commit.to_string();
                t
            };
            let runs = [
                at("10:00:00", "db4248d", "a: 1"),
                at("11:00:00", second_commit, "a: 3"),
            ];
            let sessions = crate::sessions::of(&runs);
            let expected = lesson_spec::ExpectedFailures::parse(expected, &["t-why-less"]).unwrap();
            let found = flips_at_one_commit("t", std::slice::from_ref(&WHY), &sessions, &expected);
            found.iter().map(ToString::to_string).collect::<Vec<_>>()
        };
        assert_eq!(
            flips("db4248d", ""),
            [
                "code/t/tools/src/why.rs: t-why-less (NVIDIA H200) holds in session 2026-12-02T100000Z-h200 \
              (margin 33.3%) and fails in session 2026-12-02T110000Z-h200 (margin 20.0%) of the same commit \
              db4248d: its threshold sits inside the noise"
            ]
        );
        assert!(flips("e3b6f28", "").is_empty());
        assert!(flips("db4248d", "t-why-less | NVIDIA H200 | measured: noise").is_empty());
    }

    #[test]
    fn spread_names_median_range_values_and_runs() {
        let f = Figure {
            source: lesson_spec::why::lines("t-why", "a"),
            values: vec![0.0605, 0.0601, 0.06123],
            runs: 2,
            commit: "db4248d".into(),
        };
        assert_eq!(
            spread(&f),
            "0.0605 [0.0601..0.06123] (3 values, 2 runs of db4248d)"
        );
        assert_eq!(describe(&f.source), "diagnostics/*-t-why \"a\"");
    }
}
