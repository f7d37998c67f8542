//! The project's own files: everything under a folder that git would see
//! (what `.gitignore` and `.git/info/exclude` leave out stays out, so a
//! maintainer's scratch folders are not checked), except build outputs,
//! provisioned toolchains and version control, which are skipped by name as
//! well for a copy that has no `.git`. The course's rules read these files
//! (`rules`), and a lesson's export copies them (`export`), so
//! both see one tree.
//!
//! Not for: deciding what a file holds or which language it is in.

use std::path::{Path, PathBuf};

const SKIPPED_DIRS: [&str; 5] = [".git", "target", ".toolchain", ".evidence-bin", "node_modules"];

/// Every file under `root`, relative to it, in a stable order.
pub fn project_files(root: &Path) -> Vec<PathBuf> {
    let walk = ignore::WalkBuilder::new(root)
        // Dot-files (`.ci/run`) are the project's too.
        .hidden(false)
        .require_git(false)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir()) && SKIPPED_DIRS.iter().any(|s| e.file_name() == *s))
        })
        .build();
    let mut out: Vec<PathBuf> = walk
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| e.path().strip_prefix(root).ok().map(Path::to_path_buf))
        .collect();
    out.sort();
    out
}

/// Copies every file [`project_files`] lists under `from` to the same place
/// under `to`, so a copy leaves build outputs and toolchains behind.
pub fn copy_project_files(from: &Path, to: &Path) -> std::io::Result<()> {
    for rel in project_files(from) {
        let target = to.join(&rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from.join(&rel), target)?;
    }
    Ok(())
}

#[cfg(test)]
mod walk_tests {
    use super::*;

    #[test]
    fn what_git_ignores_and_build_outputs_are_not_project_files() {
        let root_scratch = tempfile::tempdir().unwrap();
        let root = root_scratch.path().to_path_buf();
        for (path, text) in [
            (".gitignore", "/scratch/\n"),
            (".ci/run", "#!/bin/sh\n"),
            ("code/l/l.cu", "int main() {}\n"),
            ("scratch/l.cu", "int scratch;\n"),
            ("target/debug/x.cu", "\n"),
            (".toolchain/cuda/y.h", "\n"),
        ] {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        let found: Vec<String> = project_files(&root)
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(found, [".ci/run", ".gitignore", "code/l/l.cu"]);
    }
}
