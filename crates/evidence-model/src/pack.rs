//! Old sessions packed: every run of a session that began more than
//! [`sessions::RECENT_DAYS`] before its GPU's latest, kept as one
//! `evidence/packed/<session id>.tar.gz` instead of a file per run, so that
//! a year of weekly sessions on four GPUs stays a few tens of megabytes
//! (evidence/README.md, "Packed sessions"; crates/evidence/tests/year.rs
//! measures it).
//!
//! A packed run keeps its bytes and its name: the pack is a tar of
//! `<folder>/<name>.txt` and `<folder>/<name>.json`, exactly the files the
//! merge had, and every reader reaches a member through a path that runs
//! through the pack, `evidence/packed/<id>.tar.gz/<folder>/<name>.txt`
//! ([`split`], which [`crate::capped::read`] follows). So `check`, `site`,
//! `figures`, `compare` and `merge` read a packed run as they read any
//! other, and name it by that path. Deflate over a whole session takes its
//! 2.2 MB to about 0.18 MB (the committed session at 3819bed, 143 runs and
//! their twins): its runs repeat each other's lines.
//!
//! A run that a document or a test names by file name (a README's quoted
//! transcript, a lesson's conformance pair) is read from its own file, so
//! its session is never packed ([`pinned`]).
//!
//! Not for: choosing what a session is ([`crate::sessions`]) or judging
//! runs ([`crate::check`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::folder_lock::FolderLock;
use crate::problem::Problem;
use crate::sessions::{self, Session};
use crate::{atomic, capped, load, transcript};

/// The folder of packs in the evidence folder.
pub const FOLDER: &str = "packed";

/// A pack's file name ends so.
pub const SUFFIX: &str = ".tar.gz";

/// The largest pack file any reader takes: 64 MiB. A session of the
/// committed evidence packs into about 0.2 MB.
pub const PACK_CAP: u64 = 64 << 20;

/// The most bytes one pack may unpack to: 256 MiB, a hundred times the
/// committed evidence's largest session, so a pack that unpacks without end
/// is refused rather than read into memory.
pub const UNPACKED_CAP: u64 = 256 << 20;

/// Why a pack could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// A pack (or a file packed into it) that could not be read or written.
    #[error("{}: {fault}", transcript::shown(path))]
    Pack { path: PathBuf, fault: Fault },
    #[error(transparent)]
    Load(#[from] load::LoadError),
    #[error("{}: not packed, as `evidence check` finds {count} problem(s) in it", dir.display())]
    Problems { count: usize, dir: PathBuf },
}

/// What is wrong with one pack or packed file.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    #[error(transparent)]
    Read(capped::ReadError),
    #[error("not a gzip-compressed tar ({0})")]
    Malformed(String),
    #[error("unpacks to more than {UNPACKED_CAP} bytes, the cap on one pack (evidence/README.md)")]
    TooLarge,
    #[error("holds {0:?}, which is not <folder>/<name>.txt or .json as a file; a pack holds transcripts and twins alone")]
    Stray(String),
    #[error("holds {0} twice")]
    Twice(String),
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

/// A path that runs through a pack, as the pack and its member
/// (`day09-timing/2026-...-h200-cxx.txt`): the file two levels below a
/// `packed/*.tar.gz` name.
pub fn split(path: &Path) -> Option<(&Path, String)> {
    let folder = path.parent()?;
    let pack = folder.parent()?;
    let is_pack = pack.file_name()?.to_str()?.ends_with(SUFFIX) && pack.parent()?.file_name()? == FOLDER;
    if !is_pack {
        return None;
    }
    let member = format!(
        "{}/{}",
        folder.file_name()?.to_str()?,
        path.file_name()?.to_str()?
    );
    Some((pack, member))
}

/// A pack's members, by name.
type Members = HashMap<String, Vec<u8>>;

/// The pack read last, kept so that reading its runs one by one unpacks it
/// once: the readers go through one pack's runs before the next pack's.
static LAST: Mutex<Option<Unpacked>> = Mutex::new(None);

