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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_is_found_from_any_folder_inside_it_and_not_from_outside() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(2)
            .unwrap()
            .to_path_buf();
        assert!(is_repository(&root));
        assert_eq!(
            find_repository(&root.join("code/day09-timing/src")),
            Some(root.clone())
        );
        // A member crate's manifest has no [workspace] table, so the walk passes it by.
        assert!(!is_repository(&root.join("crates/lesson-registry")));
        assert_eq!(find_repository(Path::new("/")), None);
    }
}
