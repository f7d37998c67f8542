//! Blanking comments and literals, so rules match code and nothing else.
//!
//! [`code_only`] returns the source with every comment and every string and
//! character literal replaced by spaces, keeping newlines, so a byte offset,
//! line and column in the result are the same as in the original. A banned
//! name inside a comment that explains the ban, or inside a string that
//! prints it, is then simply not there.

/// Which language's comment and literal syntax to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// C, C++ and CUDA: `//`, `/* */`, "..", '..', R"d(..)d".
    C,
    /// Rust: `//`, nested `/* */`, "..", r#".."#, b"..", 'c' (not lifetimes).
    Rust,
}

/// The source with comments and literals blanked; same length, same lines.
pub fn code_only(src: &str, lang: Lang) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            let end = b[i..].iter().position(|&x| x == b'\n').map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if c == b'/' && next == Some(b'*') {
            let end = block_comment_end(b, i, lang == Lang::Rust);
            blank(&mut out, i, end);
            i = end;
        } else if let Some(end) = raw_string_end(b, i, lang) {
            blank(&mut out, i, end);
            i = end;
        } else if c == b'"' {
            let end = quoted_end(b, i, b'"');
            blank(&mut out, i, end);
            i = end;
        } else if c == b'\'' {
            match char_literal_end(b, i, lang) {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    // Only ASCII bytes were replaced, and only whole literals and comments, so
    // multi-byte characters are either kept whole or blanked whole.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn block_comment_end(b: &[u8], start: usize, nests: bool) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < b.len() {
        if b[i] == b'/' && b[i + 1] == b'*' {
            depth += 1;
            i += 2;
            if !nests && depth > 1 {
                depth = 1;
            }
        } else if b[i] == b'*' && b[i + 1] == b'/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The end of a literal opened by `quote` at `start`, honouring backslashes.
fn quoted_end(b: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            x if x == quote => return i + 1,
            b'\n' if quote == b'\'' => return i,
            _ => i += 1,
        }
    }
    b.len()
}

fn is_ident_byte(x: u8) -> bool {
    x.is_ascii_alphanumeric() || x == b'_'
}

/// Raw strings: C++ `R"delim(...)delim"` (also u8R, LR...), Rust `r"..."`,
/// `r#"..."#`, `br#"..."#`. Returns the end if one starts at `i`.
fn raw_string_end(b: &[u8], i: usize, lang: Lang) -> Option<usize> {
    let prev_is_ident = i > 0 && is_ident_byte(b[i - 1]);
    match lang {
        Lang::C => {
            // The R may follow an encoding prefix (u8R, LR), itself an identifier.
            if b[i] != b'R' || b.get(i + 1) != Some(&b'"') {
                return None;
            }
            if prev_is_ident && !matches!(b[i - 1], b'8' | b'u' | b'U' | b'L') {
                return None;
            }
            let open = i + 2;
            let paren = open + b[open..].iter().position(|&x| x == b'(')?;
            let delim = &b[open..paren];
            let mut close = Vec::with_capacity(delim.len() + 2);
            close.push(b')');
            close.extend_from_slice(delim);
            close.push(b'"');
            let rest = &b[paren..];
            let at = rest.windows(close.len()).position(|w| w == close.as_slice())?;
            Some(paren + at + close.len())
        }
        Lang::Rust => {
            let mut j = i;
            if b[j] == b'b' {
                j += 1;
            }
            if b.get(j) != Some(&b'r') || prev_is_ident {
                return None;
            }
            j += 1;
            let hashes = b[j..].iter().take_while(|&&x| x == b'#').count();
            j += hashes;
            if b.get(j) != Some(&b'"') {
                return None;
            }
            let mut k = j + 1;
            while k < b.len() {
                if b[k] == b'"' && b[k + 1..].iter().take(hashes).filter(|&&x| x == b'#').count() == hashes {
                    return Some(k + 1 + hashes);
                }
                k += 1;
            }
            Some(b.len())
        }
    }
}

/// A character literal at `i`, or `None` where the quote is something else:
/// a Rust lifetime (`'a`) or a C++14 digit separator (`1'000`).
fn char_literal_end(b: &[u8], i: usize, lang: Lang) -> Option<usize> {
    if lang == Lang::C && i > 0 && b[i - 1].is_ascii_alphanumeric() {
        return None; // digit separator
    }
    match b.get(i + 1)? {
        b'\\' => Some(quoted_end(b, i, b'\'')),
        _ => {
            // One character (possibly multi-byte UTF-8), then the closing quote.
            let width = utf8_width(b[i + 1]);
            if b.get(i + 1 + width) == Some(&b'\'') {
                Some(i + 2 + width)
            } else if lang == Lang::C {
                Some(quoted_end(b, i, b'\''))
            } else {
                None // a lifetime or label
            }
        }
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(src: &str, lang: Lang) -> String {
        code_only(src, lang)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn comments_and_strings_are_blanked_in_c() {
        let src = "int a; // std::chrono\n/* clock() */ f(\"steady_clock\", 'x');";
        assert_eq!(kept(src, Lang::C), "int a; f( , );");
        assert_eq!(code_only(src, Lang::C).len(), src.len());
        assert_eq!(code_only(src, Lang::C).lines().count(), 2);
    }

    #[test]
    fn escaped_quotes_and_raw_strings_do_not_end_early() {
        assert_eq!(kept(r#"f("a\"clock()\"b"); g();"#, Lang::C), "f( ); g();");
        assert_eq!(kept(r#"f(R"x(a ")" clock())x"); g();"#, Lang::C), "f( ); g();");
        assert_eq!(
            kept(r##"f(r#"a "quoted" Instant"#); g();"##, Lang::Rust),
            "f( ); g();"
        );
    }

    #[test]
    fn digit_separators_and_lifetimes_are_not_literals() {
        assert_eq!(
            kept("int n = 1'000'000; clock();", Lang::C),
            "int n = 1'000'000; clock();"
        );
        assert_eq!(
            kept("fn f<'a>(x: &'a str) -> char { 'y' }", Lang::Rust),
            "fn f<'a>(x: &'a str) -> char { }"
        );
    }

    #[test]
    fn rust_block_comments_nest() {
        assert_eq!(kept("/* a /* b */ Instant */ x", Lang::Rust), "x");
    }

    #[test]
    fn an_unterminated_literal_blanks_to_the_end_without_panicking() {
        assert_eq!(kept("f(\"never closed", Lang::C), "f(");
        assert_eq!(kept("/* never closed", Lang::Rust), "");
    }
}
