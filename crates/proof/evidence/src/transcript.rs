//! A transcript: the metadata header `evidence record` (and before it
//! `ci/record.sh`) writes, then `# ---`, then the program's output as printed.

use std::path::Path;

use lesson_spec::{quoted, Parsed};
use serde::Serialize;

pub use crate::problem::shown;
use crate::problem::Problem;

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
        #[derive(Serialize)]
        #[serde(tag = "kind", rename_all = "lowercase")]
        enum Twin<'a> {
            Report { data: serde_json::Value },
            Reference { data: serde_json::Value },
            Unparsed { lines: &'a [String] },
        }
        match self {
            Body::Report(p) => Twin::Report { data: p.to_json() },
            Body::Reference(p) => Twin::Reference { data: p.to_json() },
            Body::Unparsed { lines } => Twin::Unparsed { lines },
        }
        .serialize(serializer)
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
    /// Each header field and its line, for errors about the file as a whole.
    #[serde(skip)]
    pub field_lines: Vec<(String, usize)>,
    /// Every number of the parsed body, labelled as its lesson labels it
    /// (none for a run no lesson parses): made once, when the run is read,
    /// since every figure a page or a check asks for is looked up here, and
    /// each list is made by formatting every label of its report.
    #[serde(skip)]
    pub figures: Vec<(String, f64)>,
}

/// Which of its lesson's two programs a run is, by its file name's last
/// part: the C++ program (`-cxx`), the Rust twin (`-rust`), or neither (a
/// reference tool, a test runner, a diagnostics probe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Program {
    Cxx,
    Rust,
    Other,
}

impl Program {
    /// The lesson's two programs, the C++ one first, as charts and tables
    /// give them.
    pub const TWINS: [Program; 2] = [Program::Cxx, Program::Rust];

    /// The word a run's name carries for it (`h200-cxx`): `cxx`, `rust`,
    /// `other`.
    pub fn word(self) -> &'static str {
        match self {
            Program::Cxx => "cxx",
            Program::Rust => "rust",
            Program::Other => "other",
        }
    }

    /// The program of the run recorded in `file`. A name with both words
    /// (`...-rust-vs-cxx`) is the Rust twin's.
    pub fn of_file(file: &str) -> Program {
        let stem = file.rsplit('/').next().unwrap_or(file);
        if stem.contains("-rust") {
            Program::Rust
        } else if stem.contains("-cxx") {
            Program::Cxx
        } else {
            Program::Other
        }
    }
}

impl Transcript {
    /// Which of its lesson's programs the run is ([`Program::of_file`]).
    pub fn program(&self) -> Program {
        Program::of_file(&self.file)
    }

    /// The line of header field `key` (1 when it has none).
    pub fn line_of(&self, key: &str) -> usize {
        self.field_lines
            .iter()
            .find(|(k, _)| k == key)
            .map_or(1, |(_, line)| *line)
    }

    /// Whether the program ran under compute-sanitizer, whose slowdown makes
    /// its timings meaningless (its own verdict is in `sanitizer`).
    pub fn under_sanitizer(&self) -> bool {
        self.header.command.contains("compute-sanitizer")
    }
}

/// The fields every header has, each once, as `evidence record` writes
/// them (and `ci/record.sh` before it).
pub const REQUIRED: [&str; 11] = [
    "lesson",
    "date",
    "gpu",
    "driver",
    "cuda runtime",
    "nvcc",
    "host",
    "command",
    "environment",
    "commit",
    "exit code",
];

/// The longest message a transcript's error carries: a lesson's parser may
/// quote the line it could not read, and one line may be the whole file.
const MESSAGE_CHARS: usize = 300;

fn capped(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        None => message,
        Some((cut, _)) => format!("{}... ({} bytes in all)", &message[..cut], message.len()),
    }
}

