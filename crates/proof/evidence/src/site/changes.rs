//! The "what changed" page: per GPU, what its latest session says against
//! the sessions before it ([`crate::changes`]): the claims whose verdict
//! flipped, the figures that moved beyond their baseline's noise, how many
//! runs a session needs to decide a figure, and the false-alarm rate the
//! rule showed on the evidence's own A/A comparisons.

use maud::{html, Markup};

use crate::changes::{self, Change, FigureChange, Flip, MIN_VALUES, MOST_RUNS, WINDOW};
use crate::sessions::{self, Session};
use crate::site::context::Evidence;
use crate::site::layout::{self, lesson_page, rel, scroll, session_page, spread, CHANGES, INDEX, SESSIONS};

pub fn page(ev: &Evidence) -> String {
    let alarms = ev.alarms;
    let flips: Vec<Flip> = ev
        .tables
        .iter()
        .zip(&ev.per_session)
        .flat_map(|((lesson, _), per)| changes::flips(lesson.name(), per, ev.sessions))
        .collect();
    let body = html! {
        p {
            "For each GPU, each figure a claim or a cause reads that its latest " a href=(SESSIONS) { "session" }
            " recorded is set against a baseline: its values in the last " (WINDOW) " earlier sessions that "
            "recorded it. Each side gives a median and its 95% interval, and the difference is labelled as the "
            "instrument labels two runs (robust-stats' " code { "compare" } ", a band of ±1% of the baseline's "
            "median, the interval widened by how far the baseline's sessions lie apart): moved (FASTER or SLOWER, "
            "HIGHER or LOWER for a figure that is neither a time nor a rate), SAME, or undecided (UNSURE) where the "
            "interval reaches across the band, either side has fewer than " (MIN_VALUES) " values, or the medians "
            "are one printed step apart. A figure's runs needed are the fewest runs whose values, taken at evenly "
            "spaced quantiles of the baseline's own, read SAME (tried up to " (MOST_RUNS) ")."
        }
        h2 { "False alarms, measured" }
        p {
            "The rule on identical code (A/A), from this evidence. "
            @match alarms.same_commit_pairs {
                0 => "No two sessions here are of one commit on one machine (each commit was recorded in one sitting). ",
                pairs => { "Sessions of one commit on one machine: " (pairs) " pair(s), their figures called moved "
                    (alarms.same_commit.words()) "; the second of each against its baseline, as the latest session "
                    "is labelled below: " (alarms.baseline.words()) ". " }
            }
            "Each session's runs split in two (odd against even, figures with at least " (2 * MIN_VALUES) " values): "
            "called moved " (alarms.split_half.words()) ", UNSURE " (alarms.split_half.unsure) " times."
        }
        @for on in changes::by_gpu(ev.sessions, &ev.latest, &flips) {
            section {
                h2 { (on.gpu) }
                @match on.sessions.as_slice() {
                    [.., before, after] => p {
                        "Its latest session is " (session_link(after)) "; the one before, " (session_link(before))
                        ", differed in " (sessions::differed(before, after)) "."
                    },
                    _ => p { "One session so far: nothing to compare it with." },
                }
                h3 { "Verdicts that flipped" }
                @if on.flips.is_empty() {
                    p { "None: every claim the latest session checked reads as it did in the session before." }
                } @else {
                    (flips_table(&on.flips))
                }
                h3 { "Figures that moved beyond their noise" }
                @if on.moved.is_empty() {
                    p { "None." }
                } @else {
                    (figures_table(&on.moved))
                }
                @if !on.figures.is_empty() {
                    p { (changes::summary(&on.figures)) "." }
                }
            }
        }
    };
    layout::page(CHANGES, "What changed", &[(INDEX, "index")], body)
}

fn session_link(s: &Session) -> Markup {
    html! { a href=(rel(CHANGES, &session_page(s))) { (s.id) } }
}

fn flips_table(flips: &[&Flip]) -> Markup {
    scroll(html! {
        table {
            (layout::head(&["claim", "toolkit", "before", "after", "what differed"]))
            tbody {
                @for f in flips {
                    tr {
                        th scope="row" {
                            a href=(format!("{}#claim-{}", rel(CHANGES, &lesson_page(&f.lesson)), f.claim)) { code { (f.claim) } }
                            span.statement { (f.lesson) }
                        }
                        td { (f.column.toolkit) }
                        td { (layout::verdict(&f.before.1)) " in " (session_link(f.before.0)) }
                        td { (layout::verdict(&f.after.1)) " in " (session_link(f.after.0)) }
                        td { (sessions::differed(f.before.0, f.after.0)) }
                    }
                }
            }
        }
    })
}

fn figures_table(changes: &[&FigureChange]) -> Markup {
    scroll(html! {
        table {
            (layout::head(&["figure", "baseline", "latest", "change", "its 90% interval", "label", "runs needed"]))
            tbody {
                @for c in changes {
                    @let f = &c.series.figure;
                    tr {
                        th scope="row" {
                            a href=(format!("{}#history", rel(CHANGES, &lesson_page(f.lesson)))) { (f.label) }
                            span.statement { (f.folder) "/" (f.run) }
                        }
                        td { (spread(&c.baseline.iter().flat_map(|p| p.values.clone()).collect::<Vec<_>>())) ", n = " (c.baseline.iter().map(|p| p.values.len()).sum::<usize>()) " in " (c.baseline.len()) " session(s) to " (session_link(c.before())) }
                        td { (spread(&c.latest.values)) ", n = " (c.latest.values.len()) }
                        @match c.compared.comparison {
                            Some(k) => {
                                td.num { (format!("{:+.1}%", k.rel * 100.0)) }
                                td.num { (format!("{:+.1}% to {:+.1}%", k.rel_ci.0 * 100.0, k.rel_ci.1 * 100.0)) }
                            }
                            None => { td.num { "-" } td.num { "-" } }
                        }
                        td { span.verdict.(class(c.compared.change)) { (c.compared.change.name()) } }
                        td.num { (c.runs_needed.map_or(format!("over {MOST_RUNS}"), |n| n.to_string())) }
                    }
                }
            }
        }
    })
}

/// A change's verdict class: never shown alone, always with its word.
fn class(change: Change) -> &'static str {
    match change {
        Change::Same => "holds",
        Change::Unsure => "unchecked",
        Change::Faster | Change::Higher | Change::Lower => "known",
        Change::Slower => "fails",
    }
}
