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

use std::path::{Path, PathBuf};

pub use crate::data::Evidence;
use crate::query;
use evidence_model::atomic;
use evidence_model::problem::Problem;

/// The command that rewrites every block, named in each failure.
pub const WRITE_COMMAND: &str = "cargo run -p evidence -- figures --write";

pub use lesson_spec::figure_blocks::{blocks, plain, Block, CLOSE, OPEN};

/// A document whose blocks cannot be found or read.
#[derive(Debug, thiserror::Error)]
pub enum FiguresError {
    /// The figure markers do not pair up (lesson-spec's words for why).
    #[error("{line}: {why}")]
    Markers { line: usize, why: String },
    #[error("{file}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// The document an error is in, as `FILE:` before it.
    #[error("{file}:{error}")]
    In { file: String, error: Box<FiguresError> },
}

impl FiguresError {
    fn markers(f: lesson_spec::ParseFailure) -> Self {
        FiguresError::Markers {
            line: f.line,
            why: f.message,
        }
    }
}

/// A block that could not be evaluated, or that is named as an earlier
/// block of its document is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}: block `{name}`: {message}")]
pub struct BlockError {
    /// The line of the block's opening marker.
    pub line: usize,
    pub name: String,
    pub message: String,
}

/// A document's text with its blocks evaluated.
#[derive(Debug, Default, PartialEq)]
pub struct Regenerated {
    /// The text with every block that evaluated replaced by its value; a
    /// block that did not keeps its text.
    pub text: String,
    /// `LINE: block `NAME`` of each block whose text the evidence changes.
    pub stale: Vec<String>,
    /// Each block that could not be evaluated, and each block named as an
    /// earlier one is: all of them, not the first.
    pub errors: Vec<BlockError>,
}

/// `text` with every block's generated text replaced by what `ev` gives;
/// every block is evaluated, whatever another block's fate.
pub fn regenerate(ev: &Evidence, text: &str) -> Result<Regenerated, FiguresError> {
    let found = blocks(text).map_err(FiguresError::markers)?;
    let mut out = Regenerated::default();
    let mut next = 0;
    for (i, b) in found.iter().enumerate() {
        let block = format!("{}: block `{}`", b.line, b.name);
        let error = |message: String| BlockError {
            line: b.line,
            name: b.name.clone(),
            message,
        };
        if let Some(first) = found[..i].iter().find(|f| f.name == b.name) {
            out.errors.push(error(format!(
                "the block on line {} has this name; each block in a document has its own",
                first.line
            )));
        }
        out.text.push_str(&text[next..b.content.start]);
        let now = &text[b.content.clone()];
        match query::fill(ev, &b.template) {
            Ok(value) => {
                let want = b.wrap(&value);
                if now != want {
                    out.stale.push(block);
                }
                out.text.push_str(&want);
            }
            Err(e) => {
                out.errors.push(error(e.to_string()));
                out.text.push_str(now);
            }
        }
        next = b.content.end;
    }
    out.text.push_str(&text[next..]);
    Ok(out)
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
pub fn list(root: &Path) -> Result<Vec<String>, FiguresError> {
    let mut out = Vec::new();
    for path in documents(root) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|source| FiguresError::Read {
            file: shown.clone(),
            source,
        })?;
        let found = blocks(&text).map_err(|e| FiguresError::In {
            file: shown.clone(),
            error: Box::new(FiguresError::markers(e)),
        })?;
        for b in found {
            out.push(format!(
                "{shown} `{}`: {}",
                b.name,
                b.template.replace('\n', " / ")
            ));
        }
    }
    Ok(out)
}

/// What `check` or `write` found in the documents.
#[derive(Debug, Default)]
pub struct Outcome {
    /// `file:LINE: block `NAME`` of each block whose text the evidence
    /// changes (with `write`: changed, or would have been, see below).
    pub stale: Vec<String>,
    /// With `write`: the stale blocks written, each in a document rewritten
    /// whole.
    pub rewritten: Vec<String>,
    /// With `write`: the stale blocks left as they were, because their
    /// document has an error (a document is rewritten only when every block
    /// in it evaluates) or could not be written.
    pub not_rewritten: Vec<String>,
    /// Files and blocks that could not be read or evaluated.
    pub errors: Vec<Problem>,
    /// How many blocks there are in all.
    pub blocks: usize,
}

