//! Clocks that hide in text the lexer blanks: an instruction inside inline
//! assembly (`asm volatile("rdtsc")`, `asm!("rdtsc")`), a clock function
//! fetched by its name (`dlsym(h, "clock_gettime")`,
//! `#[link_name = "clock_gettime"]`), and a file that holds a clock, named in
//! a string literal (`fopen("/proc/uptime", "r")`).
//!
//! Both scanners find the construct in code; this file reads the original
//! text of its literals. Not for: telling device assembly from host assembly
//! (PTX names no host clock, so device code passes on its own).

use super::names::{clock_function, ASM_ENCODINGS, ASM_INSTRUCTIONS, CLOCK_FILES};
use crate::tokens::{matching, Token};

/// Functions that fetch another function by its name.
pub const LOOKUPS: &[&str] = &["dlsym", "dlvsym", "GetProcAddress", "link_name"];

/// The clock-reading instructions in assembly text, each once, in order.
pub fn clock_instructions(asm: &str) -> Vec<&'static str> {
    // `\n` and `\t` escapes separate instructions in the literal's text.
    let lower = asm.replace("\\n", " ").replace("\\t", " ").to_ascii_lowercase();
    let mut found: Vec<&'static str> = Vec::new();
    for word in lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if let Some(instruction) = ASM_INSTRUCTIONS.iter().find(|i| **i == word) {
            if !found.contains(instruction) {
                found.push(instruction);
            }
        }
    }
    let bytes: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    for (encoding, instruction) in ASM_ENCODINGS {
        if bytes.contains(encoding) && !found.contains(instruction) {
            found.push(instruction);
        }
    }
    found
}

/// The original text of the bracketed group that opens at token `open`,
/// brackets included.
pub fn group_text<'a>(src: &'a str, tokens: &[Token], open: usize) -> &'a str {
    let close = &tokens[matching(tokens, open)];
    let end = (close.offset + close.text.len()).min(src.len());
    src.get(tokens[open].offset..end).unwrap_or("")
}

/// The banned function names that the lookup at token `at` fetches: the
/// string literals in its call's parentheses, or after its `=` to the end of
/// the line for an attribute.
pub fn looked_up(src: &str, tokens: &[Token], at: usize) -> Vec<String> {
    let text = match tokens.get(at + 1).map(|t| t.text.as_str()) {
        Some("(") => group_text(src, tokens, at + 1),
        Some("=") => {
            let from = tokens[at + 1].offset;
            let rest = src.get(from..).unwrap_or("");
            rest.split('\n').next().unwrap_or("")
        }
        _ => return Vec::new(),
    };
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|name| clock_function(name).is_some())
        .map(str::to_string)
        .collect()
}

/// The clock files named in string literals of `src` (whose code, literals
/// and comments blanked, is `code`), as (line, column, file). A literal is
/// told from a comment by what opens the blanked run on its line: a quote,
/// or `//`, `/*` or a block comment's leading `*`.
pub fn clock_files(src: &str, code: &str) -> Vec<(usize, usize, &'static str)> {
    let mut found = Vec::new();
    for file in CLOCK_FILES {
        for (offset, _) in src.match_indices(file) {
            if code.get(offset..offset + 1) != Some(" ") {
                continue; // Code itself: not a literal, and no clock.
            }
            let line_start = src[..offset].rfind('\n').map_or(0, |n| n + 1);
            let before = &src[line_start..offset];
            let in_comment = before.trim_start().starts_with('*')
                || before.contains("//")
                || before.contains("/*")
                || before.rfind('"').is_none();
            if !in_comment {
                let col = before.chars().count() + 1;
                found.push((src[..offset].matches('\n').count() + 1, col, *file));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::{code_only, Lang};
    use crate::tokens::tokenize;

    #[test]
    fn clock_instructions_are_read_by_word_and_by_encoding() {
        assert_eq!(clock_instructions("lfence\n\tRDTSC"), ["rdtsc"]);
        assert_eq!(clock_instructions(r"lfence\n\trdtscp"), ["rdtscp"]);
        assert_eq!(clock_instructions("rdtscp; rdtsc"), ["rdtscp", "rdtsc"]);
        assert_eq!(clock_instructions(".byte 0x0F, 0x01, 0xF9"), ["rdtscp"]);
        assert_eq!(clock_instructions(".byte 0x0f,0x31"), ["rdtsc"]);
        assert_eq!(clock_instructions("mrs %0, cntvct_el0"), ["cntvct_el0"]);
        assert!(clock_instructions("mov.u64 %0, %%globaltimer; rdtsc_like").is_empty());
    }

    #[test]
    fn a_lookup_yields_only_the_clock_names_it_fetches() {
        let src = "f = dlsym(h, \"clock_gettime\"); g = dlsym(h, \"cudaMalloc\");";
        let code = code_only(src, Lang::C);
        let tokens = tokenize(&code);
        let at: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].is("dlsym")).collect();
        assert_eq!(looked_up(src, &tokens, at[0]), ["clock_gettime"]);
        assert!(looked_up(src, &tokens, at[1]).is_empty());
    }
}
