//! The printf formats of a lesson's `.cu`, read from its source, and a
//! matcher that says whether a printed line is one of them. Each report
//! package holds its renderer to its `.cu`'s own formats with it
//! ([`crate::conformance_tests!`]), so the two programs cannot drift apart
//! where no transcript of both exists yet.

/// One piece of a format: literal text, a number conversion (`%9.3f`,
/// `%d`, `%+8.1f`, `%zu`, `%lld`, `%#x`) or a string conversion (`%s`, `%26s`).
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    /// Decimal digits, or hexadecimal ones for `%x`.
    Number {
        hex: bool,
    },
    Word,
}

/// Every line of every `std::printf` format in `cu`, as pieces. A format
/// split over adjacent string literals is joined first, as the compiler
/// joins it.
fn format_lines(cu: &str) -> Vec<Vec<Piece>> {
    let mut lines = Vec::new();
    for call in cu.split("std::printf(").skip(1) {
        for line in joined_literals(call).split('\n') {
            if !line.is_empty() {
                lines.push(pieces(line));
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

fn pieces(format: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            text.push('%');
            continue;
        }
        // Flags, width, precision and length, then the conversion letter.
        let mut conversion = chars.next();
        while conversion.is_some_and(|c| c.is_ascii_digit() || "-+ #.lzh".contains(c)) {
            conversion = chars.next();
        }
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        out.push(match conversion {
            Some('s') => Piece::Word,
            c => Piece::Number {
                hex: matches!(c, Some('x' | 'X')),
            },
        });
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

/// Whether `line` is what `format` prints for some values.
fn matches(format: &[Piece], line: &str) -> bool {
    match format.split_first() {
        None => line.is_empty(),
        Some((Piece::Text(t), rest)) => line.strip_prefix(t.as_str()).is_some_and(|l| matches(rest, l)),
        Some((Piece::Number { hex }, rest)) => {
            let body = line.trim_start_matches(' ');
            let body = body.strip_prefix(['-', '+']).unwrap_or(body);
            let digit = |c: char| {
                if *hex {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            };
            // A `%#x`'s digits come after its `0x`.
            let body = if *hex {
                body.strip_prefix("0x").unwrap_or(body)
            } else {
                body
            };
            // `%d.%d` reads as one run of digits and dots: try each split.
            let run = body.find(|c: char| !digit(c) && c != '.').unwrap_or(body.len());
            (1..=run).any(|end| matches(rest, &body[end..]))
        }
        // Padding, then text without a double space: the report's columns
        // are two spaces apart, so a word never swallows a column.
        Some((Piece::Word, rest)) => {
            let body = line.trim_start_matches(' ');
            let run = body.find("  ").unwrap_or(body.len());
            (1..=run)
                .filter(|&i| body.is_char_boundary(i))
                .any(|i| matches(rest, &body[i..]))
        }
    }
}

/// The lines of `printed` that no `std::printf` format of `cu` prints.
pub fn lines_not_in(cu: &str, printed: &str) -> Vec<String> {
    let formats = format_lines(cu);
    printed
        .lines()
        .filter(|l| !l.is_empty() && !formats.iter().any(|f| matches(f, l)))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
#[test]
fn the_matcher_takes_numbers_and_words_where_the_format_has_them() {
    let f = pieces("%9s  %8.1f%%  done");
    assert!(matches(&f, "     spin      99.8%  done"));
    assert!(matches(&f, " blocking      -0.5%  done"));
    assert!(!matches(&f, "     spin      99.8%  gone"));
    assert!(!matches(&f, "     spin      abc%  done"));
    assert!(matches(&pieces("(cc %d.%d)"), "(cc 9.0)"));
    assert!(matches(
        &pieces("%+8.1f%% at %#x, %zu"),
        "   +12.5% at 0x7f00, 40"
    ));
    assert!(!matches(&pieces("%+8.1f%%"), "   +12.5"));
    // Three columns of words are not any line with two double spaces.
    let heads = pieces("%9s  %10s  %15s");
    assert!(matches(&heads, "kernel ms   launch us   launch+sync us"));
    assert!(!matches(&heads, "  events  0.1 ms  IQR  0.2 ms"));
    let cu = "std::printf(\"a %d \"\n    \"b\\n\", 1);";
    assert_eq!(lines_not_in(cu, "a 12 b\na b\n"), ["a b"]);
}
