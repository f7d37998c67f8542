//! An exclusive `flock(2)` on a folder, held while the lock lives; the
//! kernel lets it go when the process ends, however it ends. `site` locks
//! the folder it stages a site in, so that a later build can tell a killed
//! build's folder (unlocked) from one being written.
//!
//! Not for: locking files against readers (nothing here stops a read).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

/// A folder locked by this process.
pub struct FolderLock {
    /// Held only to keep the lock: closing it lets the lock go.
    _folder: File,
}

/// `flock(2)` with `how` on `file`, tried again when a signal cuts it short.
fn flock(file: &File, how: i32) -> io::Result<()> {
    loop {
        // SAFETY: flock(2) on a descriptor `file` owns for the whole call.
        if unsafe { libc::flock(file.as_raw_fd(), how) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

impl FolderLock {
    /// The lock on `folder` if no other process holds it, else `None`.
    pub fn try_take(folder: &Path) -> io::Result<Option<FolderLock>> {
        let file = File::open(folder)?;
        match flock(&file, libc::LOCK_EX | libc::LOCK_NB) {
            Ok(()) => Ok(Some(FolderLock { _folder: file })),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_not_taken_again_until_it_is_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let held = FolderLock::try_take(dir.path()).unwrap().expect("a free folder");
        // flock(2) locks belong to the open file, so a second open in this
        // process contends with the first as another process would.
        assert!(FolderLock::try_take(dir.path()).unwrap().is_none());
        drop(held);
        assert!(FolderLock::try_take(dir.path()).unwrap().is_some());
    }
}