/// Every block under `root` against the evidence in `evidence`; with `write`, each stale
/// document with no error is rewritten, in one rename ([`atomic::write`]),
/// so that a write that is stopped leaves the document as it was.
pub fn run(root: &Path, evidence: &Path, write: bool) -> Outcome {
    let ev = Evidence::new(evidence);
    let mut outcome = Outcome::default();
    for path in documents(root) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) if t.contains(OPEN) => t,
            Ok(_) => continue,
            Err(e) => {
                outcome.errors.push(Problem::of_file(&shown, e.to_string()));
                continue;
            }
        };
        let found = match regenerate(&ev, &text) {
            Ok(found) => found,
            Err(FiguresError::Markers { line, why }) => {
                outcome.errors.push(Problem::at(&shown, line, why));
                continue;
            }
            Err(e) => {
                outcome.errors.push(Problem::of_file(&shown, e.to_string()));
                continue;
            }
        };
        outcome.blocks += blocks(&text).map_or(0, |b| b.len());
        let stale: Vec<String> = found.stale.iter().map(|b| format!("{shown}:{b}")).collect();
        outcome.errors.extend(
            found
                .errors
                .iter()
                .map(|e| Problem::at(&shown, e.line, format!("block `{}`: {}", e.name, e.message))),
        );
        outcome.stale.extend(stale.iter().cloned());
        if !write || stale.is_empty() {
            continue;
        }
        if !found.errors.is_empty() {
            outcome.not_rewritten.extend(stale);
            continue;
        }
        match atomic::write(&path, &found.text) {
            Ok(()) => outcome.rewritten.extend(stale),
            Err(e) => {
                outcome.errors.push(Problem::of_file(&shown, e.to_string()));
                outcome.not_rewritten.extend(stale);
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
        let Regenerated {
            text: new,
            stale,
            errors,
        } = regenerate(&ev, text).unwrap();
        assert_eq!((stale, errors), (vec!["2: block `two`".to_string()], vec![]));
        assert!(new.contains("-->2<!-- /figure --> b"), "{new}");
        assert!(new.contains("-->\n\n| x | 1.5 |\n\n<!-- /figure -->"), "{new}");
        assert_eq!(regenerate(&ev, &new).unwrap().stale, Vec::<String>::new());
    }

    /// One block's error hides neither another's error nor a third's
    /// staleness, and two blocks of one name are an error naming both lines.
    #[test]
    fn every_block_is_evaluated_and_every_problem_named() {
        let ev = Evidence::new(Path::new("/nonexistent"));
        let text = "a <!-- figure one: {nosuch(1)} -->1<!-- /figure -->\n\
                    b <!-- figure two: {1 / 0} -->inf<!-- /figure -->\n\
                    c <!-- figure three: {0 / 0 as .2} -->NaN<!-- /figure -->\n\
                    d <!-- figure same: {2} -->1<!-- /figure -->\n\
                    e <!-- figure same: {3} -->3<!-- /figure -->\n";
        let found = regenerate(&ev, text).unwrap();
        let errors: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 4, "{errors:#?}");
        assert!(errors[0].starts_with("1: block `one`: "), "{errors:?}");
        assert!(errors[1].starts_with("2: block `two`: ") && errors[1].contains("not a finite number"));
        assert!(errors[2].starts_with("3: block `three`: ") && errors[2].contains("NaN"));
        assert!(
            errors[3].starts_with("5: block `same`: the block on line 4 has this name"),
            "{errors:?}"
        );
        assert_eq!(found.stale, ["4: block `same`"]);
        // A block that does not evaluate keeps its text.
        assert!(found.text.contains("-->inf<!-- /figure -->"));
    }

    #[test]
    fn malformed_markers_name_their_line() {
        assert_eq!(blocks("x\nx <!-- figure a: {1} -->1\n").unwrap_err().line, 2);
        assert_eq!(
            blocks("<!-- figure a b: {1} --><!-- /figure -->")
                .unwrap_err()
                .line,
            1
        );
        assert!(blocks("x <!-- figure a: {1} -->1 <!-- figure b: {2} -->2<!-- /figure -->").is_err());
        let begins = blocks("x\n  <!-- figure a: {1} -->1<!-- /figure -->").unwrap_err();
        assert_eq!(begins.line, 2);
        assert!(begins.message.contains("begins a line"), "{}", begins.message);
        assert!(blocks("x <!-- figure a: {2 -- 1} -->3<!-- /figure -->")
            .unwrap_err()
            .message
            .contains("`--`"));
        let ev = Evidence::new(Path::new("/nonexistent"));
        let found = regenerate(&ev, "\nx <!-- figure bad: {nosuch(1)} -->x<!-- /figure -->").unwrap();
        let e = &found.errors[0];
        assert_eq!((e.line, e.name.as_str()), (2, "bad"));
        assert!(e.message.contains("no function `nosuch`"), "{e}");
    }

    #[test]
    fn plain_text_keeps_the_values_and_drops_the_markers() {
        let text = "13 to <!-- figure hi: {38} -->38<!-- /figure -->% of it";
        assert_eq!(plain(text), "13 to 38% of it");
        assert_eq!(plain("no blocks"), "no blocks");
    }
}
