//! A lesson's page: each claim with its verdicts, the sessions that
//! checked it and the figures behind them, each cause the README gives
//! with its verdict per GPU ("why, as measured"), the lesson's charts, each
//! figure's history over the sessions, the C++ and Rust twins side by side,
//! and every recent transcript.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use lesson_spec::{ClaimInfo, Lesson, Outcome, State};
use maud::{html, Markup};

use crate::check::{Cell, Table};
use crate::compare;
use crate::site::context::{Evidence, SiteChart};
use crate::site::index::{claims_table, paged_list, run_link, runs_anchor};
use crate::site::layout::{self, lesson_page, number, rel, scroll, session_page, spread, INDEX};
use crate::transcript::{Program, Transcript};
use crate::verdicts::{self, Column, Failure, Kind, PerSession, Tally};
use crate::why;

/// How many failures a claim lists with what each measured; the rest are
/// counted, and every one is on its transcript's page.
const FAILURES_SHOWN: usize = 5;

/// The lesson's title: the first heading of its README, else its name
/// (read once, into [`Evidence::title`]).
pub fn title(root: &Path, lesson: &str) -> String {
    std::fs::read_to_string(root.join("code").join(lesson).join("README.md"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        })
        .unwrap_or_else(|| lesson.to_string())
}

/// How many sessions a claim's column lists, the latest first; the rest
/// are counted, and each is on the sessions' list.
const SESSIONS_SHOWN: usize = 8;

pub fn page(
    ev: &Evidence,
    lesson: &dyn Lesson,
    table: &Table,
    by_session: &PerSession,
    charts: &[SiteChart],
    history: &[SiteChart],
) -> String {
    let path = lesson_page(lesson.name());
    let runs: Vec<&Transcript> = table.rows.iter().map(|r| r.transcript).collect();
    let tallies = verdicts::tally(table, &ev.columns);
    let body = html! {
        p {
            "The lesson is " code { "code/" (lesson.name()) "/" } "; its claims are in its report package, "
            "its known failures in " code { "code/" (lesson.name()) "/tools/expected-failures.txt" } ". "
            (runs.len()) " transcripts of it are recorded."
        }
        (claims_table("", lesson, table, &ev.columns))
        h2 { "Each claim, and the figures behind it" }
        @for claim in &table.claims {
            (claim_section(ev, lesson, claim, table, &tallies[claim.id], by_session, history))
        }
        (why_section(ev, lesson))
        h2 { "Charts" }
        @if charts.is_empty() {
            p { "This lesson draws no charts." }
        }
        (figures(&path, charts, false, "the median of the runs as a line, their minimum to maximum as a band"))
        h2 id="history" { "History: each figure over the sessions" }
        @if history.is_empty() {
            p { "No figure a claim or cause of this lesson reads was recorded in two sessions of one GPU yet." }
        } @else {
            p {
                "Each figure a claim or a cause reads, per GPU, over the sessions that recorded it: "
                "a point per session at its median, the band from its lowest to its highest value. "
                a href=(rel(&path, layout::CHANGES)) { "What changed" } " labels the latest session's difference from the ones before."
            }
        }
        (figures(&path, history, true, "each session's median as a point on a line, its lowest to highest value as a band"))
        h2 { "The C++ program and its Rust twin" }
        (twins(ev, lesson))
        h2 { "Every transcript" }
        (paged_list(ev, &path, &runs, |t| Some(summary(table, t))))
    };
    layout::page(&path, ev.title(lesson.name()), &[(INDEX, "index")], body)
}

