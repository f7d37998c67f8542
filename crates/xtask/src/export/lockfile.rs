//! The exported project's `Cargo.lock`: the repository's own, trimmed by
//! cargo to the packages the lesson uses, and checked to pin exactly the
//! versions the repository pins. What the local registry lacks for that is
//! fetched first ([`super::fetch`]).
//!
//! Not for: choosing versions; nothing here ever updates one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::export::fetch::{self, FetchFailed};

/// Why the exported project's lock file could not be made or trusted.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("running {} {args}", cargo.display())]
    Spawn {
        cargo: PathBuf,
        args: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("{} -vV printed no `host:` line", cargo.display())]
    NoHost { cargo: PathBuf },
    #[error(
        "cargo's local registry lacks a package the lesson needs ({first_error}) and fetching it \
         failed ({fetch}); run `cargo fetch` in the repository (it needs the network), then export again"
    )]
    MissingPackage { first_error: String, fetch: FetchFailed },
    #[error(
        "cargo fetch ran, but cargo's local registry still lacks a package the lesson needs ({first_error})"
    )]
    StillMissing { first_error: String },
    #[error("cargo metadata --offline failed in the exported project: {first_error}")]
    Metadata { first_error: String },
    #[error("Cargo.lock")]
    Parse(#[source] Box<toml_edit::TomlError>),
    #[error("Cargo.lock: no [[package]] entries")]
    NoPackages,
    #[error("the exported Cargo.lock pins {name} {version}, which the repository's Cargo.lock does not")]
    Moved { name: String, version: String },
}

fn spawn_error<'a>(cargo: &'a Path, args: &'static str) -> impl FnOnce(std::io::Error) -> LockError + 'a {
    move |source| LockError::Spawn {
        cargo: cargo.to_path_buf(),
        args,
        source,
    }
}

/// Where the packages the trimmed lock file pins came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Packages {
    /// Cargo's local registry held them all.
    Cached,
    /// Some were fetched for this platform, the one named.
    Fetched { host: String },
}

/// Lets cargo drop the lock entries the project at `dir` does not use.
///
/// The local registry is read first, offline, so a machine that has built
/// the repository exports without the network. Where it lacks a package
/// the lesson needs, the packages are fetched ([`fetch::fetch`]) and the
/// lock trimmed again; only when the fetch fails too is that an error.
///
/// Only this machine's platform is asked for. Cargo still resolves, and
/// writes, every platform's entries from the index it has cached, but it
/// reads the sources of this platform's packages alone: the ones a build
/// here downloaded. Without the filter it wants Windows-only crates (clap's
/// `anstyle-wincon`) that no Linux build ever fetches, and a fresh machine's
/// export failed on them.
pub fn trim(cargo: &Path, dir: &Path) -> Result<Packages, LockError> {
    let host = host_platform(cargo)?;
    let Offline::Lacks { first_error } = resolve_offline(cargo, dir, &host)? else {
        return Ok(Packages::Cached);
    };
    fetch::fetch(cargo, dir, &host).map_err(|fetch| LockError::MissingPackage { first_error, fetch })?;
    match resolve_offline(cargo, dir, &host)? {
        Offline::Resolved => Ok(Packages::Fetched { host }),
        Offline::Lacks { first_error } => Err(LockError::StillMissing { first_error }),
    }
}

/// What `cargo metadata --offline` made of a project.
enum Offline {
    Resolved,
    /// The local registry lacks a package it needs; cargo's first error line.
    Lacks {
        first_error: String,
    },
}

/// `cargo metadata --offline` for `host` on the project at `dir`, which
/// writes its trimmed lock file; any failure but a lacking registry is an
/// error.
fn resolve_offline(cargo: &Path, dir: &Path, host: &str) -> Result<Offline, LockError> {
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--filter-platform",
            host,
        ])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .output()
        .map_err(spawn_error(cargo, "metadata"))?;
    if out.status.success() {
        return Ok(Offline::Resolved);
    }
    metadata_failure(&String::from_utf8_lossy(&out.stderr))
}

