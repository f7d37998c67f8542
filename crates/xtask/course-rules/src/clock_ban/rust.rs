//! Rule 1 for Rust: every path in code is resolved through the file's `use`
//! items, `extern crate` renames, globs and `extern` blocks to the full path
//! it names, and that full path is judged against the table in `names`.
//!
//! So `Instant::now()` after `use std::time::Instant`, `cg()` after
//! `use libc::clock_gettime as cg`, `_rdtsc()` after
//! `use core::arch::x86_64::*` and `time()` declared in an `extern "C"`
//! block are all found under the name of the clock they read. Not for:
//! re-exports through the file's own modules, or a clock hidden behind a
//! macro defined elsewhere.

use std::collections::{BTreeMap, BTreeSet};

use super::finding::Add;
use super::hidden::{clock_instructions, group_text, looked_up, LOOKUPS};
use super::names::{clock_function, Needs, NOW_FUNCTIONS, RUST_CLOCK_CRATES, RUST_CLOCK_PATHS};
use crate::tokens::{matching, path_from, tokenize, Token};

/// The inline-assembly macros, by their last path segment.
const ASM_MACROS: &[&str] = &["asm", "global_asm", "naked_asm", "llvm_asm"];

/// What the file's items make a bare name mean.
#[derive(Default)]
struct Scope {
    /// A local name and the full path it stands for (`Wall` ->
    /// `std::time::SystemTime`, `c` -> `libc`).
    imports: BTreeMap<String, Vec<String>>,
    /// Modules whose every name is in scope (`use libc::*`).
    globs: Vec<Vec<String>>,
    /// Functions an `extern` block declares, which are the C library's.
    extern_fns: BTreeSet<String>,
}

pub fn scan(src: &str, code: &str, add: &mut Add<'_>) {
    let tokens = tokenize(code);
    let mut scope = Scope::default();
    let items = read_items(&tokens, &mut scope, add);
    let mut i = 0;
    while i < tokens.len() {
        if let Some(end) = items.iter().find(|r| r.contains(&i)).map(|r| r.end) {
            i = end;
            continue;
        }
        let t = &tokens[i];
        let member = i > 0 && tokens[i - 1].is(".");
        if !t.is_ident() || member {
            i += 1;
            continue;
        }
        let path = path_from(&tokens, i);
        let last = *path.last().unwrap_or(&i);
        check_hidden(src, &tokens, last, add);
        let leading = i > 0 && tokens[i - 1].is("::");
        check_path(&tokens, &path, leading, &scope, add);
        i = last + 1;
    }
}

