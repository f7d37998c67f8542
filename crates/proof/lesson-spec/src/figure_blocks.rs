//! Figures: numbers in a document that the evidence writes (`evidence
//! figures`). A document holds a block that names a figure, the figure's
//! text between its markers:
//!
//! ```text
//! about <!-- figure kernel-h200 -->0.061<!-- /figure --> ms
//! ```
//!
//! and the figure is defined beside the lesson's claims (a [`Figure`] in
//! its report package's `FIGURES`), so the document reads as prose.
//!
//! Here, as the expected-failure lists' reasons hold such blocks ([`plain`]).
//! Not for: evaluating queries (`evidence`'s).

use crate::lines::ParseFailure;

pub const OPEN: &str = "<!-- figure ";
pub const CLOSE: &str = "<!-- /figure -->";

/// A figure a document's block names: its name and the query that writes
/// its text, a template of `{expression}` parts over the evidence
/// (the query language of `evidence::figures`). A query of several lines is a
/// table's, a line per row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    pub name: &'static str,
    pub query: &'static str,
}

/// One block in a document's text, by byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The figure it names.
    pub name: String,
    /// 1-based line of the opening marker.
    pub line: usize,
    /// Whether the marker begins its line, so the text sits on lines of its own.
    pub own_lines: bool,
    /// Where the generated text lies between the markers, in bytes.
    pub content: std::ops::Range<usize>,
}

impl Block {
    /// The text the block holds for `value`: inline, or on lines of its own
    /// between the markers, set apart by blank lines so that a table or a
    /// fence ends before the closing marker.
    pub fn wrap(&self, value: &str) -> String {
        if self.own_lines {
            format!("\n\n{}\n\n", value.trim_end_matches('\n'))
        } else {
            value.to_string()
        }
    }
}

/// Every block in `text`, or the line of the first malformed marker and why.
pub fn blocks(text: &str) -> Result<Vec<Block>, ParseFailure> {
    let mut found = Vec::new();
    let mut from = 0;
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    while let Some(start) = text[from..].find(OPEN).map(|i| i + from) {
        let line = line_of(start);
        let end = text[start..]
            .find("-->")
            .map(|i| i + start)
            .ok_or_else(|| ParseFailure::at(line, "a figure marker has no closing `-->`"))?;
        let name = text[start + OPEN.len()..end].trim_end();
        let named = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if name.is_empty() || !name.chars().all(named) || name.contains("--") {
            // `--` inside a comment ends it for older Markdown (GitHub's among them).
            return Err(ParseFailure::at(
                line,
                format!("a figure marker is `<!-- figure NAME -->`, NAME one word of letters, digits and single `-`, not {name:?}"),
            ));
        }
        let body = end + 3;
        let close = text[body..]
            .find(CLOSE)
            .map(|i| i + body)
            .ok_or_else(|| ParseFailure::at(line, format!("figure block `{name}` has no `{CLOSE}`")))?;
        if text[body..close].contains(OPEN) {
            return Err(ParseFailure::at(
                line,
                format!("figure block `{name}` is not closed before the next one"),
            ));
        }
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        found.push(Block {
            name: name.to_string(),
            line,
            own_lines: text[line_start..start].trim().is_empty(),
            content: body..close,
        });
        from = close + CLOSE.len();
    }
    Ok(found)
}

/// A document's text without markers: each block as its generated text.
pub fn plain(text: &str) -> String {
    let Ok(found) = blocks(text) else {
        return text.to_string();
    };
    let mut out = String::new();
    let mut next = 0;
    for b in &found {
        let open = text[..b.content.start].rfind(OPEN).unwrap_or(next);
        out.push_str(&text[next..open]);
        out.push_str(&text[b.content.clone()]);
        next = b.content.end + CLOSE.len();
    }
    out.push_str(&text[next..]);
    out
}
