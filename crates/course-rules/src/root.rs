//! Which repository the rules read: the one a person runs them in.
//!
//! A binary built in one checkout and run in another must check the second,
//! so the binary walks up from its working directory ([`find_repository`]).
//! Only this crate's own tests, which check the very checkout they were
//! compiled in, use the compile-time path ([`repository_root`]).
//!
//! Not for: finding the CUDA toolkit (`cuda-build` does that).

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

/// The workspace root this crate was compiled in, for its own tests.
pub fn repository_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_is_found_from_any_folder_inside_it_and_not_from_outside() {
        let root = repository_root();
        assert!(is_repository(&root));
        let lesson = &crate::lessons::lessons(&root)[0];
        assert_eq!(find_repository(&lesson.dir.join("src")), Some(root.clone()));
        // A member crate's manifest has no [workspace] table, so the walk passes it by.
        assert!(!is_repository(&root.join("crates/course-rules")));
        assert_eq!(find_repository(Path::new("/")), None);
    }
}
