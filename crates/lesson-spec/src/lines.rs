//! Reading a report line by line, with errors that name the line.

/// The lines of a body, each with its line number in the file.
pub type Lines<'a> = [(usize, &'a str)];

/// A parse failure inside a body: (line number, message).
pub type Failure = (usize, String);

/// A cursor over the body's lines that skips blank lines on request.
pub struct Cursor<'a, 'b> {
    lines: &'b Lines<'a>,
    pos: usize,
}

impl<'a, 'b> Cursor<'a, 'b> {
    pub fn new(lines: &'b Lines<'a>) -> Self {
        Cursor { lines, pos: 0 }
    }

    /// The line number to blame when the body ends early.
    fn end_line(&self) -> usize {
        self.lines.last().map_or(1, |(n, _)| n + 1)
    }

    /// The next non-blank line.
    pub fn next(&mut self, what: &str) -> Result<(usize, &'a str), Failure> {
        while let Some(&(n, line)) = self.lines.get(self.pos) {
            self.pos += 1;
            if !line.trim().is_empty() {
                return Ok((n, line));
            }
        }
        Err((self.end_line(), format!("the transcript ends before {what}")))
    }

    /// The next non-blank line, which must start with `prefix`; returns the rest.
    pub fn expect(&mut self, prefix: &str) -> Result<(usize, &'a str), Failure> {
        let (n, line) = self.next(&format!("`{prefix}`"))?;
        line.strip_prefix(prefix)
            .map(|rest| (n, rest))
            .ok_or_else(|| (n, format!("expected a line starting {prefix:?}, got {line:?}")))
    }
}

/// A number, or a failure naming the line and what was expected.
pub fn number<T: std::str::FromStr>(line: usize, text: &str, what: &str) -> Result<T, Failure> {
    text.trim()
        .parse()
        .map_err(|_| (line, format!("{what}: {:?} is not a number", text.trim())))
}

/// `<value> ms` at the end of a labelled row: returns the value.
pub fn ms_at_end(line: usize, text: &str, what: &str) -> Result<f64, Failure> {
    let rest = text
        .trim_end()
        .strip_suffix(" ms")
        .ok_or_else(|| (line, format!("{what}: expected a value in ms, got {text:?}")))?;
    let value = rest.split_whitespace().last().unwrap_or("");
    number(line, value, what)
}

/// A transcript's program output (what follows its `# ---` line, or the
/// whole text when it has none), each line with its number in the file.
pub fn numbered_output(text: &str) -> Vec<(usize, &str)> {
    let start = text.lines().position(|l| l == "# ---").map_or(0, |i| i + 1);
    text.lines()
        .enumerate()
        .skip(start)
        .map(|(i, l)| (i + 1, l))
        .collect()
}
