//! One page's HTML as written, read without a browser (html5gum, a WHATWG
//! tokenizer): what the static checks need (`lang`, `h1`s, tables and their
//! `th`, links, images and their alt text, the URLs of what the page loads,
//! ids) and three measures of how likely the page is to be wider than a
//! phone, by which the pages the browser lays out are chosen.
//!
//! URLs are as written; [`crate::page`] resolves them against the page (or
//! its `<base href>`), as the browser does. Links and ids that scripts add
//! are not seen here: a page's scripts run only in the browser.

use html5gum::{DefaultEmitter, Token, Tokenizer};

/// What a page's HTML says.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// `lang` of the first `<html>`, trimmed; empty when there is none.
    pub(crate) lang: String,
    pub(crate) h1: u64,
    pub(crate) tables_without_th: u64,
    /// The first `<base href>`, which relative URLs resolve against.
    pub(crate) base: Option<String>,
    /// Every `<a href>`, as written.
    pub(crate) links: Vec<String>,
    pub(crate) images: Vec<Image>,
    /// What the page asks the browser to fetch besides images: kind, URL.
    pub(crate) resources: Vec<(&'static str, String)>,
    /// Every `id`, and every `<a name>`.
    pub(crate) ids: Vec<String>,
    pub(crate) risk: Risk,
}

#[derive(Debug)]
pub(crate) struct Image {
    pub(crate) src: String,
    pub(crate) alt: bool,
}

/// How wide a page's content may want to be, in characters: what pushes a
/// page past a phone's width is a long preformatted line, a long word, or
/// a table with many columns of long words.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Risk {
    /// The longest line inside a `<pre>`.
    pub(crate) pre_line: usize,
    /// The longest run of text without white space outside a `<pre>`.
    pub(crate) word: usize,
    /// The widest table: of its rows, the largest sum of each cell's
    /// longest word.
    pub(crate) table: usize,
}

/// A table being read: whether it has a `th`, its widest row so far, the
/// row being read, and the longest word of the cell being read.
#[derive(Default)]
struct Table {
    th: bool,
    widest: usize,
    row: usize,
    cell: usize,
}

impl Table {
    fn end_cell(&mut self) {
        self.row += std::mem::take(&mut self.cell);
    }

