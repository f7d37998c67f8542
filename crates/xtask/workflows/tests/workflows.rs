//! Every workflow in `.github/workflows/` passes actionlint, actionlint
//! catches a planted mistake in one of them, and what they name exists: the
//! `ci/` scripts they call and the `evidence` subcommands they run. A test
//! that needs actionlint fails, naming `ci/provision-actionlint.sh`, when it
//! is missing.

use std::path::{Path, PathBuf};

use workflows::{lint, Findings};

fn workflow_dir() -> PathBuf {
    workflows::repository_root().join(".github/workflows")
}

fn workflow_files() -> Vec<PathBuf> {
    workflows::workflow_files(&workflow_dir()).unwrap_or_else(|e| panic!("{e}"))
}

/// actionlint's findings, or the test fails with the error (which names the
/// provisioning script when actionlint is missing).
fn lint_or_fail(files: &[PathBuf]) -> Findings {
    lint(files).unwrap_or_else(|e| panic!("{e}"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

#[test]
fn every_workflow_passes_actionlint() {
    let files = workflow_files();
    assert!(
        files.len() >= 2,
        "expected ci.yml and gpu-evidence.yml at least, found {files:?}"
    );
    let findings = lint_or_fail(&files);
    assert!(findings.is_empty(), "actionlint:\n{findings}");
}

#[test]
fn a_planted_unknown_key_is_found_and_named() {
    let original = read(&workflow_dir().join("gpu-evidence.yml"));
    assert!(
        original.contains("    runs-on: "),
        "gpu-evidence.yml has no job with runs-on"
    );
    let planted = original.replacen("    runs-on: ", "    runs-onn: ", 1);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (good, bad) = (dir.path().join("good.yml"), dir.path().join("bad.yml"));
    std::fs::write(&good, &original).expect("writing the copy");
    std::fs::write(&bad, &planted).expect("writing the planted copy");

    // The unchanged copy passes where it lies, so the finding is the key's.
    let findings = lint_or_fail(&[good]);
    assert!(findings.is_empty(), "the unchanged copy:\n{findings}");
    let findings = lint_or_fail(std::slice::from_ref(&bad));
    // actionlint prints paths relative to its working directory.
    let named = findings
        .lines()
        .iter()
        .any(|line| line.contains("bad.yml:") && line.contains("\"runs-onn\""));
    assert!(
        named,
        "no finding names \"runs-onn\" in {}:\n{findings}",
        bad.display()
    );
}

#[test]
fn every_script_the_workflows_call_exists_and_is_executable() {
    use std::os::unix::fs::PermissionsExt;
    let root = workflows::repository_root();
    let mut scripts = Vec::new();
    for file in workflow_files() {
        scripts.extend(workflows::named_scripts(&read(&file)));
    }
    for expected in [
        ".ci/run",
        "ci/build-for-gpu.sh",
        "ci/gpu-session.sh",
        "ci/provision.sh",
    ] {
        assert!(
            scripts.iter().any(|s| s == expected),
            "the workflows no longer name {expected}?"
        );
    }
    let broken: Vec<String> = scripts
        .iter()
        .filter(|script| {
            let mode = std::fs::metadata(root.join(script)).map(|m| m.permissions().mode());
            !matches!(mode, Ok(mode) if mode & 0o111 != 0)
        })
        .cloned()
        .collect();
    assert!(
        broken.is_empty(),
        "named in .github/workflows/ but missing or not executable: {broken:?}"
    );
}

#[test]
fn every_evidence_subcommand_the_workflows_run_exists() {
    let root = workflows::repository_root();
    let known = workflows::command_variants(&read(&root.join("crates/proof/evidence/src/main.rs")));
    assert!(
        known.iter().any(|c| c == "check"),
        "no subcommands read from evidence's main.rs: {known:?}"
    );
    let mut used = Vec::new();
    for file in workflow_files() {
        used.extend(workflows::evidence_subcommands(&read(&file)));
    }
    assert!(
        used.iter().any(|c| c == "check"),
        "the workflows run no `evidence check`?"
    );
    let unknown: Vec<&String> = used.iter().filter(|c| !known.contains(c)).collect();
    assert!(
        unknown.is_empty(),
        "the workflows run evidence subcommands its main.rs has no variant for: {unknown:?} (it has {known:?})"
    );
}