/// One claim: its verdict per column, why a known failure is expected,
/// what the failures measured, and the figures the claim reads.
fn claim_section(
    ev: &Evidence,
    lesson: &dyn Lesson,
    claim: &ClaimInfo,
    table: &Table,
    tallies: &BTreeMap<Column, Tally>,
    by_session: &PerSession,
    history: &[SiteChart],
) -> Markup {
    let path = &lesson_page(lesson.name());
    // Unexplained failures first: a few dozen known ones must not push one
    // that nobody expected out of sight.
    let failures = |known: bool| -> Vec<&Failure> {
        tallies
            .values()
            .flat_map(|t| &t.failures)
            .filter(|f| f.known == known)
            .collect()
    };
    let groups = [
        (failures(false), "fails", "What the runs that fail it measured:"),
        (
            failures(true),
            "known",
            "What the runs that fail it as expected measured:",
        ),
    ];
    html! {
        section.claim id=(format!("claim-{}", claim.id)) {
            h3 { code { (claim.id) } }
            p { (claim.statement) }
            ul {
                @for (column, tally) in tallies {
                    li id=(runs_anchor(claim.id, column)) {
                        (column.label()) ": " (layout::verdict(tally))
                        (sessions_checked(ev, path, by_session.get(&(claim.id, column.clone()))))
                    }
                }
            }
            @for (list, class, lead) in &groups {
                @if !list.is_empty() {
                    p { span.verdict.(class) { (lead) } }
                    ul {
                        @for f in list.iter().take(FAILURES_SHOWN) {
                            li { (failed_run(ev, path, table, &f.file)) ": " (f.why) }
                        }
                        @if list.len() > FAILURES_SHOWN {
                            li { "and " (list.len() - FAILURES_SHOWN) " more, each on its transcript's page" }
                        }
                    }
                }
            }
            (figures_behind(lesson, claim, table))
            (history_links(claim, history))
        }
    }
}

/// The anchor of the `n`th history chart on a lesson's page.
fn history_anchor(n: usize) -> String {
    format!("history-{}", n + 1)
}

/// Each of `charts` as a figure with its caption; `history` charts are
/// over the sessions, each with its anchor. `shows` ends the image's alt
/// text.
fn figures(path: &str, charts: &[SiteChart], history: bool, shows: &str) -> Markup {
    let over = if history { " over its sessions" } else { "" };
    html! {
        @for (n, chart) in charts.iter().enumerate() {
            figure id=[history.then(|| history_anchor(n))] {
                img src=(rel(path, &chart.path)) alt=(format!("{} on the {}{over}: {shows}", chart.title, chart.gpu));
                figcaption { (chart.title) ", " (chart.gpu) }
            }
        }
    }
}

/// Links to the history charts of the figures `claim` reads, beside its
/// verdict: how each moved over the sessions.
fn history_links(claim: &ClaimInfo, history: &[SiteChart]) -> Markup {
    let charts: Vec<(usize, &SiteChart)> = history
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            claim
                .figures
                .iter()
                .any(|p| lesson_spec::figure_matches(p, &c.title))
        })
        .collect();
    if charts.is_empty() {
        return html! {};
    }
    html! {
        p {
            "Over the sessions: "
            @for (i, (n, chart)) in charts.iter().enumerate() {
                @if i > 0 { ", " }
                a href=(format!("#{}", history_anchor(*n))) { (chart.title) " (" (chart.gpu) ")" }
            }
            "."
        }
    }
}

