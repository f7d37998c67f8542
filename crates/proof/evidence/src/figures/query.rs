//! The query language of figure blocks: a template whose `{expression}`
//! parts are evaluated over the evidence.
//!
//! ```text
//! template   := text with {expression [as FORMAT]} parts
//! expression := sum [(< | > | <= | >= | == | !=) sum]
//! sum        := product [(+ | -) product]...
//! product    := unary [(* | /) unary]...
//! unary      := [-] (NUMBER | "STRING" | NAME(arguments) | (expression))
//! FORMAT     := .N (N decimals) | ,N (N decimals, thousands separated by commas)
//! ```
//!
//! A value is a number, a list of numbers (each with a key: the run or the
//! session it came from), a range or a text. Arithmetic between two lists
//! pairs the elements with equal keys; between a list and a number it applies
//! to each element; a comparison gives 1 or 0. The functions (what
//! [`crate::figures::data`] provides, and reductions) are listed at `call` below and
//! in `evidence/README.md`.
//!
//! Not for: reading the evidence (that is [`crate::figures::data`]) or finding blocks
//! in documents (that is [`crate::figures::blocks`]).

use std::fmt::Write;

use crate::figures::data::{Evidence, Key};
use lesson_spec::median;

/// What an expression evaluates to.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(f64),
    List(Vec<(Key, f64)>),
    Range(f64, f64),
    Text(String),
}

/// Why a figure block's query gives no text, in words: the block's error
/// line shows it, and nothing tells one kind from another.
pub type QueryError = String;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Num(f64),
    Str(String),
    Name(String),
    Op(String),
}

fn tokens(src: &str) -> Result<Vec<Token>, QueryError> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = src[i..].chars().next() {
        let rest = &src[i..];
        let word = |ok: fn(char) -> bool| rest.find(|ch: char| !ok(ch)).unwrap_or(rest.len());
        let len = if c.is_whitespace() {
            c.len_utf8()
        } else if c == '"' {
            let end = rest[1..].find('"').ok_or("a string has no closing quote")?;
            out.push(Token::Str(rest[1..1 + end].to_string()));
            end + 2
        } else if c.is_ascii_digit() || c == '.' {
            let len = word(|ch| ch.is_ascii_digit() || ch == '.' || ch == 'e');
            let n = rest[..len]
                .parse()
                .map_err(|_| format!("`{}` is not a number", &rest[..len]))?;
            out.push(Token::Num(n));
            len
        } else if c.is_ascii_alphabetic() || c == '_' {
            let len = word(|ch| ch.is_ascii_alphanumeric() || ch == '_');
            out.push(Token::Name(rest[..len].to_string()));
            len
        } else {
            let op = match rest.get(..2).filter(|t| ["<=", ">=", "==", "!="].contains(t)) {
                Some(two) => two.to_string(),
                None if "+-*/<>(),".contains(c) => c.to_string(),
                None => return Err(format!("unexpected `{c}`")),
            };
            let len = op.len();
            out.push(Token::Op(op));
            len
        };
        i += len;
    }
    Ok(out)
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num(f64),
    Str(String),
    Call(String, Vec<Expr>),
    Binary(String, Box<Expr>, Box<Expr>),
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek_op(&self, ops: &[&str]) -> Option<String> {
        match self.tokens.get(self.at) {
            Some(Token::Op(o)) if ops.contains(&o.as_str()) => Some(o.clone()),
            _ => None,
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), QueryError> {
        self.peek_op(&[op]).ok_or_else(|| format!("expected `{op}`"))?;
        self.at += 1;
        Ok(())
    }

    /// One level of left-associative binary operators over `next`.
    fn level(
        &mut self,
        ops: &[&str],
        next: fn(&mut Self) -> Result<Expr, QueryError>,
    ) -> Result<Expr, QueryError> {
        let mut left = next(self)?;
        while let Some(op) = self.peek_op(ops) {
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(next(self)?));
        }
        Ok(left)
    }

    fn comparison(&mut self) -> Result<Expr, QueryError> {
        self.level(&["<", ">", "<=", ">=", "==", "!="], Self::sum)
    }

    fn sum(&mut self) -> Result<Expr, QueryError> {
        self.level(&["+", "-"], Self::product)
    }

    fn product(&mut self) -> Result<Expr, QueryError> {
        self.level(&["*", "/"], Self::unary)
    }

    fn unary(&mut self) -> Result<Expr, QueryError> {
        if self.peek_op(&["-"]).is_some() {
            self.at += 1;
            let inner = self.unary()?;
            return Ok(Expr::Binary(
                "-".into(),
                Box::new(Expr::Num(0.0)),
                Box::new(inner),
            ));
        }
        let token = self
            .tokens
            .get(self.at)
            .cloned()
            .ok_or("the expression ends too early")?;
        self.at += 1;
        match token {
            Token::Num(n) => Ok(Expr::Num(n)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::Op(o) if o == "(" => {
                let inner = self.comparison()?;
                self.expect(")")?;
                Ok(inner)
            }
            Token::Name(name) => {
                self.expect("(")?;
                let mut args = Vec::new();
                if self.peek_op(&[")"]).is_none() {
                    args.push(self.comparison()?);
                    while self.peek_op(&[","]).is_some() {
                        self.at += 1;
                        args.push(self.comparison()?);
                    }
                }
                self.expect(")")?;
                Ok(Expr::Call(name, args))
            }
            Token::Op(o) => Err(format!("unexpected `{o}`")),
        }
    }
}

