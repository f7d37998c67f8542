//! A small tokenizer over code with comments and literals already blanked:
//! identifiers and the punctuation the rules look at, each with its line and
//! column (1-based, columns in characters).

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: usize,
    pub col: usize,
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
    for (line_no, line) in code.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
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
            });
        }
    }
    tokens
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
}
