//! The recording sessions: their list, oldest first, and a page for each
//! (its machine, commit and time span, each lesson's verdicts over its runs,
//! and every run it recorded, linked where the run has a page of its own).

use std::collections::BTreeSet;

use maud::html;

use crate::check::Row;
use crate::sessions::{Session, GAP_MINUTES};
use crate::site::context::Evidence;
use crate::site::index::transcript_list;
use crate::site::layout::{self, lesson_page, rel, scroll, session_page, CHANGES, INDEX, SESSIONS};
use crate::site::lesson::summary;
use crate::verdicts::Column;

pub fn list(ev: &Evidence) -> String {
    let body = html! {
        p {
            "A session is one recording on one machine: runs whose headers give the same GPU, driver, host and "
            "commit, each started at most " (GAP_MINUTES) " minutes after the one before it (the toolkit may differ: "
            "one recording builds with the machine's nvcc and with CUDA 13.5). "
            (ev.sessions.len()) " sessions, oldest first; " a href=(CHANGES) { "what changed" } " compares each GPU's latest with the ones before."
        }
        (scroll(html! {
            table {
                (layout::head(&["session", "GPU", "driver", "toolkit", "commit", "runs", "from", "to"]))
                tbody {
                    @for s in ev.sessions {
                        tr {
                            th scope="row" { a href=(session_page(s)) { (s.id) } }
                            td { (s.gpu) }
                            td { (s.driver) }
                            td { (s.toolkit_list()) }
                            td { code { (s.short_commit()) } }
                            td.num { (s.runs.len()) }
                            td { (s.start) }
                            td { (s.end) }
                        }
                    }
                }
            }
        }))
    };
    layout::page(SESSIONS, "Recording sessions", &[(INDEX, "index")], body)
}

/// Every session's page, by path.
pub fn pages(ev: &Evidence) -> Vec<(String, String)> {
    // Each session's rows of each lesson's table, bucketed once: the
    // tables hold every run, and a year holds hundreds of sessions.
    let mut rows: Vec<Vec<Vec<&Row>>> = vec![vec![Vec::new(); ev.tables.len()]; ev.sessions.len()];
    for (l, (_, table)) in ev.tables.iter().enumerate() {
        for row in &table.rows {
            if let Some(&s) = ev.session_of.get(row.transcript.file.as_str()) {
                rows[s][l].push(row);
            }
        }
    }
    ev.sessions
        .iter()
        .zip(&rows)
        .enumerate()
        .map(|(index, (session, rows))| (session_page(session), page(ev, index, session, rows)))
        .collect()
}

/// The page of `session`, the `index`th of the evidence's; `rows` are its
/// rows of each lesson's table, in the tables' order.
fn page(ev: &Evidence, index: usize, session: &Session, rows: &[Vec<&Row>]) -> String {
    let path = session_page(session);
    let body = html! {
        ul {
            li { "GPU: " (session.gpu) }
            li { "driver: " (session.driver) }
            li { "toolkit: " (session.toolkit_list()) }
            li { "host: " (session.host) }
            li { "commit: " code { (session.commit) } }
            li { "from " (session.start) " to " (session.end) " (" (session.span_seconds()) " s), " (session.runs.len()) " runs" }
        }
        @for (((lesson, table), mine), by_session) in ev.tables.iter().zip(rows).zip(&ev.per_session) {
            @if !mine.is_empty() {
                section {
                    h2 { a href=(rel(&path, &lesson_page(lesson.name()))) { (ev.title(lesson.name())) } }
                    @let columns: BTreeSet<Column> = mine.iter().map(|r| Column::of(r.transcript)).collect();
                    @let head: Vec<String> = std::iter::once("claim".to_string()).chain(columns.iter().map(Column::label)).collect();
                    (scroll(html! {
                        table {
                            caption { "Each claim over this session's runs" }
                            (layout::head(&head))
                            tbody {
                                @for claim in &table.claims {
                                    tr {
                                        th scope="row" {
                                            a href=(format!("{}#claim-{}", rel(&path, &lesson_page(lesson.name())), claim.id)) { code { (claim.id) } }
                                        }
                                        @for c in &columns {
                                            @let tally = by_session
                                                .get(&(claim.id, c.clone()))
                                                .and_then(|per| per.get(&index).cloned())
                                                .unwrap_or_default();
                                            td { (tally.state_words()) " " (layout::verdict(&tally)) }
                                        }
                                    }
                                }
                            }
                        }
                    }))
                    (transcript_list(ev, &path, &mine.iter().map(|r| r.transcript).collect::<Vec<_>>(), |t| Some(summary(table, t))))
                }
            }
        }
        @let others: Vec<_> = session.runs.iter().copied().filter(|t| lessons::find(&t.header.lesson).is_none()).collect();
        @if !others.is_empty() {
            h2 { "Other runs" }
            (transcript_list(ev, &path, &others, |_| None))
        }
    };
    layout::page(
        &path,
        &format!("Session {}", session.id),
        &[(INDEX, "index"), (SESSIONS, "sessions")],
        body,
    )
}