fn parse(src: &str) -> Result<Expr, QueryError> {
    let mut p = Parser {
        tokens: tokens(src)?,
        at: 0,
    };
    let e = p.comparison()?;
    if p.at != p.tokens.len() {
        return Err(format!("unexpected {:?} after the expression", p.tokens[p.at]));
    }
    Ok(e)
}

fn arith(op: &str, a: f64, b: f64) -> f64 {
    let truth = |t: bool| if t { 1.0 } else { 0.0 };
    match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => a / b,
        "<" => truth(a < b),
        ">" => truth(a > b),
        "<=" => truth(a <= b),
        ">=" => truth(a >= b),
        "==" => truth(a == b),
        _ => truth(a != b),
    }
}

fn binary(op: &str, a: Value, b: Value) -> Result<Value, QueryError> {
    Ok(match (a, b) {
        (Value::Num(a), Value::Num(b)) => Value::Num(arith(op, a, b)),
        (Value::List(l), Value::Num(b)) => {
            Value::List(l.into_iter().map(|(k, a)| (k, arith(op, a, b))).collect())
        }
        (Value::Num(a), Value::List(l)) => {
            Value::List(l.into_iter().map(|(k, b)| (k, arith(op, a, b))).collect())
        }
        (Value::List(l), Value::List(r)) => {
            let paired: Vec<(Key, f64)> = l
                .into_iter()
                .filter_map(|(k, a)| {
                    r.iter()
                        .find(|(rk, _)| *rk == k)
                        .map(|(_, b)| (k, arith(op, a, *b)))
                })
                .collect();
            if paired.is_empty() {
                return Err(format!("`{op}` between two lists with no key in common"));
            }
            Value::List(paired)
        }
        (Value::Range(lo, hi), Value::Num(b)) => {
            let (x, y) = (arith(op, lo, b), arith(op, hi, b));
            Value::Range(x.min(y), x.max(y))
        }
        (a, b) => return Err(format!("`{op}` needs numbers or lists, not {a:?} and {b:?}")),
    })
}

/// The numbers of a value that a reduction reads.
fn numbers(v: &Value) -> Result<Vec<f64>, QueryError> {
    match v {
        Value::Num(n) => Ok(vec![*n]),
        Value::List(l) => Ok(l.iter().map(|(_, x)| *x).collect()),
        other => Err(format!("expected numbers, got {other:?}")),
    }
}

fn text(v: &Value) -> Result<&str, QueryError> {
    match v {
        Value::Text(s) => Ok(s),
        other => Err(format!("expected a \"string\", got {other:?}")),
    }
}

/// Every number of every argument, for the reductions.
fn all_numbers(args: &[Value]) -> Result<Vec<f64>, QueryError> {
    let mut out = Vec::new();
    for a in args {
        out.extend(numbers(a)?);
    }
    if out.is_empty() {
        return Err("nothing to reduce: the list is empty".into());
    }
    Ok(out)
}