/// The most lines a transcript may have: 1,048,576. A reader keeps about
/// 100 bytes a line, so 16 MiB of blank lines (16 million) took 490 MB; the
/// committed evidence's longest transcript has 340 lines.
pub const MAX_LINES: usize = 1 << 20;

/// The longest GPU name a header may give, in bytes: sessions and their
/// pages are named after it. The longest in the evidence is 36.
pub const MAX_GPU_NAME: usize = 100;

/// No run of this course is dated before this year.
const FIRST_YEAR: i32 = 2020;

/// Parses the text of `file`: a header with every field of [`REQUIRED`]
/// once, each value possible (a calendar date, a commit, an exit status),
/// and a body whose every number is finite and whose times are not
/// negative. Errors name the file and the line.
pub fn parse(file: &str, text: &str) -> Result<Transcript, Problem> {
    let err = |line: usize, message: String| Problem::at(file, line, capped(message));
    // Bounded before anything is kept per line, so a file of blank lines
    // (16 MiB of them would be 16 million) costs no more than its bytes.
    // `matches` finds each with memchr, fast in a debug build too.
    let count = text.matches('\n').count();
    if count > MAX_LINES {
        return Err(err(
            0,
            format!("{count} lines, over the {MAX_LINES}-line cap on a transcript"),
        ));
    }
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        return Err(err(
            line,
            "a NUL byte: a transcript is text (a sparse or binary file is not one)".into(),
        ));
    }
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|l| *l == "# ---")
        .ok_or_else(|| err(lines.len().max(1), "no `# ---` line ends the header".into()))?;
    let mut header = Header::default();
    let mut field_lines: Vec<(String, usize)> = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        let Some((key, value)) = line.strip_prefix("# ").and_then(|l| l.split_once(": ")) else {
            return Err(err(
                i + 1,
                format!("expected `# key: value` in the header, got {}", quoted(line)),
            ));
        };
        if let Some((_, first)) = field_lines.iter().find(|(k, _)| k == key) {
            return Err(err(
                i + 1,
                format!("`# {key}:` appears again (first on line {first}); a run has one"),
            ));
        }
        field_lines.push((key.to_string(), i + 1));
        let value = value.to_string();
        if REQUIRED.contains(&key) && value.trim().is_empty() {
            return Err(err(i + 1, format!("`# {key}:` is empty")));
        }
        match key {
            "lesson" => header.lesson = value,
            "date" => {
                check_date(&value).map_err(|m| err(i + 1, m.to_string()))?;
                header.date = value;
            }
            "gpu" if value.len() > MAX_GPU_NAME => {
                return Err(err(
                    i + 1,
                    format!(
                        "a GPU name of {} bytes, over the {MAX_GPU_NAME}-byte cap",
                        value.len()
                    ),
                ));
            }
            "gpu" => header.gpu = value,
            "driver" => header.driver = value,
            "cuda runtime" => header.cuda_runtime = value,
            "nvcc" => header.nvcc = value,
            "host" => header.host = value,
            "command" => header.command = value,
            "environment" => header.environment = value,
            "commit" => {
                check_commit(&value).map_err(|m| err(i + 1, m.to_string()))?;
                header.commit = value;
            }
            "exit code" => {
                header.exit_code = exit_code(value.trim()).ok_or_else(|| {
                    err(
                        i + 1,
                        format!(
                            "exit code {} is not 0 to 255, `signal N (NAME)` with N from 1 to {MAX_SIGNAL}, or `unfinished`",
                            quoted(&value)
                        ),
                    )
                })?;
            }
            _ => {} // Newer headers may carry more; they do not break older readers.
        }
    }
    if let Some(missing) = REQUIRED
        .iter()
        .find(|k| !field_lines.iter().any(|(f, _)| f == *k))
    {
        return Err(err(end + 1, format!("the header has no `# {missing}:` line")));
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

    let body = body(file, &header, &output).map_err(|f| err(f.line, f.message))?;
    let figures = body.parsed().map(|p| p.figures()).unwrap_or_default();
    impossible_figure(&figures).map_err(|m| err(first_body_line, m.to_string()))?;
    Ok(Transcript {
        file: file.to_string(),
        header,
        sanitizer,
        body,
        field_lines,
        figures,
    })
}

