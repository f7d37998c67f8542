//! The "what changed" page: per GPU, the claims whose verdict flipped and
//! the figures that moved beyond their noise between the last two sessions
//! that recorded them ([`crate::changes`]), each beside what differed
//! between the two sessions; and the false-alarm rate the rule showed on
//! the evidence's own A/A comparisons.

use std::collections::BTreeMap;

use maud::{html, Markup};

use crate::changes::{self, Change, FigureChange, Flip, MIN_VALUES};
use crate::sessions::{self, Session};
use crate::site::context::Evidence;
use crate::site::layout::{self, lesson_page, number, rel, scroll, session_page, CHANGES, INDEX, SESSIONS};

pub fn page(ev: &Evidence) -> String {
    let alarms = ev.alarms;
    let flips: Vec<Flip> = ev
        .tables
        .iter()
        .zip(&ev.per_session)
        .flat_map(|((lesson, _), per)| changes::flips(lesson.name(), per, ev.sessions))
        .collect();
    let by_gpu = sessions::by_gpu(ev.sessions);
    let body = html! {
        p {
            "For each GPU, each figure a claim or a cause reads is compared between the last two "
            a href=(SESSIONS) { "sessions" } " that recorded it: each session's values (one per run) give a median and "
            "its 95% interval, and the difference is labelled as the instrument labels two runs (robust-stats' "
            code { "compare" } ", a band of ±1% of the earlier median): SAME, FASTER or SLOWER (HIGHER or LOWER for "
            "a figure that is neither a time nor a rate), or UNSURE where the interval reaches across the band, "
            "either session has fewer than " (MIN_VALUES) " values, or the medians are one printed step apart "
            "(0.004 and 0.005 ms: rounding alone can make that)."
        }
        h2 { "False alarms, measured" }
        p {
            "The rule on identical code (A/A), from this evidence. "
            @match alarms.same_commit_pairs {
                0 => "No two sessions here are of one commit on one machine (each commit was recorded in one sitting). ",
                pairs => { "Sessions of one commit on one machine: " (pairs) " pair(s), their figures called moved "
                    (alarms.same_commit.words()) ". " }
            }
            "Each session's runs split in two (odd against even, figures with at least " (2 * MIN_VALUES) " values): "
            "called moved " (alarms.split_half.words()) ", UNSURE " (alarms.split_half.unsure) " times."
        }
        @for (gpu, on_gpu) in &by_gpu {
            (gpu_section(gpu, on_gpu, &flips, &ev.latest))
        }
    };
    layout::page(CHANGES, "What changed", &[(INDEX, "index")], body)
}

/// One GPU's last two sessions, its flips and its moved figures, the
/// largest move first.
fn gpu_section(gpu: &str, on_gpu: &[&Session], flips: &[Flip], figure_changes: &[FigureChange]) -> Markup {
    let flipped: Vec<&Flip> = flips.iter().filter(|f| f.column.gpu == gpu).collect();
    let mine: Vec<&FigureChange> = figure_changes.iter().filter(|c| c.series.gpu == gpu).collect();
    let mut moved: Vec<&FigureChange> = mine
        .iter()
        .copied()
        .filter(|c| c.compared.change.moved())
        .collect();
    moved.sort_by(|a, b| moved_by(b).abs().total_cmp(&moved_by(a).abs()));
    html! {
        section {
            h2 { (gpu) }
            (last_two(on_gpu))
            h3 { "Verdicts that flipped" }
            @if flipped.is_empty() {
                p { "None: every claim's verdict is what it was in the session before." }
            } @else {
                (flips_table(&flipped))
            }
            h3 { "Figures that moved beyond their noise" }
            @if moved.is_empty() {
                p { "None." }
            } @else {
                (figures_table(&moved))
            }
            p { "Of " (mine.len()) " figures recorded in two sessions: " (counts(&mine)) "." }
        }
    }
}

/// The relative difference behind a change, 0 where there is none.
fn moved_by(c: &FigureChange) -> f64 {
    c.compared.comparison.map_or(0.0, |c| c.rel)
}

/// `12 SAME, 3 UNSURE, ...`.
fn counts(changes: &[&FigureChange]) -> String {
    let mut by: BTreeMap<Change, usize> = BTreeMap::new();
    for c in changes {
        *by.entry(c.compared.change).or_default() += 1;
    }
    let parts: Vec<String> = by.iter().map(|(c, n)| format!("{n} {}", c.name())).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The GPU's last two sessions and what differed between them.
fn last_two(on_gpu: &[&Session]) -> Markup {
    let [.., before, after] = on_gpu else {
        return html! { p { "One session so far: nothing to compare it with." } };
    };
    html! {
        p {
            "Its latest session is " (session_link(after)) ", the one before " (session_link(before)) ": "
            (differed(before, after)) "."
        }
    }
}

fn session_link(s: &Session) -> Markup {
    html! { a href=(rel(CHANGES, &session_page(s))) { (s.id) } }
}

/// What differed between two sessions, in words.
fn differed(before: &Session, after: &Session) -> String {
    let d = changes::differences(before, after);
    if d.is_empty() {
        "the same commit, driver, toolkit and host".into()
    } else {
        d.join("; ")
    }
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
                        td { (differed(f.before.0, f.after.0)) }
                    }
                }
            }
        }
    })
}

/// `median (min to max), n`.
fn spread(values: &[f64]) -> String {
    let median = lesson_spec::median(values.to_vec()).unwrap_or(f64::NAN);
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!(
        "{} ({} to {}), n = {}",
        number(median),
        number(low),
        number(high),
        values.len()
    )
}

fn figures_table(changes: &[&FigureChange]) -> Markup {
    scroll(html! {
        table {
            (layout::head(&["figure", "before", "after", "change", "its 90% interval", "label", "what differed"]))
            tbody {
                @for c in changes {
                    @let f = &c.series.figure;
                    tr {
                        th scope="row" {
                            a href=(format!("{}#history", rel(CHANGES, &lesson_page(f.lesson)))) { (f.label) }
                            span.statement { (f.folder) "/" (f.run) }
                        }
                        td { (spread(&c.before.values)) " in " (session_link(c.before.session)) }
                        td { (spread(&c.after.values)) " in " (session_link(c.after.session)) }
                        @match c.compared.comparison {
                            Some(k) => {
                                td.num { (format!("{:+.1}%", k.rel * 100.0)) }
                                td.num { (format!("{:+.1}% to {:+.1}%", k.rel_ci.0 * 100.0, k.rel_ci.1 * 100.0)) }
                            }
                            None => { td.num { "-" } td.num { "-" } }
                        }
                        td { span.verdict.(class(c.compared.change)) { (c.compared.change.name()) } }
                        td { (differed(c.before.session, c.after.session)) }
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