/// The functions a query may call.
///
/// - `runs("LESSON", "GROUP ...", "FIGURE" [, "COMMIT ..."])`: the figure
///   (as the lesson's `figures` names it) in each successful run of the
///   groups (`h200-cxx` is every `*-h200-cxx.txt`), optionally only of
///   commits starting with one of the prefixes, or not with a `!PREFIX`;
///   a list keyed by run.
/// - `lines("GROUP ...", "LABEL")`: the number after `LABEL:` on each line
///   of each successful run of the groups in `diagnostics/` (`h200-pageable-rotated`
///   is every `*-h200-pageable-rotated.txt`); a list keyed by run and by the
///   line's occurrence in it, so two labels of one run pair up.
/// - `per_commit(LIST)`: the median of each commit's runs, keyed by commit.
/// - `instrument("SESSION ..." | "*", "METHOD", "STAT")`: a method's
///   `median`, `vs_ncu`, `spread` or `gpu_ms` in each instrument session;
///   METHOD is a mode (`GraphPdl`), `recommended`, `course`, `ncu`, or a peer
///   tool's first word.
/// - `copy_ceiling("SESSION ..." | "*")`: each process's copy ceiling, GB/s.
/// - `false_alarms("same_commit" | "split_half", "compared" | "alarms" |
///   "unsure")`: what changed's A/A counts; `false_alarms("same_commit",
///   "pairs")` the pairs of sessions of one commit on one machine.
/// - `median`, `min`, `max`, `sum`, `count`, `range` of lists (`min` and
///   `max` of several arguments too), `abs` of each element.
/// - Texts: `days("LESSON", "GROUP ...")` (the UTC dates of the runs),
///   `recommended("SESSION")`, `table("SESSION")` (the instrument's table).
fn call(ev: &Evidence, name: &str, args: &[Value]) -> Result<Value, QueryError> {
    let arg = |i: usize| {
        args.get(i)
            .ok_or_else(|| format!("{name}() needs argument {}", i + 1))
    };
    let reduce = |f: fn(Vec<f64>) -> Option<f64>| -> Result<f64, QueryError> {
        Ok(f(all_numbers(args)?).ok_or("empty")?)
    };
    let min: fn(Vec<f64>) -> Option<f64> = |v| v.into_iter().reduce(f64::min);
    let max: fn(Vec<f64>) -> Option<f64> = |v| v.into_iter().reduce(f64::max);
    match name {
        "runs" => {
            let commits = args.get(3).map(text).transpose()?.unwrap_or("");
            ev.runs(text(arg(0)?)?, text(arg(1)?)?, text(arg(2)?)?, commits)
                .map(Value::List)
        }
        "lines" => ev.lines(text(arg(0)?)?, text(arg(1)?)?).map(Value::List),
        "per_commit" => match arg(0)? {
            Value::List(l) => Ok(Value::List(crate::figures::data::per_commit(l))),
            other => Err(format!("per_commit() needs a list, got {other:?}")),
        },
        "instrument" => ev
            .instrument(text(arg(0)?)?, text(arg(1)?)?, text(arg(2)?)?)
            .map(Value::List),
        "copy_ceiling" => ev.copy_ceilings(text(arg(0)?)?).map(Value::List),
        "false_alarms" => ev.false_alarms(text(arg(0)?)?, text(arg(1)?)?).map(Value::Num),
        "days" => ev.days(text(arg(0)?)?, text(arg(1)?)?).map(Value::Text),
        "recommended" => ev.recommended(text(arg(0)?)?).map(Value::Text),
        "table" => ev.table(text(arg(0)?)?).map(Value::Text),
        "median" => reduce(median).map(Value::Num),
        "min" => reduce(min).map(Value::Num),
        "max" => reduce(max).map(Value::Num),
        "sum" => reduce(|v| Some(v.into_iter().sum())).map(Value::Num),
        "count" => Ok(Value::Num(numbers(arg(0)?)?.len() as f64)),
        "range" => Ok(Value::Range(reduce(min)?, reduce(max)?)),
        "abs" => match arg(0)? {
            Value::Num(n) => Ok(Value::Num(n.abs())),
            Value::List(l) => Ok(Value::List(l.iter().map(|(k, x)| (k.clone(), x.abs())).collect())),
            other => Err(format!("abs() needs numbers, got {other:?}")),
        },
        _ => Err(format!("no function `{name}`")),
    }
}

fn eval(ev: &Evidence, e: &Expr) -> Result<Value, QueryError> {
    match e {
        Expr::Num(n) => Ok(Value::Num(*n)),
        Expr::Str(s) => Ok(Value::Text(s.clone())),
        Expr::Binary(op, a, b) => binary(op, eval(ev, a)?, eval(ev, b)?),
        Expr::Call(name, args) => {
            let args = args.iter().map(|a| eval(ev, a)).collect::<Result<Vec<_>, _>>()?;
            call(ev, name, &args)
        }
    }
}