/// A pack as it was read: its path, its [`stamp`] then, and its members.
type Unpacked = (PathBuf, (i64, i64, u64), Arc<Members>);

/// What tells two states of a file apart: its modification time and size.
fn stamp(meta: &std::fs::Metadata) -> (i64, i64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.mtime(), meta.mtime_nsec(), meta.len())
}

/// Every member of the pack at `path`, each checked to be a transcript or a
/// twin in a folder, once.
pub fn members(path: &Path) -> Result<Arc<Members>, PackError> {
    let meta = std::fs::metadata(path).map_err(|e| Fault::Read(e.into()).at(path))?;
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((p, s, members)) = last.as_ref() {
        if p == path && *s == stamp(&meta) {
            return Ok(members.clone());
        }
    }
    let read = Arc::new(unpack(path)?);
    *last = Some((path.to_path_buf(), stamp(&meta), read.clone()));
    Ok(read)
}

fn unpack(path: &Path) -> Result<Members, PackError> {
    let bytes = capped::read(path, PACK_CAP, "pack").map_err(|e| Fault::Read(e).at(path))?;
    let malformed = |e: std::io::Error| Fault::Malformed(e.to_string()).at(path);
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .take(UNPACKED_CAP + 1)
        .read_to_end(&mut tar)
        .map_err(malformed)?;
    if tar.len() as u64 > UNPACKED_CAP {
        return Err(Fault::TooLarge.at(path));
    }
    let mut out = Members::new();
    let mut archive = tar::Archive::new(tar.as_slice());
    for entry in archive.entries().map_err(malformed)? {
        let mut entry = entry.map_err(malformed)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        if !entry.header().entry_type().is_file() || !is_member_name(&name) {
            return Err(Fault::Stray(name).at(path));
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(malformed)?;
        if out.insert(name.clone(), bytes).is_some() {
            return Err(Fault::Twice(name).at(path));
        }
    }
    Ok(out)
}

/// `<folder>/<name>.txt` or `.json`, two plain names.
fn is_member_name(name: &str) -> bool {
    let path = Path::new(name);
    let plain =
        path.components().count() == 2 && path.components().all(|c| matches!(c, Component::Normal(_)));
    plain && path.extension().is_some_and(|e| e == "txt" || e == "json")
}

/// A member's bytes, as [`capped::read`] gives a file's: a missing member
/// is `NotFound`, and one over `cap` is refused.
pub fn read_member(
    pack: &Path,
    member: &str,
    cap: u64,
    what: &'static str,
) -> Result<Vec<u8>, capped::ReadError> {
    let members = members(pack).map_err(|e| capped::ReadError::Pack(e.to_string()))?;
    let bytes = members.get(member).ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::NotFound, format!("no {member} in the pack"))
    })?;
    if bytes.len() as u64 > cap {
        return Err(capped::ReadError::TooLarge {
            size: bytes.len() as u64,
            cap,
            what,
        });
    }
    Ok(bytes.clone())
}

/// The order of evidence files wherever they are: by folder, then name,
/// which for files outside packs is the order of their paths.
pub fn in_folder_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    let key = |p: &Path| {
        (
            p.parent().and_then(Path::file_name).map(|f| f.to_os_string()),
            p.file_name().map(|f| f.to_os_string()),
        )
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// The packs in the evidence folder `dir`, in name order.
pub fn packs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join(FOLDER))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_str().is_some_and(|n| n.ends_with(SUFFIX)))
        .collect();
    out.sort();
    out
}

/// The paths through the packs of `dir` to every member with extension
/// `ext`, in name order; a pack that cannot be read lists nothing (and is
/// one of [`problems`]).
pub fn listed(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for pack in packs(dir) {
        let Ok(members) = members(&pack) else {
            continue;
        };
        let mut names: Vec<&String> = members
            .keys()
            .filter(|m| Path::new(m).extension().is_some_and(|e| e == ext))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|m| pack.join(m)));
    }
    out
}

