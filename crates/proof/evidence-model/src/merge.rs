//! GPU sessions' evidence folders added to the evidence, all or nothing:
//! `evidence merge DIR...`, which a CI job runs on the folders it downloads
//! from several GPU machines (each a session's `OUT/evidence`).
//!
//! Every transcript and twin a source brings is held to the checks every
//! command reads the evidence with ([`load::joining`]): it parses and stands
//! where its header puts it, its twin agrees with it, it is not dated after
//! now, and it copies no run already in the evidence or in another source.
//! Each transcript comes with its twin and each twin with its transcript,
//! in one of the evidence folders ([`lessons::folder`]). Nothing is ever
//! replaced: a name the evidence (or an earlier source) has with other bytes
//! is a clash, and a file already there byte for byte is skipped, so a merge
//! run again changes nothing. One refused file refuses the whole merge,
//! every refusal named, before anything is written.
//!
//! Not for: recording runs (`record`), judging what they show (`check`), or
//! changing anything already in the evidence.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::folder_lock::FolderLock;
use crate::journal::{self, JournalError, DRAFT_PREFIX, JOURNAL};
use crate::load::transcript_files;
use crate::load::{self, LoadError};
use crate::problem::Problem;
use crate::{atomic, capped, transcript, twin};
use lessons::UnknownFolder;

/// What a merge did with one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub source: PathBuf,
    /// Transcripts copied into the evidence (each with its twin).
    pub new: usize,
    /// Transcripts the evidence, or an earlier source, had byte for byte.
    pub already_there: usize,
}

impl fmt::Display for Merged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} new transcripts, {} already there",
            self.source.display(),
            self.new,
            self.already_there
        )
    }
}

/// A source that cannot be merged at all.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{}: cannot read the folder to merge ({error})", dir.display())]
    Unreadable { dir: PathBuf, error: io::Error },
    #[error(
        "{}: no transcripts to merge (a source is a GPU session's OUT/evidence, \
         holding <lesson>/<UTC time>-<gpu>-<program>.txt, each with its .json twin)",
        .0.display()
    )]
    NoTranscripts(PathBuf),
}

/// A file of a source that the merge refuses, as one line naming it.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error(
        "{}: {} has this name with other bytes; a merge never replaces a file",
        file.display(),
        taken.display()
    )]
    Clash { file: PathBuf, taken: PathBuf },
    #[error(transparent)]
    NoTwin(twin::NoTwin),
    #[error(
        "{}: a twin with no transcript: {} is missing",
        .0.display(),
        .0.with_extension("txt").display()
    )]
    NoTranscript(PathBuf),
    #[error("{}: {error}; a source holds the evidence folders alone", path.display())]
    Folder { path: PathBuf, error: UnknownFolder },
    #[error(
        "{}: not a transcript (.txt) or twin (.json) in an evidence folder; a merge copies only those",
        transcript::shown(.0)
    )]
    NotARun(PathBuf),
    #[error("{}: cannot be read ({error})", path.display())]
    Unreadable { path: PathBuf, error: capped::ReadError },
    /// A problem [`load::joining`] found.
    #[error(transparent)]
    Check(Problem),
    /// A source missing, unreadable or holding no transcript.
    #[error(transparent)]
    Source(SourceError),
    /// A file whose name no recorder gives ([`transcript::misnamed`]).
    #[error(transparent)]
    Misnamed(Problem),
}

/// Why nothing, or not everything, was merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Every source and file refused, in one run; nothing was written.
    #[error("{} file(s) refused; nothing was written", .0.len())]
    Refused(Vec<Refusal>),
    /// The evidence folder could not be locked, or its journal kept.
    #[error("{}: {source}", path.display())]
    Evidence { path: PathBuf, source: io::Error },
    /// A write failed part way; what was written before it was removed.
    #[error(
        "writing {} failed; the {written} file(s) written before it were removed again, \
         so the evidence is as it was",
        path.display()
    )]
    Write {
        path: PathBuf,
        written: usize,
        source: io::Error,
    },
    /// The journal of a killed merge could not be kept, read or undone, or
    /// lists what no merge wrote.
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// A file to add: its source, its place in the evidence and its bytes.
struct Copy {
    from: PathBuf,
    to: PathBuf,
    bytes: Vec<u8>,
}

