//! A small tokenizer over code with comments and literals already blanked:
//! identifiers and the punctuation the rules look at, each with its line and
//! column (1-based, columns in characters) and its byte offset, plus the two
//! walks the rules need over tokens: along a `a::b::c` path and to a
//! matching bracket. Not for parsing: nothing here knows a grammar.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: usize,
    pub col: usize,
    /// Byte offset in the text tokenized. Blanking keeps every byte in
    /// place, so it is also the offset in the original source.
    pub offset: usize,
}

impl Token {
    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }

    pub fn is_ident(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    }
}

/// Splits code into identifiers (and numbers), `::`, `->` and single
/// punctuation characters. Whitespace separates and is dropped.
pub fn tokenize(code: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut line_start = 0;
    for (line_no, line) in code.split('\n').enumerate() {
        let line_offset = line_start;
        line_start += line.len() + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let chars: Vec<char> = line.chars().collect();
        let mut byte = line_offset;
        let mut bytes_before = Vec::with_capacity(chars.len());
        for c in &chars {
            bytes_before.push(byte);
            byte += c.len_utf8();
        }
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let start = i;
            if c.is_alphanumeric() || c == '_' {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            } else if c.is_whitespace() {
                i += 1;
                continue;
            } else if (c == ':' && chars.get(i + 1) == Some(&':'))
                || (c == '-' && chars.get(i + 1) == Some(&'>'))
            {
                i += 2;
            } else {
                i += 1;
            }
            tokens.push(Token {
                text: chars[start..i].iter().collect(),
                line: line_no + 1,
                col: start + 1,
                offset: bytes_before[start],
            });
        }
    }
    tokens
}

/// The identifier segments of the path that starts at `start`
/// (`a`, `b`, `c` of `a::b::c`), by token index; empty if no identifier is
/// there. A path ends at anything but `::` followed by an identifier, so
/// `Vec::<u8>::new` ends at `Vec`.
pub fn path_from(tokens: &[Token], start: usize) -> Vec<usize> {
    let mut segments = Vec::new();
    let mut i = start;
    while tokens.get(i).is_some_and(Token::is_ident) {
        segments.push(i);
        if !(tokens.get(i + 1).is_some_and(|t| t.is("::")) && tokens.get(i + 2).is_some_and(Token::is_ident))
        {
            break;
        }
        i += 2;
    }
    segments
}

/// The index of the bracket that closes the one at `open` (`(`, `[` or
/// `{`), or the last index if it never closes.
pub fn matching(tokens: &[Token], open: usize) -> usize {
    let (opener, closer) = match tokens.get(open).map(|t| t.text.as_str()) {
        Some("(") => ("(", ")"),
        Some("[") => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(open) {
        if t.is(opener) {
            depth += 1;
        } else if t.is(closer) {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return j;
            }
        }
    }
    tokens.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_paths_and_positions() {
        let t = tokenize("a::b(x);\n  std::time::Instant");
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            ["a", "::", "b", "(", "x", ")", ";", "std", "::", "time", "::", "Instant"]
        );
        assert_eq!((t[7].line, t[7].col), (2, 3));
        assert!(t[0].is_ident() && !t[1].is_ident());
    }

    #[test]
    fn offsets_count_bytes_across_lines_and_wide_characters() {
        let code = "é x\r\n  y";
        let t = tokenize(code);
        assert_eq!(&code[t[1].offset..t[1].offset + 1], "x");
        assert_eq!(&code[t[2].offset..t[2].offset + 1], "y");
        assert_eq!((t[2].line, t[2].col), (2, 3));
    }

    #[test]
    fn paths_stop_at_anything_but_a_double_colon_and_a_name() {
        let t = tokenize("a::b::c(x); Vec::<u8>::new(); s.d::e");
        let texts = |ix: Vec<usize>| ix.iter().map(|&i| t[i].text.clone()).collect::<Vec<_>>();
        assert_eq!(texts(path_from(&t, 0)), ["a", "b", "c"]);
        assert_eq!(texts(path_from(&t, 9)), ["Vec"]);
        assert!(path_from(&t, 1).is_empty());
    }

    #[test]
    fn brackets_match_across_nesting() {
        let t = tokenize("f(a(b), {c}) d");
        assert_eq!(matching(&t, 1), 10);
        assert_eq!(t[matching(&t, 3)].text, ")");
        assert_eq!(matching(&tokenize("f(a"), 1), 2);
    }
}