/// Reads `use` and `extern crate` items into `scope`, reporting each import
/// of a clock where it is imported, and the `fn` names of `extern` blocks.
/// Returns the token ranges of the items, which the path pass skips.
fn read_items(tokens: &[Token], scope: &mut Scope, add: &mut Add<'_>) -> Vec<std::ops::Range<usize>> {
    let mut items = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let next = tokens.get(i + 1).map(|t| t.text.as_str());
        if t.is("use") {
            let end = statement_end(tokens, i);
            for import in parse_use(&tokens[i + 1..end]) {
                read_import(&import, scope, add);
            }
            items.push(i..end);
            i = end;
        } else if t.is("extern") && next == Some("crate") {
            let end = statement_end(tokens, i);
            let words: Vec<&str> = tokens[i + 2..end].iter().map(|t| t.text.as_str()).collect();
            if let [krate, "as", alias] = words[..] {
                scope.imports.insert(alias.to_string(), vec![krate.to_string()]);
            }
            items.push(i..end);
            i = end;
        } else if t.is("extern") && next == Some("{") {
            let close = matching(tokens, i + 1);
            for j in i + 1..close {
                if tokens[j].is("fn") {
                    if let Some(name) = tokens.get(j + 1) {
                        scope.extern_fns.insert(name.text.clone());
                    }
                }
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    items
}

fn statement_end(tokens: &[Token], from: usize) -> usize {
    (from..tokens.len())
        .find(|&j| tokens[j].is(";"))
        .unwrap_or(tokens.len())
}

fn read_import(import: &Import<'_>, scope: &mut Scope, add: &mut Add<'_>) {
    let written: Vec<&str> = import.path.iter().map(|t| t.text.as_str()).collect();
    let written = match written.first() {
        Some(&"::") => &written[1..],
        _ => &written[..],
    };
    let Some((&last, module)) = written.split_last() else {
        return;
    };
    let full = resolve_first(written, false, scope);
    if last == "*" {
        scope.globs.push(full[..full.len() - 1].to_vec());
        return;
    }
    if let Some(what) = classify(&full) {
        let at = import.path.last().copied().unwrap_or(import.path[0]);
        let detail = import.alias.as_ref().map(|a| format!("imported as `{a}`"));
        add(at.line, at.col, &what, detail);
    }
    let local = import.alias.clone().unwrap_or_else(|| last.to_string());
    if local != "_" && !(module.is_empty() && import.alias.is_none()) {
        scope.imports.insert(local, full);
    }
}

/// The path with its first segment replaced by what an import made it mean.
fn resolve_first(names: &[&str], leading: bool, scope: &Scope) -> Vec<String> {
    let rest = names[1..].iter().map(|s| s.to_string());
    match scope.imports.get(names[0]) {
        Some(full) if !leading => full.iter().cloned().chain(rest).collect(),
        _ if !leading && names.len() == 1 && scope.extern_fns.contains(names[0]) => {
            vec!["libc".to_string(), names[0].to_string()]
        }
        _ => names.iter().map(|s| s.to_string()).collect(),
    }
}

/// Judges one path in code under the name of the clock it reaches: as
/// written, then through each glob import, then as a `now()` of any type.
fn check_path(tokens: &[Token], path: &[usize], leading: bool, scope: &Scope, add: &mut Add<'_>) {
    let names: Vec<&str> = path.iter().map(|&i| tokens[i].text.as_str()).collect();
    let full = resolve_first(&names, leading, scope);
    let called = tokens.get(path[path.len() - 1] + 1).is_some_and(|t| t.is("("));
    // A glob brings in ordinary words too; `time` through `libc::*` is the
    // clock only where it is called.
    let ordinary = names.len() == 1 && clock_function(names[0]) == Some(Needs::CallOrQualifier);
    let through_globs = || {
        let globbed = |g: &Vec<String>| g.iter().chain(&full).cloned().collect::<Vec<_>>();
        match leading || (ordinary && !called) {
            true => None,
            false => scope.globs.iter().find_map(|g| classify(&globbed(g))),
        }
    };
    let what = classify(&full)
        .or_else(through_globs)
        .or_else(|| now_function(&full));
    if let Some(what) = what {
        let written = names.join("::");
        let detail = (!written.starts_with(what.trim_end_matches("()"))).then(|| format!("`{written}`"));
        let t = &tokens[path[0]];
        add(t.line, t.col, &what, detail);
    }
}

/// The clock a full path names, as the allow-list spells it.
fn classify(full: &[String]) -> Option<String> {
    let full: Vec<&str> = full
        .iter()
        .enumerate()
        .map(|(k, s)| if k == 0 && s == "core" { "std" } else { s.as_str() })
        .collect();
    for clock in RUST_CLOCK_PATHS {
        let segments: Vec<&str> = clock.split("::").collect();
        if full.starts_with(&segments) {
            return Some(clock.to_string());
        }
    }
    if full.len() > 1 && RUST_CLOCK_CRATES.contains(&full[0]) {
        return Some(full[0].to_string());
    }
    let last = full.len() - 1;
    for (k, name) in full.iter().enumerate() {
        match clock_function(name) {
            Some(Needs::Nothing) => return Some(name.to_string()),
            Some(Needs::CallOrQualifier) if k == last && k > 0 && full[0] == "libc" => {
                return Some(format!("{name}()"));
            }
            _ => {}
        }
    }
    None
}

/// `Type::now()` of any library, named by its last two segments.
fn now_function(full: &[String]) -> Option<String> {
    let (last, before) = full.split_last()?;
    let owner = before.last()?;
    NOW_FUNCTIONS
        .contains(&last.as_str())
        .then(|| format!("{owner}::{last}"))
}

/// Inline assembly (`asm!("rdtsc")`) and functions fetched by name
/// (`#[link_name = "clock_gettime"]`, `libc::dlsym(h, c"clock_gettime")`),
/// judged at the path's last segment `at`.
fn check_hidden(src: &str, tokens: &[Token], at: usize, add: &mut Add<'_>) {
    let t = &tokens[at];
    let bang = tokens.get(at + 1).is_some_and(|t| t.is("!"));
    if bang && ASM_MACROS.contains(&t.text.as_str()) {
        let open = at + 2;
        if tokens
            .get(open)
            .is_some_and(|t| t.is("(") || t.is("{") || t.is("["))
        {
            for instruction in clock_instructions(group_text(src, tokens, open)) {
                add(t.line, t.col, instruction, Some(format!("in `{}!`", t.text)));
            }
        }
    }
    if LOOKUPS.contains(&t.text.as_str()) {
        for name in looked_up(src, tokens, at) {
            add(t.line, t.col, &name, Some(format!("looked up by `{}`", t.text)));
        }
    }
}

/// One name a `use` item brings in: its full path and its `as` alias.
struct Import<'a> {
    path: Vec<&'a Token>,
    alias: Option<String>,
}

/// Expands a `use` tree (the tokens between `use` and `;`) into imports,
/// following `{...}` groups, `as` renames, `self` and globs.
fn parse_use(tokens: &[Token]) -> Vec<Import<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    parse_tree(tokens, &mut pos, Vec::new(), &mut out);
    out
}

fn parse_tree<'a>(tokens: &'a [Token], pos: &mut usize, prefix: Vec<&'a Token>, out: &mut Vec<Import<'a>>) {
    let mut path = prefix;
    while *pos < tokens.len() {
        let t = &tokens[*pos];
        if t.is("{") {
            *pos += 1;
            parse_group(tokens, pos, &path, out);
            return;
        } else if t.is(",") || t.is("}") {
            break;
        } else if t.is("as") {
            let alias = tokens.get(*pos + 1).map(|a| a.text.clone());
            *pos += 2;
            // `time::{self as tm}` renames the module itself.
            if path.last().is_some_and(|t| t.is("self")) {
                path.pop();
            }
            out.push(Import { path, alias });
            return;
        } else {
            if !t.is("::") || path.is_empty() {
                path.push(t);
            }
            *pos += 1;
        }
    }
    // `self` in a group names the module itself.
    if path.last().is_some_and(|t| t.is("self")) {
        path.pop();
    }
    if !path.is_empty() {
        out.push(Import { path, alias: None });
    }
}

/// The members of a `{...}` group, from just after its `{` to just after its `}`.
fn parse_group<'a>(tokens: &'a [Token], pos: &mut usize, path: &[&'a Token], out: &mut Vec<Import<'a>>) {
    loop {
        if tokens.get(*pos).is_some_and(|t| t.is("}")) {
            *pos += 1;
            return;
        }
        parse_tree(tokens, pos, path.to_vec(), out);
        match tokens.get(*pos).map(|t| t.text.as_str()) {
            Some(",") => *pos += 1,
            Some("}") => {
                *pos += 1;
                return;
            }
            _ => return,
        }
    }
}