/// The sources' new files, the transcripts and twins among them to check,
/// and what each source brings.
#[derive(Default)]
struct Plan {
    copies: Vec<Copy>,
    transcripts: Vec<PathBuf>,
    twins: Vec<PathBuf>,
    merged: Vec<Merged>,
}

/// Merges every source folder into `evidence` (created if missing), or
/// writes nothing and says why: every source's problems, in one run.
///
/// The evidence folder is locked from the first read of it to the last
/// write ([`FolderLock`]), so two merges at once cannot both let in the
/// same run under two names; `waiting` is called once if another merge
/// holds the lock. A merge that was killed part way is rolled back first
/// ([`journal::roll_back`]).
pub fn merge(
    sources: &[PathBuf],
    evidence: &Path,
    waiting: &mut dyn FnMut(),
) -> Result<Vec<Merged>, MergeError> {
    let mut refused = Vec::new();
    let mut listings = Vec::new();
    for dir in sources {
        match list(dir, &mut refused) {
            Ok(files) => listings.push((dir.clone(), files)),
            Err(e) => refused.push(Refusal::Source(e)),
        }
    }
    let at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MergeError::Evidence { path, source }
    };
    std::fs::create_dir_all(evidence).map_err(at(evidence))?;
    let _lock = FolderLock::take(evidence, waiting).map_err(at(evidence))?;
    journal::roll_back(evidence)?;
    let plan = plan(&listings, evidence, &mut refused);
    let checked = load::joining(&plan.transcripts, &plan.twins, &transcript_files(evidence))?;
    refused.extend(checked.problems.into_iter().map(Refusal::Check));
    if !refused.is_empty() {
        return Err(MergeError::Refused(refused));
    }
    write(plan.copies, evidence)?;
    Ok(plan.merged)
}

/// The files of source `dir`, relative to it (`<folder>/<name>`), in name
/// order; what is not a transcript or twin in an evidence folder is refused.
fn list(dir: &Path, refused: &mut Vec<Refusal>) -> Result<Vec<PathBuf>, SourceError> {
    let unreadable = |error| SourceError::Unreadable {
        dir: dir.to_path_buf(),
        error,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let folder = entry.map_err(unreadable)?.path();
        let name = folder.file_name().unwrap_or_default().to_owned();
        if !is(&folder, std::fs::FileType::is_dir) {
            refused.push(Refusal::NotARun(folder));
            continue;
        }
        if let Err(error) = lessons::folder(&name.to_string_lossy()) {
            refused.push(Refusal::Folder { path: folder, error });
            continue;
        }
        let inner = match std::fs::read_dir(&folder) {
            Ok(inner) => inner,
            Err(error) => {
                refused.push(Refusal::Unreadable {
                    path: folder,
                    error: error.into(),
                });
                continue;
            }
        };
        for path in inner.flatten().map(|e| e.path()) {
            let run = path.extension().is_some_and(|e| e == "txt" || e == "json");
            let file = match path.file_name() {
                Some(file) if run && is(&path, std::fs::FileType::is_file) => file,
                _ => {
                    refused.push(Refusal::NotARun(path));
                    continue;
                }
            };
            match transcript::misnamed(&path) {
                Some(problem) => refused.push(Refusal::Misnamed(problem)),
                None => files.push(Path::new(&name).join(file)),
            }
        }
    }
    if !files.iter().any(|f| is_transcript(f)) {
        return Err(SourceError::NoTranscripts(dir.to_path_buf()));
    }
    files.sort();
    Ok(files)
}

/// Whether `path` itself (not what a link leads to) is of the kind `kind` tells.
fn is(path: &Path, kind: fn(&std::fs::FileType) -> bool) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| kind(&m.file_type()))
}

fn is_transcript(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "txt")
}

