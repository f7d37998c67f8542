//! Figure blocks: numbers in the documents that the evidence writes.
//!
//! A block names a figure, its text between the markers:
//!
//! ```text
//! about <!-- figure kernel-h200 -->0.061<!-- /figure --> ms
//! ```
//!
//! and the figure ([`Figure`]) is defined beside the lesson's claims, in its
//! tools' `FIGURES` (the evidence documents' own in [`crate::figures::tables`]):
//! a name and a [`query`] template. A block whose marker begins a line holds
//! its text on lines of its own (a table). Blocks live in every `*.md` and
//! in the lessons' `expected-failures.txt`; [`run`] lists every stale block,
//! every block that names no figure and every figure no block names, and
//! with `write` rewrites the stale blocks (`evidence figures [--write]`).
//!
//! Not for: quoting transcripts or code (course-rules' quotes do that).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::atomic;
pub use crate::figures::data::Evidence;
use crate::figures::query;
use crate::problem::Problem;
use lesson_spec::ParseFailure;

/// The command that rewrites every block, named in each failure.
pub const WRITE_COMMAND: &str = "cargo run -p evidence -- figures --write";

pub use lesson_spec::figure_blocks::{blocks, plain, Block, Figure, CLOSE, OPEN};

/// Every figure a document may name, with who defines it: each lesson's
/// (by its name), then the evidence documents' own (`evidence-figures`).
pub fn defined() -> Vec<(&'static str, Figure)> {
    let lessons = lessons::LESSONS
        .iter()
        .flat_map(|l| l.document_figures().iter().map(|f| (l.name(), *f)));
    lessons
        .chain(
            crate::figures::tables::FIGURES
                .iter()
                .map(|f| ("evidence-figures", *f)),
        )
        .collect()
}

/// A block that names no figure, or whose figure could not be evaluated.
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
    /// Each block that names no figure of `figures` or could not be
    /// evaluated: all of them, not the first.
    pub errors: Vec<BlockError>,
}

