//! What an exported project needs and cargo's local registry lacks, fetched:
//! `cargo fetch` for this machine's platform, run in the exported project,
//! so that what comes down is what the lesson builds with, at the versions
//! its copied lock file pins (a fresh clone's empty cargo home lacks them
//! all). A failure comes back as one line, for the export's own error.
//!
//! Not for: choosing versions (the lock file pins them), or deciding
//! whether anything is lacking ([`super::lockfile::trim`] asks cargo).

use std::path::Path;
use std::process::Command;

/// `cargo fetch` failed, and cargo's reason, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct FetchFailed {
    pub reason: String,
}

/// Runs `cargo fetch --target <host>` on the project at `dir`. Cargo may
/// rewrite its lock file while it resolves, dropping what the project does
/// not use; the export holds the result to the repository's versions.
pub fn fetch(cargo: &Path, dir: &Path, host: &str) -> Result<(), FetchFailed> {
    let out = Command::new(cargo)
        .args(["fetch", "--target", host, "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .output()
        .map_err(|e| FetchFailed {
            reason: format!("running {} fetch: {e}", cargo.display()),
        })?;
    match out.status.success() {
        true => Ok(()),
        false => Err(FetchFailed {
            reason: reason(&String::from_utf8_lossy(&out.stderr)),
        }),
    }
}

/// `cargo fetch`'s failure in one line: that cargo is offline where it says
/// so, else the innermost `Caused by:` (the network's own words, such as
/// `[6] Couldn't resolve host name ...`), else its first error line.
fn reason(stderr: &str) -> String {
    let offline = ["offline mode", "--offline was specified"];
    if offline.iter().any(|o| stderr.contains(o)) {
        return "cargo is set to work offline: CARGO_NET_OFFLINE or net.offline".to_string();
    }
    let mut lines = stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let first_error = lines
        .clone()
        .find_map(|l| l.strip_prefix("error: "))
        .or_else(|| lines.next());
    let innermost_cause = stderr
        .rsplit_once("Caused by:")
        .and_then(|(_, cause)| cause.lines().map(str::trim).find(|l| !l.is_empty()));
    innermost_cause
        .or(first_error)
        .unwrap_or("cargo fetch printed no reason")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreachable_registry_is_named_by_the_innermost_cause() {
        let stderr = "    Updating crates.io index\n\
            warning: spurious network error (3 tries remaining): [6] Couldn't resolve host name\n\
            error: failed to get `anyhow` as a dependency of package `day09-timing v0.1.0 (/tmp/x)`\n\n\
            Caused by:\n  download of config.json failed\n\n\
            Caused by:\n  [6] Couldn't resolve host name (Could not resolve host: index.crates.io)\n";
        assert_eq!(
            reason(stderr),
            "[6] Couldn't resolve host name (Could not resolve host: index.crates.io)"
        );
    }

    #[test]
    fn offline_cargo_says_so_and_anything_else_is_its_first_error() {
        let offline = "error: no matching package named `clap` found\nlocation searched: crates.io index\n\
            As a reminder, you're using offline mode (--offline) which can sometimes cause surprising \
            resolution failures, if this error is too confusing you may wish to retry without `--offline`.\n";
        assert!(
            reason(offline).starts_with("cargo is set to work offline"),
            "{}",
            reason(offline)
        );
        assert_eq!(
            reason("error: failed to parse manifest at `/x/Cargo.toml`\n"),
            "failed to parse manifest at `/x/Cargo.toml`"
        );
        assert_eq!(reason("killed\n"), "killed");
        assert_eq!(reason(""), "cargo fetch printed no reason");
    }
}
