//! `evidence record`: run a lesson program (or a checker around it) and write
//! its transcript, `<dir>/<lesson>/<UTC start>-<name>.txt`, with the metadata
//! header, and a JSON twin beside it holding every number. Never overwrites;
//! a run that fails is recorded as failed, with its exit code and output.
//!
//! What is on disk is whole or honestly unfinished, whatever stops the
//! recorder:
//! - The transcript appears under its name already holding its header, with
//!   `# exit code: unfinished` (written to a temporary file, then linked to
//!   the first free name), and the output follows as it comes, so a
//!   recorder that is killed leaves the run so far, saying it is unfinished.
//! - When the program ends the header is completed (`# exit code: 3`, or
//!   `# exit code: signal 9 (SIGKILL)`, and an `# ended by:` line when the
//!   recorder had a hand in it) and the file is replaced by its finished
//!   version in one rename; the twin is written the same way.
//! - If the transcript cannot be finished (a full disk, a folder made
//!   read-only), the error says how the program ended, since the file
//!   cannot.
//!
//! `--lesson` is a lesson of the registry or one of [`lessons::OTHER_FOLDERS`], and
//! `--name` one file-name word, so a transcript lands where `evidence check`
//! looks and nowhere else. `# command:` is shell-quoted, so it can be run
//! again as written. How the program is run and watched is [`supervise`]'s.
//! Not for: parsing transcripts (`transcript`) or judging runs.

mod supervise;

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use evidence_model::{atomic, transcript, twin};
use supervise::{signal_name, Ending, Failure, Watch};

/// What to run and where to put the record.
pub struct Request {
    pub dir: PathBuf,
    /// A lesson's name, or one of [`lessons::OTHER_FOLDERS`] ([`lesson_folder`]).
    pub lesson: String,
    /// One file-name word ([`run_name`]).
    pub name: String,
    /// `VAR=value` assignments that change the program's behaviour.
    pub env: Vec<(String, String)>,
    pub command: Vec<String>,
    /// Ends a program still running after this long (SIGKILL to its group).
    pub timeout: Option<Duration>,
    /// How long a program has to end after the recorder passes on a stop
    /// signal, before SIGKILL.
    pub grace: Duration,
}

/// A recording that was made: the transcript, and how its program ended.
#[derive(Debug)]
pub struct Recorded {
    pub path: PathBuf,
    /// The recorder's exit status for it: see [`Recorded::exit_status`].
    ending: Option<Ending>,
    /// Invalid UTF-8 sequences in the program's output, each written as
    /// U+FFFD: a transcript is text, and the recorder says when it is not
    /// the output byte for byte.
    pub replaced: usize,
}

impl Recorded {
    /// The program's exit status as a shell gives it (128 + N for a program
    /// ended by signal N; 127 for one that could not start), or 124 when
    /// the timeout ended it, as `timeout(1)` says.
    pub fn exit_status(&self) -> u8 {
        self.ending.as_ref().map_or(127, Ending::exit_status)
    }
}

/// Why a recording was not made, or not finished.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{0}: {1}")]
    Recorder(&'static str, io::Error),
    /// A header fact `evidence check` would refuse; nothing was run.
    #[error("nothing recorded: {0}")]
    Header(String),
    #[error(
        "{}: the transcript could not be finished ({source}); it still says `exit code: unfinished`, \
         but the program ended with exit code {exit_code}{}",
        path.display(),
        ended_by.as_ref().map_or(String::new(), |e| format!(", ended by {e}"))
    )]
    Unfinished {
        path: PathBuf,
        exit_code: String,
        ended_by: Option<String>,
        source: io::Error,
    },
    #[error(
        "recording stopped by {}, which was passed on to the program; its transcript is {}",
        signal_name(*signal),
        path.display()
    )]
    Stopped { signal: i32, path: PathBuf },
}

