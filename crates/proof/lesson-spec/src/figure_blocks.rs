//! The markers of a figure block, a number in a document that the evidence
//! writes (`evidence figures`): an opening marker with the block's name and
//! query, the generated text, a closing marker.
//!
//! ```text
//! about <!-- figure kernel-h200: {median(...) as .3} -->0.061<!-- /figure --> ms
//! ```
//!
//! Here, beside the expected-failure lists whose reasons hold such blocks,
//! so that a lesson's `--claims` shows a reason as the text it reads as
//! ([`plain`]), as `evidence check` does. Not for: evaluating queries (that
//! needs the evidence, and is `evidence`'s).

use crate::lines::ParseFailure;

pub const OPEN: &str = "<!-- figure ";
pub const CLOSE: &str = "<!-- /figure -->";

/// One block in a document's text, by byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub name: String,
    pub template: String,
    /// 1-based line of the opening marker.
    pub line: usize,
    /// Whether the marker spans lines, so the text sits on lines of its own.
    pub own_lines: bool,
    /// Where the generated text lies between the markers, in bytes.
    pub content: std::ops::Range<usize>,
}

impl Block {
    /// The text the block holds for `value`: inline, or on lines of its own
    /// between the markers when the marker spans lines, set apart by blank
    /// lines so that a table or a fence ends before the closing marker.
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
        let inner = &text[start + OPEN.len()..end];
        let (name, template) = inner
            .split_once(':')
            .ok_or_else(|| ParseFailure::at(line, "a figure marker is `<!-- figure NAME: QUERY -->`"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(ParseFailure::at(
                line,
                format!("a figure block's name is one word, not {name:?}"),
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
        let own_lines = inner.contains('\n');
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        if !own_lines && text[line_start..start].trim().is_empty() {
            return Err(ParseFailure::at(
                line,
                format!("inline figure block `{name}` begins a line, where Markdown would end the paragraph"),
            ));
        }
        if !own_lines && inner.contains("--") {
            // Markdown before CommonMark 0.31 (GitHub's among them) reads an
            // inline comment holding `--` as text.
            return Err(ParseFailure::at(
                line,
                format!("inline figure block `{name}` holds `--`"),
            ));
        }
        found.push(Block {
            name: name.to_string(),
            template: template
                .trim_start_matches(' ')
                .trim_start_matches('\n')
                .trim_end()
                .to_string(),
            line,
            own_lines,
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
