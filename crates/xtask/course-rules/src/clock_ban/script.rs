//! Rule 1 for the Python and shell scripts lessons and their GPU phases
//! carry (`gpu-phases/*.py`, `*.sh`, `reference/*.py`): a host clock there
//! times the GPU's queue just as one in C++ does.
//!
//! Python: comments and string literals are blanked, then each dotted path is
//! resolved through the file's `import` and `from ... import` lines to the
//! standard library's name (`t.perf_counter()` after `import time as t`,
//! `monotonic()` after `from time import *`) and judged against the table in
//! `names`; any path ending in `now`, `utcnow` or `today` is a finding, and so
//! are any use of `timeit` and a call of a C clock function (`libc.clock_gettime`
//! through ctypes). Shell: comments are blanked (strings hold code
//! there: `"$(date +%s%N)"`), then `$EPOCHREALTIME`, `$EPOCHSECONDS`,
//! `$SECONDS`, `date` with `%s` or `%N`, and `time` as a command word are
//! findings. Both: a clock file such as `/proc/uptime` named anywhere in code.
//!
//! Not for: Python code inside a shell string (`python3 -c '...'`), code
//! inside an f-string's braces, or a clock reached through `getattr` or
//! `eval`.

use std::collections::BTreeMap;

use super::finding::Add;
use super::names::{
    clock_function, Needs, CLOCK_FILES, DATE_FORMATS, PYTHON_FUNCTIONS, PYTHON_MODULES, PYTHON_NOW,
    SHELL_TIMERS, SHELL_VARIABLES,
};
use crate::tokens::{tokenize, Token};

/// The two scripting languages the rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    Python,
    Shell,
}

pub fn scan(src: &str, script: Script, add: &mut Add<'_>) {
    match script {
        Script::Python => {
            let (code, with_strings) = blank_python(src);
            scan_python(&code, add);
            scan_files(&with_strings, add);
        }
        Script::Shell => {
            let code = blank_shell_comments(src);
            scan_shell(&code, add);
            scan_files(&code, add);
        }
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, text[line_start..offset].chars().count() + 1)
}

/// Every clock file named in `code`.
fn scan_files(code: &str, add: &mut Add<'_>) {
    for file in CLOCK_FILES {
        for (offset, _) in code.match_indices(file) {
            let (line, col) = position(code, offset);
            add(line, col, file, None);
        }
    }
}

/// Python source with comments blanked, and with comments and strings
/// blanked; both keep every byte's place.
fn blank_python(src: &str) -> (String, String) {
    let b = src.as_bytes();
    let mut code = b.to_vec();
    let mut with_strings = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                blank(&mut code, i, end);
                blank(&mut with_strings, i, end);
                i = end;
            }
            quote @ (b'\'' | b'"') => {
                let triple = b[i..].starts_with(&[quote; 3]);
                let end = python_string_end(b, i, quote, triple);
                blank(&mut code, i, end);
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only whole ASCII runs were replaced, so the text is still UTF-8.
    let text = |v: Vec<u8>| String::from_utf8(v).unwrap_or_default();
    (text(code), text(with_strings))
}

/// The end of the string literal whose quote is at `start`.
fn python_string_end(b: &[u8], start: usize, quote: u8, triple: bool) -> usize {
    let width = if triple { 3 } else { 1 };
    let mut i = start + width;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            c if c == quote && (!triple || b[i..].starts_with(&[quote; 3])) => return i + width,
            _ => i += 1,
        }
    }
    b.len()
}

/// What the file's imports make a name mean.
#[derive(Default)]
struct Imports {
    /// A local name and the dotted path it stands for.
    names: BTreeMap<String, Vec<String>>,
    /// Modules whose every name is in scope (`from time import *`).
    globs: Vec<String>,
}

