//! The index: each lesson's claims against every GPU and toolkit in the
//! evidence, and the pages of the folders that hold no lesson's runs.

use std::collections::BTreeSet;

use maud::{html, Markup};

use super::layout::{self, folder_page, lesson_page, rel, scroll, transcript_page, INDEX, INSTRUMENT};
use super::verdicts::{self, Column};
use super::Evidence;
use crate::check::Table;
use crate::lessons;
use crate::transcript::Transcript;

pub fn page(ev: &Evidence) -> String {
    let gpus: BTreeSet<&str> = ev.transcripts.iter().map(|t| t.header.gpu_name()).collect();
    let body = html! {
        p {
            "What each lesson page claims, checked against every run recorded in "
            code { "evidence/" } ": " (ev.transcripts.len()) " transcripts from "
            (gpus.len()) " GPU(s). A cell counts the runs the claim applies to; "
            "a known failure is one the lesson's " code { "expected-failures.txt" }
            " explains, with its reason. A run that exited non-zero printed no report, "
            "so no claim judges it: each table's last row counts them."
        }
        @for (lesson, table) in &ev.tables {
            section {
                h2 { a href=(lesson_page(lesson.name())) { (ev.title(lesson.name())) } }
                (claims_table(INDEX, table, &ev.columns, true))
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
/// the runs that exited non-zero: on the index with links to each claim on
/// the lesson's page; on the lesson page itself, links to the claims below.
pub fn claims_table(from: &str, table: &Table, columns: &BTreeSet<Column>, link_out: bool) -> Markup {
    if columns.is_empty() {
        return html! { p { "No runs of any lesson are recorded yet: every claim is not checked." } };
    }
    let verdicts = verdicts::tally(table, columns);
    let exits = verdicts::exits(table, columns);
    let anchor = |id: &str| {
        if link_out {
            format!("{}#claim-{id}", rel(from, &lesson_page(&table.lesson)))
        } else {
            format!("#claim-{id}")
        }
    };
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
                            td { (layout::verdict(&verdicts[claim.id][c])) }
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
                        th scope="row" { a href=(rel(from, &transcript_page(t))) { (layout::folder_and_stem(t).1) } }
                        td { (t.header.gpu_name()) }
                        td { (verdicts::toolkit(&t.header.nvcc)) }
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
        (transcript_list(&path, &runs, |_| None))
    };
    Some(layout::page(
        &path,
        &format!("evidence/{folder}"),
        &[(INDEX, "index")],
        body,
    ))
}