/// `CUDA 13.0` from an nvcc line such as `release 13.0, V13.0.88` (or
/// nvcc's whole banner); the line as written when it names no release.
pub fn toolkit(nvcc: &str) -> String {
    nvcc.split("release ")
        .nth(1)
        .and_then(|rest| rest.split([',', ' ']).next())
        .filter(|v| !v.is_empty())
        .map_or_else(|| nvcc.trim().to_string(), |v| format!("CUDA {v}"))
}

/// How `evidence record` writes a date: UTC, to the second, as
/// [`utc_now`] gives it.
const DATE_FORMAT: &[time::format_description::FormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");

/// The header's date as a calendar time, if it is one written as
/// `evidence record` writes it.
pub fn date(value: &str) -> Option<time::PrimitiveDateTime> {
    time::PrimitiveDateTime::parse(value, DATE_FORMAT).ok()
}

/// The current UTC time from date(1), as a header's `# date:` holds it:
/// this crate reads no clock itself (CUDA-CODE-STYLE.md rule 1). `record`
/// dates a run with it, and `load` tells a date in the future by it.
pub fn utc_now() -> Option<String> {
    let out = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .ok()?;
    let now = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && date(&now).is_some()).then_some(now)
}

/// A header value, a figure or a command that no real run could have
/// given: why a transcript is refused (as a [`Problem`]'s message).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Impossible {
    #[error("date {} is not a UTC time as `evidence record` writes it (2026-11-30T04:44:49Z)", quoted(.0))]
    Date(String),
    #[error("date {0} is before {FIRST_YEAR}, when no run of this course was recorded")]
    TooEarly(String),
    #[error("commit {} is not a git commit (7 to 40 hexadecimal digits)", quoted(.0))]
    Commit(String),
    #[error("figure `{label}` is {value}, not a finite number")]
    NotFinite { label: String, value: f64 },
    #[error("figure `{label}` is {value}: a time is never negative")]
    NegativeTime { label: String, value: f64 },
    #[error("the file is named as a run of {program}, but its command does not run `{binary}`")]
    WrongProgram { program: &'static str, binary: String },
}

fn check_date(value: &str) -> Result<(), Impossible> {
    match date(value) {
        None => Err(Impossible::Date(value.to_string())),
        Some(d) if d.year() < FIRST_YEAR => Err(Impossible::TooEarly(value.to_string())),
        Some(_) => Ok(()),
    }
}

/// A commit is a git object name: 7 to 40 lowercase hexadecimal digits.
/// `record` holds the commit it writes to the same rule.
pub fn check_commit(value: &str) -> Result<(), Impossible> {
    let hex = value
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if hex && (7..=40).contains(&value.len()) {
        Ok(())
    } else {
        Err(Impossible::Commit(value.to_string()))
    }
}

/// The units a figure's label ends with (`row 4 after warm-up, ms`) that
/// make it a time, which no run can measure below zero. A difference of two
/// times, which may be, says so after its unit (`..., us (signed)`), and is
/// not one of these.
const TIME_UNITS: [&str; 4] = ["s", "ms", "us", "ns"];

/// The first figure no run could have measured: one not finite (a NaN, or
/// a value too large for its type, read as `inf`), or a negative time.
fn impossible_figure(figures: &[(String, f64)]) -> Result<(), Impossible> {
    for (label, value) in figures {
        let (label, value) = (label.clone(), *value);
        if !value.is_finite() {
            return Err(Impossible::NotFinite { label, value });
        }
        let unit = label.rsplit(", ").next().unwrap_or("");
        if value < 0.0 && label.contains(", ") && TIME_UNITS.contains(&unit) {
            return Err(Impossible::NegativeTime { label, value });
        }
    }
    Ok(())
}

