//! The project's own files: everything under the root except build outputs,
//! provisioned toolchains and version control.

use std::path::{Path, PathBuf};

const SKIPPED_DIRS: [&str; 5] = [".git", "target", ".toolchain", ".evidence-bin", "node_modules"];

/// Every file under `root`, relative to it, in a stable order.
pub fn project_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            if !SKIPPED_DIRS.iter().any(|s| name == *s) {
                walk(root, &path, out);
            }
        } else if kind.is_file() {
            if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
    }
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