fn scan_python(code: &str, add: &mut Add<'_>) {
    let tokens = tokenize(code);
    let mut imports = Imports::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let starts_line = i == 0 || tokens[i - 1].line != t.line || tokens[i - 1].is(";");
        if starts_line && (t.is("import") || t.is("from")) {
            i = read_import(&tokens, i, &mut imports, add);
            continue;
        }
        if !t.is_ident() || (i > 0 && tokens[i - 1].is(".")) {
            i += 1;
            continue;
        }
        let mut path = vec![i];
        while tokens.get(path[path.len() - 1] + 1).is_some_and(|d| d.is("."))
            && tokens.get(path[path.len() - 1] + 2).is_some_and(Token::is_ident)
        {
            path.push(path[path.len() - 1] + 2);
        }
        let names: Vec<&str> = path.iter().map(|&k| tokens[k].text.as_str()).collect();
        let called = tokens.get(path[path.len() - 1] + 1).is_some_and(|t| t.is("("));
        if let Some(what) = judge_python(&resolve(&names, &imports), called) {
            let written = names.join(".");
            let detail = (written != what && !written.ends_with(&what)).then(|| format!("`{written}`"));
            add(t.line, t.col, &what, detail);
        }
        i = path[path.len() - 1] + 1;
    }
}

/// The dotted path with its first name replaced by what an import made it.
fn resolve(names: &[&str], imports: &Imports) -> Vec<String> {
    let rest = names[1..].iter().map(|s| s.to_string());
    if let Some(full) = imports.names.get(names[0]) {
        return full.iter().cloned().chain(rest).collect();
    }
    let globbed = imports.globs.iter().find_map(|module| {
        let full: Vec<String> = std::iter::once(module.clone())
            .chain(names.iter().map(|s| s.to_string()))
            .collect();
        judge_python(&full, true).is_some().then_some(full)
    });
    globbed.unwrap_or_else(|| names.iter().map(|s| s.to_string()).collect())
}

/// The clock a resolved Python path names, as the allow-list spells it.
fn judge_python(full: &[String], called: bool) -> Option<String> {
    let dotted = full.join(".");
    if let Some(f) = PYTHON_FUNCTIONS
        .iter()
        .find(|f| dotted == **f || dotted.starts_with(&format!("{f}.")))
    {
        return Some(f.to_string());
    }
    if PYTHON_MODULES.contains(&full[0].as_str()) {
        return Some(full[0].clone());
    }
    let (last, before) = full.split_last()?;
    // The C library's clocks through ctypes (`libc.clock_gettime(...)`).
    if called && clock_function(last) == Some(Needs::Nothing) {
        return Some(last.clone());
    }
    let owner = before.last()?;
    (called && PYTHON_NOW.contains(&last.as_str())).then(|| format!("{owner}.{last}"))
}

/// Reads the `import` or `from ... import` statement at token `at` into
/// `imports`, reporting what it brings in that is a clock; returns the index
/// after it.
fn read_import(tokens: &[Token], at: usize, imports: &mut Imports, add: &mut Add<'_>) -> usize {
    let line = tokens[at].line;
    let mut end = at;
    let mut depth = 0;
    while end < tokens.len()
        && (tokens[end].line == line || depth > 0)
        && !(depth == 0 && tokens[end].is(";"))
    {
        if tokens[end].is("(") {
            depth += 1;
        } else if tokens[end].is(")") {
            depth -= 1;
        }
        end += 1;
    }
    let words: Vec<&Token> = tokens[at..end]
        .iter()
        .filter(|t| !t.is("(") && !t.is(")"))
        .collect();
    let dotted = |from: usize| -> (Vec<String>, usize) {
        let mut path = Vec::new();
        let mut k = from;
        while k < words.len() && words[k].is_ident() {
            path.push(words[k].text.clone());
            if words.get(k + 1).is_some_and(|t| t.is(".")) {
                k += 2;
            } else {
                k += 1;
                break;
            }
        }
        (path, k)
    };
    let mut report = |t: &Token, full: &[String]| {
        let what =
            judge_python(full, true).filter(|_| full.len() > 1 || PYTHON_MODULES.contains(&full[0].as_str()));
        if let Some(what) = what {
            add(t.line, t.col, &what, None);
        }
    };
    if words[0].is("from") {
        let (module, mut k) = dotted(1);
        if !words.get(k).is_some_and(|t| t.is("import")) || module.is_empty() {
            return end;
        }
        k += 1;
        while k < words.len() {
            let name = words[k];
            if name.is("*") {
                imports.globs.push(module.join("."));
                report(name, &module);
                k += 1;
            } else if name.is_ident() {
                let full: Vec<String> = module.iter().cloned().chain([name.text.clone()]).collect();
                let alias = match words.get(k + 1).is_some_and(|t| t.is("as")) {
                    true => {
                        k += 2;
                        words.get(k).map_or(name.text.clone(), |a| a.text.clone())
                    }
                    false => name.text.clone(),
                };
                report(name, &full);
                imports.names.insert(alias, full);
                k += 1;
            } else {
                k += 1;
            }
        }
    } else {
        let mut k = 1;
        while k < words.len() {
            let start = words[k];
            let (module, next) = dotted(k);
            if module.is_empty() {
                k += 1;
                continue;
            }
            k = next;
            report(start, &module);
            if words.get(k).is_some_and(|t| t.is("as")) {
                if let Some(alias) = words.get(k + 1) {
                    imports.names.insert(alias.text.clone(), module);
                }
                k += 2;
            } else {
                imports.names.insert(module[0].clone(), vec![module[0].clone()]);
            }
            if words.get(k).is_some_and(|t| t.is(",")) {
                k += 1;
            }
        }
    }
    end
}

