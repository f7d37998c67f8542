//! The evidence folder read as one record, the way every command reads it
//! (`check`, `figures`, `compare`, `plot`): each transcript read and placed
//! ([`transcript::read`]), none dated after now, no run counted twice, and
//! every JSON twin saying what its transcript says ([`twin::check`]).
//!
//! What fails is a problem, each named with its file; the runs that pass are
//! the only ones any table, figure or chart is made from.
//!
//! Not for: judging what the runs show (that is [`crate::check`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::transcript::{self, Body, Transcript};
use crate::{transcript_files, twin};

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
    pub problems: Vec<String>,
}

/// Every transcript and twin under `dir`, checked.
pub fn load(dir: &Path) -> Result<Loaded, LoadError> {
    let files = transcript_files(dir);
    let twins = twin::files(dir);
    // Twins alone are still checked: each is then a twin with no transcript.
    if files.is_empty() && twins.is_empty() {
        return Err(LoadError::NoTranscripts(dir.to_path_buf()));
    }
    let now = transcript::utc_now()
        .as_deref()
        .and_then(transcript::date)
        .ok_or(LoadError::NoClock)?;
    let mut loaded = Loaded::default();
    let mut read: Vec<(Transcript, String)> = Vec::new();
    for f in &files {
        match transcript::read_with_text(f) {
            Ok((t, _)) if transcript::date(&t.header.date).is_some_and(|d| d > now) => {
                loaded.problems.push(format!(
                    "{}:{}: dated {}, after now ({now}): no run has happened yet at that time",
                    t.file,
                    t.line_of("date"),
                    t.header.date
                ));
            }
            Ok(run) => read.push(run),
            Err(e) => loaded.problems.push(e.to_string()),
        }
    }
    loaded.transcripts = without_duplicates(read, &mut loaded.problems);
    for path in twins {
        if let Err(e) = twin::check(&path) {
            loaded.problems.push(format!("{}: {e}", path.display()));
        }
    }
    Ok(loaded)
}

/// The runs less every copy of an earlier one (in name order), each copy a
/// problem naming both: a file identical to another, or a lesson report
/// identical to another's under a changed header. Two real runs print the
/// same report only by copying, as it holds dozens of timings; a failure's
/// message, a test runner's summary or a reference tool's one number may
/// well repeat, so those count as copies only when the whole file is one.
fn without_duplicates(read: Vec<(Transcript, String)>, problems: &mut Vec<String>) -> Vec<Transcript> {
    let mut whole: HashMap<String, String> = HashMap::new();
    let mut reports: HashMap<String, String> = HashMap::new();
    let mut kept = Vec::new();
    for (t, text) in read {
        if let Some(first) = whole.get(&text) {
            problems.push(format!(
                "{}: the same file as {first}: one run counted twice",
                t.file
            ));
            continue;
        }
        whole.insert(text.clone(), t.file.clone());
        if matches!(t.body, Body::Report(_)) {
            let body = text.split_once("\n# ---\n").map_or("", |(_, b)| b).to_string();
            if let Some(first) = reports.get(&body) {
                problems.push(format!(
                    "{}: the same report as {first} under another header: one run counted twice",
                    t.file
                ));
                continue;
            }
            reports.insert(body, t.file.clone());
        }
        kept.push(t);
    }
    kept
}
