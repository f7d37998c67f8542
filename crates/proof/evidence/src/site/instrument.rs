//! The instrument's page: its document (`evidence/instrument/nvbench.md`:
//! the suite of kernels against Nsight Compute and nvbench) as HTML, then
//! every session of the suite in `evidence/instrument-suite/`.

use maud::{html, PreEscaped};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::site::context::Evidence;
use crate::site::index::{in_folder, transcript_list};
use crate::site::layout::{self, folder_page, rel, transcript_page, INDEX, INSTRUMENT};

/// The document, from the evidence folder.
pub const DOCUMENT: &str = "instrument/nvbench.md";

pub fn page(ev: &Evidence) -> String {
    let document = std::fs::read_to_string(ev.dir.join(DOCUMENT)).ok();
    let (title, html) = match &document {
        Some(text) => to_html(text, |raw| quote_link(ev, raw)),
        None => (
            "The instrument against Nsight Compute and nvbench".to_string(),
            String::new(),
        ),
    };
    let suite = in_folder(ev, "instrument-suite");
    let sessions: Vec<_> = suite
        .iter()
        .copied()
        .filter(|t| crate::runs::in_group(&t.file, "session"))
        .collect();
    let body = html! {
        @if document.is_none() {
            p { "The evidence has no " code { (DOCUMENT) } "." }
        }
        (PreEscaped(html))
        h2 { "Every session of the suite" }
        @if suite.is_empty() {
            p { "The evidence holds no runs of the suite." }
        } @else {
            p {
                "Each session transcript summarises one device call's suite, ncu, nvbench and pair runs; all "
                (suite.len()) " transcripts of the suite are listed on "
                a href=(folder_page("instrument-suite")) { "its folder's page" } "."
            }
            (transcript_list(ev, INSTRUMENT, &sessions, |_| None))
        }
    };
    layout::page(INSTRUMENT, &title, &[(INDEX, "index")], body)
}

/// The document as HTML, its first `#` heading taken out as the page's
/// title. Raw HTML is dropped, except that a `<!-- transcript: FILE#... -->`
/// line becomes what `quote` makes of it (a link to the quoted transcript's
/// page); links and images keep only their text, as the site fetches
/// nothing outside itself; tables scroll in their own box.
fn to_html(text: &str, quote: impl Fn(&str) -> Option<String>) -> (String, String) {
    let mut title = None;
    let mut in_title = false;
    let mut events = Vec::new();
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) if title.is_none() => in_title = true,
            Event::End(TagEnd::Heading(HeadingLevel::H1)) if in_title => in_title = false,
            Event::Text(t) | Event::Code(t) if in_title => {
                title.get_or_insert_with(String::new).push_str(&t);
            }
            _ if in_title => {}
            Event::Html(raw) => {
                if let Some(link) = quote(&raw) {
                    events.push(Event::Html(CowStr::from(link)));
                }
            }
            Event::InlineHtml(_) => {}
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) | Event::End(TagEnd::Link | TagEnd::Image) => {
            }
            Event::Start(Tag::Table(alignments)) => {
                events.push(Event::Html(CowStr::from("<div class=\"scroll\">")));
                events.push(Event::Start(Tag::Table(alignments)));
            }
            Event::End(TagEnd::Table) => {
                events.push(Event::End(TagEnd::Table));
                events.push(Event::Html(CowStr::from("</div>")));
            }
            other => events.push(other),
        }
    }
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events.into_iter());
    (title.unwrap_or_else(|| DOCUMENT.to_string()), out)
}

/// `<!-- transcript: evidence/FOLDER/NAME.txt#SECTION -->` as a line that
/// links to that transcript's page, when it is on the site.
fn quote_link(ev: &Evidence, raw: &str) -> Option<String> {
    let quoted = raw
        .trim()
        .strip_prefix("<!-- transcript:")?
        .strip_suffix("-->")?
        .trim();
    let file = quoted.split('#').next()?.trim();
    let in_evidence = file.strip_prefix("evidence/")?;
    let (t, name) = ev.transcripts.iter().filter(|t| ev.has_page(t)).find_map(|t| {
        let (folder, stem) = layout::folder_and_stem(t);
        (format!("{folder}/{stem}.txt") == in_evidence).then_some((t, stem))
    })?;
    Some(
        html! {
            p.quote { "Quoted from " a href=(rel(INSTRUMENT, &transcript_page(t))) { code { (name) ".txt" } } ":" }
        }
        .into_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn the_document_keeps_its_words_and_drops_what_would_leave_the_site() {
        let text = "# The title\n\nSee [the docs](https://example.com/x) and ![a chart](http://cdn/x.png).\n\n\
            <script src=\"https://cdn/x.js\"></script>\n\n<!-- transcript: evidence/a/b.txt#s -->\n```text\nquoted\n```\n\n\
            inline <img src=\"//cdn/y.png\"> html\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let quote = |raw: &str| raw.contains("transcript:").then(|| "<p>LINK</p>".to_string());
        let (title, html) = to_html(text, quote);
        assert_eq!(title, "The title");
        for gone in ["http", "//cdn", "<script", "<img", "<a ", "<h1"] {
            assert!(!html.contains(gone), "{gone} left in: {html}");
        }
        for kept in [
            "the docs",
            "a chart",
            "<p>LINK</p>",
            "quoted",
            "<div class=\"scroll\"><table>",
            "</table>\n</div>",
        ] {
            assert!(html.contains(kept), "{kept} missing from: {html}");
        }
    }
}
