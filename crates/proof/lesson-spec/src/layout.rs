//! A report line written once, as a template, that the renderer prints
//! with [`fill`] and the parser reads back with [`read`], so the two cannot
//! drift apart and no parser picks words out of a line by hand.
//!
//! A template is the line in Rust's format syntax: `"{sms} SMs"`,
//! `"{:8} {:9.1}%"` (a spec is `[<|>][+][width][.precision]`). Reading
//! takes padding as any run of spaces: a field ends at the literal text
//! after it, at a space where the next piece is a field or a space, or at
//! the end of the line.

use std::fmt::Display;

use crate::lines::{number_named, quoted, Cursor, ParseFailure};

enum Piece<'t> {
    Text(&'t str),
    /// A field's name (maybe empty) and its spec.
    Field(&'t str, &'t str),
}

/// `template` with its fields printed from `values`, in order, as
/// `format!` prints the same spec: a number is right-aligned unless the
/// spec says `<`, a text left-aligned unless it says `>`.
pub fn fill(template: &str, values: &[&dyn Display]) -> String {
    let mut values = values.iter();
    let mut out = String::new();
    for piece in pieces(template) {
        let spec = match piece {
            Piece::Text(text) => {
                out.push_str(text);
                continue;
            }
            Piece::Field(_, spec) => spec,
        };
        let v = values
            .next()
            .unwrap_or_else(|| panic!("{template:?} has more fields than values"));
        let (align, spec) = match spec.strip_prefix(['<', '>']) {
            Some(rest) => (spec.chars().next(), rest),
            None => (None, spec),
        };
        let (plus, spec) = spec.strip_prefix('+').map_or((false, spec), |rest| (true, rest));
        let (width, precision) = spec.split_once('.').map_or((spec, None), |(w, p)| (w, Some(p)));
        let w: usize = width.parse().unwrap_or(0);
        let s = match precision.map(|p| p.parse::<usize>().expect("a precision is a number")) {
            None if plus => format!("{v:+}"),
            None => format!("{v}"),
            Some(p) if plus => format!("{v:+.p$}"),
            Some(p) => format!("{v:.p$}"),
        };
        match align.unwrap_or(if s.parse::<f64>().is_ok() { '>' } else { '<' }) {
            '<' => out += &format!("{s:<w$}"),
            _ => out += &format!("{s:>w$}"),
        }
    }
    assert!(
        values.next().is_none(),
        "{template:?} has fewer fields than values"
    );
    out
}

/// The template's literal text and fields (by name), in order.
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}').expect("a template's `{` is closed");
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        let field = &rest[open + 1..close];
        let (name, spec) = field.split_once(':').unwrap_or((field, ""));
        out.push(Piece::Field(name, spec));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// `template` with its first field made the literal `label`: how a parser
/// reads a row whose label the renderer prints into that field.
pub fn labelled(template: &str, label: &str) -> String {
    let first = template
        .find('{')
        .and_then(|open| Some(open..=open + template[open..].find('}')?));
    match first {
        Some(field) => template.replacen(&template[field], label, 1),
        None => template.to_string(),
    }
}

/// The fields of a line read with a template.
#[derive(Debug)]
pub struct Fields<'a> {
    pub line: usize,
    /// For a field's name in an error, made only then: a transcript has
    /// thousands of lines.
    template: String,
    cells: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Field `i` as a finite number; a failure names the line and field.
    pub fn num<T: std::str::FromStr + Display>(&self, i: usize) -> Result<T, ParseFailure> {
        number_named(self.line, self.text(i), || self.name(i))
    }

    /// Field `i`'s name: the template's name for it, or its place.
    fn name(&self, i: usize) -> String {
        let name = pieces(&self.template)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Field(name, _) => Some(name),
                Piece::Text(_) => None,
            })
            .nth(i)
            .unwrap_or("");
        match name.is_empty() {
            true => format!("field {} of {:?}", i + 1, self.template),
            false => name.replace('_', " "),
        }
    }

    /// Field `i` as printed.
    pub fn text(&self, i: usize) -> &'a str {
        self.cells[i]
    }
}

/// Line `n`, `line`, read with `template`: its fields as printed, or a
/// failure that quotes both.
pub fn read<'a>(n: usize, template: &str, line: &'a str) -> Result<Fields<'a>, ParseFailure> {
    let fail = || ParseFailure::at(n, format!("expected {template:?}, got {}", quoted(line)));
    let pieces = pieces(template);
    let mut fields = Fields {
        line: n,
        template: template.to_string(),
        cells: Vec::with_capacity(pieces.len()),
    };
    let mut rest = line;
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Text(text) => rest = rest.trim_start().strip_prefix(text.trim()).ok_or_else(fail)?,
            Piece::Field(..) => {
                rest = rest.trim_start();
                let end = match pieces.get(i + 1) {
                    None => rest.trim_end().len(),
                    Some(Piece::Text(t)) if !t.trim().is_empty() => {
                        rest[..rest.find(t.trim()).ok_or_else(fail)?].trim_end().len()
                    }
                    Some(_) => rest.find(char::is_whitespace).unwrap_or(rest.len()),
                };
                if end == 0 {
                    return Err(fail());
                }
                fields.cells.push(&rest[..end]);
                rest = &rest[end..];
            }
        }
    }
    match rest.trim().is_empty() {
        true => Ok(fields),
        false => Err(fail()),
    }
}

