//! One file's text scanned for host clocks in the language it is read in:
//! C, C++ and CUDA by `cxx`, Rust by `rust`, both also by `hidden`, Python
//! and shell by `script`.

use std::path::Path;

use super::finding::Finding;
use super::script::Script;
use super::{cxx, hidden, rust, script};
use crate::lexer::{code_only, Lang};

/// A language rule 1 reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// C, C++, CUDA or Rust.
    Code(Lang),
    Script(Script),
}

impl From<Lang> for Source {
    fn from(lang: Lang) -> Source {
        Source::Code(lang)
    }
}

impl From<Script> for Source {
    fn from(script: Script) -> Source {
        Source::Script(script)
    }
}

/// Every host clock in `src`, which is the text of `path`.
pub fn scan(path: &Path, src: &str, source: impl Into<Source>) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut add = |line: usize, col: usize, what: &str, detail: Option<String>| {
        found.push(Finding {
            path: path.to_path_buf(),
            line,
            col,
            what: what.to_string(),
            detail,
        });
    };
    match source.into() {
        Source::Code(lang) => {
            let code = code_only(src, lang);
            match lang {
                Lang::C => cxx::scan(src, &code, &mut add),
                Lang::Rust => rust::scan(src, &code, &mut add),
            }
            for (line, col, file) in hidden::clock_files(src, &code) {
                add(line, col, file, Some("a file that holds a clock".into()));
            }
        }
        Source::Script(script) => script::scan(src, script, &mut add),
    }
    found.sort_by_key(|f| (f.line, f.col));
    found
}