impl Error {
    /// The recorder's exit status for this error: 128 + N for a recorder
    /// stopped by signal N, as a shell reports a process it ended; 1 for a
    /// recording that failed.
    pub fn exit_status(&self) -> u8 {
        match self {
            Error::Stopped { signal, .. } => (128 + signal).clamp(0, 255) as u8,
            _ => 1,
        }
    }
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A value of one of `evidence record`'s options that it refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadValue {
    #[error(transparent)]
    Folder(#[from] lessons::UnknownFolder),
    #[error(
        "{0:?} is not a run name: one word of at most {max} letters, digits, '.', '_', '+' and '-', \
         starting with a letter or digit",
        max = transcript::MAX_RUN_NAME
    )]
    RunName(String),
    #[error("{0:?} holds a line break, which a transcript's header cannot record")]
    LineBreak(String),
    #[error("{0:?}: expected a number of seconds above zero")]
    Seconds(String),
    #[error("`{0}` is not VAR=value (put -- before the command)")]
    NotAnAssignment(String),
}

/// The value of `--lesson`: an evidence folder ([`lessons::folder`]);
/// anything else (`../x`, `/tmp`, `''`, a typo) would put the transcript
/// where `evidence check` does not look.
pub fn lesson_folder(name: &str) -> Result<String, BadValue> {
    Ok(lessons::folder(name)?.to_string())
}

/// The value of `--name`: a [run name](transcript::is_run_name), checked
/// before anything runs, so that no program runs for a transcript or twin
/// that could not be named.
pub fn run_name(name: &str) -> Result<String, BadValue> {
    match transcript::is_run_name(name) {
        true => Ok(name.to_string()),
        false => Err(BadValue::RunName(name.to_string())),
    }
}

/// A word of the command or the environment: anything a header line can
/// hold, which is anything without a line break (or NUL, which no argument
/// can hold).
pub fn header_word(word: &str) -> Result<String, BadValue> {
    match word.contains(['\n', '\r', '\0']) {
        false => Ok(word.to_string()),
        true => Err(BadValue::LineBreak(word.to_string())),
    }
}

/// A `VAR=value` assignment the command runs with, a [header
/// word](header_word) whose name is not empty and is no flag.
pub fn env_assignment(word: &str) -> Result<(String, String), BadValue> {
    let word = header_word(word)?;
    match word.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.starts_with('-') => Ok((k.to_string(), v.to_string())),
        _ => Err(BadValue::NotAnAssignment(word)),
    }
}

/// A number of seconds above zero, fractions allowed (`--timeout`,
/// `--grace`).
pub fn parse_seconds(seconds: &str) -> Result<Duration, BadValue> {
    seconds
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| BadValue::Seconds(seconds.to_string()))
}

