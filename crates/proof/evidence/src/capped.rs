//! Reading one transcript: a regular file, and no more than its cap.
//!
//! A transcript `<name>.txt` is kept as that file or, once a merge has
//! added it, as `<name>.txt.gz` ([`gzip`]), read by [`transcript`] (or
//! `zcat`) whichever is there. Gzip'd, a simulated year of sessions
//! (`tests/year.rs`) is 23.5 MB rather than 86.8 MB, under the 50 MB the
//! evidence may grow by in a year.
//!
//! Every reader of the evidence takes transcripts through [`read`], so a
//! link, a device (`/dev/zero`), a FIFO or a socket is refused before a
//! byte is read, and a file over its cap with one line instead of being
//! read whole. The recorder stops a program's output short of the cap
//! ([`record_cap`]), so every transcript it writes is one these take.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest transcript any reader takes: 16 MiB. The committed evidence's
/// largest is about 31 KB, so this leaves 500 times that for a longer
/// lesson, while a reader's memory stays a small multiple of it.
pub const TRANSCRIPT_CAP: u64 = 16 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("not a regular file (a {0}); evidence is read from regular files alone")]
    NotAFile(&'static str),
    #[error(
        "{size} bytes, over the {cap}-byte cap on what is read from one transcript (evidence/README.md)"
    )]
    TooLarge { size: u64, cap: u64 },
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

/// What kind of file a name is, in words, when it is not a regular one.
fn kind(t: std::fs::FileType) -> Option<&'static str> {
    Some(match () {
        _ if t.is_file() => return None,
        _ if t.is_symlink() => "symbolic link",
        _ if t.is_dir() => "folder",
        _ if t.is_fifo() => "FIFO",
        _ if t.is_char_device() => "character device",
        _ if t.is_block_device() => "block device",
        _ if t.is_socket() => "socket",
        _ => "special file",
    })
}

/// The bytes of the regular file `path` names, if it holds at most `cap` of
/// them. The name itself must be a regular file, not a link to one; it is
/// opened without following a link or waiting (a FIFO with no writer would
/// otherwise block the open), and its kind is read again from the open
/// file, so nothing is swapped in between; at most `cap + 1` bytes are
/// read, so a file that grows while it is read is refused too.
pub fn read(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    if let Some(kind) = kind(std::fs::symlink_metadata(path)?.file_type()) {
        return Err(ReadError::NotAFile(kind));
    }
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW)
        .open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = kind(meta.file_type()) {
        return Err(ReadError::NotAFile(kind));
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    read_to_cap(file, cap)
}

/// What `from` holds, if it is at most `cap` bytes: one byte more is read
/// to tell.
fn read_to_cap(from: impl Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    from.take(cap + 1).read_to_end(&mut bytes)?;
    match bytes.len() as u64 {
        size if size > cap => Err(ReadError::TooLarge { size, cap }),
        _ => Ok(bytes),
    }
}

/// A transcript's bytes ([`read`] at [`TRANSCRIPT_CAP`]): the file `path`
/// names or, where there is none, its [`gzipped`] twin's, unpacked to at
/// most the same cap.
pub fn transcript(path: &Path) -> Result<Vec<u8>, ReadError> {
    match read(path, TRANSCRIPT_CAP) {
        Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => {
            match read(&gzipped(path), TRANSCRIPT_CAP) {
                Ok(packed) => read_to_cap(
                    flate2::read::MultiGzDecoder::new(packed.as_slice()),
                    TRANSCRIPT_CAP,
                ),
                Err(_) => Err(e),
            }
        }
        other => other,
    }
}

/// Where the transcript `<name>.txt` is kept gzip'd: `<name>.txt.gz`.
pub fn gzipped(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".gz");
    name.into()
}

/// `bytes` gzip'd as a merge keeps a transcript: no name or time in the
/// gzip header, so the same run gives the same bytes.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    io::Write::write_all(&mut out, bytes)
        .and_then(|()| out.finish())
        .unwrap_or_default()
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
            (link.as_path(), "symbolic link"),
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
        let e = read(&path, 10).unwrap_err().to_string();
        assert_eq!(
            e,
            "11 bytes, over the 10-byte cap on what is read from one transcript (evidence/README.md)"
        );
        assert_eq!(read(&path, 11).unwrap().len(), 11);
    }

    #[test]
    fn a_gzipped_transcript_is_read_under_its_name_and_capped_unpacked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.txt");
        let gz = gzipped(&path);
        assert!(gz.ends_with("run.txt.gz"));
        std::fs::write(&gz, gzip(b"a run\n")).unwrap();
        assert_eq!(transcript(&path).unwrap(), b"a run\n");
        // Small packed, over the cap unpacked: refused, not unpacked whole.
        let zeros = vec![b'\n'; (TRANSCRIPT_CAP + 1) as usize];
        std::fs::write(&gz, gzip(&zeros)).unwrap();
        assert!(std::fs::metadata(&gz).unwrap().len() < 100_000);
        let e = transcript(&path).unwrap_err().to_string();
        assert!(e.contains("over the 16777216-byte cap"), "{e}");
        // Neither file: the plain name's error.
        let e = transcript(&dir.path().join("none.txt")).unwrap_err();
        assert_eq!(e.io_kind(), Some(io::ErrorKind::NotFound));
    }
}