/// What is wrong with the packs of `dir` beside the runs read from them:
/// a pack that cannot be read, anything in `packed/` that is not a pack,
/// and a session whose runs are not all in the one pack its id names (or
/// all out of packs).
pub fn problems(dir: &Path, sessions: &[Session]) -> Vec<Problem> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir.join(FOLDER))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let shown = transcript::shown(&path);
        if name.starts_with(DRAFT_PREFIX) {
            out.push(Problem::of_file(
                shown,
                "the draft of a pack whose packing was killed part way; the next `evidence merge` removes it",
            ));
        } else if !name.ends_with(SUFFIX) {
            out.push(Problem::of_file(
                shown,
                format!("not a pack; {FOLDER}/ holds <session id>{SUFFIX} files alone"),
            ));
        } else if let Err(PackError::Pack { fault, .. }) = members(&path) {
            out.push(Problem::of_file(shown, fault.to_string()));
        }
    }
    for s in sessions {
        let wanted = format!("{}{SUFFIX}", s.id);
        let places: HashSet<Option<String>> = s
            .runs
            .iter()
            .map(|t| {
                split(Path::new(&t.file)).map(|(pack, _)| {
                    pack.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
            })
            .collect();
        let whole = places.len() == 1 && places.iter().all(|p| p.as_ref().is_none_or(|p| *p == wanted));
        if !whole {
            let mut at: Vec<String> = places
                .into_iter()
                .map(|p| p.map_or("its own files".to_string(), |p| format!("{FOLDER}/{p}")))
                .collect();
            at.sort();
            out.push(Problem::of_file(
                format!("session {}", s.id),
                format!(
                    "its runs are in {}; a session is packed whole, into {FOLDER}/{wanted}, or not at all",
                    at.join(" and ")
                ),
            ));
        }
    }
    out
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
        transcript::shown(&dir.join(FOLDER)),
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
/// ([`finish`]).
pub fn pack_old(
    dir: &Path,
    pinned: &HashSet<String>,
    waiting: &mut dyn FnMut(),
) -> Result<Vec<Packed>, PackError> {
    let at = |path: &Path| {
        let path = path.to_path_buf();
        move |e| Fault::Write(e).at(&path)
    };
    let _lock = FolderLock::take(dir, waiting).map_err(at(dir))?;
    finish(dir)?;
    let loaded = load::load(dir)?;
    let all = sessions::of(&loaded.transcripts);
    let problems = loaded.problems.len() + problems(dir, &all).len();
    if problems > 0 {
        return Err(PackError::Problems {
            count: problems,
            dir: dir.to_path_buf(),
        });
    }
    let recent = sessions::recent(&all);
    let mut out = Vec::new();
    for (s, recent) in all.iter().zip(recent) {
        let packed = s.runs.iter().any(|t| split(Path::new(&t.file)).is_some());
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
    let gz = packed(&files).map_err(at(&pack))?;
    atomic::write_new_with(&pack, &gz, DRAFT_PREFIX).map_err(at(&pack))?;
    let back = members(&pack)?;
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

/// The tar of `files` (by member name, in name order), gzip-compressed,
/// the same bytes for the same files: no times, owners or modes but 0644.
fn packed(files: &BTreeMap<String, (PathBuf, Vec<u8>)>) -> std::io::Result<Vec<u8>> {
    let gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    for (member, (_, bytes)) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, member, bytes.as_slice())?;
    }
    tar.into_inner()?.finish()
}

/// The prefix of a pack's draft, before its rename.
const DRAFT_PREFIX: &str = ".evidence-pack-";

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
    for pack in packs(dir) {
        let Ok(members) = members(&pack) else {
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
    fn a_path_through_a_pack_splits_into_the_pack_and_its_member() {
        let p = Path::new(
            "evidence/packed/2026-01-01T000000Z-h200.tar.gz/day09-timing/2026-01-01T000000Z-h200-cxx.txt",
        );
        let (pack, member) = split(p).unwrap();
        assert_eq!(pack, Path::new("evidence/packed/2026-01-01T000000Z-h200.tar.gz"));
        assert_eq!(member, "day09-timing/2026-01-01T000000Z-h200-cxx.txt");
        assert!(split(Path::new("evidence/day09-timing/2026-01-01T000000Z-h200-cxx.txt")).is_none());
        assert!(split(Path::new("elsewhere/x.tar.gz/day09-timing/a.txt")).is_none());
    }

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

    fn pack_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let files = entries
            .iter()
            .map(|(m, b)| (m.to_string(), (PathBuf::new(), b.to_vec())))
            .collect();
        packed(&files).unwrap()
    }

    #[test]
    fn the_same_files_pack_into_the_same_bytes_and_read_back() {
        let entries: &[(&str, &[u8])] = &[("day09-timing/a.txt", b"one"), ("day09-timing/a.json", b"{}")];
        assert_eq!(pack_of(entries), pack_of(entries));
        let dir = tempfile::tempdir().unwrap();
        let pack = dir.path().join(FOLDER).join(format!("s{SUFFIX}"));
        std::fs::create_dir_all(pack.parent().unwrap()).unwrap();
        std::fs::write(&pack, pack_of(entries)).unwrap();
        assert_eq!(
            read_member(&pack, "day09-timing/a.txt", 10, "transcript").unwrap(),
            b"one"
        );
        let missing = read_member(&pack, "day09-timing/b.txt", 10, "transcript").unwrap_err();
        assert_eq!(missing.io_kind(), Some(std::io::ErrorKind::NotFound));
        let big = read_member(&pack, "day09-timing/a.txt", 2, "transcript")
            .unwrap_err()
            .to_string();
        assert!(big.contains("over the 2-byte cap"), "{big}");
    }

    #[test]
    fn a_pack_holding_anything_but_runs_in_folders_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for (member, says) in [
            ("../escape.txt", "../escape.txt"),
            ("day09-timing/sub/a.txt", "day09-timing/sub/a.txt"),
            ("day09-timing/run.sh", "day09-timing/run.sh"),
            ("loose.txt", "loose.txt"),
        ] {
            let pack = dir.path().join(FOLDER).join(format!("{}{SUFFIX}", says.len()));
            std::fs::create_dir_all(pack.parent().unwrap()).unwrap();
            // The tar crate refuses to write `..`, so that name is written raw.
            let mut header = tar::Header::new_gnu();
            header.set_size(1);
            header.set_entry_type(tar::EntryType::Regular);
            header.as_old_mut().name[..member.len()].copy_from_slice(member.as_bytes());
            header.set_cksum();
            let mut tar = tar::Builder::new(Vec::new());
            tar.append(&header, &b"x"[..]).unwrap();
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &tar.into_inner().unwrap()).unwrap();
            std::fs::write(&pack, gz.finish().unwrap()).unwrap();
            let e = members(&pack).unwrap_err().to_string();
            assert!(
                e.contains(says) && e.contains("transcripts and twins alone"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_pack_that_is_not_gzip_or_unpacks_past_its_cap_is_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let junk = dir.path().join(format!("junk{SUFFIX}"));
        std::fs::write(&junk, b"not gzip at all").unwrap();
        let e = members(&junk).unwrap_err().to_string();
        assert!(
            e.contains("not a gzip-compressed tar") && !e.contains('\n'),
            "{e}"
        );
        // 300 MiB of zeros deflate to about 300 KB.
        let bomb = dir.path().join(format!("bomb{SUFFIX}"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..300 {
            std::io::Write::write_all(&mut gz, &zeros).unwrap();
        }
        std::fs::write(&bomb, gz.finish().unwrap()).unwrap();
        let e = members(&bomb).unwrap_err().to_string();
        assert!(e.contains("unpacks to more than 268435456 bytes"), "{e}");
    }
}
