//! A transcript's JSON twin, `<name>.json` beside `<name>.txt`: the run
//! parsed, every number typed. [`write`] writes one; [`check`] holds one
//! to what its transcript says.
//!
//! Twins written by earlier versions of this tool hold a report in an
//! earlier shape (`"kind": "day09"`, fields named otherwise); they cannot be
//! rewritten, as nothing under `evidence/` is, so [`check`] reads those by
//! their numbers: each must be a number the transcript gives, under the
//! same name where the name is still used, each used once.
//!
//! Not for: reading runs (the transcript is the record; the twin is a
//! convenience that must agree with it).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::problem::Problem;
use crate::{atomic, capped, transcript};

/// What the twin of `text` holds: the parsed transcript, or, for a file
/// this tool cannot parse, the error beside the file's name.
pub fn json(file: &str, text: &str) -> Value {
    match transcript::parse(file, text) {
        Ok(t) => serde_json::to_value(&t).unwrap_or(Value::Null),
        Err(e) => unparsed(file, &e),
    }
}

fn unparsed(file: &str, e: &Problem) -> Value {
    serde_json::json!({ "file": file, "parse_error": e.to_string() })
}

/// Writes the twin of the transcript at `path` whole, in one rename, its
/// fields in the transcript's order (file, header, sanitizer, body), as
/// the committed twins have them.
pub fn write(path: &Path, text: &str) -> std::io::Result<PathBuf> {
    let twin = path.with_extension("json");
    let file = path.display().to_string();
    let pretty = match transcript::parse(&file, text) {
        Ok(t) => serde_json::to_string_pretty(&t),
        Err(e) => serde_json::to_string_pretty(&unparsed(&file, &e)),
    };
    let mut pretty = pretty.map_err(std::io::Error::other)?;
    pretty.push('\n');
    atomic::write(&twin, pretty)?;
    Ok(twin)
}

/// A transcript with no twin beside it, as one line naming both files:
/// `evidence check` and `evidence merge` say it alike.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.problem())]
pub struct NoTwin(pub PathBuf);

impl NoTwin {
    /// The problem, of the transcript's file.
    pub fn problem(&self) -> Problem {
        Problem::of_file(
            transcript::shown(&self.0),
            format!(
                "a transcript with no twin: {} is missing (`evidence --evidence DIR twins` writes it)",
                transcript::shown(&self.0.with_extension("json"))
            ),
        )
    }
}

