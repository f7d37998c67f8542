//! The evidence folder read the way every command reads it: each
//! transcript read and placed ([`transcript::read`]), none dated after now,
//! no run counted twice. What fails is a problem naming its file; only the
//! runs that pass make any table, figure or chart. [`joining`] holds runs
//! about to join the folder (`evidence merge`) to the same checks.
//!
//! Not for: judging what the runs show (that is [`crate::check`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::problem::Problem;
use crate::transcript::{self, Body, Transcript};

/// Why the evidence could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no transcripts found", .0.display())]
    NoTranscripts(PathBuf),
    #[error("cannot tell today's date (`date -u` did not answer), so no transcript's date can be checked")]
    NoClock,
}

/// The runs that passed every check, and one line for each problem.
#[derive(Debug, Default)]
pub struct Loaded {
    pub transcripts: Vec<Transcript>,
    pub problems: Vec<Problem>,
}

/// Every transcript under `dir`, checked.
pub fn load(dir: &Path) -> Result<Loaded, LoadError> {
    let files = transcript_files(dir);
    if files.is_empty() {
        return Err(LoadError::NoTranscripts(dir.to_path_buf()));
    }
    joining(&files, &[])
}

/// The transcripts (`*.txt`, and `*.txt.gz` by the name `*.txt`, as
/// [`crate::capped::transcript`] reads them) in the folders of `dir`, one folder
/// deep, in name order. Only real folders are walked, never a link to one.
/// By name alone: a name that leads to a link, a device, a FIFO or a folder
/// is one the reader refuses by name, not one left out.
pub fn transcript_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .map(|p| match p.to_str().and_then(|s| s.strip_suffix(".gz")) {
            Some(txt) => PathBuf::from(txt),
            None => p,
        })
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// `files` checked as [`load`] checks a folder's, as runs joining
/// `earlier`: transcripts already accepted (the evidence a merge adds to),
/// each the first of any copy among `files`. The earlier runs' own problems
/// are not reported here (`evidence check` reports them), and only `files`
/// are in [`Loaded::transcripts`].
pub fn joining(files: &[PathBuf], earlier: &[PathBuf]) -> Result<Loaded, LoadError> {
    // Kept as date(1) printed it, so an error shows "now" in the header's
    // own format beside the header's date.
    let now_text = transcript::utc_now().ok_or(LoadError::NoClock)?;
    let now = transcript::date(&now_text).ok_or(LoadError::NoClock)?;
    let mut loaded = Loaded::default();
    let mut read: Vec<(Transcript, String)> = Vec::new();
    for f in files {
        // A name no recorder gives is not read: it could break the lines
        // that would name it.
        if let Some(problem) = transcript::misnamed(f) {
            loaded.problems.push(problem);
            continue;
        }
        let gz = crate::capped::gzipped(f);
        if [f, &gz].iter().all(|p| std::fs::symlink_metadata(p).is_ok()) {
            loaded.problems.push(Problem::of_file(
                f.display().to_string(),
                format!(
                    "kept twice, as this file and as {}: a run is one file",
                    crate::problem::shown(&gz)
                ),
            ));
            continue;
        }
        match transcript::read_with_text(f) {
            Ok((t, _)) if transcript::date(&t.header.date).is_some_and(|d| d > now) => {
                loaded.problems.push(Problem::at(
                    &t.file,
                    t.line_of("date"),
                    format!(
                        "dated {}, after now ({now_text}): no run has happened yet at that time",
                        t.header.date
                    ),
                ));
            }
            Ok(run) => read.push(run),
            Err(e) => loaded.problems.push(e),
        }
    }
    let mut seen = Seen::default();
    for f in earlier {
        if let Ok((t, text)) = transcript::read_with_text(f) {
            let _ = seen.copy_of_earlier(&t, text);
        }
    }
    for (t, text) in read {
        match seen.copy_of_earlier(&t, text) {
            Some(problem) => loaded.problems.push(problem),
            None => loaded.transcripts.push(t),
        }
    }
    Ok(loaded)
}

/// The runs read so far, to tell a copy of an earlier one: a file identical
/// to another, or a lesson report identical to another's under a changed
/// header. Two real runs print the same report only by copying, as it holds
/// dozens of timings; a failure's message, a test runner's summary or a
/// reference tool's one number may well repeat, so those count as copies
/// only when the whole file is one.
#[derive(Default)]
struct Seen {
    whole: Texts,
    reports: Texts,
}

/// Texts read so far, each with its file, found by length first: a text
/// is compared whole only with those of its length (few), where hashing
/// every byte of every transcript was a sixth of reading the evidence.
#[derive(Default)]
struct Texts(HashMap<usize, Vec<(String, String)>>);

impl Texts {
    /// The file of an earlier `text`, or `None`, `text` then kept as `file`'s.
    fn earlier_or_keep(&mut self, text: String, file: &str) -> Option<String> {
        let same_length = self.0.entry(text.len()).or_default();
        if let Some((_, first)) = same_length.iter().find(|(t, _)| *t == text) {
            return Some(first.clone());
        }
        same_length.push((text, file.to_string()));
        None
    }
}

impl Seen {
    /// The problem naming `t` and the run it copies, if it copies one read
    /// before it; otherwise `t` is remembered as read.
    fn copy_of_earlier(&mut self, t: &Transcript, text: String) -> Option<Problem> {
        let body = matches!(t.body, Body::Report(_))
            .then(|| text.split_once("\n# ---\n").map_or("", |(_, b)| b).to_string());
        if let Some(first) = self.whole.earlier_or_keep(text, &t.file) {
            return Some(Problem::of_file(
                &t.file,
                format!("the same file as {first}: one run counted twice"),
            ));
        }
        let first = self.reports.earlier_or_keep(body?, &t.file)?;
        Some(Problem::of_file(
            &t.file,
            format!("the same report as {first} under another header: one run counted twice"),
        ))
    }
}
