//! Rule 9's other half: documents that quote a snippet or a transcript.
//!
//! A quote is a marker comment followed by a fenced block:
//!
//! ````text
//! <!-- snippet: code/LESSON/FILE.cu#NAME -->
//! ```cpp
//! ...the snippet's text...
//! ```
//! ````
//!
//! `<!-- transcript: evidence/LESSON/FILE.txt -->` quotes a recorded
//! run: everything after its header's `# ---` line.
//! `<!-- transcript: evidence/LESSON/FILE.txt#HEADING -->` quotes one section
//! of a long one: from its line `== HEADING` up to the next line that starts
//! `== `, or the end. [`check`] reports quotes that differ from their source;
//! [`sync`] rewrites them.

use std::path::Path;

use anyhow::{anyhow, Context, Result};

use crate::rules::blocks::{parse, Kind};
use crate::rules::problem::Problem;

/// The command that rewrites every quote, named in each failure.
pub const SYNC_COMMAND: &str = "cargo xtask sync";

/// What a quote marker points at.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    Snippet { file: String, name: String },
    Transcript { file: String, section: Option<String> },
}

fn marker(line: &str) -> Option<Source> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    if let Some(target) = inner.strip_prefix("snippet:") {
        let (file, name) = target.trim().split_once('#')?;
        return Some(Source::Snippet {
            file: file.to_string(),
            name: name.to_string(),
        });
    }
    let target = inner.strip_prefix("transcript:")?.trim();
    let (file, section) = match target.split_once('#') {
        Some((file, heading)) => (file, Some(heading.to_string())),
        None => (target, None),
    };
    Some(Source::Transcript {
        file: file.to_string(),
        section,
    })
}

/// The text a source stands for, read relative to `root`.
fn source_text(root: &Path, source: &Source) -> Result<String> {
    match source {
        Source::Snippet { file, name } => snippet(root, file, name),
        Source::Transcript { file, section } => {
            let text = lesson_spec::read_transcript(&root.join(file)).with_context(|| file.to_string())?;
            let body = text
                .split_once("\n# ---\n")
                .map(|(_, body)| body)
                .ok_or_else(|| anyhow!("{file}: no `# ---` line ends a header"))?;
            match section {
                None => Ok(body.to_string()),
                Some(heading) => {
                    transcript_section(body, heading).ok_or_else(|| anyhow!("{file}: no line `== {heading}`"))
                }
            }
        }
    }
}

