//! The journal of a merge under way ([`JOURNAL`], in the evidence folder):
//! the files it is adding, each with its digest, written before the first
//! and removed after the last, so that a merge killed part way is undone
//! by the next ([`roll_back`]) and named by `evidence check` meanwhile.
//!
//! Not for: deciding what a merge adds (that is [`crate::merge`]).

use std::io;
use std::path::{Path, PathBuf};

use crate::{capped, transcript};

/// The journal could not be read or undone, or lists what no merge wrote.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Unverified(UnverifiedJournal),
}

/// The journal of a merge under way, in the evidence folder: the files it
/// is adding, one line each, `<SHA-256 of its bytes> <path relative to the
/// folder>`, written and flushed before the first of them and removed after
/// the last. One found by the next merge is a merge that was killed part
/// way: [`roll_back`] removes what it added, and only that.
pub const JOURNAL: &str = ".merge-journal";

/// The prefix of a merge's drafts ([`atomic::write_new_with`]), which
/// [`roll_back`] removes: no other command makes a file so named.
pub const DRAFT_PREFIX: &str = ".evidence-merge-";

/// The journal's line for a file a merge adds: `rel` (relative to the
/// evidence folder) with the digest of `bytes`.
pub fn line(rel: &Path, bytes: &[u8]) -> String {
    format!("{} {}\n", digest(bytes), rel.display())
}

fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A journal of a killed merge that lists what that merge cannot have
/// written: a file in the evidence older than the journal, or with other
/// bytes than it gives, or a line not in the journal's form. Nothing was
/// removed.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}: the journal of a killed merge lists what no merge wrote, so nothing was removed: {}; \
     if the evidence is as it should be, remove the journal",
    transcript::shown(journal),
    unverified.join("; ")
)]
pub struct UnverifiedJournal {
    pub journal: PathBuf,
    /// Each line it could not verify, with why.
    pub unverified: Vec<String>,
}

/// When a file was last written, as its inode says (seconds and
/// nanoseconds): a file attribute compared with another's, not a clock read.
fn written_at(meta: &std::fs::Metadata) -> (i64, i64) {
    use std::os::unix::fs::MetadataExt;
    (meta.mtime(), meta.mtime_nsec())
}

/// Why a journal's file does not stand as the merge left it, if it does
/// not: a file a merge wrote is a regular file, no older than the journal
/// (which is written first), with the bytes the journal's digest gives.
fn unlike_written(path: &Path, wanted: &str, journal_written: (i64, i64)) -> Option<String> {
    let bytes = match capped::read(path, capped::TWIN_CAP, "merged file") {
        Ok(bytes) => bytes,
        Err(e) => return Some(format!("{}: {e}", transcript::shown(path))),
    };
    if digest(&bytes) != wanted {
        return Some(format!(
            "{} has other bytes than the journal's digest",
            transcript::shown(path)
        ));
    }
    std::fs::metadata(path)
        .is_ok_and(|m| written_at(&m) < journal_written)
        .then(|| format!("{} is older than the journal", transcript::shown(path)))
}

/// Undoes a merge that was killed part way, if the journal says one was:
/// every file it lists and every merge draft in the evidence folders are
/// removed, then the journal. Files a merge adds are new (a merge never
/// replaces one), so removing them leaves the evidence as it was before.
/// Every listed file still there is verified first ([`unlike_written`]):
/// if one is not as the merge wrote it, nothing is removed
/// ([`UnverifiedJournal`]). The number of files removed.
pub fn roll_back(evidence: &Path) -> Result<usize, JournalError> {
    let journal = evidence.join(JOURNAL);
    let at = |source| JournalError::Io {
        path: journal.clone(),
        source,
    };
    let listed = match capped::read(&journal, capped::TWIN_CAP, "merge journal") {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => return Ok(0),
        Err(e) => return Err(at(io::Error::other(e))),
    };
    let journal_written = written_at(&std::fs::metadata(&journal).map_err(at)?);
    let mut remove_listed = Vec::new();
    let mut unverified = Vec::new();
    for (n, line) in listed.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        // `<64 hex digits> <folder>/<name>`, inside the evidence folders alone.
        let entry = line.split_once(' ').filter(|(hex, rel)| {
            hex.len() == 64
                && hex
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                && Path::new(rel).components().count() == 2
                && Path::new(rel)
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
        });
        let Some((hex, rel)) = entry else {
            unverified.push(format!("line {} is not `<SHA-256> <folder>/<file>`", n + 1));
            continue;
        };
        let path = evidence.join(rel);
        if std::fs::symlink_metadata(&path).is_err() {
            continue; // not written yet when the merge was killed
        }
        match unlike_written(&path, hex, journal_written) {
            Some(why) => unverified.push(why),
            None => remove_listed.push(path),
        }
    }
    if !unverified.is_empty() {
        return Err(JournalError::Unverified(UnverifiedJournal {
            journal: journal.clone(),
            unverified,
        }));
    }
    let mut removed = 0;
    let mut remove = |path: &Path| match std::fs::remove_file(path) {
        Ok(()) => {
            removed += 1;
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    };
    for path in &remove_listed {
        remove(path).map_err(at)?;
    }
    for folder in std::fs::read_dir(evidence)
        .map_err(at)?
        .flatten()
        .map(|e| e.path())
    {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(DRAFT_PREFIX))
            {
                remove(&path).map_err(at)?;
            }
        }
    }
    std::fs::remove_file(&journal).map_err(at)?;
    Ok(removed)
}