impl<'a> Cursor<'a, '_> {
    /// The next non-blank line, read with `template`.
    pub fn read(&mut self, template: &str) -> Result<Fields<'a>, ParseFailure> {
        let (n, line) = self.next(format_args!("{template:?}"))?;
        read(n, template, line)
    }

    /// Lines read with `row`, each made a `T` by `each`, up to the first
    /// that starts with `end` (taken too); at least one.
    pub fn rows<T>(
        &mut self,
        row: &str,
        end: &str,
        each: impl Fn(&Fields<'a>) -> Result<T, ParseFailure>,
    ) -> Result<Vec<T>, ParseFailure> {
        self.rows_then(row, end, each).map(|(rows, _)| rows)
    }

    /// [`Cursor::rows`], with the line that ended them and its number, for a
    /// report whose next heading holds figures of its own.
    pub fn rows_then<T>(
        &mut self,
        row: &str,
        end: &str,
        each: impl Fn(&Fields<'a>) -> Result<T, ParseFailure>,
    ) -> Result<(Vec<T>, (usize, &'a str)), ParseFailure> {
        let mut rows = Vec::new();
        let ended = loop {
            let (n, line) = self.next(format_args!("{end:?}"))?;
            if line.trim_start().starts_with(end.trim_start()) {
                break (n, line);
            }
            rows.push(each(&read(n, row, line)?)?);
        };
        if rows.is_empty() {
            return Err(ParseFailure::at(
                self.end_line(),
                format!("no {row:?} row before {end:?}"),
            ));
        }
        Ok((rows, ended))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::numbered_output;

    #[test]
    fn rows_then_gives_the_line_that_ended_them_and_refuses_none() {
        let text = "a  1\nb  2\nPart 3: N = 7\n";
        let lines = numbered_output(text);
        let mut c = Cursor::new(&lines);
        let (rows, (n, end)) = c.rows_then("{}  {}", "Part 3:", |f| f.num::<u32>(1)).unwrap();
        assert_eq!(rows, [1, 2]);
        assert_eq!(
            lines.iter().find(|(m, _)| *m == n).map(|l| l.1),
            Some("Part 3: N = 7")
        );
        assert_eq!(end, "Part 3: N = 7");
        let none = numbered_output("Part 3: N = 7\n");
        let failure = Cursor::new(&none)
            .rows("{}  {}", "Part 3:", |f| f.num::<u32>(1))
            .unwrap_err();
        assert!(
            failure.message.contains("no \"{}  {}\" row before \"Part 3:\""),
            "{}",
            failure.message
        );
    }

    #[test]
    fn fill_prints_as_format_does() {
        let t = "{n:8} {occ:9.1}% {vs:+8.1}%  {w}|{name:<6}|{r:>5}|{f32:.3}|{s:+6}|{x:>+4.1}";
        let got = fill(t, &[&32, &12.25, &-3.04, &"yes", &"ab", &"x", &0.1f32, &7, &2.0]);
        let want = format!(
            "{:8} {:9.1}% {:+8.1}%  {}|{:<6}|{:>5}|{:.3}|{:+6}|{:>+4.1}",
            32, 12.25, -3.04, "yes", "ab", "x", 0.1f32, 7, 2.0
        );
        assert_eq!(got, want);
    }

    #[test]
    fn read_takes_back_what_format_prints() {
        let t = "GPU: {gpu} (compute capability {major}.{minor})";
        let f = read(3, t, "GPU: NVIDIA H200 (compute capability 9.0)").unwrap();
        assert_eq!(
            (f.text(0), f.num::<i32>(1).unwrap(), f.num::<i32>(2).unwrap()),
            ("NVIDIA H200", 9, 0)
        );
        let row = "{threads:8} {occupancy:9.1}% {mean:11.5}  {noise}";
        let line = format!("{:8} {:9.1}% {:11.5}  {}", 256, 100.0, 0.123456, "best");
        let f = read(4, row, &line).unwrap();
        assert_eq!(
            (f.num::<u32>(0).unwrap(), f.num::<f64>(2).unwrap(), f.text(3)),
            (256, 0.12346, "best")
        );
    }

    #[test]
    fn read_names_the_line_and_field_it_cannot_take() {
        let e = read(7, "{sms} SMs", "132 GPUs").unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.message.contains("\"132 GPUs\""), "{e}");
        let e = read(8, "{max_threads} threads", "lots threads")
            .unwrap()
            .num::<u32>(0)
            .unwrap_err();
        assert_eq!(e.to_string(), "line 8: max threads: \"lots\" is not a number");
        assert!(read(9, "{a} ms", "1.0 ms and more").is_err(), "trailing text");
        assert!(read(9, "{a} {b} ms", "1.0  ms").is_err(), "a field missing");
        assert_eq!(
            labelled("{:>16}  {:8.3} us per {}", "no events"),
            "no events  {:8.3} us per {}"
        );
        let e = read(9, "{} ms", "x ms").unwrap().num::<f64>(0).unwrap_err();
        assert_eq!(e.message, "field 1 of \"{} ms\": \"x\" is not a number");
    }
}