/// The body as the run's lesson reads it: a successful run of a registered
/// lesson is its report, or its reference tool's output when the file is
/// named after the lesson's reference (`...-<reference name>.txt`); anything
/// else stays lines. Test runners' output (`--ignored`) is never a report.
fn body(file: &str, header: &Header, output: &[(usize, &str)]) -> Result<Body, lesson_spec::ParseFailure> {
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

/// The highest signal number Linux has (`SIGRTMAX`).
const MAX_SIGNAL: i32 = 64;

/// `3` (0 to 255, as a process can exit), `signal 9 (SIGKILL)` (as a shell
/// reports it, 128 + 9; a signal from 1 to 64), or `unfinished` (a
/// recording that never completed: -1). Anything but 0 is a failed run.
fn exit_code(value: &str) -> Option<i32> {
    if value == "unfinished" {
        return Some(-1);
    }
    let code = match value.strip_prefix("signal ") {
        Some(rest) => {
            let (number, name) = rest.split_once(' ').unwrap_or((rest, ""));
            let named = name.is_empty() || (name.starts_with("(SIG") && name.ends_with(')'));
            let n: i32 = number.parse().ok().filter(|n| (1..=MAX_SIGNAL).contains(n))?;
            named.then_some(128 + n)?
        }
        None => value.parse().ok().filter(|c| (0..=255).contains(c))?,
    };
    Some(code)
}

/// The longest run name (`--name`, and a file name's `NAME`): it leaves
/// `<date>-NAME-<number>.txt` and any page named after it well within the
/// 255 bytes a file name may have.
pub const MAX_RUN_NAME: usize = 100;

/// Whether `name` is a run name: one file-name word of at most
/// [`MAX_RUN_NAME`] letters, digits, `.`, `_`, `+` and `-`, starting with a
/// letter or digit (`h200-cxx-eager`), so it never breaks an error's line.
pub fn is_run_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= MAX_RUN_NAME
        && chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
}

/// Why a file in the evidence is not even read: its name is none
/// `evidence record` gives (`<date without colons>-NAME.txt`, NAME a
/// [run name](is_run_name)); the name is quoted, so a line break in it is
/// shown, not printed.
pub fn misnamed(path: &Path) -> Option<Problem> {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let stem = name.strip_suffix(".txt");
    // Only the characters and the length are held here; where the date and
    // the run's name stand is [`place`]'s to say, once the header is read.
    let longest = "2026-11-30T054300Z-".len() + MAX_RUN_NAME;
    let fits = stem.is_some_and(|s| {
        s.len() <= longest
            && s.starts_with(|c: char| c.is_ascii_alphanumeric())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
    });
    (!fits).then(|| {
        Problem::of_file(
            shown(path),
            format!(
                "not a file name `evidence record` gives: `<UTC date without colons>-NAME.txt`, \
                 NAME one word of at most {MAX_RUN_NAME} letters, digits, '.', '_', '+' and '-'"
            ),
        )
    })
}

/// Reads and parses a transcript file, and checks that it stands where its
/// header puts it ([`place`]).
pub fn read(path: &Path) -> Result<Transcript, Problem> {
    read_with_text(path).map(|(t, _)| t)
}