fn stdout_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The header's machine facts, read the way a person would read them.
fn machine() -> (String, String, String, String) {
    let gpu = stdout_of(
        "nvidia-smi",
        &[
            "--query-gpu=name,compute_cap,driver_version",
            "--format=csv,noheader",
            "-i",
            "0",
        ],
    )
    .unwrap_or_default();
    let mut parts = gpu.split(',').map(str::trim);
    let (name, cc, driver) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let cuda = stdout_of("nvidia-smi", &[])
        .and_then(|s| {
            s.split("CUDA Version:")
                .nth(1)
                .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let gpu_line = if name.is_empty() {
        "none found (nvidia-smi did not answer)".to_string()
    } else {
        format!("{name} (compute capability {cc})")
    };
    let driver_line = format!(
        "{} (CUDA {cuda})",
        if driver.is_empty() { "unknown" } else { &driver }
    );
    // A program built elsewhere (a Rust twin, or a lesson built with another
    // toolkit) names its compiler in EVIDENCE_NVCC; the nvcc here did not
    // build it.
    let nvcc = std::env::var("EVIDENCE_NVCC")
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| {
            stdout_of("nvcc", &["--version"]).and_then(|v| {
                v.lines()
                    .find(|l| l.contains("release"))
                    .map(|l| l.trim().to_string())
            })
        })
        .unwrap_or_else(|| "not found".into());
    let host = format!(
        "{}, {} cores",
        stdout_of("uname", &["-srm"]).unwrap_or_default(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    (gpu_line, driver_line, nvcc, host)
}

/// The exit code line of a transcript whose program had not ended when the
/// recorder stopped (a recorder killed outright never gets to replace it).
const UNFINISHED: &str = "unfinished";

/// Words joined so that a POSIX shell reads them back as they were.
fn shell_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<String, Error> {
    shlex::try_join(words).map_err(|e| Error::Recorder("quoting the command", io::Error::other(e)))
}

/// An environment value as `# environment:` writes it: as it is when it is
/// one plain word (`EAGER`, `glibc.malloc.hugetlb=1`, as readers match it
/// with `has_env`), shell-quoted otherwise, so the line still splits into
/// its assignments.
fn env_value(value: &str) -> Result<String, Error> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    match !value.is_empty() && value.chars().all(plain) {
        true => Ok(value.to_string()),
        false => shell_words([value]),
    }
}

/// The run's start as the header dates it. Without a date the transcript
/// would be one `evidence check` refuses, so nothing is run.
fn start() -> Result<String, Error> {
    transcript::utc_now().ok_or_else(|| {
        Error::Header("cannot tell the date (`date -u` did not answer), and a transcript is dated".into())
    })
}

/// The commit the program was built from: EVIDENCE_COMMIT, or the checkout's
/// HEAD. One `evidence check` would refuse (none, or no commit name) stops
/// the recording before anything runs.
fn commit() -> Result<String, Error> {
    let (commit, from) = match std::env::var("EVIDENCE_COMMIT") {
        Ok(commit) => (commit, "EVIDENCE_COMMIT"),
        Err(_) => {
            let head = stdout_of("git", &["rev-parse", "HEAD"]).ok_or_else(|| {
                Error::Header(
                    "no commit to record: EVIDENCE_COMMIT is not set and `git rev-parse HEAD` did not \
                     answer; set EVIDENCE_COMMIT to the commit the program was built from"
                        .into(),
                )
            })?;
            (head, "`git rev-parse HEAD`")
        }
    };
    transcript::check_commit(&commit).map_err(|e| Error::Header(format!("{from}: {e}")))?;
    Ok(commit)
}

/// The header's facts, gathered before the program starts.
struct Header {
    lesson: String,
    start: String,
    gpu: String,
    driver: String,
    runtime: String,
    nvcc: String,
    host: String,
    command: String,
    environment: String,
    commit: String,
}

impl Header {
    fn gather(req: &Request) -> Result<Header, Error> {
        let (gpu, driver, nvcc, host) = machine();
        let environment = if req.env.is_empty() {
            "(nothing that changes behaviour)".to_string()
        } else {
            let pairs: Result<Vec<String>, Error> = req
                .env
                .iter()
                .map(|(k, v)| Ok(format!("{k}={}", env_value(v)?)))
                .collect();
            pairs?.join(" ")
        };
        Ok(Header {
            lesson: req.lesson.clone(),
            start: start()?,
            gpu,
            driver,
            runtime: std::env::var("EVIDENCE_RUNTIME")
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or_else(|| "unknown".into()),
            nvcc,
            host,
            command: shell_words(req.command.iter().map(String::as_str))?,
            environment,
            commit: commit()?,
        })
    }

    /// The header's text, through `# ---`, for an ending known or not.
    fn text(&self, exit_code: &str, ended_by: Option<&str>) -> String {
        let ended_by = ended_by.map_or(String::new(), |s| format!("# ended by: {s}\n"));
        format!(
            "# lesson: {}\n# date: {}\n# gpu: {}\n# driver: {}\n# cuda runtime: {}\n# nvcc: {}\n\
             # host: {}\n# command: {}\n# environment: {}\n# commit: {}\n# exit code: {exit_code}\n\
             {ended_by}# ---\n",
            self.lesson,
            self.start,
            self.gpu,
            self.driver,
            self.runtime,
            self.nvcc,
            self.host,
            self.command,
            self.environment,
            self.commit,
        )
    }
}

/// Creates the transcript, holding `opening`, under the first free name:
/// the start time and the run's name, numbered from 2 if taken. The text is
/// written to a temporary file first and linked to the name only if the name
/// is free, so two recorders starting together never share one, nothing
/// already there is ever replaced, and no reader sees a half-written header.
fn create_free(dir: &Path, stamp: &str, name: &str, opening: &str) -> Result<(PathBuf, File), Error> {
    let compact: String = stamp.chars().filter(|c| *c != ':').collect();
    let mut draft = atomic::draft(dir, atomic::new_file()).map_err(io_at(dir))?;
    draft.write_all(opening.as_bytes()).map_err(io_at(draft.path()))?;
    for n in 1.. {
        let file = if n == 1 {
            format!("{compact}-{name}.txt")
        } else {
            format!("{compact}-{name}-{n}.txt")
        };
        let path = dir.join(file);
        match draft.persist_noclobber(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => draft = e.file,
            Err(e) => return Err(io_at(&path)(e.error)),
        }
    }
    unreachable!("the numbering is unbounded")
}

/// The finished transcript: the header completed, the output as recorded
/// (invalid UTF-8 replaced, as a transcript is text), read back from the
/// open file after the opening header, and how many invalid UTF-8
/// sequences became U+FFFD (the recorder says so: see [`Recorded::replaced`]).
fn finished_text(file: &mut File, opening_len: usize, header: &str) -> io::Result<(String, usize)> {
    file.seek(io::SeekFrom::Start(opening_len as u64))?;
    let mut output = Vec::new();
    file.read_to_end(&mut output)?;
    let replaced = output.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
    Ok((format!("{header}{}", String::from_utf8_lossy(&output)), replaced))
}

/// Runs the request and writes the transcript and its twin. The program's
/// own failure is recorded, not an error: see [`Recorded::exit_status`].
pub fn record(req: &Request) -> Result<Recorded, Error> {
    let (program, args) = req
        .command
        .split_first()
        .ok_or_else(|| Error::Recorder("reading the command", io::Error::other("no command to record")))?;
    // The header first: one that cannot be written leaves no trace.
    let header = Header::gather(req)?;
    let dir = req.dir.join(&req.lesson);
    std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    let opening = header.text(UNFINISHED, None);
    let (path, mut file) = create_free(&dir, &header.start, &req.name, &opening)?;
    let output = file.try_clone().map_err(io_at(&path))?;
    let mut cmd = Command::new(program);
    cmd.args(args).envs(req.env.iter().map(|(k, v)| (k, v)));
    let watch = Watch {
        timeout: req.timeout,
        grace: req.grace,
        output_cap: evidence_model::capped::record_cap(opening.len()),
    };
    let unfinished = |ending: &Ending, source| Error::Unfinished {
        path: path.clone(),
        exit_code: ending.exit_code_text(),
        ended_by: ending.ended_by(),
        source,
    };
    let ending = match supervise::run(cmd, output, &watch) {
        Ok(ending) => Some(ending),
        Err(Failure::Start(e)) => {
            // Recorded as a shell would report it: exit code 127.
            let note = format!("could not start {program}: {e}\n");
            file.write_all(note.as_bytes()).map_err(io_at(&path))?;
            None
        }
        Err(Failure::Recorder(what, e)) => return Err(Error::Recorder(what, e)),
        Err(Failure::Output(ending, e)) => return Err(unfinished(&ending, e)),
    };
    let exit_code = ending.as_ref().map_or("127".to_string(), Ending::exit_code_text);
    let ended_by = ending.as_ref().and_then(Ending::ended_by);
    let text = finished_text(
        &mut file,
        opening.len(),
        &header.text(&exit_code, ended_by.as_deref()),
    )
    .and_then(|(text, replaced)| atomic::write(&path, &text).map(|()| (text, replaced)));
    let (text, replaced) = match (text, &ending) {
        (Ok(done), _) => done,
        (Err(e), Some(ending)) => return Err(unfinished(ending, e)),
        (Err(e), None) => return Err(io_at(&path)(e)),
    };
    twin::write(&path, &text).map_err(io_at(&path.with_extension("json")))?;
    if let Some(supervise::Stopper::Recorder(signal)) = ending.as_ref().and_then(|e| e.stopper) {
        return Err(Error::Stopped { signal, path });
    }
    Ok(Recorded {
        path,
        ending,
        replaced,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_is_never_replaced_and_the_next_number_is_used() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::write(dir.join("2026-01-02T030405Z-run.txt"), "kept").unwrap();
        let (second, _) = create_free(dir, "2026-01-02T03:04:05Z", "run", "second").unwrap();
        let (third, _) = create_free(dir, "2026-01-02T03:04:05Z", "run", "third").unwrap();
        assert_eq!(second, dir.join("2026-01-02T030405Z-run-2.txt"));
        assert_eq!(third, dir.join("2026-01-02T030405Z-run-3.txt"));
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(read("2026-01-02T030405Z-run.txt"), "kept");
        assert_eq!(read("2026-01-02T030405Z-run-2.txt"), "second");
        assert_eq!(read("2026-01-02T030405Z-run-3.txt"), "third");
        // No draft is left behind: every file is a transcript.
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 3);
    }

    #[test]
    fn seconds_are_positive_numbers() {
        assert_eq!(parse_seconds("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_seconds("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-2", "x", "", "inf", "NaN"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_assignment_is_a_named_var_equals_value() {
        assert_eq!(env_assignment("A=1"), Ok(("A".into(), "1".into())));
        assert_eq!(env_assignment("A="), Ok(("A".into(), String::new())));
        for bad in ["=1", "-x=1", "--", "run"] {
            assert_eq!(
                env_assignment(bad).unwrap_err().to_string(),
                format!("`{bad}` is not VAR=value (put -- before the command)")
            );
        }
        assert_eq!(
            env_assignment("A=1\n2"),
            Err(BadValue::LineBreak("A=1\n2".into()))
        );
    }

    #[test]
    fn only_known_folders_and_one_word_names_are_taken() {
        for good in [
            "day09-timing",
            "machine",
            "gpu-tests",
            "instrument-suite",
            "diagnostics",
        ] {
            assert_eq!(lesson_folder(good).as_deref(), Ok(good));
        }
        for bad in [
            "../../escaped",
            "/tmp",
            "",
            ".",
            "..",
            "day09-timing/..",
            "scratch",
            "Day09-timing",
        ] {
            let e = lesson_folder(bad).unwrap_err().to_string();
            assert!(e.contains("known: ") && e.contains("day09-timing"), "{bad}: {e}");
        }
        for good in [
            "h200-cxx",
            "h200-x2-rust-eager",
            "r1-suite-1",
            "modes-graph_pdl-2",
            "a",
        ] {
            assert_eq!(run_name(good).as_deref(), Ok(good));
        }
        for bad in ["", "a/b", "../x", "/abs", ".hidden", "-flag", "a b", "a\nb", "é"] {
            assert!(run_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_command_is_written_so_a_shell_runs_it_again() {
        let words = [
            "sh",
            "-c",
            "echo \"$HOME\" 'it''s' | wc",
            "two words",
            "",
            "plain",
        ];
        let line = shell_words(words).unwrap();
        let out = Command::new("sh")
            .args(["-c", &format!("for w in {line}; do printf '<%s>' \"$w\"; done")])
            .output()
            .unwrap();
        let expected: String = words.iter().map(|w| format!("<{w}>")).collect();
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{line}");
        assert!(header_word("a\nb").is_err());
        assert_eq!(header_word("a b").as_deref(), Ok("a b"));
    }
}
