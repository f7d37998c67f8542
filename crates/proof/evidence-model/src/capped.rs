//! Reading one evidence file: a regular file, and no more than its cap.
//!
//! Every reader of the evidence (`check`, `merge`, `site`, `compare-files`,
//! `figures`, `plot`) takes transcripts and twins through [`read`], so a
//! name that leads to a device (`/dev/zero`), a FIFO or a socket is refused
//! before a byte is read, and a file larger than its cap is refused with one
//! line instead of being read whole into memory. The recorder stops a
//! program's output short of [`TRANSCRIPT_CAP`] ([`record_cap`]), so that
//! every transcript it writes is one these readers take whole.
//!
//! Not for: parsing what was read (`transcript`, `twin`).

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::sync::Arc;

use crate::archive;

/// The largest transcript any reader takes: 16 MiB. The committed evidence's
/// largest is about 31 KB, so this leaves 500 times that for a longer
/// lesson, while a reader's memory stays a small multiple of it.
pub const TRANSCRIPT_CAP: u64 = 16 << 20;

/// The largest twin any reader takes: 64 MiB. A twin quotes every line
/// and number of its transcript as JSON, which takes more bytes than the
/// text it is made from.
pub const TWIN_CAP: u64 = 64 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("not a regular file (a {0}); evidence is read from regular files alone")]
    NotAFile(&'static str),
    #[error("{size} bytes, over the {cap}-byte cap on what is read from one {what} (evidence/README.md)")]
    TooLarge { size: u64, cap: u64, what: &'static str },
    /// The pack a path runs through is not one ([`crate::archive`]).
    #[error("{}: {error}", crate::problem::shown(pack))]
    Pack {
        pack: std::path::PathBuf,
        error: crate::archive::UnpackError,
    },
}

impl ReadError {
    /// The underlying I/O error's kind, where there is one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            ReadError::Io(e) => Some(e.kind()),
            _ => None,
        }
    }
}

/// What kind of file a name leads to, in words, when it is not a regular one.
fn kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    Some(match () {
        _ if t.is_file() => return None,
        _ if t.is_dir() => "folder",
        _ if t.is_fifo() => "FIFO",
        _ if t.is_char_device() => "character device",
        _ if t.is_block_device() => "block device",
        _ if t.is_socket() => "socket",
        _ => "special file",
    })
}

/// The bytes of the regular file `path` leads to, if it holds at most `cap`
/// of them. The file is opened without waiting (a FIFO with no writer would
/// otherwise block the open) and its kind is read from the open file, so
/// nothing is swapped in between; at most `cap + 1` bytes are read, so a
/// file that grows while it is read is refused too. A path that runs
/// through a pack (`packed/<id>.tar.gz/<folder>/<name>`) is read from the
/// pack, under the same cap.
pub fn read(path: &Path, cap: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    if let Some((pack, member)) = archive::split(path) {
        return read_member(pack, &member, cap, what);
    }
    read_file(path, cap, what)
}

/// The members of the pack at `path`, read as [`read`] reads a file (at
/// [`archive::PACK_CAP`]) and unpacked once while it stays as it was.
pub fn pack_members(path: &Path) -> Result<Arc<archive::Members>, ReadError> {
    let meta = std::fs::metadata(path)?;
    if let Some(members) = archive::cached(path, &meta) {
        return Ok(members);
    }
    let bytes = read_file(path, archive::PACK_CAP, "pack")?;
    let members = archive::unpack(&bytes).map_err(|error| ReadError::Pack {
        pack: path.to_path_buf(),
        error,
    })?;
    Ok(archive::keep(path, &meta, members))
}

/// The member names of the pack at `path`, in name order: unpacked at
/// most once while the pack stays as it was ([`pack_members`]).
pub fn pack_member_names(path: &Path) -> Result<Arc<Vec<String>>, ReadError> {
    let meta = std::fs::metadata(path)?;
    if let Some(names) = archive::cached_names(path, &meta) {
        return Ok(names);
    }
    pack_members(path)?;
    archive::cached_names(path, &meta)
        .ok_or_else(|| io::Error::other("the pack changed while it was read").into())
}

/// A member's bytes, as [`read`] gives a file's: a missing member is
/// `NotFound`, and one over `cap` is refused.
fn read_member(pack: &Path, member: &str, cap: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let members = pack_members(pack)?;
    let bytes = members
        .get(member)
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("no {member} in the pack")))?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            cap,
            what,
        });
    }
    Ok(bytes.clone())
}

/// [`read`] for a file on disk.
fn read_file(path: &Path, cap: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = kind(&meta) {
        return Err(ReadError::NotAFile(kind));
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            cap,
            what,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            cap,
            what,
        });
    }
    Ok(bytes)
}

/// A transcript's bytes ([`read`] at [`TRANSCRIPT_CAP`]).
pub fn transcript(path: &Path) -> Result<Vec<u8>, ReadError> {
    read(path, TRANSCRIPT_CAP, "transcript")
}

/// A twin's bytes ([`read`] at [`TWIN_CAP`]).
pub fn twin(path: &Path) -> Result<Vec<u8>, ReadError> {
    read(path, TWIN_CAP, "twin")
}

/// How many bytes of a program's output the recorder keeps beside a header
/// of `header_len` bytes: what leaves the finished transcript, with its
/// completed header (an `# ended by:` line among it), within
/// [`TRANSCRIPT_CAP`].
pub fn record_cap(header_len: usize) -> u64 {
    const FINISHED_HEADER_ROOM: u64 = 4096;
    TRANSCRIPT_CAP.saturating_sub(header_len as u64 + FINISHED_HEADER_ROOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_and_folders_are_refused_before_anything_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("run.txt");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let link = dir.path().join("zero.txt");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        for (path, says) in [
            (fifo.as_path(), "FIFO"),
            (link.as_path(), "character device"),
            (dir.path(), "folder"),
        ] {
            let e = transcript(path).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn a_file_over_its_cap_is_refused_and_one_at_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, vec![b'a'; 11]).unwrap();
        let e = read(&path, 10, "transcript").unwrap_err().to_string();
        assert_eq!(
            e,
            "11 bytes, over the 10-byte cap on what is read from one transcript (evidence/README.md)"
        );
        assert_eq!(read(&path, 11, "transcript").unwrap().len(), 11);
    }
}