/// A number as FORMAT says: `.N` or `,N`; by default a whole number as
/// one, anything else to 3 decimals.
fn number(x: f64, format: &str) -> Result<String, QueryError> {
    if !x.is_finite() {
        // A division by zero, or by a list's empty median: no figure.
        return Err(format!(
            "the value is {x}, not a finite number (a division by zero?)"
        ));
    }
    let digits = |f: &str| {
        f.parse::<usize>()
            .map_err(|_| format!("`{format}` is not a format (.N or ,N)"))
    };
    if format.is_empty() {
        return Ok(if x.fract() == 0.0 {
            format!("{x}")
        } else {
            format!("{x:.3}")
        });
    }
    if let Some(n) = format.strip_prefix('.') {
        return Ok(format!("{x:.*}", digits(n)?));
    }
    let n = digits(format.strip_prefix(',').unwrap_or("x"))?;
    let plain = format!("{:.*}", n, x.abs());
    let (whole, frac) = plain
        .split_once('.')
        .map_or((plain.as_str(), None), |(w, f)| (w, Some(f)));
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if x < 0.0 { "-" } else { "" };
    Ok(frac.map_or(format!("{sign}{grouped}"), |f| format!("{sign}{grouped}.{f}")))
}

fn render(v: &Value, format: &str) -> Result<String, QueryError> {
    match v {
        Value::Num(x) => number(*x, format),
        Value::Text(s) => Ok(s.clone()),
        Value::Range(lo, hi) => {
            let (lo, hi) = (number(*lo, format)?, number(*hi, format)?);
            Ok(if lo == hi { lo } else { format!("{lo} to {hi}") })
        }
        Value::List(l) => {
            let items = l
                .iter()
                .map(|(_, x)| number(*x, format))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(match items.split_last() {
                None => String::new(),
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            })
        }
    }
}

/// One `{...}` part: the expression and its format.
fn part(ev: &Evidence, inner: &str) -> Result<String, QueryError> {
    let (expr, format) = match inner.rfind(" as ") {
        Some(i) if !inner[i..].contains('"') => (&inner[..i], inner[i + 4..].trim()),
        _ => (inner, ""),
    };
    let value = parse(expr).and_then(|e| eval(ev, &e));
    value
        .and_then(|v| render(&v, format))
        .map_err(|e| format!("{{{inner}}}: {e}"))
}

/// The template with every `{expression}` replaced by its value.
pub fn fill(ev: &Evidence, template: &str) -> Result<String, QueryError> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = closing_brace(&rest[open..]).ok_or("a `{` has no closing `}`")? + open;
        let _ = write!(out, "{}", part(ev, &rest[open + 1..close])?);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Where the `}` closing the `{` at the start of `s` is, outside strings.
fn closing_brace(s: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '}' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_bind_as_in_arithmetic() {
        assert_eq!(
            parse("1 + 2 * 3 < 8").unwrap(),
            Expr::Binary(
                "<".into(),
                Box::new(Expr::Binary(
                    "+".into(),
                    Box::new(Expr::Num(1.0)),
                    Box::new(Expr::Binary(
                        "*".into(),
                        Box::new(Expr::Num(2.0)),
                        Box::new(Expr::Num(3.0))
                    ))
                )),
                Box::new(Expr::Num(8.0))
            )
        );
        assert!(parse("1 +").is_err());
        assert!(parse("max(1, 2").is_err());
        assert!(parse("1 2").is_err());
    }

    #[test]
    fn lists_pair_by_key_and_numbers_apply_to_each() {
        let k = |s: &str| Key {
            session: s.into(),
            item: String::new(),
        };
        let a = Value::List(vec![(k("x"), 2.0), (k("y"), 4.0)]);
        let b = Value::List(vec![(k("y"), 2.0), (k("z"), 1.0)]);
        assert_eq!(
            binary("/", a.clone(), b).unwrap(),
            Value::List(vec![(k("y"), 2.0)])
        );
        assert_eq!(
            binary("*", a.clone(), Value::Num(10.0)).unwrap(),
            Value::List(vec![(k("x"), 20.0), (k("y"), 40.0)])
        );
        assert!(binary("-", a, Value::List(vec![(k("q"), 1.0)])).is_err());
    }

    #[test]
    fn formats_round_group_and_join() {
        assert_eq!(number(14678.2, ",0").unwrap(), "14,678");
        assert_eq!(number(-1234567.891, ",1").unwrap(), "-1,234,567.9");
        assert_eq!(number(0.0612, ".2").unwrap(), "0.06");
        assert_eq!(number(121.0, "").unwrap(), "121");
        assert!(number(1.0, "%").is_err());
        assert_eq!(render(&Value::Range(11.04, 50.96), ".0").unwrap(), "11 to 51");
        assert_eq!(render(&Value::Range(3.01, 2.99), ".1").unwrap(), "3.0");
        let k = |s: &str| Key {
            session: s.into(),
            item: String::new(),
        };
        let l = Value::List(vec![(k("a"), 0.996), (k("b"), 1.002), (k("c"), 1.003)]);
        assert_eq!(render(&l, ".3").unwrap(), "0.996, 1.002 and 1.003");
    }
}