/// Each source's files sorted into new ones, ones already there and clashes;
/// each transcript paired with its twin.
fn plan(listings: &[(PathBuf, Vec<PathBuf>)], evidence: &Path, refused: &mut Vec<Refusal>) -> Plan {
    let mut plan = Plan::default();
    // A packed run's name is taken as a file's is ([`crate::packs`]).
    let in_packs: HashMap<PathBuf, PathBuf> = crate::packs::listed(evidence, "txt")
        .into_iter()
        .chain(crate::packs::listed(evidence, "json"))
        .filter_map(|p| Some((PathBuf::from(crate::archive::split(&p)?.1), p.clone())))
        .collect();
    // Each name a source brings new, and its copy in `plan.copies`.
    let mut claimed: HashMap<&Path, usize> = HashMap::new();
    for (dir, files) in listings {
        let mut merged = Merged {
            source: dir.clone(),
            new: 0,
            already_there: 0,
        };
        let names: HashSet<&Path> = files.iter().map(PathBuf::as_path).collect();
        for rel in files {
            let from = dir.join(rel);
            let transcript = is_transcript(rel);
            let partner = rel.with_extension(if transcript { "json" } else { "txt" });
            let paired = names.contains(partner.as_path());
            if !paired {
                refused.push(if transcript {
                    Refusal::NoTwin(twin::NoTwin(from.clone()))
                } else {
                    Refusal::NoTranscript(from.clone())
                });
            }
            let read = |path: &Path| match transcript {
                true => capped::transcript(path),
                false => capped::twin(path),
            };
            let bytes = match read(&from) {
                Ok(bytes) => bytes,
                Err(error) => {
                    refused.push(Refusal::Unreadable { path: from, error });
                    continue;
                }
            };
            let to = in_packs.get(rel).cloned().unwrap_or_else(|| evidence.join(rel));
            let taken = match read(&to) {
                Ok(there) => Some((to.clone(), there == bytes)),
                Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => {
                    claimed.get(rel.as_path()).map(|&i| {
                        let earlier = &plan.copies[i];
                        (earlier.from.clone(), earlier.bytes == bytes)
                    })
                }
                Err(error) => {
                    refused.push(Refusal::Unreadable { path: to, error });
                    continue;
                }
            };
            match taken {
                Some((_, true)) => merged.already_there += usize::from(transcript),
                Some((taken, false)) => refused.push(Refusal::Clash { file: from, taken }),
                None => {
                    if transcript {
                        merged.new += 1;
                        plan.transcripts.push(from.clone());
                    } else if paired {
                        // A twin alone is refused above; its check would
                        // only say so again.
                        plan.twins.push(from.clone());
                    }
                    claimed.insert(rel, plan.copies.len());
                    plan.copies.push(Copy { from, to, bytes });
                }
            }
        }
        plan.merged.push(merged);
    }
    plan
}

/// Writes every copy, all or nothing: the journal first, then each file
/// (each transcript before its twin), then the journal's removal, which is
/// the moment the merge is made. A write that fails removes what was
/// written before it; a merge killed before the end is undone by the next
/// one ([`journal::roll_back`]), and `evidence check` names the journal meanwhile.
fn write(mut copies: Vec<Copy>, evidence: &Path) -> Result<(), MergeError> {
    copies.sort_by_key(|c| (c.to.with_extension(""), !is_transcript(&c.to)));
    let journal = evidence.join(JOURNAL);
    let listed: String = copies
        .iter()
        .filter_map(|c| Some(journal::line(c.to.strip_prefix(evidence).ok()?, &c.bytes)))
        .collect();
    let kept = |source| MergeError::Evidence {
        path: journal.clone(),
        source,
    };
    atomic::write_new(&journal, listed).map_err(kept)?;
    sync_folder(evidence).map_err(kept)?;
    for (written, copy) in copies.iter().enumerate() {
        let folder = copy.to.parent().unwrap_or(evidence);
        let wrote = std::fs::create_dir_all(folder)
            .and_then(|()| atomic::write_new_with(&copy.to, &copy.bytes, DRAFT_PREFIX));
        if let Err(source) = wrote {
            journal::roll_back(evidence)?;
            return Err(MergeError::Write {
                path: copy.to.clone(),
                written,
                source,
            });
        }
    }
    for folder in copies
        .iter()
        .filter_map(|c| c.to.parent())
        .collect::<std::collections::BTreeSet<_>>()
    {
        sync_folder(folder).map_err(kept)?;
    }
    std::fs::remove_file(&journal).map_err(kept)?;
    sync_folder(evidence).map_err(kept)
}

/// Flushes a folder's entries to disk, so a rename or link in it outlives a
/// crash in the order it was made.
fn sync_folder(folder: &Path) -> io::Result<()> {
    std::fs::File::open(folder)?.sync_all()
}
