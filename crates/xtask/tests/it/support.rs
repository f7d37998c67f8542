//! What the rule tests copy into a scratch checkout, shared by
//! `cli.rs` and `repository.rs`.

use std::path::Path;

/// Copies the files the shared allow-list names, which rule 1 requires to
/// exist, into the scratch copy `dir`.
pub fn copy_shared_allow_listed(root: &Path, dir: &Path) {
    for listed in xtask::rules::shared_allow_listed(root).unwrap() {
        let target = dir.join(&listed);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(root.join(&listed), target).unwrap();
    }
}

/// The registry the rules find the lessons in, into the scratch copy `dir`.
pub fn copy_registry(root: &Path, dir: &Path) {
    let registry = dir.join(::lessons::REGISTRY);
    std::fs::create_dir_all(registry.parent().unwrap()).unwrap();
    std::fs::copy(root.join(::lessons::REGISTRY), registry).unwrap();
}
