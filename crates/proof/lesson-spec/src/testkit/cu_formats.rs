//! The printf formats of a lesson's `.cu`, read from its source, and a
//! matcher that says whether a printed line is one of them. Each report
//! package holds its renderer to its `.cu`'s own formats with it
//! ([`crate::conformance_tests!`]), so the two programs cannot drift apart
//! where no transcript of both exists yet.

use regex::Regex;

/// Every line of every `std::printf` format in `cu`, as a pattern that
/// matches what it prints. A format split over adjacent string literals is
/// joined first, as the compiler joins it.
fn format_lines(cu: &str) -> Vec<Regex> {
    let mut lines = Vec::new();
    for call in cu.split("std::printf(").skip(1) {
        for line in joined_literals(call).split('\n') {
            if !line.is_empty() {
                lines.push(pattern(line));
            }
        }
    }
    lines
}

/// The string literals at the start of `rest`, joined, escapes resolved.
fn joined_literals(rest: &str) -> String {
    let mut out = String::new();
    let mut chars = rest.trim_start().chars().peekable();
    while chars.peek() == Some(&'"') {
        chars.next();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some(other) => out.push(other),
                    None => {}
                },
                c => out.push(c),
            }
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
    }
    out
}

/// What one line of a format prints, for any values: its text as itself; a
/// number conversion (`%9.3f`, `%+8.1f`, `%zu`, `%lld`) as padding, a sign
/// and digits and dots (`%d.%d` reads as one run of them), hexadecimal ones
/// after an optional `0x` for `%x`; a string conversion (`%s`, `%26s`) as
/// padding, then text without a double space: the report's columns are two
/// spaces apart, so a word never swallows a column.
fn pattern(format: &str) -> Regex {
    let conversion = Regex::new(r"%%|%[-+ #0-9.lzh]*([a-zA-Z])?").expect("a valid pattern");
    let mut out = String::from("^");
    let mut text = 0;
    for c in conversion.captures_iter(format) {
        let whole = c.get(0).expect("a match");
        out += &regex::escape(&format[text..whole.start()]);
        out += match c.get(1).map(|m| m.as_str()) {
            _ if whole.as_str() == "%%" => "%",
            Some("s") => " *[^ ]+(?: [^ ]+)* ?",
            Some("x" | "X") => " *[-+]?(?:0x)?[0-9a-fA-F.]+",
            _ => " *[-+]?[0-9.]+",
        };
        text = whole.end();
    }
    out += &regex::escape(&format[text..]);
    out.push('$');
    Regex::new(&out).expect("a printf format as a valid pattern")
}

/// The lines of `printed` that no `std::printf` format of `cu` prints.
pub fn lines_not_in(cu: &str, printed: &str) -> Vec<String> {
    let formats = format_lines(cu);
    printed
        .lines()
        .filter(|l| !l.is_empty() && !formats.iter().any(|f| f.is_match(l)))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
#[test]
fn the_matcher_takes_numbers_and_words_where_the_format_has_them() {
    let f = pattern("%9s  %8.1f%%  done");
    assert!(f.is_match("     spin      99.8%  done"));
    assert!(f.is_match(" blocking      -0.5%  done"));
    assert!(!f.is_match("     spin      99.8%  gone"));
    assert!(!f.is_match("     spin      abc%  done"));
    assert!(pattern("(cc %d.%d)").is_match("(cc 9.0)"));
    assert!(pattern("%+8.1f%% at %#x, %zu").is_match("   +12.5% at 0x7f00, 40"));
    assert!(!pattern("%+8.1f%%").is_match("   +12.5"));
    // Three columns of words are not any line with two double spaces.
    let heads = pattern("%9s  %10s  %15s");
    assert!(heads.is_match("kernel ms   launch us   launch+sync us"));
    assert!(!heads.is_match("  events  0.1 ms  IQR  0.2 ms"));
    let cu = "std::printf(\"a %d \"\n    \"b\\n\", 1);";
    assert_eq!(lines_not_in(cu, "a 12 b\na b\n"), ["a b"]);
}
