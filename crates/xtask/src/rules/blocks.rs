//! Marked regions of a source file: `// snippet: NAME` ... `// end snippet`
//! (rule 9) and `// verbatim: NAME` ... `// end verbatim` (rule 8).

use std::path::{Path, PathBuf};

use crate::rules::problem::{Problem, Problems};

/// The two kinds of marked region; their markers differ only in the word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Snippet,
    Verbatim,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Snippet => "snippet",
            Kind::Verbatim => "verbatim",
        }
    }
}

/// One marked region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub path: PathBuf,
    pub name: String,
    /// The 1-based line of the opening marker.
    pub line: usize,
    /// The lines between the markers, as written, without the markers and
    /// without other kinds' marker lines.
    pub lines: Vec<String>,
}

impl Block {
    /// The text with the common indentation removed, one trailing newline.
    pub fn dedented(&self) -> String {
        let indent = self
            .lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let mut out = String::new();
        for l in &self.lines {
            out.push_str(l.get(indent..).unwrap_or("").trim_end());
            out.push('\n');
        }
        out
    }
}

fn marker<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    line.trim().strip_prefix("//")?.trim().strip_prefix(word)
}

/// The regions of `kind` in `src`. Problems (an end without a start, a start
/// without an end, one region inside another of the same kind, a name used
/// twice in the file) come back all together, each at its line.
pub fn parse(path: &Path, src: &str, kind: Kind) -> Result<Vec<Block>, Problems> {
    let word = kind.word();
    let other = match kind {
        Kind::Snippet => Kind::Verbatim.word(),
        Kind::Verbatim => Kind::Snippet.word(),
    };
    let open = format!("{word}:");
    let close = format!("end {word}");
    let mut blocks: Vec<Block> = Vec::new();
    let mut problems = Vec::new();
    let mut current: Option<Block> = None;
    for (n, line) in src.lines().enumerate() {
        let at = |message: String| Problem::at(path, n + 1, message);
        if let Some(name) = marker(line, &open) {
            let name = name.trim().to_string();
            if name.is_empty() || name.contains(char::is_whitespace) {
                problems.push(at(format!("a {word} needs a one-word name")));
            }
            if let Some(outer) = &current {
                problems.push(at(format!(
                    "{word} `{name}` starts inside {word} `{}`",
                    outer.name
                )));
            }
            current = Some(Block {
                path: path.to_path_buf(),
                name,
                line: n + 1,
                lines: Vec::new(),
            });
        } else if marker(line, &close).is_some_and(|rest| rest.trim().is_empty()) {
            match current.take() {
                Some(block) => {
                    if blocks.iter().any(|b| b.name == block.name) {
                        problems.push(Problem::at(
                            path,
                            block.line,
                            format!("{word} name `{}` is used twice in this file", block.name),
                        ));
                    }
                    blocks.push(block);
                }
                None => problems.push(at(format!("`// end {word}` with no {word} open"))),
            }
        } else if let Some(block) = &mut current {
            let is_other_marker = marker(line, &format!("{other}:")).is_some()
                || marker(line, &format!("end {other}")).is_some_and(|r| r.trim().is_empty());
            if !is_other_marker {
                block.lines.push(line.to_string());
            }
        }
    }
    if let Some(block) = current {
        problems.push(Problem::at(
            path,
            block.line,
            format!("{word} `{}` has no `// end {word}`", block.name),
        ));
    }
    match problems.is_empty() {
        true => Ok(blocks),
        false => Err(Problems(problems)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("l.cu")
    }

    #[test]
    fn regions_are_found_with_other_markers_left_out() {
        let src = "a\n// verbatim: tk\n    // snippet: tk\n    int x;\n      y();\n    // end snippet\n// end verbatim\n";
        let v = parse(p(), src, Kind::Verbatim).unwrap();
        assert_eq!(v[0].name, "tk");
        assert_eq!(v[0].line, 2);
        assert_eq!(v[0].lines, ["    int x;", "      y();"]);
        let s = parse(p(), src, Kind::Snippet).unwrap();
        assert_eq!(s[0].dedented(), "int x;\n  y();\n");
    }

    #[test]
    fn broken_markers_are_reported_with_their_lines() {
        let unterminated = parse(p(), "x\n// snippet: a\ny\n", Kind::Snippet).unwrap_err();
        assert_eq!(
            unterminated.0,
            [Problem::at("l.cu", 2, "snippet `a` has no `// end snippet`")]
        );
        let stray = parse(p(), "// end snippet\n", Kind::Snippet).unwrap_err();
        assert_eq!(stray.to_string(), "l.cu:1: `// end snippet` with no snippet open");
        let twice = parse(
            p(),
            "// snippet: a\n// end snippet\n// snippet: a\n// end snippet\n",
            Kind::Snippet,
        )
        .unwrap_err();
        assert_eq!(
            twice.to_string(),
            "l.cu:3: snippet name `a` is used twice in this file"
        );
        let nested = parse(
            p(),
            "// snippet: a\n// snippet: b\n// end snippet\n",
            Kind::Snippet,
        )
        .unwrap_err();
        assert_eq!(
            nested.0[0].to_string(),
            "l.cu:2: snippet `b` starts inside snippet `a`"
        );
        // Every problem of the file, in its order, as one error.
        let both = parse(p(), "// end snippet\n// snippet: a\n", Kind::Snippet).unwrap_err();
        assert_eq!(
            both.to_string(),
            "l.cu:1: `// end snippet` with no snippet open; l.cu:2: snippet `a` has no `// end snippet`"
        );
    }
}
