//! A report line written once, as a template, that the renderer prints
//! with `format!` (each lesson keeps its templates in a macro that expands
//! to the literal) and the parser reads back with [`read`], so the two
//! cannot drift apart and no parser picks words out of a line by hand.
//!
//! A template is the line in Rust's format syntax: `"{} SMs, each holding
//! at most {} threads"`, `"{:8} {:9.1}%"`; an error names a field by its
//! place, or by its name where the template names it. Reading takes padding as
//! any run of spaces: a field ends at the literal text after it, at a space
//! where the next piece is a field or a space, or at the end of the line
//! where it is the last piece.

use crate::lines::{number, quoted, Cursor, Finite, ParseFailure};

enum Piece<'t> {
    Text(&'t str),
    Field(&'t str),
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
        out.push(Piece::Field(field.split(':').next().unwrap_or(field)));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// The fields of a line read with a template, each with the name it has
/// there, for the error that blames it.
#[derive(Debug)]
pub struct Fields<'a> {
    pub line: usize,
    names: Vec<String>,
    cells: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Field `i` as a finite number; a failure names the line and field.
    pub fn num<T: std::str::FromStr + Finite>(&self, i: usize) -> Result<T, ParseFailure> {
        number(self.line, self.text(i), &self.names[i])
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
        names: Vec::new(),
        cells: Vec::new(),
    };
    let mut rest = line;
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Text(text) => {
                rest = rest
                    .trim_start()
                    .strip_prefix(text.trim_start())
                    .ok_or_else(fail)?
            }
            Piece::Field(name) => {
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
                fields.names.push(match name.is_empty() {
                    true => format!("field {} of {template:?}", fields.cells.len() + 1),
                    false => name.replace('_', " "),
                });
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
        let (n, line) = self.next(&format!("{template:?}"))?;
        read(n, template, line)
    }

    /// Lines read with `row` up to the first that starts with `end`
    /// (taken too); at least one.
    pub fn rows(&mut self, row: &str, end: &str) -> Result<Vec<Fields<'a>>, ParseFailure> {
        let mut rows = Vec::new();
        loop {
            let (n, line) = self.next(&format!("{end:?}"))?;
            if line.trim_start().starts_with(end.trim_start()) {
                break;
            }
            rows.push(read(n, row, line)?);
        }
        if rows.is_empty() {
            return Err(ParseFailure::at(
                self.end_line(),
                format!("no {row:?} row before {end:?}"),
            ));
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = read(9, "{} ms", "x ms").unwrap().num::<f64>(0).unwrap_err();
        assert_eq!(e.message, "field 1 of \"{} ms\": \"x\" is not a number");
    }
}