/// The causes the lesson's README gives, each with its verdict on every GPU
/// that recorded its figures and the figures behind it ([`crate::why`]).
fn why_section(ev: &Evidence, lesson: &dyn Lesson) -> Markup {
    let table = why::table(lesson, ev.transcripts);
    html! {
        h2 id="why" { "Why, as measured" }
        p {
            "Each cause the lesson's README gives is a check (" code { "tools/src/why.rs" } "), judged on every GPU "
            "whose runs hold all its figures, each figure from the latest commit that recorded it there: the check "
            "at every corner of the figures' 95% intervals holds, fails, or disagrees (undecided). The margin is how "
            "far every interval may widen, as a share of its figure, before that changes. A cause whose figures "
            "cannot tell it from its rival reads \"fits\", not \"holds\". A cause that fails on a GPU is what that "
            "GPU does, not an error."
        }
        @for row in &table.rows {
            section.claim id=(format!("why-{}", row.why.id)) {
                h3 { code { (row.why.id) } }
                p { (row.why.cause) }
                p { "Rival: " (row.why.rival) ". It would show in: " (row.why.rival_figure) "." }
                @if row.gpus.is_empty() {
                    p { span.verdict.unchecked { "not measured" } ": no GPU in the evidence recorded its figures." }
                }
                @for on in &row.gpus {
                    @let class = match on.state {
                        Some(State::Holds) if row.why.tells_rival_apart => "holds",
                        Some(State::Fails) => "fails",
                        Some(_) => "known",
                        None => "unchecked",
                    };
                    p {
                        (on.gpu) ": " span.verdict.(class) { (why::word(row.why, on)) } (why::margin_words(on))
                        @if let Outcome::Fails(detail, _) = &on.outcome { " (at the medians: " (detail) ")" }
                    }
                    (scroll(html! {
                        table {
                            caption { "The figures " code { (row.why.id) } " reads on the " (on.gpu) ": median [its 95% interval], values, runs and commit" }
                            thead { tr { th scope="col" { "figure" } th scope="col" { "recorded in" } th scope="col" { "median" } th scope="col" { "values (runs)" } } }
                            tbody {
                                @for f in &on.figures {
                                    tr {
                                        th scope="row" { (f.source.label) }
                                        td { code { (f.source.folder) "/" (f.source.runs) } }
                                        td.num { (why::spread(f)) }
                                        td.num { (f.values.len()) " (" (f.runs) ")" }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
        }
    }
}

/// A link to the run recorded in `file` ([`run_link`]).
fn failed_run(ev: &Evidence, path: &str, table: &Table, file: &str) -> Markup {
    match table.rows.iter().find(|r| r.transcript.file == file) {
        Some(row) => run_link(ev, path, row.transcript),
        None => html! { (file) },
    }
}

/// The sessions that checked a claim in one column, the latest first, each
/// linked with its verdict there: the runs behind the cell.
fn sessions_checked(ev: &Evidence, path: &str, by_session: Option<&BTreeMap<usize, Tally>>) -> Markup {
    let checked: Vec<(&usize, &Tally)> = by_session
        .into_iter()
        .flatten()
        .filter(|(_, t)| t.runs() > 0)
        .rev()
        .collect();
    if checked.is_empty() {
        return html! {};
    }
    html! {
        ul.sessions {
            @for (index, tally) in checked.iter().take(SESSIONS_SHOWN) {
                @let session = &ev.sessions[**index];
                li {
                    a href=(rel(path, &session_page(session))) { (session.id) }
                    " (commit " code { (session.short_commit()) } "): " (tally.state_words()) " (" (tally.words()) ")"
                }
            }
            @if checked.len() > SESSIONS_SHOWN {
                li { "and " (checked.len() - SESSIONS_SHOWN) " earlier sessions, on "
                    a href=(rel(path, layout::SESSIONS)) { "the list of sessions" } }
            }
        }
    }
}

/// The figures a claim reads, over the runs it applies to, per column: the
/// median and the range, with the lesson page's own figure where it gives
/// one.
fn figures_behind(lesson: &dyn Lesson, claim: &ClaimInfo, table: &Table) -> Markup {
    // Each run's figures, read once, grouped by column.
    let mut applied: BTreeMap<Column, Vec<Vec<(String, f64)>>> = BTreeMap::new();
    for row in &table.rows {
        let applies = row
            .cells
            .iter()
            .any(|(id, cell)| *id == claim.id && *cell != Cell::NotApplicable);
        if applies {
            applied
                .entry(Column::of(row.transcript))
                .or_default()
                .push(row.transcript.figures.clone());
        }
    }
    // The labels the claim reads, in the claim's order (a pattern ending
    // in `*` stands for every label it starts).
    let known: BTreeSet<&str> = applied
        .values()
        .flatten()
        .flatten()
        .map(|(l, _)| l.as_str())
        .collect();
    let mut labels: Vec<&str> = Vec::new();
    for pattern in claim.figures {
        for &label in known.iter().filter(|l| lesson_spec::figure_matches(pattern, l)) {
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
    }
    if labels.is_empty() || applied.is_empty() {
        return html! {};
    }
    let page = lesson.page_figures();
    let value =
        |figures: &[(String, f64)], label: &str| figures.iter().find(|(l, _)| l == label).map(|(_, v)| *v);
    scroll(html! {
        table {
            caption { "The figures " code { (claim.id) } " reads: median (minimum to maximum) over the runs it applies to" }
            thead {
                tr {
                    th scope="col" { "figure" }
                    @for (column, runs) in &applied { th scope="col" { (column.label()) " (" (runs.len()) " runs)" } }
                    @if let Some((source, _)) = &page { th scope="col" { (source) } }
                }
            }
            tbody {
                @for label in &labels {
                    tr {
                        th scope="row" { (label) }
                        @for runs in applied.values() {
                            @let values: Vec<f64> = runs.iter().filter_map(|figures| value(figures, label)).collect();
                            td.num { (spread(&values)) }
                        }
                        @if let Some((_, figures)) = &page {
                            td.num {
                                (value(figures, label).map_or("-".to_string(), number))
                            }
                        }
                    }
                }
            }
        }
    })
}

/// The plain C++ and Rust runs of each GPU and toolkit, every figure's
/// median side by side: the twins run the same kernels, so their
/// kernel-side numbers should agree. The difference stands beside the
/// ratio, as in `evidence compare`: where a value is a few units of its
/// last printed digit, the ratio moves by a quarter on one rounding.
fn twins(ev: &Evidence, lesson: &dyn Lesson) -> Markup {
    let pairs: Vec<(&Column, Vec<&Transcript>, Vec<&Transcript>)> = ev
        .columns
        .iter()
        .map(|column| {
            let word = crate::runs::gpu_word(&column.gpu);
            let of = |program: Program| -> Vec<&Transcript> {
                crate::runs::group(
                    ev.transcripts,
                    lesson.name(),
                    &format!("{word}-{}", program.word()),
                )
                .into_iter()
                .filter(|t| Column::of(t) == *column)
                .collect()
            };
            (column, of(Program::Cxx), of(Program::Rust))
        })
        .filter(|(_, cxx, rust)| !cxx.is_empty() && !rust.is_empty())
        .collect();
    if pairs.is_empty() {
        return html! { p { "No GPU has plain runs of both programs of " code { (lesson.name()) } " yet." } };
    }
    html! {
        @for (column, cxx, rust) in &pairs {
            (scroll(html! {
                table {
                    caption { (column.label()) ": the medians of " (cxx.len()) " C++ and " (rust.len()) " Rust runs" }
                    (layout::head(&["figure", "C++", "Rust", "Rust / C++", "Rust - C++"]))
                    tbody {
                        @for (label, c, r) in compare::side_by_side(cxx, rust) {
                            tr {
                                th scope="row" { (label) }
                                td.num { (c.map_or("-".into(), number)) }
                                td.num { (r.map_or("-".into(), number)) }
                                @match (c, r) {
                                    (Some(c), Some(r)) => {
                                        td.num { @if c != 0.0 { (format!("{:.3}", r / c)) } @else { "-" } }
                                        td.num { (number(r - c)) }
                                    }
                                    _ => { td.num { "-" } td.num { "-" } }
                                }
                            }
                        }
                    }
                }
            }))
        }
    }
}

/// A run's verdicts in a few words: how many claims held, failed as
/// known, failed, or did not apply.
pub fn summary(table: &Table, t: &Transcript) -> String {
    let Some(row) = table.rows.iter().find(|r| std::ptr::eq(r.transcript, t)) else {
        return String::new();
    };
    let count = |kind: Kind| row.cells.iter().filter(|(_, c)| Kind::of(c) == kind).count();
    let parts = [
        (count(Kind::Fails), "fail"),
        (count(Kind::Known), "known failure(s)"),
        (count(Kind::Holds), "hold"),
    ];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, w)| format!("{n} {w}"))
        .collect();
    if words.is_empty() {
        "no claim applies".into()
    } else {
        words.join(", ")
    }
}
