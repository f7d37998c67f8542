//! GPU sessions' evidence folders (each a session's `OUT/evidence`) added
//! to the evidence: `evidence merge DIR...` (its help says the rules).
//! Every transcript is held to [`load::joining`]'s checks, every problem of
//! every source is named in one run, and any problem means nothing is
//! written. Each run is kept gzip'd ([`capped::gzip`]: a quarter of its
//! bytes).
//!
//! No journal, lock or rollback: the evidence is a folder under git, so
//! git is the journal and the history. Each file is written whole under a
//! free name ([`atomic::write_new`]); a merge stopped part way leaves whole
//! new runs that `git status` lists, and running it again adds the rest.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::load::{self, transcript_files, LoadError};
use crate::problem::{shown, Problem};
use crate::{atomic, capped, transcript};

/// What a merge did with one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub source: PathBuf,
    /// Transcripts copied into the evidence.
    pub new: usize,
    /// Transcripts the evidence, or an earlier source, had byte for byte.
    pub already_there: usize,
}

impl fmt::Display for Merged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} new transcripts, {} already there",
            shown(&self.source),
            self.new,
            self.already_there
        )
    }
}

/// A file or source that the merge refuses, as one line naming it.
fn refusal(path: &Path, message: impl std::fmt::Display) -> Problem {
    Problem::of_file(path.display().to_string(), message.to_string())
}

/// Why nothing, or not everything, was merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Every source and file refused, in one run; nothing was written.
    #[error("{} problem(s) in the folders to merge; nothing was written", .0.len())]
    Refused(Vec<Problem>),
    /// A write failed; the files before it are in the evidence, whole.
    #[error(
        "writing {} failed ({source}); the {written} file(s) before it were written whole \
         (`git status` lists them), and merging again adds the rest",
        shown(path)
    )]
    Write {
        path: PathBuf,
        written: usize,
        source: io::Error,
    },
}

/// A transcript to add: its source, its place in the evidence and its bytes.
struct Copy {
    from: PathBuf,
    to: PathBuf,
    bytes: Vec<u8>,
}

/// Merges every source folder into `evidence` (created if missing), or
/// writes nothing and says why: every source's problems, in one run.
pub fn merge(sources: &[PathBuf], evidence: &Path) -> Result<Vec<Merged>, MergeError> {
    let mut refused = Vec::new();
    let mut copies: Vec<Copy> = Vec::new();
    let mut merged = Vec::new();
    // Each name a source brings new, and its copy.
    let mut claimed: HashMap<PathBuf, usize> = HashMap::new();
    for dir in sources {
        let mut m = Merged {
            source: dir.clone(),
            new: 0,
            already_there: 0,
        };
        let files = list(dir, &mut refused).unwrap_or_default();
        for rel in files {
            let from = dir.join(&rel);
            let bytes = match capped::transcript(&from) {
                Ok(bytes) => bytes,
                Err(error) => {
                    refused.push(refusal(&from, format!("cannot be read ({error})")));
                    continue;
                }
            };
            let to = evidence.join(&rel);
            let folder = to.parent().unwrap_or(evidence);
            if std::fs::symlink_metadata(folder).is_ok_and(|m| !m.is_dir()) {
                refused.push(refusal(
                    folder,
                    "not a folder; a merge writes into the evidence's own folders alone",
                ));
                continue;
            }
            let taken = match capped::transcript(&to) {
                Ok(there) => Some((to.clone(), there == bytes)),
                Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => claimed
                    .get(&rel)
                    .map(|&i| (copies[i].from.clone(), copies[i].bytes == bytes)),
                Err(error) => {
                    refused.push(refusal(&to, format!("cannot be read ({error})")));
                    continue;
                }
            };
            match taken {
                Some((_, true)) => m.already_there += 1,
                Some((taken, false)) => refused.push(refusal(
                    &from,
                    format!(
                        "{} has this name with other bytes; a merge never replaces a file",
                        shown(&taken)
                    ),
                )),
                None => {
                    m.new += 1;
                    claimed.insert(rel, copies.len());
                    copies.push(Copy { from, to, bytes });
                }
            }
        }
        merged.push(m);
    }
    let new: Vec<PathBuf> = copies.iter().map(|c| c.from.clone()).collect();
    let checked = load::joining(&new, &transcript_files(evidence))?;
    refused.extend(checked.problems);
    if !refused.is_empty() {
        return Err(MergeError::Refused(refused));
    }
    for (written, copy) in copies.iter().enumerate() {
        let folder = copy.to.parent().unwrap_or(evidence);
        std::fs::create_dir_all(folder)
            .and_then(|()| atomic::write_new(&capped::gzipped(&copy.to), capped::gzip(&copy.bytes)))
            .map_err(|source| MergeError::Write {
                path: copy.to.clone(),
                written,
                source,
            })?;
    }
    Ok(merged)
}

/// The transcripts of source `dir`, relative to it (`<folder>/<name>.txt`),
/// in name order. Its twins (`.json`) are left out; anything else that is
/// not a transcript in an evidence folder is refused.
fn list(dir: &Path, refused: &mut Vec<Problem>) -> Option<Vec<PathBuf>> {
    let unreadable = |path: &Path, error: io::Error| refusal(path, format!("cannot be read ({error})"));
    let not_a_run = |path: &Path| {
        refusal(
            path,
            "not a transcript (.txt, a regular file) in an evidence folder; a merge copies only those",
        )
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) => {
            refused.push(unreadable(dir, error));
            return None;
        }
    };
    let mut files = Vec::new();
    for folder in entries.flatten().map(|e| e.path()) {
        let name = folder.file_name().unwrap_or_default().to_owned();
        if !is(&folder, std::fs::FileType::is_dir) {
            refused.push(not_a_run(&folder));
            continue;
        }
        if let Err(error) = lessons::folder(&name.to_string_lossy()) {
            refused.push(refusal(
                &folder,
                format!("{error}; a source holds the evidence folders alone"),
            ));
            continue;
        }
        let inner = match std::fs::read_dir(&folder) {
            Ok(inner) => inner,
            Err(error) => {
                refused.push(unreadable(&folder, error));
                continue;
            }
        };
        for path in inner.flatten().map(|e| e.path()) {
            let ext = path.extension().and_then(|e| e.to_str());
            if ext == Some("json") {
                continue;
            }
            if ext != Some("txt") || !is(&path, std::fs::FileType::is_file) {
                refused.push(not_a_run(&path));
                continue;
            }
            match transcript::misnamed(&path) {
                Some(problem) => refused.push(problem),
                None => files.push(Path::new(&name).join(path.file_name().unwrap_or_default())),
            }
        }
    }
    if files.is_empty() {
        refused.push(refusal(
            dir,
            "no transcripts to merge (a source is a GPU session's OUT/evidence, \
             holding <lesson>/<UTC time>-<gpu>-<program>.txt)",
        ));
    }
    files.sort();
    Some(files)
}

/// Whether `path` itself (not what a link leads to) is of the kind `kind` tells.
fn is(path: &Path, kind: fn(&std::fs::FileType) -> bool) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| kind(&m.file_type()))
}
