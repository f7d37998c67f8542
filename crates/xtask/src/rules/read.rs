//! Reading a file as the rules do: as text, whatever its bytes, and a file
//! that cannot be read as a finding of its own.

use std::path::{Path, PathBuf};

use crate::rules::problem::Problem;

/// A file the rules could not read.
#[derive(Debug, thiserror::Error)]
#[error("{}", path.display())]
pub struct ReadError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// The file, and why it could not be read, as a finding.
impl From<ReadError> for Problem {
    fn from(e: ReadError) -> Problem {
        Problem::in_file(e.path, cli_exit::with_causes(&e.source))
    }
}

/// Reads a file as text; a file that is not UTF-8 is read with replacement
/// characters rather than skipped, so a banned clock cannot hide in one.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    std::fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|source| ReadError {
            path: path.to_path_buf(),
            source,
        })
}
