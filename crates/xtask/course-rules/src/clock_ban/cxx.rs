//! Rule 1 for C, C++ and CUDA: includes of clock headers, and clock names in
//! host code, found along `a::b::c` paths so that one expression is judged
//! once.
//!
//! Device code is the one place where `clock()`, `clock64()`, `%globaltimer`
//! and `cuda::std::chrono` clocks are allowed: they read the GPU's own
//! counters. Not for: macros that paste a name together, or a clock reached
//! through a function pointer the file never names.

use std::ops::Range;

use super::finding::Add;
use super::hidden::{clock_instructions, group_text, looked_up, LOOKUPS};
use super::names::{
    clock_function, Needs, CXX_CLOCK_TYPES, CXX_QUALIFIED, HEADERS, HEADER_DIRS, NOW_FUNCTIONS,
};
use crate::tokens::{matching, path_from, tokenize, Token};

/// Spellings of the inline-assembly keyword, and what may follow it before
/// its parentheses.
const ASM_KEYWORDS: &[&str] = &["asm", "__asm__", "__asm", "_asm"];
const ASM_QUALIFIERS: &[&str] = &["volatile", "__volatile__", "__volatile", "goto", "inline"];

pub fn scan(src: &str, code: &str, add: &mut Add<'_>) {
    scan_includes(src, code, add);
    let tokens = tokenize(code);
    let device = device_token_ranges(&tokens, &directive_lines(code));
    let in_device = |i: usize| device.iter().any(|r| r.contains(&i));
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if !t.is_ident() {
            i += 1;
            continue;
        }
        let path = path_from(&tokens, i);
        let next = path.last().map_or(i, |&l| l) + 1;
        let member = i > 0 && (tokens[i - 1].is(".") || tokens[i - 1].is("->"));
        if !member {
            if ASM_KEYWORDS.contains(&t.text.as_str()) {
                scan_asm(src, &tokens, i, add);
            }
            if LOOKUPS.contains(&t.text.as_str()) {
                for name in looked_up(src, &tokens, i) {
                    add(t.line, t.col, &name, Some(format!("looked up by `{}`", t.text)));
                }
            }
            check_path(&tokens, &path, in_device(i), add);
        }
        i = next;
    }
}

/// `#include <chrono>` and the other clock headers. The directive must be
/// code (not commented out); the header name is read from the original line,
/// since `"..."` was blanked.
fn scan_includes(src: &str, code: &str, add: &mut Add<'_>) {
    for (n, (line, code_line)) in src.lines().zip(code.lines()).enumerate() {
        let directive = code_line.trim_start();
        let Some(rest) = directive.strip_prefix('#') else {
            continue;
        };
        if !rest.trim_start().starts_with("include") {
            continue;
        }
        let original = &line[line.len() - directive.len()..];
        let header = original
            .split(['<', '"'])
            .nth(1)
            .and_then(|h| h.split(['>', '"']).next())
            .unwrap_or("")
            .trim();
        let banned = HEADERS.contains(&header) || HEADER_DIRS.iter().any(|d| header.starts_with(d));
        if banned {
            let col = line[..line.len() - directive.len()].chars().count() + 1;
            add(n + 1, col, &format!("<{header}>"), None);
        }
    }
}

/// Judges one path (`std::chrono::steady_clock::now`, `clock_gettime`,
/// `tbb::tick_count::now`): each banned namespace, clock type and clock
/// function in it is a finding; a path with none that ends in `now` is one.
fn check_path(tokens: &[Token], path: &[usize], device: bool, add: &mut Add<'_>) {
    let names: Vec<&str> = path.iter().map(|&i| tokens[i].text.as_str()).collect();
    if device && names.windows(3).any(|w| w == ["cuda", "std", "chrono"]) {
        return; // libcu++'s clocks in device code read the GPU's timer.
    }
    let before = path[0].checked_sub(1).map(|p| tokens[p].text.as_str());
    let called = tokens.get(path[path.len() - 1] + 1).is_some_and(|t| t.is("("));
    let mut reported = 0;
    let mut report = |k: usize, what: &str, detail: Option<String>| {
        let t = &tokens[path[k]];
        add(t.line, t.col, what, detail);
        reported += 1;
    };
    for k in 0..names.len() {
        if let Some((_, what)) = CXX_QUALIFIED.iter().find(|(p, _)| names[k..].starts_with(p)) {
            report(k, what, None);
        }
    }
    if names.len() > 1 && names[0] == "chrono" && before != Some("::") {
        report(0, "std::chrono", Some("as `chrono::`".into()));
    }
    for (k, name) in names.iter().enumerate() {
        if CXX_CLOCK_TYPES.contains(name) {
            report(k, name, None);
            continue;
        }
        match clock_function(name) {
            Some(Needs::Nothing) => report(k, name, None),
            Some(Needs::CallOrQualifier) => {
                let last = k + 1 == names.len();
                let by_std = k > 0 && names[k - 1] == "std";
                // Inside __global__/__device__ code clock() is the SM's
                // cycle counter.
                if last && (called || by_std) && !device {
                    report(k, &format!("{name}()"), Some("a host call".into()));
                }
            }
            None => {}
        }
    }
    let last = names.len() - 1;
    if last > 0 && NOW_FUNCTIONS.contains(&names[last]) {
        let t = &tokens[path[0]];
        if reported == 0 {
            add(
                t.line,
                t.col,
                &format!("{}::{}", names[last - 1], names[last]),
                None,
            );
        }
    }
}

/// `asm volatile("rdtsc" ...)`: the instructions in the assembly text.
fn scan_asm(src: &str, tokens: &[Token], at: usize, add: &mut Add<'_>) {
    let mut open = at + 1;
    while tokens
        .get(open)
        .is_some_and(|t| ASM_QUALIFIERS.contains(&t.text.as_str()))
    {
        open += 1;
    }
    if !tokens.get(open).is_some_and(|t| t.is("(")) {
        return; // `__asm { rdtsc }`: its instructions are code, found by name.
    }
    let t = &tokens[at];
    for instruction in clock_instructions(group_text(src, tokens, open)) {
        add(t.line, t.col, instruction, Some("in inline assembly".into()));
    }
}

/// Lines that are preprocessor directives, continuation lines included.
fn directive_lines(code: &str) -> Vec<bool> {
    let mut directive = Vec::new();
    let mut continued = false;
    for line in code.lines() {
        let is = continued || line.trim_start().starts_with('#');
        continued = is && line.trim_end().ends_with('\\');
        directive.push(is);
    }
    directive
}

/// Token index ranges of the bodies of `__global__`/`__device__` functions
/// (not `__host__ __device__` ones, which also run on the host). Tokens on
/// preprocessor lines are skipped: `#define KERNEL __global__` marks no body.
fn device_token_ranges(tokens: &[Token], directive: &[bool]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut pending_device = false;
    let mut pending_host = false;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if directive.get(t.line - 1).copied().unwrap_or(false) {
            i += 1;
            continue;
        }
        if t.is("__global__") || t.is("__device__") {
            pending_device = true;
        } else if t.is("__host__") {
            pending_host = true;
        } else if t.is(";") {
            pending_device = false;
            pending_host = false;
        } else if t.is("{") {
            let end = matching(tokens, i);
            if pending_device && !pending_host {
                ranges.push(i..end);
                i = end;
            }
            pending_device = false;
            pending_host = false;
        }
        i += 1;
    }
    ranges
}
