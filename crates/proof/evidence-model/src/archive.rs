//! The pack file: one session's transcripts and twins as a deterministic
//! gzip-compressed tar, `packed/<session id>.tar.gz`, read back with caps,
//! and a path that runs through one (`packed/<id>.tar.gz/<folder>/<name>`).
//!
//! This is the format alone, both ways; [`crate::capped`] reads a packed
//! run through it, [`crate::packs`] lists an evidence folder's packs and
//! their problems, and [`crate::packing`] writes them.
//!
//! Not for: deciding what is packed ([`crate::packing`]) or reading a file
//! from disk ([`crate::capped`]).

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The folder of packs in the evidence folder.
pub const FOLDER: &str = "packed";

/// A pack's file name ends so.
pub const SUFFIX: &str = ".tar.gz";

/// The prefix of a pack's draft, before its rename.
pub const DRAFT_PREFIX: &str = ".evidence-pack-";

/// The largest pack file any reader takes: 64 MiB. A session of the
/// simulated year (72 runs and their twins) packs into about 0.09 MB.
pub const PACK_CAP: u64 = 64 << 20;

/// The most bytes one pack may unpack to: 256 MiB, a hundred times the
/// committed evidence's largest session, so a pack that unpacks without end
/// is refused rather than read into memory.
pub const UNPACKED_CAP: u64 = 256 << 20;

/// A pack's members, by name (`<folder>/<name>.txt`).
pub type Members = HashMap<String, Vec<u8>>;

/// Why a pack's bytes are not a pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnpackError {
    #[error("not a gzip-compressed tar ({0})")]
    Malformed(String),
    #[error("unpacks to more than {UNPACKED_CAP} bytes, the cap on one pack (evidence/README.md)")]
    TooLarge,
    #[error("holds {0:?}, which is not <folder>/<name>.txt or .json as a file; a pack holds transcripts and twins alone")]
    Stray(String),
    #[error("holds {0} twice")]
    Twice(String),
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