    fn end_row(&mut self) {
        self.end_cell();
        self.widest = self.widest.max(std::mem::take(&mut self.row));
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Reads the page `html`.
pub(crate) fn read(html: &str) -> Written {
    let mut emitter = DefaultEmitter::default();
    // Script, style and the other raw-text elements' contents are text to
    // skip, not tags.
    emitter.naively_switch_states(true);
    let mut written = Written::default();
    let mut seen_html = false;
    let mut tables: Vec<Table> = Vec::new();
    let mut pre_depth = 0usize;
    let mut pre_line = 0usize;
    let mut raw_text = 0usize;
    let mut word = 0usize;
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) => {
                word = 0;
                let name = tag.name.as_slice();
                let attr = |key: &str| tag.attributes.get(key.as_bytes()).map(|v| text(&v.value));
                if let Some(id) = attr("id") {
                    written.ids.push(id);
                }
                match name {
                    b"html" if !seen_html => {
                        seen_html = true;
                        written.lang = attr("lang").unwrap_or_default().trim().to_string();
                    }
                    b"base" if written.base.is_none() => written.base = attr("href"),
                    b"h1" => written.h1 += 1,
                    b"table" => tables.push(Table::default()),
                    b"tr" => {
                        if let Some(t) = tables.last_mut() {
                            t.end_row();
                        }
                    }
                    b"td" | b"th" => {
                        if let Some(t) = tables.last_mut() {
                            t.end_cell();
                            t.th |= name == b"th";
                        }
                    }
                    b"pre" => pre_depth += 1,
                    b"script" | b"style" | b"textarea" | b"title" => raw_text += 1,
                    b"a" => {
                        if let Some(href) = attr("href") {
                            written.links.push(href);
                        }
                        if let Some(anchor) = attr("name") {
                            written.ids.push(anchor);
                        }
                    }
                    b"img" => written.images.push(Image {
                        src: attr("src").unwrap_or_default(),
                        alt: attr("alt").is_some_and(|a| !a.trim().is_empty()),
                    }),
                    _ => {}
                }
                let mut fetches = |kind: &'static str, key: &str| {
                    if let Some(url) = attr(key).filter(|u| !u.trim().is_empty()) {
                        written.resources.push((kind, url));
                    }
                };
                match name {
                    b"link" => fetches("stylesheet or link", "href"),
                    b"script" => fetches("script", "src"),
                    b"iframe" => fetches("iframe", "src"),
                    b"embed" => fetches("embed", "src"),
                    b"video" => {
                        fetches("video", "src");
                        fetches("video poster", "poster");
                    }
                    b"audio" => fetches("audio", "src"),
                    b"source" => fetches("source", "src"),
                    b"track" => fetches("track", "src"),
                    b"object" => fetches("object", "data"),
                    _ => {}
                }
                if tag.self_closing && name == b"script" {
                    raw_text = raw_text.saturating_sub(1);
                }
            }
            Token::EndTag(tag) => {
                word = 0;
                match tag.name.as_slice() {
                    b"table" => {
                        if let Some(mut t) = tables.pop() {
                            t.end_row();
                            written.risk.table = written.risk.table.max(t.widest);
                            if !t.th {
                                written.tables_without_th += 1;
                            }
                        }
                    }
                    b"tr" => {
                        if let Some(t) = tables.last_mut() {
                            t.end_row();
                        }
                    }
                    b"td" | b"th" => {
                        if let Some(t) = tables.last_mut() {
                            t.end_cell();
                        }
                    }
                    b"pre" => {
                        pre_depth = pre_depth.saturating_sub(1);
                        pre_line = 0;
                    }
                    b"script" | b"style" | b"textarea" | b"title" => raw_text = raw_text.saturating_sub(1),
                    _ => {}
                }
            }
            Token::String(s) if raw_text == 0 => {
                let s = text(&s.value);
                if pre_depth > 0 {
                    for (i, line) in s.split('\n').enumerate() {
                        if i > 0 {
                            pre_line = 0;
                        }
                        pre_line += line.chars().count();
                        written.risk.pre_line = written.risk.pre_line.max(pre_line);
                    }
                    continue;
                }
                for (i, run) in s.split(char::is_whitespace).enumerate() {
                    if i > 0 {
                        word = 0;
                    }
                    word += run.chars().count();
                    written.risk.word = written.risk.word.max(word);
                    if let Some(t) = tables.last_mut() {
                        t.cell = t.cell.max(word);
                    }
                }
            }
            _ => {}
        }
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_of_a_page_as_written() {
        let w = read(
            "<!doctype html><html lang=' en '><head><base href='sub/'>\
             <link rel=stylesheet href='s.css'><script src='a.js'></script>\
             <script>var x = '<a href=\"no.html\">';</script></head>\
             <body><h1 id=top>T</h1><a href='x.html?a=1&amp;b=2#f' name=n>x</a>\
             <img src=p.png alt=' '><img src=q.png alt=Q>\
             <table><tr><td>1</td></tr></table><table><tr><th>h</th></tr></table></body></html>",
        );
        assert_eq!(w.lang, "en");
        assert_eq!(w.h1, 1);
        assert_eq!(w.tables_without_th, 1);
        assert_eq!(w.base.as_deref(), Some("sub/"));
        assert_eq!(w.links, vec!["x.html?a=1&b=2#f"]);
        assert_eq!(w.ids, vec!["top", "n"]);
        let images: Vec<(&str, bool)> = w.images.iter().map(|i| (i.src.as_str(), i.alt)).collect();
        assert_eq!(images, vec![("p.png", false), ("q.png", true)]);
        assert_eq!(
            w.resources,
            vec![
                ("stylesheet or link", "s.css".to_string()),
                ("script", "a.js".to_string())
            ]
        );
    }

    #[test]
    fn risk_measures_lines_words_and_tables() {
        let w = read(
            "<html><body><pre>ab\nabcdef\n</pre><p>one threefold</p>\
             <table><tr><td>aaaa bb</td><td>ccc</td></tr><tr><td>d</td><td>eeeeeee</td></tr></table>",
        );
        assert_eq!(w.risk.pre_line, 6);
        assert_eq!(w.risk.word, 9);
        // Row one: 4 + 3; row two: 1 + 7.
        assert_eq!(w.risk.table, 8);
    }
}
