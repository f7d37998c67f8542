//! Old sessions packed: every run of a session that began more than
//! [`sessions::RECENT_DAYS`] before its GPU's latest is kept in one
//! `evidence/packed/<session id>.tar.gz` ([`crate::archive`]) instead of a
//! file per run, so that a year of weekly sessions on four GPUs stays a few
//! tens of megabytes (evidence/README.md, "Packed sessions";
//! crates/proof/evidence/tests/year.rs measures it). `evidence merge` packs
//! ([`pack_old`]) after it merges.
//!
//! A packed run keeps its bytes and its name: the pack holds exactly the
//! files the merge had, in about a tenth of their bytes (the simulated
//! year's 182.7 MB of files went into 17.4 MB of packs). A run that a document or a
//! test names by file name (a README's quoted transcript, a lesson's
//! conformance pair) is read from its own file, so its session is never
//! packed ([`pinned`]).
//!
//! Not for: reading packed runs ([`crate::packs`], [`crate::capped`]) or
//! choosing what a session is ([`crate::sessions`]).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use crate::archive::{self, DRAFT_PREFIX, FOLDER, SUFFIX};
use crate::folder_lock::FolderLock;
use crate::problem::shown;
use crate::sessions::{self, Session};
use crate::{atomic, capped, load, packs};

/// Why old sessions could not be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// A pack, or a file to pack, that could not be read or written.
    #[error("{}: {fault}", shown(path))]
    Pack { path: PathBuf, fault: Fault },
    #[error(transparent)]
    Load(#[from] load::LoadError),
    #[error("{}: not packed, as `evidence check` finds {count} problem(s) in it", dir.display())]
    Problems { count: usize, dir: PathBuf },
}

/// What went wrong with one pack or file.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    #[error(transparent)]
    Read(capped::ReadError),
    #[error("{0} did not read back as its file holds it")]
    ReadBack(String),
    #[error(transparent)]
    Write(std::io::Error),
}

impl Fault {
    fn at(self, path: &Path) -> PackError {
        PackError::Pack {
            path: path.to_path_buf(),
            fault: self,
        }
    }
}

/// The transcripts' file names that the repository at `root` names outside
/// its evidence, and in the evidence's documents (`*.md`): a README quoting
/// a transcript, a lesson's conformance pair, a claim's `claim_figures_from`
/// read these from their own files, so their sessions stay unpacked.
pub fn pinned(root: &Path, evidence: &Path) -> HashSet<String> {
    let mut out = HashSet::new();
    let evidence = std::fs::canonicalize(evidence).unwrap_or_else(|_| evidence.to_path_buf());
    for entry in ignore::WalkBuilder::new(root).build().flatten() {
        let path = entry.path();
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let in_evidence = std::fs::canonicalize(path).is_ok_and(|p| p.starts_with(&evidence));
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let read = match in_evidence {
            true => ext == "md",
            false => matches!(
                ext,
                "md" | "rs" | "sh" | "toml" | "txt" | "yml" | "py" | "cu" | "h"
            ),
        };
        if !read {
            continue;
        }
        let Ok(bytes) = capped::read(path, capped::TRANSCRIPT_CAP, "document") else {
            continue;
        };
        out.extend(transcript_names(&String::from_utf8_lossy(&bytes)));
    }
    out
}

/// The transcript file names in `text`: words ending `.txt` whose last
/// path part begins with a run's date as file names give it
/// (`2026-12-01T225221Z-`).
fn transcript_names(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "._+-/".contains(c)))
        .filter_map(|word| {
            let name = word.rsplit('/').next()?;
            let stamp = name.get(..18)?.as_bytes();
            let dated = stamp.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                10 => *b == b'T',
                17 => *b == b'Z',
                _ => b.is_ascii_digit(),
            });
            (dated && name.ends_with(".txt")).then(|| name.to_string())
        })
}

/// One session packed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    pub pack: PathBuf,
    /// Transcripts and twins.
    pub files: usize,
    pub bytes: u64,
    pub packed_bytes: u64,
}

/// One line for what [`pack_old`] packed: how many sessions and files, and
/// their bytes before and after.
pub fn summary(packed: &[Packed], dir: &Path) -> String {
    let files: usize = packed.iter().map(|p| p.files).sum();
    let bytes: u64 = packed.iter().map(|p| p.bytes).sum();
    let into: u64 = packed.iter().map(|p| p.packed_bytes).sum();
    format!(
        "{}: packed {} session(s) that began more than {} days before their GPU's latest: {files} files, {bytes} bytes into {into}",
        shown(&dir.join(FOLDER)),
        packed.len(),
        sessions::RECENT_DAYS
    )
}