/// The platform cargo builds for by default here, from `cargo -vV`'s
/// `host:` line.
pub fn host_platform(cargo: &Path) -> Result<String, LockError> {
    let out = Command::new(cargo)
        .arg("-vV")
        .output()
        .map_err(spawn_error(cargo, "-vV"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| LockError::NoHost {
            cargo: cargo.to_path_buf(),
        })
}

/// A failed `cargo metadata --offline`: a package missing from the local
/// registry, or an error with cargo's own first error line.
fn metadata_failure(stderr: &str) -> Result<Offline, LockError> {
    let first_error = stderr
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(stderr.trim());
    let missing = [
        "failed to download",
        "--offline was specified",
        "no matching package",
    ];
    match missing.iter().any(|m| stderr.contains(m)) {
        true => Ok(Offline::Lacks {
            first_error: first_error.trim_start_matches("error: ").to_string(),
        }),
        false => Err(LockError::Metadata {
            first_error: first_error.to_string(),
        }),
    }
}

/// Every `(name, version, source)` a lock file pins.
pub fn pins(lock: &str) -> Result<BTreeSet<(String, String, String)>, LockError> {
    let doc: toml_edit::DocumentMut = lock.parse().map_err(|e| LockError::Parse(Box::new(e)))?;
    let packages = doc
        .get("package")
        .and_then(toml_edit::Item::as_array_of_tables)
        .ok_or(LockError::NoPackages)?;
    Ok(packages
        .iter()
        .map(|p| {
            let field = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            (field("name"), field("version"), field("source"))
        })
        .collect())
}

/// An error naming the first package the trimmed lock pins differently.
pub fn check_same_versions(original: &str, trimmed: &str) -> Result<(), LockError> {
    let original = pins(original)?;
    match pins(trimmed)?.into_iter().find(|pin| !original.contains(pin)) {
        None => Ok(()),
        Some((name, version, _)) => Err(LockError::Moved { name, version }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\nsource = \"registry+x\"\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";

    #[test]
    fn a_package_missing_from_the_registry_is_told_from_other_failures() {
        let stderr = "error: failed to download `anstyle-wincon v3.0.11`\n\nCaused by:\n  attempting to make an HTTP request, but --offline was specified\n";
        let Ok(Offline::Lacks { first_error }) = metadata_failure(stderr) else {
            panic!("not a lacking registry");
        };
        assert_eq!(first_error, "failed to download `anstyle-wincon v3.0.11`");
        let Err(other) = metadata_failure("error: failed to parse manifest at `x/Cargo.toml`\n") else {
            panic!("a lacking registry");
        };
        assert!(
            other.to_string().starts_with("cargo metadata --offline failed"),
            "{other}"
        );
    }

    #[test]
    fn a_failed_fetch_keeps_the_line_that_names_the_command_and_adds_its_reason() {
        let line = LockError::MissingPackage {
            first_error: "no matching package named `cudarc` found".into(),
            fetch: FetchFailed {
                reason: "[6] Couldn't resolve host name".into(),
            },
        }
        .to_string();
        assert_eq!(
            line,
            "cargo's local registry lacks a package the lesson needs (no matching package named \
             `cudarc` found) and fetching it failed ([6] Couldn't resolve host name); run `cargo fetch` \
             in the repository (it needs the network), then export again"
        );
    }

    #[test]
    fn the_host_platform_is_cargos() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let host = host_platform(Path::new(&cargo)).unwrap();
        // The triple this test binary was built for is the host's: tests run where they are built.
        assert_eq!(host.split('-').next(), Some(std::env::consts::ARCH), "{host}");
        assert!(host.contains(std::env::consts::OS), "{host}");
    }

    #[test]
    fn a_subset_passes_and_another_version_is_named() {
        let subset = "version = 4\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";
        assert!(check_same_versions(LOCK, subset).is_ok());
        let moved =
            "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.1\"\nsource = \"registry+x\"\n";
        let err = check_same_versions(LOCK, moved).unwrap_err().to_string();
        assert!(err.contains("pins a 1.0.1"), "{err}");
    }
}
