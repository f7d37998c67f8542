//! Writing a file whole or not at all: the new text goes into a hidden
//! temporary file in the same folder (`.evidence-*.partial`, never `*.txt`,
//! so no reader takes it for a document or a transcript), is flushed to
//! disk, and is renamed into place. A process stopped mid-write (a signal,
//! a full disk, a file-size limit) leaves the old file as it was.

use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Replaces (or creates) `path` with `contents` in one rename. A file that
/// is replaced keeps its permissions; a new one gets the umask's, as
/// `std::fs::write` would make it.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    put(path, contents.as_ref(), true)
}

/// Creates `path` with `contents` only if no file has that name: an
/// `AlreadyExists` error, and the old file as it was, if one has. `merge`
/// adds files to the evidence with it, never replacing one.
pub fn write_new(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    put(path, contents.as_ref(), false)
}

fn put(path: &Path, contents: &[u8], replace: bool) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let permissions = match std::fs::metadata(path) {
        Ok(m) if replace => m.permissions(),
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => Permissions::from_mode(0o666),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".evidence-")
        .suffix(".partial")
        .permissions(permissions)
        .tempfile_in(folder)?;
    file.write_all(contents)?;
    file.as_file().sync_all()?;
    match replace {
        true => file.persist(path).map(drop),
        false => file.persist_noclobber(path).map(drop),
    }
    .map_err(|e| e.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_file_keeps_its_permissions_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.md");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o640);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");

        // A new file is as readable as any other new file: the umask's.
        let fresh = dir.path().join("new.json");
        write(&fresh, "{}").unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        assert_eq!(mode(&fresh), mode(&plain));
        assert_ne!(mode(&fresh) & 0o444, 0, "readable");
    }

    #[test]
    fn a_new_file_is_written_only_where_none_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.txt");
        write_new(&path, "first").unwrap();
        let taken = write_new(&path, "second").unwrap_err();
        assert_eq!(taken.kind(), io::ErrorKind::AlreadyExists, "{taken}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no draft is left behind: {names:?}");
    }

    #[test]
    fn a_write_that_fails_leaves_the_old_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        // A path whose folder does not exist: the temporary file cannot be
        // made, and nothing else is touched.
        assert!(write(&dir.path().join("missing/doc.md"), "x").is_err());
        let path = dir.path().join("doc.md");
        std::fs::write(&path, "old").unwrap();
        // A folder where the file should be: the rename fails.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir(blocked.join("")).unwrap();
        std::fs::write(blocked.join("inside"), "keep").unwrap();
        assert!(write(&blocked, "x").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_to_string(blocked.join("inside")).unwrap(), "keep");
        // No draft is left behind by either failure.
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["blocked", "doc.md"]);
    }
}
