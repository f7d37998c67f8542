//! Reading a report line by line, with errors that name the line.

/// The lines of a body, each with its line number in the file.
pub type Lines<'a> = [(usize, &'a str)];

/// A line of a text that does not read as it must: a report's body, an
/// expected-failure list, a document's figure markers. Printed as `line N:
/// message`; a tool that names the file prints `FILE:N: message` from the
/// fields.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseFailure {
    /// 1-based, in the whole file.
    pub line: usize,
    pub message: String,
}

impl ParseFailure {
    pub fn at(line: usize, message: impl Into<String>) -> Self {
        ParseFailure {
            line,
            message: message.into(),
        }
    }
}

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
    pub(crate) fn end_line(&self) -> usize {
        self.lines.last().map_or(1, |(n, _)| n + 1)
    }

    /// The next non-blank line.
    pub fn next(&mut self, what: impl std::fmt::Display) -> Result<(usize, &'a str), ParseFailure> {
        while let Some(&(n, line)) = self.lines.get(self.pos) {
            self.pos += 1;
            if !line.trim().is_empty() {
                return Ok((n, line));
            }
        }
        Err(ParseFailure::at(
            self.end_line(),
            format!("the transcript ends before {what}"),
        ))
    }

    /// The next non-blank line, which must start with `prefix`; returns the rest.
    pub fn expect(&mut self, prefix: &str) -> Result<(usize, &'a str), ParseFailure> {
        let (n, line) = self.next(format_args!("`{prefix}`"))?;
        line.strip_prefix(prefix).map(|rest| (n, rest)).ok_or_else(|| {
            ParseFailure::at(
                n,
                format!("expected a line starting {prefix:?}, got {}", quoted(line)),
            )
        })
    }
}

/// The most of a line an error message quotes: a one-line body of 50 MB
/// must not become a 50 MB message.
const QUOTED_CHARS: usize = 80;

/// `text` in quotes as `{:?}` writes it, its first 80 characters and how
/// long it was when it is longer.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// A finite number, or a failure naming the line and what was expected.
pub fn number<T: std::str::FromStr + std::fmt::Display>(
    line: usize,
    text: &str,
    what: &str,
) -> Result<T, ParseFailure> {
    number_named(line, text, || what.to_string())
}

/// [`number`], with the field's name made only for an error.
pub(crate) fn number_named<T: std::str::FromStr + std::fmt::Display>(
    line: usize,
    text: &str,
    what: impl FnOnce() -> String,
) -> Result<T, ParseFailure> {
    let text = text.trim();
    let fail = |why: &str| ParseFailure::at(line, format!("{}: {} is {why}", what(), quoted(text)));
    match text.parse::<T>() {
        Err(_) => Err(fail("not a number")),
        // `NaN`, `inf`, and a float too large for its type (read as `inf`)
        // are no measurement: the value as it prints must read as finite.
        Ok(value) if !value.to_string().parse::<f64>().is_ok_and(f64::is_finite) => {
            Err(fail("not a finite number"))
        }
        Ok(value) => Ok(value),
    }
}

/// `<value> ms` at the end of a labelled row: returns the value.
pub fn ms_at_end(line: usize, text: &str, what: &str) -> Result<f64, ParseFailure> {
    let rest = text.trim_end().strip_suffix(" ms").ok_or_else(|| {
        ParseFailure::at(
            line,
            format!("{what}: expected a value in ms, got {}", quoted(text)),
        )
    })?;
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