/// [`read`], with the file's text.
pub fn read_with_text(path: &Path) -> Result<(Transcript, String), Problem> {
    let file = path.display().to_string();
    let bytes = crate::capped::transcript(path).map_err(|e| Problem::of_file(&file, e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| Problem::of_file(&file, format!("not UTF-8 ({e})")))?;
    let t = parse(&file, &text)?;
    place(path, &t)?;
    Ok((t, text))
}

/// Whether a transcript is where, and named as, its header says: in its
/// lesson's folder, named `<its date, without colons>-NAME.txt`, and, for a
/// lesson's own program (`-cxx` or `-rust`), running that program; so a
/// copy moved or renamed is counted nowhere it does not belong.
pub fn place(path: &Path, t: &Transcript) -> Result<(), Problem> {
    let err = |key: &str, message: String| Problem::at(&t.file, t.line_of(key), message);
    lessons::folder(&t.header.lesson).map_err(|m| err("lesson", format!("the header's lesson: {m}")))?;
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let folder = absolute.parent().and_then(Path::file_name);
    if let Some(folder) = folder.map(|f| f.to_string_lossy()) {
        if folder != t.header.lesson {
            return Err(err(
                "lesson",
                format!(
                    "the header says lesson `{}`, but the transcript is in `{folder}/`",
                    t.header.lesson
                ),
            ));
        }
    }
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let stamp: String = t.header.date.chars().filter(|c| *c != ':').collect();
    let run_name = name
        .strip_prefix(&stamp)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|rest| rest.strip_suffix(".txt"));
    let Some(run_name) = run_name.filter(|n| !n.is_empty()) else {
        return Err(err(
            "date",
            format!("the file name does not begin with the run's date as `evidence record` names it: `{stamp}-NAME.txt`"),
        ));
    };
    if !is_run_name(run_name) {
        return Err(err(
            "date",
            format!(
                "`{run_name}` in the file name is not a run name `evidence record --name` takes: \
                 at most {MAX_RUN_NAME} letters, digits, '.', '_', '+' and '-', starting with a letter or digit"
            ),
        ));
    }
    program_matches(t).map_err(|m| err("command", m.to_string()))
}

/// A run named as one of its lesson's programs runs that program: `-cxx`
/// the binary of the lesson's nvcc line, `-rust` the lesson's own binary.
fn program_matches(t: &Transcript) -> Result<(), Impossible> {
    let Some(lesson) = lessons::find(&t.header.lesson) else {
        return Ok(());
    };
    let runs = |wanted: &dyn Fn(&str) -> bool| {
        t.header
            .command
            .split_whitespace()
            .any(|word| wanted(word.rsplit('/').next().unwrap_or(word)))
    };
    let (program, binary) = match t.program() {
        Program::Cxx => (
            "the C++ program",
            lesson.recipe().binary().unwrap_or_default().to_string(),
        ),
        Program::Rust => ("the Rust twin", lesson.name().to_string()),
        Program::Other => return Ok(()),
    };
    let twin_variant = format!("{binary}-");
    if runs(&|b| b == binary || (program == "the Rust twin" && b.starts_with(&twin_variant))) {
        Ok(())
    } else {
        Err(Impossible::WrongProgram { program, binary })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figures given as they are, to hold [`impossible_figure`] to them.
    fn figures(list: &[(&str, f64)]) -> Vec<(String, f64)> {
        list.iter().map(|(l, v)| (l.to_string(), *v)).collect()
    }

    #[test]
    fn the_toolkit_is_read_from_either_form_of_the_nvcc_line() {
        assert_eq!(toolkit("release 13.0, V13.0.88"), "CUDA 13.0");
        assert_eq!(
            toolkit("Cuda compilation tools, release 13.5, V13.5.37"),
            "CUDA 13.5"
        );
        assert_eq!(toolkit("none (python)"), "none (python)");
    }

    #[test]
    fn a_negative_time_is_impossible_but_a_signed_difference_is_not() {
        let time = figures(&[("spin wake-up, us", -4.2)]);
        let err = impossible_figure(&time).unwrap_err().to_string();
        assert!(err.contains("never negative"), "{err}");
        let difference = figures(&[("spin wait after the calls less the kernel, us (signed)", -4.2)]);
        assert_eq!(impossible_figure(&difference), Ok(()));
        let not_finite = figures(&[("spin wait after the calls less the kernel, us (signed)", f64::NAN)]);
        assert!(impossible_figure(&not_finite).is_err());
    }
}