/// Packs every session of the evidence in `dir` that began more than
/// [`sessions::RECENT_DAYS`] before its GPU's latest, unless a run of it
/// is `pinned`; first it finishes a packing that was stopped part way. The
/// folder is locked as a merge locks it, and nothing is packed while
/// `check` would find a problem.
///
/// Each pack is written whole (one rename) and read back, member by
/// member against the files, before those files are removed: a packing
/// killed before the rename changed nothing, and one killed after it left
/// files that the pack holds byte for byte, which the next packing removes
/// (`finish`).
///
/// `pinned` is asked for only when some session may be old enough to pack:
/// while every run's file name is dated within [`sessions::RECENT_DAYS`]
/// of the newest, as after most merges, nothing is read again.
pub fn pack_old(
    dir: &Path,
    pinned: impl FnOnce() -> HashSet<String>,
    waiting: &mut dyn FnMut(),
) -> Result<Vec<Packed>, PackError> {
    let at = |path: &Path| {
        let path = path.to_path_buf();
        move |e| Fault::Write(e).at(&path)
    };
    let _lock = FolderLock::take(dir, waiting).map_err(at(dir))?;
    finish(dir)?;
    if !any_old_enough(dir) {
        return Ok(Vec::new());
    }
    let loaded = load::load(dir)?;
    // load's problems hold the packs' own (packs::problems).
    if !loaded.problems.is_empty() {
        return Err(PackError::Problems {
            count: loaded.problems.len(),
            dir: dir.to_path_buf(),
        });
    }
    let all = sessions::of(&loaded.transcripts);
    let pinned = pinned();
    let recent = sessions::recent(&all);
    let mut out = Vec::new();
    for (s, recent) in all.iter().zip(recent) {
        let packed = s
            .runs
            .iter()
            .any(|t| archive::split(Path::new(&t.file)).is_some());
        let named = s.runs.iter().any(|t| {
            Path::new(&t.file)
                .file_name()
                .is_some_and(|n| pinned.contains(n.to_string_lossy().as_ref()))
        });
        if recent || packed || named {
            continue;
        }
        out.push(pack_session(dir, s)?);
    }
    Ok(out)
}

/// Whether a run outside the packs of `dir` began more than
/// [`sessions::RECENT_DAYS`] before the newest, by the dates that begin
/// their file names. A session is packed only when it began that long
/// before its GPU's latest, which is no later than the newest run and a
/// run outside the packs; so without such a run there is nothing to pack.
fn any_old_enough(dir: &Path) -> bool {
    let dates: Vec<time::PrimitiveDateTime> = load::in_folders(dir, "txt")
        .iter()
        .filter_map(|f| name_date(f.file_name()?.to_str()?))
        .collect();
    match (dates.iter().min(), dates.iter().max()) {
        (Some(first), Some(last)) => *last - *first > time::Duration::days(sessions::RECENT_DAYS),
        _ => false,
    }
}

/// The date a run's file name begins with (`2026-12-01T225221Z-...`).
fn name_date(name: &str) -> Option<time::PrimitiveDateTime> {
    let stamp = name.get(..18).filter(|s| s.is_ascii())?;
    let header = format!("{}:{}:{}", &stamp[..13], &stamp[13..15], &stamp[15..]);
    crate::transcript::date(&header)
}

/// Writes the pack of session `s`, checks it, and removes its runs' files.
fn pack_session(dir: &Path, s: &Session) -> Result<Packed, PackError> {
    let at = |path: &Path| {
        let path = path.to_path_buf();
        move |e| Fault::Write(e).at(&path)
    };
    let mut files: BTreeMap<String, (PathBuf, Vec<u8>)> = BTreeMap::new();
    for t in &s.runs {
        let txt = PathBuf::from(&t.file);
        for path in [txt.clone(), txt.with_extension("json")] {
            let bytes =
                capped::read(&path, capped::TWIN_CAP, "packed file").map_err(|e| Fault::Read(e).at(&path))?;
            let member = format!(
                "{}/{}",
                t.header.lesson,
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            files.insert(member, (path, bytes));
        }
    }
    let pack = dir.join(FOLDER).join(format!("{}{SUFFIX}", s.id));
    std::fs::create_dir_all(dir.join(FOLDER)).map_err(at(&pack))?;
    let contents = files.iter().map(|(m, (_, b))| (m.clone(), b.clone())).collect();
    let gz = archive::pack(&contents).map_err(at(&pack))?;
    atomic::write_new_with(&pack, &gz, DRAFT_PREFIX).map_err(at(&pack))?;
    let back = capped::pack_members(&pack).map_err(|e| Fault::Read(e).at(&pack))?;
    for (member, (path, bytes)) in &files {
        if back.get(member) != Some(bytes) {
            let _ = std::fs::remove_file(&pack);
            return Err(Fault::ReadBack(format!("{member} of {}", path.display())).at(&pack));
        }
    }
    for (path, _) in files.values() {
        std::fs::remove_file(path).map_err(at(path))?;
    }
    Ok(Packed {
        pack,
        files: files.len(),
        bytes: files.values().map(|(_, b)| b.len() as u64).sum(),
        packed_bytes: gz.len() as u64,
    })
}

/// Removes what a packing killed part way left: a draft of a pack, and the
/// files of `dir` that a pack there holds byte for byte (a packing killed
/// between writing its pack and removing the files).
fn finish(dir: &Path) -> Result<(), PackError> {
    for entry in std::fs::read_dir(dir.join(FOLDER))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with(DRAFT_PREFIX) {
            std::fs::remove_file(&path).map_err(|e| Fault::Write(e).at(&path))?;
        }
    }
    for pack in packs::packs(dir) {
        let Ok(members) = capped::pack_members(&pack) else {
            continue;
        };
        for (member, bytes) in members.iter() {
            let path = dir.join(member);
            if capped::read(&path, capped::TWIN_CAP, "packed file").is_ok_and(|b| b == *bytes) {
                std::fs::remove_file(&path).map_err(|e| Fault::Write(e).at(&path))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_names_are_found_in_quotes_paths_and_prose() {
        let text = r#"<!-- transcript: evidence/day09-timing/2026-11-30T051656Z-h200-cxx.txt -->
evidence: ("2026-12-01T225221Z-h200-cxx.txt", "2026-12-01T225222Z-h200-rust.txt"),
not 2026-12-01T225221Z-h200-cxx.json nor 2026-12-01-h200.txt"#;
        let mut names: Vec<String> = transcript_names(text).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "2026-11-30T051656Z-h200-cxx.txt",
                "2026-12-01T225221Z-h200-cxx.txt",
                "2026-12-01T225222Z-h200-rust.txt"
            ]
        );
    }
}
