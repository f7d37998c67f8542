//! Which files rule 1 reads, and in which language: C, C++, CUDA and Rust
//! by extension; Python and shell by extension or by a `#!` line (`.ci/run`);
//! and Rust brought into a Rust file by `include!("...")` or a
//! `#[path = "..."]` module, read as Rust wherever it lives and whatever its
//! name, so that code cannot leave the rule by changing its file's name.
//!
//! Not for: the findings themselves (the language scanners) or the
//! allow-list (`allow_list`).

use std::path::{Component, Path, PathBuf};

use super::finding::Finding;
use super::scan::{scan, Source};
use super::script::Script;
use crate::lexer::{code_only, Lang};
use crate::problem::Problem;
use crate::tokens::tokenize;

/// The file types the rule covers, and which syntax each uses.
pub fn lang_of(path: &Path) -> Option<Lang> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "cu" | "cuh" | "c" | "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "inl"
        | "ipp" | "tpp" => Some(Lang::C),
        "rs" => Some(Lang::Rust),
        _ => None,
    }
}

/// The language rule 1 reads `path` in, given its text's first line for a
/// file without an extension.
pub fn source_of(path: &Path, first_line: Option<&str>) -> Option<Source> {
    if let Some(lang) = lang_of(path) {
        return Some(Source::Code(lang));
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    {
        Some(e) if e == "py" => return Some(Source::Script(Script::Python)),
        Some(e) if e == "sh" || e == "bash" => return Some(Source::Script(Script::Shell)),
        Some(_) => return None,
        None => {}
    }
    let interpreter = first_line?.strip_prefix("#!")?;
    let words: Vec<&str> = interpreter.split_whitespace().collect();
    // `#!/usr/bin/env bash` names the interpreter in its second word.
    let program = match words.first().map(|w| w.rsplit('/').next().unwrap_or(w)) {
        Some("env") => words.get(1).copied()?,
        Some(p) => p,
        None => return None,
    };
    match program {
        "sh" | "bash" | "dash" | "zsh" | "ksh" => Some(Source::Script(Script::Shell)),
        p if p.starts_with("python") => Some(Source::Script(Script::Python)),
        _ => None,
    }
}

/// Every host clock in the project's files (`files`, relative to `root`),
/// and in the Rust they bring in from elsewhere; with a problem for each
/// file that could not be read.
pub fn scan_project(root: &Path, files: &[PathBuf]) -> (Vec<Finding>, Vec<Problem>) {
    let mut findings = Vec::new();
    let mut problems = Vec::new();
    let mut queue: Vec<(PathBuf, Option<Source>)> = files.iter().map(|f| (f.clone(), None)).collect();
    let mut seen: Vec<PathBuf> = Vec::new();
    while let Some((rel, forced)) = queue.pop() {
        let extensionless = rel.extension().is_none();
        if forced.is_none() && !extensionless && source_of(&rel, None).is_none() {
            continue;
        }
        let src = match crate::read::read_text(&root.join(&rel)) {
            Ok(src) => src,
            Err(e) => {
                problems.push(e.into());
                continue;
            }
        };
        let Some(source) = forced.or_else(|| source_of(&rel, src.lines().next())) else {
            continue;
        };
        if source == Source::Code(Lang::Rust) {
            for brought in brought_in(&rel, &src) {
                let covered = files.contains(&brought) && lang_of(&brought) == Some(Lang::Rust);
                if !covered && !seen.contains(&brought) {
                    seen.push(brought.clone());
                    queue.push((brought, Some(Source::Code(Lang::Rust))));
                }
            }
        }
        findings.extend(scan(&rel, &src, source));
    }
    findings.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    (findings, problems)
}

/// The files a Rust file brings in as code, relative to the root as the
/// file is (`include!("gen.inc")`, `#[path = "other/x.rs"] mod x;`), each
/// resolved from the file's own folder. A path built by a macro
/// (`concat!(env!("OUT_DIR"), ...)`) names a build output, not a file here.
pub fn brought_in(rel: &Path, src: &str) -> Vec<PathBuf> {
    let code = code_only(src, Lang::Rust);
    let tokens = tokenize(&code);
    // The literal is blanked in `code`; its text is read from `src`, from
    // the token before it on.
    let literal_after = |k: usize| -> Option<String> {
        let rest = src.get(tokens.get(k)?.offset + 1..)?.trim_start();
        let rest = rest.strip_prefix('"')?;
        Some(rest[..rest.find('"')?].to_string())
    };
    let mut paths = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let next_is = |k: usize, s: &str| tokens.get(i + k).is_some_and(|x| x.is(s));
        let literal = if t.is("include") && next_is(1, "!") && (next_is(2, "(") || next_is(2, "[")) {
            literal_after(i + 2)
        } else if t.is("path") && i > 0 && tokens[i - 1].is("[") && next_is(1, "=") {
            literal_after(i + 1)
        } else {
            None
        };
        if let Some(literal) = literal {
            let dir = rel.parent().unwrap_or(Path::new(""));
            paths.push(normalize(&dir.join(literal)));
        }
    }
    paths
}

/// `a/b/../c` as `a/c`, without touching the file system; a path that climbs
/// above the root keeps its `..`, and is read from there.
fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_known_by_extension_or_by_their_first_line() {
        let py = Some(Source::Script(Script::Python));
        let sh = Some(Source::Script(Script::Shell));
        assert_eq!(source_of(Path::new("code/x/gpu-phases/p.py"), None), py);
        assert_eq!(source_of(Path::new("ci/test.sh"), None), sh);
        assert_eq!(source_of(Path::new(".ci/run"), Some("#!/usr/bin/env bash")), sh);
        assert_eq!(source_of(Path::new("tool"), Some("#!/bin/sh -eu")), sh);
        assert_eq!(source_of(Path::new("tool"), Some("#!/usr/bin/python3")), py);
        assert_eq!(source_of(Path::new("tool"), Some("#!/usr/bin/env perl")), None);
        assert_eq!(source_of(Path::new("README"), Some("# Title")), None);
        assert_eq!(source_of(Path::new("notes.md"), Some("#!/bin/sh")), None);
    }

    #[test]
    fn included_and_path_attributed_files_are_resolved_from_the_file() {
        let src = "include!(\"gen/clock.inc\");\nconst X: &str = include_str!(\"t.txt\");\n\
                   #[path = \"../other/x.rs\"]\nmod x;\n\
                   include!(concat!(env!(\"OUT_DIR\"), \"/lessons.rs\"));\n\
                   // include!(\"commented.inc\");";
        assert_eq!(
            brought_in(Path::new("crates/a/src/lib.rs"), src),
            [
                PathBuf::from("crates/a/src/gen/clock.inc"),
                PathBuf::from("crates/a/other/x.rs")
            ]
        );
    }
}