/// Shell source with its comments blanked: a `#` that starts a word,
/// outside quotes, to the end of the line (`$#` and `${#x}` are code).
fn blank_shell_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(b'"') if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\\' => i += 1,
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'#' && (i == 0 || b" \t\n;|&(".contains(&b[i - 1])) => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            None => {}
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Words that may come before a command word on its line.
const BEFORE_COMMAND: &[&str] = &["then", "do", "else", "elif", "if", "while", "until", "!", "exec"];

fn scan_shell(code: &str, add: &mut Add<'_>) {
    for var in SHELL_VARIABLES {
        let name = &var[1..];
        for (offset, _) in code.match_indices('$') {
            let rest = &code[offset + 1..];
            let rest = rest.strip_prefix('{').unwrap_or(rest);
            let ends = rest[name.len().min(rest.len())..]
                .chars()
                .next()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            if rest.starts_with(name) && ends {
                let (line, col) = position(code, offset);
                add(line, col, var, None);
            }
        }
    }
    let word_at = |offset: usize, word: &str| {
        let before = code[..offset].chars().next_back();
        let after = code[offset + word.len()..].chars().next();
        let edge = |c: Option<char>, extra: &str| {
            c.is_none_or(|c| !(c.is_ascii_alphanumeric() || extra.contains(c)))
        };
        edge(before, "_-.$") && edge(after, "_-.")
    };
    for (offset, _) in code.match_indices("date") {
        if !word_at(offset, "date") {
            continue;
        }
        let rest = &code[offset + 4..];
        let command = &rest[..rest.find(['\n', ';', '|', '&', ')', '`']).unwrap_or(rest.len())];
        for (format, what) in DATE_FORMATS {
            if command.contains(format) {
                let (line, col) = position(code, offset);
                add(line, col, what, None);
            }
        }
    }
    for timer in SHELL_TIMERS {
        for (offset, _) in code.match_indices(timer) {
            let line_start = code[..offset].rfind('\n').map_or(0, |n| n + 1);
            let before = code[line_start..offset].trim_end();
            // `/usr/bin/time` and `\time` are the same command.
            let before = before
                .strip_suffix("/usr/bin/")
                .or_else(|| before.strip_suffix('\\'))
                .unwrap_or(before)
                .trim_end();
            let command_word = before.is_empty()
                || before.ends_with([';', '|', '&', '(', '{', '!', '`'])
                || BEFORE_COMMAND
                    .iter()
                    .any(|w| before.ends_with(w) && word_at(line_start + before.len() - w.len(), w));
            let after = code[offset + timer.len()..].chars().next();
            if command_word && after.is_none_or(char::is_whitespace) && word_at(offset, timer) {
                let (line, col) = position(code, offset);
                add(line, col, timer, Some("the shell's command timer".into()));
            }
        }
    }
}
