//! A transcript: the metadata header `evidence record` (and before it
//! `ci/record.sh`) writes, then `# ---`, then the program's output as printed.

use lesson_spec::Parsed;
use serde::Serialize;

use crate::{lessons, ParseError};

/// The header's fields. Missing optional fields are empty strings.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Header {
    pub lesson: String,
    pub date: String,
    /// As written: `NVIDIA H200 (compute capability 9.0)`.
    pub gpu: String,
    pub driver: String,
    pub cuda_runtime: String,
    pub nvcc: String,
    pub host: String,
    pub command: String,
    pub environment: String,
    pub commit: String,
    pub exit_code: i32,
}

impl Header {
    /// The GPU's name without the compute capability.
    pub fn gpu_name(&self) -> &str {
        self.gpu
            .split(" (compute capability")
            .next()
            .unwrap_or(&self.gpu)
            .trim()
    }

    /// Whether the run had `VAR=value` in its environment.
    pub fn has_env(&self, assignment: &str) -> bool {
        self.environment.split_whitespace().any(|e| e == assignment)
    }
}

/// What the program printed, understood by its lesson.
#[derive(Debug)]
pub enum Body {
    /// The lesson's own program, C++ or Rust.
    Report(Box<dyn Parsed>),
    /// The reference tool the lesson records beside its programs.
    Reference(Box<dyn Parsed>),
    /// A run that failed, or output no lesson parses (test runners,
    /// diagnostics, profilers): kept as lines.
    Unparsed { lines: Vec<String> },
}

impl Body {
    /// The parsed output of a successful lesson or reference run.
    pub fn parsed(&self) -> Option<&(dyn Parsed + 'static)> {
        match self {
            Body::Report(p) | Body::Reference(p) => Some(p.as_ref()),
            Body::Unparsed { .. } => None,
        }
    }

    /// The lesson's report, not a reference tool's output.
    pub fn report(&self) -> Option<&(dyn Parsed + 'static)> {
        match self {
            Body::Report(p) => Some(p.as_ref()),
            _ => None,
        }
    }
}

/// In a JSON twin: `{"kind": "report" | "reference", "data": {..}}`, or
/// `{"kind": "unparsed", "lines": [..]}`.
impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Body", 2)?;
        match self {
            Body::Report(p) => {
                s.serialize_field("kind", "report")?;
                s.serialize_field("data", &p.to_json())?;
            }
            Body::Reference(p) => {
                s.serialize_field("kind", "reference")?;
                s.serialize_field("data", &p.to_json())?;
            }
            Body::Unparsed { lines } => {
                s.serialize_field("kind", "unparsed")?;
                s.serialize_field("lines", lines)?;
            }
        }
        s.end()
    }
}

/// One transcript, parsed.
#[derive(Debug, Serialize)]
pub struct Transcript {
    pub file: String,
    pub header: Header,
    /// compute-sanitizer's summary lines, when the run was under it.
    pub sanitizer: Vec<String>,
    pub body: Body,
}

impl Transcript {
    /// Whether the program ran under compute-sanitizer, whose slowdown makes
    /// its timings meaningless (its own verdict is in `sanitizer`).
    pub fn under_sanitizer(&self) -> bool {
        self.header.command.contains("compute-sanitizer")
    }
}

/// Parses the text of `file`. Errors name the file and the line.
pub fn parse(file: &str, text: &str) -> Result<Transcript, ParseError> {
    let err = |line: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        message,
    };
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|l| *l == "# ---")
        .ok_or_else(|| err(lines.len().max(1), "no `# ---` line ends the header".into()))?;
    let mut header = Header::default();
    let mut seen_exit = false;
    for (i, line) in lines[..end].iter().enumerate() {
        let Some((key, value)) = line.strip_prefix("# ").and_then(|l| l.split_once(": ")) else {
            return Err(err(
                i + 1,
                format!("expected `# key: value` in the header, got {line:?}"),
            ));
        };
        let value = value.to_string();
        match key {
            "lesson" => header.lesson = value,
            "date" => header.date = value,
            "gpu" => header.gpu = value,
            "driver" => header.driver = value,
            "cuda runtime" => header.cuda_runtime = value,
            "nvcc" => header.nvcc = value,
            "host" => header.host = value,
            "command" => header.command = value,
            "environment" => header.environment = value,
            "commit" => header.commit = value,
            "exit code" => {
                header.exit_code = exit_code(value.trim()).ok_or_else(|| {
                    err(
                        i + 1,
                        format!("exit code {value:?} is not a number, a signal or `unfinished`"),
                    )
                })?;
                seen_exit = true;
            }
            _ => {} // Newer headers may carry more; they do not break older readers.
        }
    }
    for (name, value) in [
        ("lesson", &header.lesson),
        ("gpu", &header.gpu),
        ("command", &header.command),
    ] {
        if value.is_empty() {
            return Err(err(end + 1, format!("the header has no `# {name}:` line")));
        }
    }
    if !seen_exit {
        return Err(err(end + 1, "the header has no `# exit code:` line".into()));
    }

    // compute-sanitizer prefixes its own lines with `=========`.
    let first_body_line = end + 2;
    let numbered: Vec<(usize, &str)> = lines[end + 1..]
        .iter()
        .enumerate()
        .map(|(i, l)| (first_body_line + i, *l))
        .collect();
    let (sanitizer, output): (Vec<_>, Vec<_>) = numbered
        .into_iter()
        .partition(|(_, l)| l.starts_with("========="));
    let sanitizer = sanitizer.into_iter().map(|(_, l)| l.to_string()).collect();

    let body = body(file, &header, &output).map_err(|(line, m)| err(line, m))?;
    Ok(Transcript {
        file: file.to_string(),
        header,
        sanitizer,
        body,
    })
}

/// The body as the run's lesson reads it: a successful run of a registered
/// lesson is its report, or its reference tool's output when the file is
/// named after the lesson's reference (`...-<reference name>.txt`); anything
/// else stays lines. Test runners' output (`--ignored`) is never a report.
fn body(file: &str, header: &Header, output: &[(usize, &str)]) -> Result<Body, lesson_spec::Failure> {
    let lines = || Body::Unparsed {
        lines: output.iter().map(|(_, l)| l.to_string()).collect(),
    };
    let Some(lesson) = lessons::find(&header.lesson) else {
        return Ok(lines());
    };
    if header.exit_code != 0 || header.command.contains("--ignored") {
        return Ok(lines());
    }
    let reference = lesson
        .recipe()
        .reference
        .is_some_and(|r| file.ends_with(&format!("-{}.txt", r.name)));
    Ok(if reference {
        Body::Reference(lesson.parse_reference(output)?)
    } else {
        Body::Report(lesson.parse_report(output)?)
    })
}

/// `3`, `signal 9 (SIGKILL)` (as a shell reports it, 128 + 9), or
/// `unfinished` (a recording that never completed: -1). Anything but 0 is a
/// failed run.
fn exit_code(value: &str) -> Option<i32> {
    if value == "unfinished" {
        return Some(-1);
    }
    match value.strip_prefix("signal ") {
        Some(rest) => rest
            .split_whitespace()
            .next()?
            .parse::<i32>()
            .ok()
            .map(|n| 128 + n),
        None => value.parse().ok(),
    }
}

/// Reads and parses a transcript file.
pub fn read(path: &std::path::Path) -> Result<Transcript, ParseError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| ParseError {
        file: file.clone(),
        line: 0,
        message: e.to_string(),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| ParseError {
        file: file.clone(),
        line: 0,
        message: format!("not UTF-8 ({e})"),
    })?;
    parse(&file, &text)
}
