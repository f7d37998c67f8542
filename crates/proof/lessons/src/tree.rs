//! Which tree a tool reads: the repository a person runs it in.
//!
//! A binary built in one checkout and run in another must read the second,
//! so the tools walk up from their working directory.

use std::path::{Path, PathBuf};

/// Whether `dir` is the course's repository: a Cargo workspace root (its
/// `Cargo.toml` has a `[workspace]` table) with a `code/` directory.
pub fn is_repository(dir: &Path) -> bool {
    if !dir.join("code").is_dir() {
        return false;
    }
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
        .is_some_and(|manifest| manifest.contains_table("workspace"))
}

/// The nearest folder at or above `start` that [`is_repository`].
pub fn find_repository(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| is_repository(dir))
        .map(Path::to_path_buf)
}

/// No repository where a tool was told, or asked, to look.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error(
        "--root {}: not the course's repository (no Cargo.toml with [workspace] beside a code/ directory)",
        .0.display()
    )]
    NotARepository(PathBuf),
    #[error(
        "not inside the course's repository (no Cargo.toml with [workspace] beside a code/ directory \
         here or above); run from inside it or pass --root DIR"
    )]
    Outside,
    #[error("reading the working directory")]
    WorkingDirectory(#[source] std::io::Error),
    #[error("resolving {}", path.display())]
    Resolve {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The repository a tool with a `--root DIR` option reads: `given`, which
/// must be one, or else the one around the working directory; with every
/// link resolved.
pub fn repository(given: Option<&Path>) -> Result<PathBuf, RootError> {
    let root = match given {
        Some(dir) if is_repository(dir) => dir.to_path_buf(),
        Some(dir) => return Err(RootError::NotARepository(dir.to_path_buf())),
        None => {
            let here = std::env::current_dir().map_err(RootError::WorkingDirectory)?;
            find_repository(&here).ok_or(RootError::Outside)?
        }
    };
    root.canonicalize()
        .map_err(|source| RootError::Resolve { path: root, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_is_found_from_any_folder_inside_it_and_not_from_outside() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(3)
            .unwrap()
            .to_path_buf();
        assert!(is_repository(&root));
        assert_eq!(
            find_repository(&root.join("code/day09-timing/src")),
            Some(root.clone())
        );
        // A member crate's manifest has no [workspace] table, so the walk passes it by.
        assert!(!is_repository(&root.join("crates/proof/lessons")));
        assert_eq!(find_repository(Path::new("/")), None);
    }
}
