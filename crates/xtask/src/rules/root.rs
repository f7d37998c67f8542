//! Which repository the rules read: the one a person runs them in.
//!
//! A binary built in one checkout and run in another must check the second,
//! so the binary walks up from its working directory ([`find_repository`],
//! `lessons`'s, which `evidence` uses too).
//! Only this crate's own tests, which check the very checkout they were
//! compiled in, use the compile-time path ([`repository_root`]).
//!
//! Not for: finding the CUDA toolkit (`cuda-build` does that).

use std::path::{Path, PathBuf};

pub use ::lessons::{find_repository, is_repository};

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
        let lesson = &crate::rules::lessons::lessons(&root).unwrap()[0];
        assert_eq!(find_repository(&lesson.dir.join("src")), Some(root.clone()));
        // A member crate's manifest has no [workspace] table, so the walk passes it by.
        assert!(!is_repository(&root.join("crates/xtask")));
        assert_eq!(find_repository(Path::new("/")), None);
    }
}
