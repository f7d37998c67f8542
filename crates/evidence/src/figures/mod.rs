//! Figure blocks: numbers in the documents that the evidence writes.
//!
//! A block is an opening marker naming the block and its query, the
//! generated text, and a closing marker:
//!
//! ```text
//! about <!-- figure kernel-h200: {median(runs("dayNN-topic", "h200-cxx", "kernel, ms")) as .3} -->0.061<!-- /figure --> ms
//! ```
//!
//! The query is a template ([`query`]): text with `{expression}` parts. A
//! marker that spans lines (a table's, its template a line per row) gives a
//! block of several lines, the markers on lines of their own. An inline
//! block must not begin a line (Markdown would end the paragraph there) nor
//! hold `--` (older Markdown reads such a comment as text).
//!
//! Blocks live in every `*.md` of the repository and in the lessons'
//! `expected-failures.txt` (whose reasons [`plain`] shows without markers).
//! [`run`] lists every block whose text differs from what the evidence
//! gives, and with `write` rewrites them: `evidence figures [--write]`.
//!
//! Not for: quoting transcripts or code (course-rules' quotes do that).

pub mod data;
pub mod query;

use std::path::{Path, PathBuf};

pub use data::Evidence;

/// The command that rewrites every block, named in each failure.
pub const WRITE_COMMAND: &str = "cargo run -p evidence -- figures --write";

pub use lesson_spec::figure_blocks::{blocks, plain, Block, CLOSE, OPEN};

/// `text` with every block's generated text replaced by what `ev` gives,
/// and the names of the blocks that changed; errors name the block.
pub fn regenerate(ev: &Evidence, text: &str) -> Result<(String, Vec<String>), String> {
    let found = blocks(text).map_err(|(line, e)| format!("{line}: {e}"))?;
    let mut out = String::new();
    let mut stale = Vec::new();
    let mut next = 0;
    for b in &found {
        let value =
            query::fill(ev, &b.template).map_err(|e| format!("{}: block `{}`: {e}", b.line, b.name))?;
        let want = b.wrap(&value);
        if text[b.content.clone()] != want {
            stale.push(b.name.clone());
        }
        out.push_str(&text[next..b.content.start]);
        out.push_str(&want);
        next = b.content.end;
    }
    out.push_str(&text[next..]);
    Ok((out, stale))
}

/// Every file that may hold blocks under `root`: each `*.md` and each
/// `expected-failures.txt`, outside hidden folders and `target`.
pub fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    dirs.push(path);
                }
            } else if name.ends_with(".md") || name == "expected-failures.txt" {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every block under `root`: its file (relative to `root`), name and query,
/// each on one line (a table's template lines joined by ` / `).
pub fn list(root: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for path in documents(root) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
        for b in blocks(&text).map_err(|(line, e)| format!("{shown}:{line}: {e}"))? {
            out.push(format!(
                "{shown} `{}`: {}",
                b.name,
                b.template.replace('\n', " / ")
            ));
        }
    }
    Ok(out)
}

/// What `check` or `write` found in one document.
#[derive(Debug, Default)]
pub struct Outcome {
    /// `file: block NAME` of each block whose text the evidence changes.
    pub stale: Vec<String>,
    /// Files and blocks that could not be read or evaluated.
    pub errors: Vec<String>,
    /// How many blocks there are in all.
    pub blocks: usize,
}

/// Every block under `root` against the evidence; with `write`, each stale
/// document is rewritten.
pub fn run(root: &Path, write: bool) -> Outcome {
    let ev = Evidence::new(root);
    let mut outcome = Outcome::default();
    for path in documents(root) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) if t.contains(OPEN) => t,
            Ok(_) => continue,
            Err(e) => {
                outcome.errors.push(format!("{shown}: {e}"));
                continue;
            }
        };
        match regenerate(&ev, &text) {
            Err(e) => outcome.errors.push(format!("{shown}:{e}")),
            Ok((new, stale)) => {
                outcome.blocks += blocks(&text).map_or(0, |b| b.len());
                if write && !stale.is_empty() {
                    if let Err(e) = std::fs::write(&path, new) {
                        outcome.errors.push(format!("{shown}: {e}"));
                    }
                }
                outcome
                    .stale
                    .extend(stale.into_iter().map(|b| format!("{shown}: block `{b}`")));
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_inline_and_on_lines_of_their_own() {
        let text = "a <!-- figure one: {1 + 1} -->2<!-- /figure --> b\n\
                    <!-- figure two:\n| x | {3} |\n-->\nold\n<!-- /figure -->\n";
        let found = blocks(text).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].name.as_str(), found[0].template.as_str(), found[0].line),
            ("one", "{1 + 1}", 1)
        );
        assert_eq!(&text[found[0].content.clone()], "2");
        assert_eq!(
            (found[1].name.as_str(), found[1].template.as_str(), found[1].line),
            ("two", "| x | {3} |", 2)
        );
        assert_eq!(&text[found[1].content.clone()], "\nold\n");
    }

    #[test]
    fn regenerating_replaces_only_stale_text_and_names_the_blocks() {
        let ev = Evidence::new(Path::new("/nonexistent"));
        let text = "a <!-- figure one: {1 + 1} -->2<!-- /figure --> b\n\
                    <!-- figure two:\n| x | {6 / 4 as .1} |\n-->\nold\n<!-- /figure -->\n";
        let (new, stale) = regenerate(&ev, text).unwrap();
        assert_eq!(stale, ["two"]);
        assert!(new.contains("-->2<!-- /figure --> b"), "{new}");
        assert!(new.contains("-->\n\n| x | 1.5 |\n\n<!-- /figure -->"), "{new}");
        assert_eq!(regenerate(&ev, &new).unwrap().1, Vec::<String>::new());
    }

    #[test]
    fn malformed_markers_name_their_line() {
        assert_eq!(blocks("x\nx <!-- figure a: {1} -->1\n").unwrap_err().0, 2);
        assert_eq!(
            blocks("<!-- figure a b: {1} --><!-- /figure -->").unwrap_err().0,
            1
        );
        assert!(blocks("x <!-- figure a: {1} -->1 <!-- figure b: {2} -->2<!-- /figure -->").is_err());
        let begins = blocks("x\n  <!-- figure a: {1} -->1<!-- /figure -->").unwrap_err();
        assert_eq!(begins.0, 2);
        assert!(begins.1.contains("begins a line"), "{}", begins.1);
        assert!(blocks("x <!-- figure a: {2 -- 1} -->3<!-- /figure -->")
            .unwrap_err()
            .1
            .contains("`--`"));
        let ev = Evidence::new(Path::new("/nonexistent"));
        let e = regenerate(&ev, "\nx <!-- figure bad: {nosuch(1)} -->x<!-- /figure -->").unwrap_err();
        assert!(
            e.starts_with("2: block `bad`") && e.contains("no function `nosuch`"),
            "{e}"
        );
    }

    #[test]
    fn plain_text_keeps_the_values_and_drops_the_markers() {
        let text = "13 to <!-- figure hi: {38} -->38<!-- /figure -->% of it";
        assert_eq!(plain(text), "13 to 38% of it");
        assert_eq!(plain("no blocks"), "no blocks");
    }
}
