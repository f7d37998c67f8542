//! The evidence folder read as one record, the way every command reads it
//! (`check`, `figures`, `compare`, `plot`): each transcript read and placed
//! ([`transcript::read`]), none dated after now, no run counted twice, and
//! every JSON twin saying what its transcript says ([`twin::check`]).
//!
//! What fails is a problem, each named with its file; the runs that pass are
//! the only ones any table, figure or chart is made from. [`joining`] holds
//! runs about to join the folder (`evidence merge`) to the same checks, and
//! to the runs already there.
//!
//! Not for: judging what the runs show (that is [`crate::check`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::problem::Problem;
use crate::transcript::{self, Body, Transcript};
use crate::twin;

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

/// Every transcript and twin under `dir`, checked.
pub fn load(dir: &Path) -> Result<Loaded, LoadError> {
    let files = transcript_files(dir);
    let twins = twin_files(dir);
    // Twins alone are still checked: each is then a twin with no transcript.
    if files.is_empty() && twins.is_empty() {
        return Err(LoadError::NoTranscripts(dir.to_path_buf()));
    }
    let mut loaded = joining(&files, &twins, &[])?;
    let mut unpaired = Vec::new();
    // Every transcript `evidence record` writes has its twin beside it: one
    // without is a file half copied, or one no recorder wrote. Said of the
    // transcripts that parsed (one that did not has its problem already);
    // a merge refuses such a pair itself, so this is not in [`joining`].
    let twins: std::collections::HashSet<&Path> = twins.iter().map(PathBuf::as_path).collect();
    for f in loaded.transcripts.iter().map(|t| Path::new(&t.file)) {
        let twin = f.with_extension("json");
        if !twins.contains(twin.as_path()) {
            unpaired.push(twin::NoTwin(f.to_path_buf()).problem());
        }
    }
    loaded.problems.extend(unpaired);
    // Only a folder with packs has their problems to tell, so the sessions
    // are not worked out for any other.
    if dir.join(crate::archive::FOLDER).exists() {
        let sessions = crate::sessions::of(&loaded.transcripts);
        loaded.problems.extend(crate::packs::problems(dir, &sessions));
    }
    let journal = dir.join(crate::journal::JOURNAL);
    if journal.exists() {
        loaded.problems.insert(
            0,
            Problem::of_file(
                journal.display().to_string(),
                "a merge was killed part way, and some of the files it lists are in the evidence; \
                 the next `evidence merge` removes them, each once its digest and date show that merge wrote it (merging the same folders again adds them whole)",
            ),
        );
    }
    Ok(loaded)
}

/// The transcripts (`*.txt`) under `dir`, one folder deep, and those in
/// its packs ([`crate::packs::listed`]), in name order by folder: a packed
/// run stands where its file stood.
pub fn transcript_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = in_folders(dir, "txt");
    files.extend(crate::packs::listed(dir, "txt"));
    files.sort_by(|a, b| crate::packs::in_folder_order(a, b));
    files
}

/// The files named `*.<ext>` in the folders of `dir`, one folder deep, in
/// no order. By name alone: a name that leads to a device, a FIFO or a
/// folder is one the reader refuses by name, not one left out.
pub(crate) fn in_folders(dir: &Path, ext: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect()
}

/// The twins (`*.json`) under `dir`, one folder deep, and those in its
/// packs ([`crate::packs::listed`]), in name order by folder: where the
/// transcripts are, and not the instrument's own JSON folders below.
pub fn twin_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = in_folders(dir, "json");
    out.extend(crate::packs::listed(dir, "json"));
    out.sort_by(|a, b| crate::packs::in_folder_order(a, b));
    out
}

/// `files` (transcripts) and `twins` checked as [`load`] checks a folder's,
/// as runs joining `earlier`: transcripts already accepted (the evidence a
/// merge adds to), each the first of any copy among `files`. The earlier
/// runs' own problems are not reported here (`evidence check` reports
/// them), and only `files` are in [`Loaded::transcripts`].
pub fn joining(files: &[PathBuf], twins: &[PathBuf], earlier: &[PathBuf]) -> Result<Loaded, LoadError> {
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
    for path in twins {
        if let Some(problem) = transcript::misnamed(path) {
            loaded.problems.push(problem);
            continue;
        }
        if let Err(e) = twin::check(path) {
            loaded
                .problems
                .push(Problem::of_file(path.display().to_string(), e.to_string()));
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
    whole: HashMap<String, String>,
    reports: HashMap<String, String>,
}

impl Seen {
    /// The problem naming `t` and the run it copies, if it copies one read
    /// before it; otherwise `t` is remembered as read.
    fn copy_of_earlier(&mut self, t: &Transcript, text: String) -> Option<Problem> {
        if let Some(first) = self.whole.get(&text) {
            return Some(Problem::of_file(
                &t.file,
                format!("the same file as {first}: one run counted twice"),
            ));
        }
        let body = matches!(t.body, Body::Report(_))
            .then(|| text.split_once("\n# ---\n").map_or("", |(_, b)| b).to_string());
        self.whole.insert(text, t.file.clone());
        let body = body?;
        if let Some(first) = self.reports.get(&body) {
            return Some(Problem::of_file(
                &t.file,
                format!("the same report as {first} under another header: one run counted twice"),
            ));
        }
        self.reports.insert(body, t.file.clone());
        None
    }
}
