//! The index: each lesson's claims against every GPU and toolkit in the
//! evidence, and the pages of the folders that hold no lesson's runs.

use std::collections::BTreeSet;

use maud::{html, Markup};

use lesson_spec::Lesson;

use crate::check::Table;
use crate::site::context::{Evidence, PAGED_DAYS};
use crate::site::layout::{
    self, folder_page, lesson_page, rel, scroll, session_page, transcript_page, CHANGES, INDEX, INSTRUMENT,
    SESSIONS,
};
use crate::site::repro;
use crate::site::summary::SUMMARY;
use crate::transcript::Transcript;
use crate::verdicts::{self, Column};

pub fn page(ev: &Evidence) -> String {
    let gpus: BTreeSet<&str> = ev.transcripts.iter().map(|t| t.header.gpu_name()).collect();
    let body = html! {
        p {
            "What each lesson page claims, checked against every run recorded in "
            code { "evidence/" } ": " (ev.transcripts.len()) " transcripts from "
            (gpus.len()) " GPU(s). A cell counts the runs the claim applies to; "
            "a known failure is one the lesson's " code { "expected-failures.txt" }
            " explains, with its reason. A run that exited non-zero printed no report, "
            "so no claim judges it: each table's last row counts them. Each cell links to its runs "
            "and gives the command that re-runs the claim on your own GPU."
        }
        p {
            "Over time: " a href=(SESSIONS) { (ev.sessions.len()) " recording sessions" } ", "
            a href=(CHANGES) { "what changed" } " in each GPU's latest, and every verdict and figure "
            "by GPU and session as JSON for tools (" a href=(SUMMARY) { code { (SUMMARY) } } ")."
        }
        @for (lesson, table) in &ev.tables {
            section {
                h2 { a href=(lesson_page(lesson.name())) { (ev.title(lesson.name())) } }
                (claims_table(&rel(INDEX, &lesson_page(lesson.name())), *lesson, table, &ev.columns))
            }
        }
        h2 { "Other evidence" }
        ul {
            li { a href=(INSTRUMENT) { "The instrument against Nsight Compute and nvbench" } }
            @for folder in lessons::OTHER_FOLDERS {
                @let count = in_folder(ev, folder).len();
                @if count > 0 {
                    li { a href=(folder_page(folder)) { code { (folder) } } " (" (count) " transcripts)" }
                }
            }
        }
        @if !ev.problems.is_empty() {
            h2 { "Problems in the evidence" }
            p {
                "The evidence's own checks found these (" code { "evidence check" }
                " reports them too, and fails on them). A transcript that could not be read "
                "is not on the site; a bad line of an expected-failure list leaves every failure "
                "of that lesson unexplained."
            }
            ul { @for p in ev.problems { li { code { (p) } } } }
        }
    };
    layout::page(INDEX, "Every claim on every GPU", &[], body)
}

