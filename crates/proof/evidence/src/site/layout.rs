//! What every page of the site shares: its frame (one `h1`, a `lang`, the
//! one stylesheet), where each kind of page lives, links between pages as
//! relative paths (so the site works from `file://` and from any folder of
//! a static host), and how numbers and verdicts are shown.

use maud::{html, Markup, DOCTYPE};

use crate::transcript::Transcript;
use crate::verdicts::{Kind, Tally};

/// The stylesheet, written once at the site's root.
pub const STYLESHEET: &str = "style.css";
pub const CSS: &str = include_str!("style.css");

pub const INDEX: &str = "index.html";
pub const INSTRUMENT: &str = "instrument.html";
/// Every recording session, oldest first.
pub const SESSIONS: &str = "sessions.html";
/// What each GPU's latest session changed.
pub const CHANGES: &str = "changes.html";

pub fn session_page(session: &crate::sessions::Session) -> String {
    format!("sessions/{}.html", session.id)
}

pub fn lesson_page(lesson: &str) -> String {
    format!("lessons/{lesson}.html")
}

pub fn folder_page(folder: &str) -> String {
    format!("folders/{folder}.html")
}

/// The folder of `evidence/` a transcript is in, and its name less `.txt`.
pub fn folder_and_stem(t: &Transcript) -> (&str, &str) {
    let mut parts = t.file.rsplit('/');
    let name = parts.next().unwrap_or(&t.file);
    let folder = parts.next().unwrap_or("");
    (folder, name.strip_suffix(".txt").unwrap_or(name))
}

pub fn transcript_page(t: &Transcript) -> String {
    let (folder, stem) = folder_and_stem(t);
    format!("runs/{folder}/{stem}.html")
}

/// `to` (a path from the site's root) as a link from the page at `from`,
/// each byte that could read as something else in a URL (`#`, `?`, `%`, a
/// space, anything not ASCII) percent-encoded: a run's name is any word
/// its recorder was given.
pub fn rel(from: &str, to: &str) -> String {
    let mut link = "../".repeat(from.matches('/').count());
    for byte in to.bytes() {
        if byte.is_ascii_alphanumeric() || b"/._-~".contains(&byte) {
            link.push(char::from(byte));
        } else {
            link.push_str(&format!("%{byte:02X}"));
        }
    }
    link
}

/// A whole page: `title` is its one `h1` too; `trail` the links above it,
/// root first, as (path from the root, text).
pub fn page(path: &str, title: &str, trail: &[(&str, &str)], body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · GPU timing evidence" }
                link rel="stylesheet" href=(rel(path, STYLESHEET));
            }
            body {
                @if !trail.is_empty() {
                    nav aria-label="breadcrumb" {
                        @for (i, (to, text)) in trail.iter().enumerate() {
                            @if i > 0 { " › " }
                            a href=(rel(path, to)) { (text) }
                        }
                    }
                }
                main {
                    h1 { (title) }
                    (body)
                }
            }
        }
    }
    .into_string()
}

/// A table in a box of its own that scrolls sideways on a narrow screen,
/// so the page never does.
pub fn scroll(table: Markup) -> Markup {
    html! { div.scroll { (table) } }
}

/// A table's header row, one column header per name.
pub fn head<S: AsRef<str>>(columns: &[S]) -> Markup {
    html! {
        thead { tr { @for c in columns { th scope="col" { (c.as_ref()) } } } }
    }
}

/// The class of a verdict's cell, which the stylesheet colours.
pub fn class(kind: Kind) -> &'static str {
    match kind {
        Kind::Holds => "holds",
        Kind::Known => "known",
        Kind::Fails => "fails",
        Kind::NotChecked => "unchecked",
    }
}

/// A verdict cell's content: the words with their counts (never a colour
/// alone), and the list's reasons for a known failure.
pub fn verdict(tally: &Tally) -> Markup {
    html! {
        span.verdict.(class(tally.kind())) { (tally.words()) }
        @if !tally.reasons.is_empty() {
            details {
                summary { "why" }
                @for reason in &tally.reasons { p { (reason) } }
            }
        }
    }
}

/// A verdict cell as the claim tables show it: the verdict ([`verdict`]),
/// a link to the runs behind it (`runs`, a link from the cell's page), and
/// the command that re-runs the claim on a learner's own GPU.
pub fn cell(tally: &Tally, runs: &str, command: &str) -> Markup {
    html! {
        (verdict(tally))
        div.cell-links {
            @if tally.runs() > 0 { a href=(runs) { "runs" } " · " }
            details.rerun {
                summary { "re-run" }
                code { (command) }
            }
        }
    }
}

pub use crate::digits::number;

/// `median (min to max)`, or the one value where they agree, or `-` for
/// none.
pub fn spread(values: &[f64]) -> String {
    match robust_stats::stats::summarize(values) {
        None => "-".into(),
        Some(s) if s.min == s.max => number(s.median),
        Some(s) => format!("{} ({} to {})", number(s.median), number(s.min), number(s.max)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_climb_out_of_the_linking_page_s_folder() {
        assert_eq!(rel(INDEX, "lessons/a.html"), "lessons/a.html");
        assert_eq!(rel("lessons/a.html", STYLESHEET), "../style.css");
        assert_eq!(rel("runs/a/b.html", "lessons/a.html"), "../../lessons/a.html");
        assert_eq!(
            rel(INDEX, "runs/l/2026-x-h200 #2?%.html"),
            "runs/l/2026-x-h200%20%232%3F%25.html"
        );
    }

    #[test]
    fn numbers_keep_four_significant_digits() {
        assert_eq!(number(0.061_04), "0.06104");
        assert_eq!(number(0.061), "0.061");
        assert_eq!(number(1.380_7), "1.381");
        assert_eq!(number(4076.4), "4076");
        assert_eq!(number(1594.0), "1594");
        assert_eq!(number(0.000_000_1), "0.0000001");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-12.5), "-12.5");
    }
}
