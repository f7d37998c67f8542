//! The exported project's `Cargo.lock`: the repository's own, trimmed by
//! cargo to the packages the lesson uses, and checked to pin exactly the
//! versions the repository pins.
//!
//! Not for: choosing versions; nothing here ever updates one.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Lets cargo drop the lock entries the project at `dir` does not use, from
/// the local registry cache only.
pub fn trim(cargo: &Path, dir: &Path) -> Result<(), String> {
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .output()
        .map_err(|e| format!("running {} metadata: {e}", cargo.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(format!(
        "cargo metadata --offline failed in the exported project: {}",
        stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or(stderr.trim())
    ))
}

/// Every `(name, version, source)` a lock file pins.
pub fn pins(lock: &str) -> Result<BTreeSet<(String, String, String)>, String> {
    let doc: toml_edit::DocumentMut = lock.parse().map_err(|e| format!("Cargo.lock: {e}"))?;
    let packages = doc
        .get("package")
        .and_then(toml_edit::Item::as_array_of_tables)
        .ok_or("Cargo.lock: no [[package]] entries")?;
    Ok(packages
        .iter()
        .map(|p| {
            let field = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            (field("name"), field("version"), field("source"))
        })
        .collect())
}

/// An error naming the first package the trimmed lock pins differently.
pub fn check_same_versions(original: &str, trimmed: &str) -> Result<(), String> {
    let original = pins(original)?;
    match pins(trimmed)?.into_iter().find(|pin| !original.contains(pin)) {
        None => Ok(()),
        Some((name, version, _)) => Err(format!(
            "the exported Cargo.lock pins {name} {version}, which the repository's Cargo.lock does not"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\nsource = \"registry+x\"\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";

    #[test]
    fn a_subset_passes_and_another_version_is_named() {
        let subset = "version = 4\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";
        assert_eq!(check_same_versions(LOCK, subset), Ok(()));
        let moved =
            "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.1\"\nsource = \"registry+x\"\n";
        let err = check_same_versions(LOCK, moved).unwrap_err();
        assert!(err.contains("pins a 1.0.1"), "{err}");
    }
}