/// A lesson's claims (rows) against every column of the evidence, then
/// the runs that exited non-zero, each claim linked to its section of the
/// lesson's page, which is at `page` from the table's page ("" on the
/// lesson page itself).
pub fn claims_table(page: &str, lesson: &dyn Lesson, table: &Table, columns: &BTreeSet<Column>) -> Markup {
    if columns.is_empty() {
        return html! { p { "No runs of any lesson are recorded yet: every claim is not checked." } };
    }
    let verdicts = verdicts::tally(table, columns);
    let exits = verdicts::exits(table, columns);
    let commands = repro::commands(lesson, table);
    let anchor = |id: &str| format!("{page}#claim-{id}");
    let runs = |id: &str, c: &Column| format!("{page}#{}", runs_anchor(id, c));
    let mut head = vec!["claim".to_string()];
    head.extend(columns.iter().map(Column::label));
    scroll(html! {
        table {
            (layout::head(&head))
            tbody {
                @for claim in &table.claims {
                    tr {
                        th scope="row" {
                            a href=(anchor(claim.id)) { code { (claim.id) } }
                            span.statement { (claim.statement) }
                        }
                        @for c in columns {
                            td { (layout::cell(&verdicts[claim.id][c], &runs(claim.id, c), &commands[claim.id])) }
                        }
                    }
                }
                tr {
                    th scope="row" {
                        "runs that exited non-zero"
                        span.statement { "a failed run prints no report, so no claim above judges it" }
                    }
                    @for c in columns {
                        @let (failed, all) = exits[c];
                        td {
                            @if all == 0 {
                                span.verdict.unchecked { "no runs" }
                            } @else if failed == 0 {
                                span.verdict.holds { "none of " (all) }
                            } @else {
                                span.verdict.fails { (failed) " of " (all) }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// The anchor of a claim's runs in one column, on its lesson's page:
/// `runs-CLAIM-nvidia-h200-cuda-13-0`.
pub fn runs_anchor(claim: &str, column: &Column) -> String {
    let column = crate::runs::file_word(&format!("{} {}", column.gpu, column.toolkit));
    format!("runs-{claim}-{column}")
}

/// A link to `t`'s page from `from`, or, for a run with no page of its own,
/// its name and a link to its session's page, which lists it.
pub fn run_link(ev: &Evidence, from: &str, t: &Transcript) -> Markup {
    let name = layout::folder_and_stem(t).1;
    if ev.has_page(t) {
        return html! { a href=(rel(from, &transcript_page(t))) { (name) } };
    }
    match ev.session(t) {
        Some(s) => html! { (name) " (" a href=(rel(from, &session_page(s))) { "its session" } ")" },
        None => html! { (name) },
    }
}

/// [`transcript_list`] of the runs of `runs` that have a page of their
/// own, then how many older ones are listed on their sessions' pages.
pub fn paged_list(
    ev: &Evidence,
    from: &str,
    runs: &[&Transcript],
    verdicts: impl Fn(&Transcript) -> Option<String>,
) -> Markup {
    let paged: Vec<&Transcript> = runs.iter().copied().filter(|t| ev.has_page(t)).collect();
    let older = runs.len() - paged.len();
    html! {
        @if older > 0 {
            p {
                (older) " older runs, of sessions that began more than " (PAGED_DAYS) " days before their GPU's latest, "
                "are listed with their verdicts on " a href=(rel(from, SESSIONS)) { "their sessions' pages" } "."
            }
        }
        (transcript_list(ev, from, &paged, verdicts))
    }
}

/// The transcripts of an evidence folder, in name order.
pub fn in_folder<'a>(ev: &Evidence<'a>, folder: &str) -> Vec<&'a Transcript> {
    ev.transcripts
        .iter()
        .filter(|t| layout::folder_and_stem(t).0 == folder)
        .collect()
}

/// A list of transcripts with their header's main facts, each linked to
/// its page; `from` is the linking page.
pub fn transcript_list(
    ev: &Evidence,
    from: &str,
    runs: &[&Transcript],
    verdicts: impl Fn(&Transcript) -> Option<String>,
) -> Markup {
    let with_verdicts = runs.iter().any(|t| verdicts(t).is_some());
    let mut columns = vec!["run", "GPU", "toolkit", "commit", "exit"];
    if with_verdicts {
        columns.push("claims");
    }
    scroll(html! {
        table {
            (layout::head(&columns))
            tbody {
                @for t in runs {
                    tr {
                        th scope="row" { (run_link(ev, from, t)) }
                        td { (t.header.gpu_name()) }
                        td { (crate::transcript::toolkit(&t.header.nvcc)) }
                        td { code { (t.header.commit.get(..7).unwrap_or(&t.header.commit)) } }
                        td.num { (t.header.exit_code) }
                        @if with_verdicts { td { (verdicts(t).unwrap_or_default()) } }
                    }
                }
            }
        }
    })
}

/// The page of a folder that holds no lesson's runs, if it holds any.
pub fn folder(ev: &Evidence, folder: &str) -> Option<String> {
    let runs = in_folder(ev, folder);
    if runs.is_empty() {
        return None;
    }
    let path = folder_page(folder);
    let body = html! {
        p { (runs.len()) " transcripts, as recorded in " code { "evidence/" (folder) "/" } " ("
            code { "evidence/README.md" } " says what they are)." }
        @if folder == "instrument-suite" {
            p { "The " a href=(rel(&path, INSTRUMENT)) { "instrument page" } " reads them." }
        }
        (paged_list(ev, &path, &runs, |_| None))
    };
    Some(layout::page(
        &path,
        &format!("evidence/{folder}"),
        &[(INDEX, "index")],
        body,
    ))
}