/// `text` with every block's text replaced by what its figure, one of
/// `figures`, gives on `ev`; every block is evaluated, whatever another
/// block's fate.
pub fn regenerate(ev: &Evidence, text: &str, figures: &[Figure]) -> Result<Regenerated, ParseFailure> {
    let found = blocks(text)?;
    let mut out = Regenerated::default();
    let mut next = 0;
    for b in &found {
        out.text.push_str(&text[next..b.content.start]);
        let now = &text[b.content.clone()];
        let value = match figures.iter().find(|f| f.name == b.name) {
            Some(f) => query::fill(ev, f.query.trim_matches('\n')).map_err(|e| e.to_string()),
            None => Err(format!(
                "no figure `{}` is defined (a lesson defines its figures in `src/figures.rs` beside its claims)",
                b.name
            )),
        };
        match value {
            Ok(value) => {
                let want = b.wrap(&value);
                if now != want {
                    out.stale.push(format!("{}: block `{}`", b.line, b.name));
                }
                out.text.push_str(&want);
            }
            Err(message) => {
                out.errors.push(BlockError {
                    line: b.line,
                    name: b.name.clone(),
                    message,
                });
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
    let name = |e: &walkdir::DirEntry| e.file_name().to_string_lossy().into_owned();
    let skipped = |e: &walkdir::DirEntry| e.depth() > 0 && (name(e).starts_with('.') || name(e) == "target");
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .filter_entry(|e| !(e.file_type().is_dir() && skipped(e)))
        .flatten()
        .filter(|e| {
            !e.file_type().is_dir() && (name(e).ends_with(".md") || name(e) == "expected-failures.txt")
        })
        .map(walkdir::DirEntry::into_path)
        .collect();
    out.sort();
    out
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
    /// Files and blocks that could not be read or evaluated, blocks that
    /// name no figure, and figures defined twice or named by no block.
    pub errors: Vec<Problem>,
    /// How many blocks there are in all.
    pub blocks: usize,
}

/// Every block under `root` against the evidence in `evidence`, and every
/// [`defined`] figure named by a block; with `write`, each stale document
/// with no error is rewritten, in one rename ([`atomic::write`]), so that a
/// write that is stopped leaves the document as it was.
pub fn run(root: &Path, evidence: &Path, write: bool) -> Outcome {
    let ev = Evidence::new(evidence);
    let defined = defined();
    let figures: Vec<Figure> = defined.iter().map(|(_, f)| *f).collect();
    let mut outcome = Outcome::default();
    let mut named = HashSet::new();
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
        let found = match regenerate(&ev, &text, &figures) {
            Ok(found) => found,
            Err(e) => {
                outcome.errors.push(Problem::at(&shown, e.line, e.message));
                continue;
            }
        };
        let found_blocks = blocks(&text).unwrap_or_default();
        outcome.blocks += found_blocks.len();
        named.extend(found_blocks.into_iter().map(|b| b.name));
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
    for (i, (owner, f)) in defined.iter().enumerate() {
        if let Some((first, _)) = defined[..i].iter().find(|(_, g)| g.name == f.name) {
            let message = format!(
                "figure `{}` is defined by {first} too; each figure has its own name",
                f.name
            );
            outcome.errors.push(Problem::of_file(*owner, message));
        } else if !named.contains(f.name) {
            let message = format!(
                "figure `{}` is named by no block under {}",
                f.name,
                root.display()
            );
            outcome.errors.push(Problem::of_file(*owner, message));
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURES: &[Figure] = &[
        Figure {
            name: "one",
            query: "{1 + 1}",
        },
        Figure {
            name: "two",
            query: "\n| x | {6 / 4 as .1} |\n",
        },
        Figure {
            name: "inf",
            query: "{1 / 0}",
        },
        Figure {
            name: "nan",
            query: "{0 / 0 as .2}",
        },
        Figure {
            name: "bad",
            query: "{nosuch(1)}",
        },
    ];

    fn nowhere() -> Evidence {
        Evidence::new(Path::new("/nonexistent"))
    }

    #[test]
    fn blocks_are_found_inline_and_on_lines_of_their_own() {
        let text = "a <!-- figure one -->2<!-- /figure --> b\n\
                    <!-- figure two -->\n\nold\n\n<!-- /figure -->\n";
        let found = blocks(text).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].name.as_str(), found[0].line, found[0].own_lines),
            ("one", 1, false)
        );
        assert_eq!(&text[found[0].content.clone()], "2");
        assert_eq!(
            (found[1].name.as_str(), found[1].line, found[1].own_lines),
            ("two", 2, true)
        );
        assert_eq!(&text[found[1].content.clone()], "\n\nold\n\n");
    }

    /// `--write`'s text: only the text between the markers changes, the
    /// markers and the prose around them stay as they were.
    #[test]
    fn regenerating_replaces_only_stale_text_and_names_the_blocks() {
        let text = "a <!-- figure one -->2<!-- /figure --> b\n\
                    <!-- figure two -->\nold\n<!-- /figure -->\n\
                    c <!-- figure one -->3<!-- /figure -->\n";
        let found = regenerate(&nowhere(), text, FIGURES).unwrap();
        assert_eq!(found.errors, vec![]);
        assert_eq!(found.stale, ["2: block `two`", "5: block `one`"]);
        assert_eq!(
            found.text,
            "a <!-- figure one -->2<!-- /figure --> b\n\
             <!-- figure two -->\n\n| x | 1.5 |\n\n<!-- /figure -->\n\
             c <!-- figure one -->2<!-- /figure -->\n"
        );
        assert_eq!(
            regenerate(&nowhere(), &found.text, FIGURES).unwrap().stale,
            Vec::<String>::new()
        );
    }

    /// One block's error hides neither another's error nor a third's
    /// staleness; a block naming no figure is an error naming its line.
    #[test]
    fn every_block_is_evaluated_and_every_problem_named() {
        let text = "a <!-- figure bad -->1<!-- /figure -->\n\
                    b <!-- figure inf -->inf<!-- /figure -->\n\
                    c <!-- figure nan -->NaN<!-- /figure -->\n\
                    d <!-- figure one -->1<!-- /figure -->\n\
                    e <!-- figure nosuch -->3<!-- /figure -->\n";
        let found = regenerate(&nowhere(), text, FIGURES).unwrap();
        let errors: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 4, "{errors:#?}");
        assert!(errors[0].starts_with("1: block `bad`: ") && errors[0].contains("no function `nosuch`"));
        assert!(errors[1].starts_with("2: block `inf`: ") && errors[1].contains("not a finite number"));
        assert!(errors[2].starts_with("3: block `nan`: ") && errors[2].contains("NaN"));
        assert!(
            errors[3].starts_with("5: block `nosuch`: no figure `nosuch` is defined"),
            "{errors:?}"
        );
        assert_eq!(found.stale, ["4: block `one`"]);
        // A block that does not evaluate keeps its text.
        assert!(found.text.contains("-->inf<!-- /figure -->"));
    }

    #[test]
    fn malformed_markers_name_their_line() {
        assert_eq!(blocks("x\nx <!-- figure a -->1\n").unwrap_err().line, 2);
        assert_eq!(
            blocks("x\n<!-- figure a b --><!-- /figure -->").unwrap_err().line,
            2
        );
        assert!(blocks("x <!-- figure a: {1} -->1<!-- /figure -->").is_err());
        assert!(blocks("x <!-- figure a -->1 <!-- figure b -->2<!-- /figure -->").is_err());
        assert!(blocks("x <!-- figure a--b -->3<!-- /figure -->")
            .unwrap_err()
            .message
            .contains("single `-`"));
    }

    #[test]
    fn plain_text_keeps_the_values_and_drops_the_markers() {
        let text = "13 to <!-- figure hi -->38<!-- /figure -->% of it";
        assert_eq!(plain(text), "13 to 38% of it");
        assert_eq!(plain("no blocks"), "no blocks");
    }

    /// A figure no block names is an error naming it and who defines it,
    /// as is one defined twice.
    #[test]
    fn a_figure_no_block_names_is_an_error() {
        let root = std::env::temp_dir().join(format!("figures-unused-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let first = defined()[0];
        let one = format!("x <!-- figure {} -->?<!-- /figure -->\n", first.1.name);
        std::fs::write(root.join("doc.md"), one).unwrap();
        let outcome = run(&root, &root.join("evidence"), false);
        std::fs::remove_dir_all(&root).unwrap();
        let errors: Vec<String> = outcome.errors.iter().map(ToString::to_string).collect();
        let unused =
            |(owner, f): &(&str, Figure)| format!("{owner}: figure `{}` is named by no block", f.name);
        assert!(
            errors.iter().all(|e| !e.starts_with(&unused(&first))),
            "{errors:#?}"
        );
        for f in &defined()[1..] {
            assert!(
                errors.iter().any(|e| e.starts_with(&unused(f))),
                "{} missing: {errors:#?}",
                unused(f)
            );
        }
    }
}