/// Every member of a pack's `bytes`, each checked to be a transcript or a
/// twin in a folder, once.
pub fn unpack(bytes: &[u8]) -> Result<Members, UnpackError> {
    let malformed = |e: std::io::Error| UnpackError::Malformed(e.to_string());
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .take(UNPACKED_CAP + 1)
        .read_to_end(&mut tar)
        .map_err(malformed)?;
    if tar.len() as u64 > UNPACKED_CAP {
        return Err(UnpackError::TooLarge);
    }
    let mut out = Members::new();
    let mut archive = tar::Archive::new(tar.as_slice());
    for entry in archive.entries().map_err(malformed)? {
        let mut entry = entry.map_err(malformed)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        if !entry.header().entry_type().is_file() || !is_member_name(&name) {
            return Err(UnpackError::Stray(name));
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(malformed)?;
        if out.insert(name.clone(), bytes).is_some() {
            return Err(UnpackError::Twice(name));
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

/// The pack of `files` (by member name, in name order), the same bytes for
/// the same files: no times, owners or modes but 0644.
pub fn pack(files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<Vec<u8>> {
    let gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    for (member, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, member, bytes.as_slice())?;
    }
    tar.into_inner()?.finish()
}

/// The pack unpacked last, kept so that reading its runs one by one
/// unpacks it once: the readers go through one pack's runs before the next
/// pack's.
static LAST: Mutex<Option<Unpacked>> = Mutex::new(None);

/// A pack as it was unpacked: its path, its [`stamp`] then, and its members.
type Unpacked = (PathBuf, Stamp, Arc<Members>);

/// A file's modification time (seconds, nanoseconds) and size.
type Stamp = (i64, i64, u64);

/// What tells two states of a file apart: its modification time and size.
fn stamp(meta: &std::fs::Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    (meta.mtime(), meta.mtime_nsec(), meta.len())
}

/// The members of the pack at `path`, if it was the last unpacked and its
/// file is as it was then (`meta`).
pub fn cached(path: &Path, meta: &std::fs::Metadata) -> Option<Arc<Members>> {
    let last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    let (p, s, members) = last.as_ref()?;
    (p == path && *s == stamp(meta)).then(|| members.clone())
}

/// Keeps `members` as the pack at `path` (its file as `meta` gives it),
/// and their names beside every other pack's.
pub fn keep(path: &Path, meta: &std::fs::Metadata, members: Members) -> Arc<Members> {
    let mut names: Vec<String> = members.keys().cloned().collect();
    names.sort();
    NAMES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(path.to_path_buf(), (stamp(meta), Arc::new(names)));
    let members = Arc::new(members);
    *LAST.lock().unwrap_or_else(|p| p.into_inner()) =
        Some((path.to_path_buf(), stamp(meta), members.clone()));
    members
}

/// Every pack's member names, in name order, once it has been unpacked:
/// listing the runs of every pack (transcripts, then twins, then a merge's
/// names) unpacks each once, not once a listing, while only the last
/// pack's bytes are kept.
static NAMES: Mutex<BTreeMap<PathBuf, Listed>> = Mutex::new(BTreeMap::new());

/// A pack's member names, and its file's [`stamp`] when they were read.
type Listed = (Stamp, Arc<Vec<String>>);

/// The member names of the pack at `path`, if it was unpacked while its
/// file was as it is now (`meta`).
pub fn cached_names(path: &Path, meta: &std::fs::Metadata) -> Option<Arc<Vec<String>>> {
    let names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    let (s, names) = names.get(path)?;
    (*s == stamp(meta)).then(|| names.clone())
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

    fn pack_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        pack(&entries.iter().map(|(m, b)| (m.to_string(), b.to_vec())).collect()).unwrap()
    }

    #[test]
    fn the_same_files_pack_into_the_same_bytes_and_unpack_as_they_were() {
        let entries: &[(&str, &[u8])] = &[("day09-timing/a.txt", b"one"), ("day09-timing/a.json", b"{}")];
        assert_eq!(pack_of(entries), pack_of(entries));
        let members = unpack(&pack_of(entries)).unwrap();
        assert_eq!(members.len(), 2);
        assert_eq!(members["day09-timing/a.txt"], b"one");
    }

    #[test]
    fn a_pack_holding_anything_but_runs_in_folders_is_refused_by_name() {
        for member in [
            "../escape.txt",
            "day09-timing/sub/a.txt",
            "day09-timing/run.sh",
            "loose.txt",
        ] {
            // The tar crate refuses to write `..`, so each name is written raw.
            let mut header = tar::Header::new_gnu();
            header.set_size(1);
            header.set_entry_type(tar::EntryType::Regular);
            header.as_old_mut().name[..member.len()].copy_from_slice(member.as_bytes());
            header.set_cksum();
            let mut tar = tar::Builder::new(Vec::new());
            tar.append(&header, &b"x"[..]).unwrap();
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &tar.into_inner().unwrap()).unwrap();
            let e = unpack(&gz.finish().unwrap()).unwrap_err().to_string();
            assert!(
                e.contains(member) && e.contains("transcripts and twins alone"),
                "{e}"
            );
        }
    }

    #[test]
    fn bytes_that_are_not_gzip_or_unpack_past_the_cap_are_refused_in_one_line() {
        let e = unpack(b"not gzip at all").unwrap_err().to_string();
        assert!(
            e.contains("not a gzip-compressed tar") && !e.contains('\n'),
            "{e}"
        );
        // 300 MiB of zeros deflate to about 300 KB.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..300 {
            std::io::Write::write_all(&mut gz, &zeros).unwrap();
        }
        let e = unpack(&gz.finish().unwrap()).unwrap_err().to_string();
        assert!(e.contains("unpacks to more than 268435456 bytes"), "{e}");
    }
}