/// The lines of `body` from `== HEADING` up to the next `== ` line.
fn transcript_section(body: &str, heading: &str) -> Option<String> {
    let start = format!("== {heading}");
    let mut lines = body.lines().skip_while(|l| *l != start);
    let first = lines.next()?;
    let mut out = format!("{first}\n");
    for line in lines.take_while(|l| !l.starts_with("== ")) {
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

/// One snippet's dedented text: what `cargo xtask snippet FILE#NAME` prints.
pub fn snippet(root: &Path, file: &str, name: &str) -> Result<String> {
    let src = std::fs::read_to_string(root.join(file)).with_context(|| file.to_string())?;
    let blocks = parse(Path::new(file), &src, Kind::Snippet)?;
    blocks
        .iter()
        .find(|b| b.name == name)
        .map(|b| b.dedented())
        .ok_or_else(|| anyhow!("{file} has no snippet `{name}`"))
}

/// A quote found in a document: where its fenced body starts and ends.
struct Quote {
    source: Source,
    marker_line: usize,
    /// Line indexes of the opening and closing fences.
    open: usize,
    close: usize,
}

fn quotes(doc: &[&str]) -> Result<Vec<Quote>, usize> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < doc.len() {
        if let Some(source) = marker(doc[i]) {
            let open = i + 1;
            let fence = doc.get(open).map(|l| l.trim_start()).unwrap_or("");
            if !fence.starts_with("```") {
                return Err(i + 1);
            }
            // Closed by a fence as long as the opening one, so that a quote
            // of text that holds a fenced block opens with ```` (CommonMark).
            let ticks = &fence[..fence.len() - fence.trim_start_matches('`').len()];
            let close = (open + 1..doc.len())
                .find(|&j| doc[j].trim() == ticks)
                .ok_or(i + 1)?;
            found.push(Quote {
                source,
                marker_line: i + 1,
                open,
                close,
            });
            i = close + 1;
        } else {
            i += 1;
        }
    }
    Ok(found)
}

/// Problems with the quotes in the document `doc_path` (text `doc`).
pub fn check(root: &Path, doc_path: &Path, doc: &str) -> Vec<Problem> {
    let lines: Vec<&str> = doc.lines().collect();
    let found = match quotes(&lines) {
        Ok(found) => found,
        Err(line) => {
            return vec![Problem::at(
                doc_path,
                line,
                "a quote marker must be followed by a fenced block ending in ```",
            )]
        }
    };
    let mut problems = Vec::new();
    for q in found {
        let at = |message: String| Problem::at(doc_path, q.marker_line, message);
        match source_text(root, &q.source) {
            Err(e) => problems.push(at(cli_exit::with_causes(e.as_ref()))),
            Ok(want) => {
                let mut got = lines[q.open + 1..q.close].join("\n");
                got.push('\n');
                if got != want {
                    problems.push(at(format!(
                        "the quote differs from its source; run `{SYNC_COMMAND}`"
                    )));
                }
            }
        }
    }
    problems
}

/// The document with every quote replaced by its source's current text.
pub fn sync(root: &Path, doc: &str) -> Result<String> {
    let lines: Vec<&str> = doc.lines().collect();
    let found = quotes(&lines).map_err(|line| anyhow!("line {line}: a quote marker needs a fenced block"))?;
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    for q in found {
        out.extend(lines[next..=q.open].iter().map(|s| s.to_string()));
        out.extend(source_text(root, &q.source)?.lines().map(str::to_string));
        next = q.close;
    }
    out.extend(lines[next..].iter().map(|s| s.to_string()));
    let mut text = out.join("\n");
    if doc.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder per call, removed when dropped.
    fn tree() -> tempfile::TempDir {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("ev")).unwrap();
        std::fs::write(
            dir.join("k.cu"),
            "x\n    // snippet: two\n    a();\n      b();\n    // end snippet\n",
        )
        .unwrap();
        std::fs::write(dir.join("ev/run.txt"), "# gpu: X\n# ---\nline 1\nline 2\n").unwrap();
        scratch
    }

    #[test]
    fn matching_quotes_pass_and_edited_ones_name_the_sync_command() {
        let scratch = tree();
        let root = scratch.path();
        let good = "t\n<!-- snippet: k.cu#two -->\n```cpp\na();\n  b();\n```\n\
                    <!-- transcript: ev/run.txt -->\n```text\nline 1\nline 2\n```\n";
        assert_eq!(check(root, Path::new("R.md"), good), []);
        let edited = good.replace("line 2", "line 2, tidied");
        let p = check(root, Path::new("R.md"), &edited);
        assert_eq!(
            p,
            [Problem::at(
                "R.md",
                7,
                "the quote differs from its source; run `cargo xtask sync`"
            )]
        );
        assert_eq!(sync(root, &edited).unwrap(), good);
    }

    #[test]
    fn a_missing_snippet_or_a_marker_without_a_block_is_reported() {
        let scratch = tree();
        let root = scratch.path();
        let p = check(root, Path::new("R.md"), "<!-- snippet: k.cu#nope -->\n```\n```\n");
        assert_eq!(p, [Problem::at("R.md", 1, "k.cu has no snippet `nope`")]);
        let p = check(root, Path::new("R.md"), "<!-- snippet: k.cu#two -->\ntext\n");
        assert_eq!(p.len(), 1);
        assert!(p[0].0.contains("must be followed by a fenced block"));
    }

    #[test]
    fn a_section_of_a_transcript_is_quoted_from_its_heading_to_the_next() {
        let scratch = tree();
        let root = scratch.path();
        std::fs::write(
            root.join("ev/session.txt"),
            "# gpu: X\n# ---\n== steps\nsetup\n== repetition 1 of 1\nrow a\nrow b\n== SASS\nsame\n",
        )
        .unwrap();
        let doc = "<!-- transcript: ev/session.txt#repetition 1 of 1 -->\n```text\n== repetition 1 of 1\nrow a\nrow b\n```\n";
        assert_eq!(check(root, Path::new("R.md"), doc), []);
        let last = "<!-- transcript: ev/session.txt#SASS -->\n```text\n== SASS\nsame\n```\n";
        assert_eq!(check(root, Path::new("R.md"), last), []);
        let p = check(root, Path::new("R.md"), &doc.replace("row b", "row c"));
        assert_eq!(p.len(), 1, "{p:?}");
        let missing = check(
            root,
            Path::new("R.md"),
            "<!-- transcript: ev/session.txt#nope -->\n```\n```\n",
        );
        assert_eq!(
            missing,
            [Problem::at("R.md", 1, "ev/session.txt: no line `== nope`")]
        );
    }

    #[test]
    fn a_transcript_merged_gzipd_is_quoted_by_its_txt_name() {
        let scratch = tree();
        let root = scratch.path();
        let mut gz = flate2::write::GzEncoder::new(
            std::fs::File::create(root.join("ev/merged.txt.gz")).unwrap(),
            flate2::Compression::default(),
        );
        std::io::Write::write_all(&mut gz, b"# gpu: X\n# ---\nline one\n```\ncmd\n```\n").unwrap();
        gz.finish().unwrap();
        let doc = "<!-- transcript: ev/merged.txt -->\n````text\nline one\n```\ncmd\n```\n````\n";
        assert_eq!(check(root, Path::new("R.md"), doc), []);
        assert_eq!(
            check(root, Path::new("R.md"), &doc.replace("one", "two")).len(),
            1
        );
    }

    #[test]
    fn snippet_prints_the_dedented_region() {
        assert_eq!(snippet(tree().path(), "k.cu", "two").unwrap(), "a();\n  b();\n");
    }
}