/// Why a twin is not its transcript's.
#[derive(Debug, thiserror::Error)]
pub enum TwinError {
    #[error("a twin with no transcript: {} is missing", transcript.display())]
    NoTranscript { transcript: PathBuf },
    #[error(transparent)]
    Read(#[from] capped::ReadError),
    #[error("not UTF-8 ({0})")]
    NotText(std::str::Utf8Error),
    /// serde's message is part of this one, so it is not a cause as well.
    #[error("not JSON ({0})")]
    NotJson(serde_json::Error),
    /// Where the twin and what the transcript gives now part: the first
    /// field, key or value that differs, as a reader would look for it.
    #[error("{0}")]
    Differs(String),
}

/// Whether the twin at `path` says exactly what its transcript says; an
/// error says where it does not. A transcript that cannot be read as text
/// is its own error, reported where transcripts are, not here.
pub fn check(path: &Path) -> Result<(), TwinError> {
    let transcript = path.with_extension("txt");
    let bytes = match capped::transcript(&transcript) {
        Ok(bytes) => bytes,
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => {
            return Err(TwinError::NoTranscript { transcript });
        }
        // The transcript's own error is reported where transcripts are.
        Err(_) => return Ok(()),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(());
    };
    let twin_text = String::from_utf8(capped::twin(path)?).map_err(|e| TwinError::NotText(e.utf8_error()))?;
    let twin: Value = serde_json::from_str(&twin_text).map_err(TwinError::NotJson)?;
    let expected = json(&transcript.display().to_string(), &text);
    same_run(&twin, &expected, &text)
}

/// A twin against what its transcript gives now. The file it names may be
/// where it was written (another machine's folder), but not another file.
fn same_run(twin: &Value, expected: &Value, text: &str) -> Result<(), TwinError> {
    let name = |v: &Value| {
        v["file"]
            .as_str()
            .map(|f| f.rsplit('/').next().unwrap_or(f).to_string())
    };
    if name(twin) != name(expected) {
        // JSON's own spelling, never Rust's (`Null`, `String("…")`): the
        // line is read by a maintainer, not by this crate's author.
        return Err(TwinError::Differs(format!(
            "names the file {}, not its transcript {}",
            twin["file"], expected["file"]
        )));
    }
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    if let Some(extra) = keys(twin).into_iter().find(|k| expected.get(k).is_none()) {
        return Err(TwinError::Differs(format!(
            "`{extra}` is in the twin but not in the transcript"
        )));
    }
    if let Some(want) = expected["parse_error"].as_str() {
        // The error names the file where the twin was written; the rest
        // must agree.
        let after_file = |e: &str, v: &Value| {
            let file = v["file"].as_str().unwrap_or("");
            e.strip_prefix(file).unwrap_or(e).to_string()
        };
        return match twin["parse_error"].as_str() {
            Some(got) if after_file(got, twin) == after_file(want, expected) => Ok(()),
            _ => Err(TwinError::Differs(format!(
                "the transcript does not parse ({want}), and the twin does not say so"
            ))),
        };
    }
    for part in ["header", "sanitizer"] {
        if twin[part] != expected[part] {
            return Err(TwinError::Differs(first_difference(
                part,
                &twin[part],
                &expected[part],
            )));
        }
    }
    let (body, want) = (&twin["body"], &expected["body"]);
    if body["kind"] == want["kind"] {
        return if body == want {
            Ok(())
        } else {
            Err(TwinError::Differs(first_difference("body", body, want)))
        };
    }
    // An earlier shape of a report: its fields beside `kind`.
    let known = ["report", "reference", "unparsed"];
    if body["kind"].as_str().is_some_and(|k| !known.contains(&k)) && want["data"].is_object() {
        let mut earlier = body.clone();
        if let Some(fields) = earlier.as_object_mut() {
            fields.remove("kind");
        }
        return earlier_shape_agrees(&earlier, &want["data"], text);
    }
    Err(TwinError::Differs(format!(
        "the body is {} in the twin but {} in the transcript",
        body["kind"], want["kind"]
    )))
}

/// `path = value` for every number, string and flag in `v`.
fn leaves(v: &Value, path: String, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(fields) => {
            for (k, x) in fields {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                leaves(x, p, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                leaves(x, format!("{path}[{i}]"), out);
            }
        }
        other => out.push((path, other.clone())),
    }
}

/// The first place two values differ, as `part.path: A in the twin, B in
/// the transcript`.
fn first_difference(part: &str, twin: &Value, want: &Value) -> String {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    leaves(twin, part.to_string(), &mut a);
    leaves(want, part.to_string(), &mut b);
    for (path, value) in &a {
        match b.iter().find(|(p, _)| p == path) {
            Some((_, w)) if w == value => {}
            Some((_, w)) => return format!("`{path}` is {value} in the twin but {w} in the transcript"),
            None => return format!("`{path}` ({value}) is in the twin but not in the transcript"),
        }
    }
    match b.iter().find(|(p, _)| !a.iter().any(|(q, _)| q == p)) {
        Some((path, w)) => format!("`{path}` ({w}) is in the transcript but not in the twin"),
        None => format!("`{part}` differs from the transcript's"),
    }
}

/// Whether two numbers are one, printed once as a 32-bit float and once as
/// the decimal that was read.
fn same_number(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
}

/// A report in an earlier shape against the report now: a field whose name
/// is still used holds the same value; any other number is one of the
/// report's numbers not yet matched; any text is in the transcript.
fn earlier_shape_agrees(earlier: &Value, now: &Value, text: &str) -> Result<(), TwinError> {
    let (mut old, mut new) = (Vec::new(), Vec::new());
    leaves(earlier, String::new(), &mut old);
    leaves(now, String::new(), &mut new);
    let (same_name, renamed): (Vec<_>, Vec<_>) = old
        .into_iter()
        .partition(|(p, _)| new.iter().any(|(q, _)| q == p));
    let mut unmatched: Vec<f64> = new
        .iter()
        .filter(|(p, _)| !same_name.iter().any(|(q, _)| q == p))
        .filter_map(|(_, v)| v.as_f64())
        .collect();
    for (path, value) in &same_name {
        let want = &new
            .iter()
            .find(|(p, _)| p == path)
            .expect("partitioned by this")
            .1;
        let agree = match (value.as_f64(), want.as_f64()) {
            (Some(a), Some(b)) => same_number(a, b),
            _ => value == want,
        };
        if !agree {
            return Err(TwinError::Differs(format!(
                "`body.{path}` is {value} in the twin but {want} in the transcript"
            )));
        }
    }
    for (path, value) in &renamed {
        let found = match value {
            Value::Number(n) => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                let at = unmatched.iter().position(|y| same_number(x, *y));
                at.map(|i| unmatched.swap_remove(i)).is_some()
            }
            Value::String(s) => text.contains(s.as_str()),
            _ => false,
        };
        if !found {
            return Err(TwinError::Differs(format!(
                "`body.{path}` is {value} in the twin, which the transcript does not give"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_written_twin_keeps_the_transcripts_order_and_passes_its_check() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("diagnostics");
        std::fs::create_dir(&folder).unwrap();
        let path = folder.join("2026-01-02T030405Z-t.txt");
        let text = "# lesson: diagnostics\n# date: 2026-01-02T03:04:05Z\n# gpu: g\n# driver: d\n\
                    # cuda runtime: r\n# nvcc: n\n# host: h\n# command: c\n# environment: e\n\
                    # commit: 0123456\n# exit code: 0\n# ---\nline\n";
        std::fs::write(&path, text).unwrap();
        let twin = write(&path, text).unwrap();
        let written = std::fs::read_to_string(&twin).unwrap();
        let at = |key: &str| written.find(&format!("\n  \"{key}\"")).unwrap();
        assert!(
            at("file") < at("header") && at("header") < at("sanitizer") && at("sanitizer") < at("body"),
            "{written}"
        );
        assert!(check(&twin).is_ok(), "{:?}", check(&twin));
        // A transcript this tool cannot parse gets a twin saying so.
        write(&path, "no header\n").unwrap();
        let written = std::fs::read_to_string(&twin).unwrap();
        assert!(written.contains("\"parse_error\""), "{written}");
    }

    #[test]
    fn an_earlier_shape_agrees_by_name_and_by_number() {
        let now = json!({"warm_ms": 0.061000000685453415, "cold_ms": 0.3100000023841858, "n": 3});
        let text = "GPU: H200";
        let earlier = json!({"warm_ms": 0.061, "first_launch_ms": 0.31, "gpu": "H200"});
        assert!(earlier_shape_agrees(&earlier, &now, text).is_ok());
        let edited = json!({"warm_ms": 99.0, "first_launch_ms": 0.31});
        let e = earlier_shape_agrees(&edited, &now, text).unwrap_err().to_string();
        assert!(e.contains("body.warm_ms` is 99.0"), "{e}");
        let invented = json!({"warm_ms": 0.061, "first_launch_ms": 0.5});
        assert!(earlier_shape_agrees(&invented, &now, text).is_err());
        // A number matched once cannot stand for a second field.
        let twice = json!({"a": 3, "b": 3});
        assert!(earlier_shape_agrees(&twice, &now, text).is_err());
        let other_text = json!({"gpu": "T4"});
        assert!(earlier_shape_agrees(&other_text, &now, text).is_err());
    }
}
