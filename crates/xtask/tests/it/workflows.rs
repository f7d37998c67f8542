//! Every workflow in `.github/workflows/` passes actionlint, actionlint
//! catches a planted mistake in one of them, and what they name exists: the
//! `ci/` scripts they call and the `evidence` subcommands they run. A test
//! that needs actionlint fails, naming `ci/provision-actionlint.sh`, when it
//! is missing.

use std::path::{Path, PathBuf};

use checker::{lint, Findings};

mod checker {
    //! The repository's GitHub Actions workflows (`.github/workflows/`), held to
    //! actionlint: where the checker is ([`actionlint`]), its findings on a set
    //! of files ([`lint`]), and what the workflows name that must exist in the
    //! tree (the `ci/` scripts they call, [`named_scripts`]; the `evidence`
    //! subcommands they run, [`evidence_subcommands`], against the tool's own
    //! list, [`command_variants`]). The tests in `tests/` apply them.
    //!
    //! actionlint comes from `ci/provision-actionlint.sh`. It runs shellcheck on
    //! the `run:` blocks (and pyflakes on Python ones) only when one is on
    //! `PATH`; neither is required, so a machine with shellcheck may find more
    //! than CI does, never less.
    //!
    //! Not for running the workflows: their jobs need GitHub's runners, and the
    //! scripts they call are tested where they live.

    use std::fmt;
    use std::io;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// The script that provisions actionlint, named by every "not found" error.
    pub const PROVISION: &str = "ci/provision-actionlint.sh";

    /// Where [`PROVISION`] puts actionlint, under the repository root.
    pub const PROVISIONED: &str = ".toolchain/actionlint/venv/bin/actionlint";

    /// What can go wrong finding or running actionlint, or reading a workflow.
    #[derive(Debug, thiserror::Error)]
    pub enum Error {
        #[error("actionlint not found (ACTIONLINT unset, no {provisioned}, none on PATH); run {PROVISION}")]
        NotFound { provisioned: PathBuf },
        #[error("ACTIONLINT is {0}, which is not a file; run {PROVISION}, or unset ACTIONLINT")]
        BadVariable(PathBuf),
        #[error("could not run {program}: {source}; run {PROVISION}")]
        Spawn { program: PathBuf, source: io::Error },
        /// Exit status 2 (a bad command line) or 3 (a fatal error): actionlint
        /// found nothing, it failed.
        #[error("{program} failed ({status}): {stderr}")]
        Failed {
            program: PathBuf,
            status: std::process::ExitStatus,
            stderr: String,
        },
        #[error("reading {path}: {source}")]
        Read { path: PathBuf, source: io::Error },
    }

    /// actionlint's findings, one per line (`file:line:col: message [rule]`);
    /// empty when the files passed.
    #[derive(Debug, Clone, Default, PartialEq, Eq)]
    pub struct Findings(pub Vec<String>);

    impl Findings {
        pub fn is_empty(&self) -> bool {
            self.0.is_empty()
        }

        pub fn lines(&self) -> &[String] {
            &self.0
        }
    }

    impl fmt::Display for Findings {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            for line in &self.0 {
                writeln!(f, "{line}")?;
            }
            Ok(())
        }
    }

    /// The repository this crate is part of.
    pub fn repository_root() -> PathBuf {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        crate_dir.ancestors().nth(2).unwrap_or(crate_dir).to_path_buf()
    }

    /// The actionlint binary: `ACTIONLINT` when set, else [`PROVISIONED`] under
    /// the repository root, else `actionlint` on `PATH`.
    pub fn actionlint() -> Result<PathBuf, Error> {
        if let Some(path) = std::env::var_os("ACTIONLINT").filter(|v| !v.is_empty()) {
            let path = PathBuf::from(path);
            return if path.is_file() {
                Ok(path)
            } else {
                Err(Error::BadVariable(path))
            };
        }
        let provisioned = repository_root().join(PROVISIONED);
        if provisioned.is_file() {
            return Ok(provisioned);
        }
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join("actionlint"))
            .find(|path| path.is_file())
            .ok_or(Error::NotFound { provisioned })
    }

    /// The workflow files in `dir` (`*.yml` and `*.yaml`), sorted.
    pub fn workflow_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
        let read = |source| Error::Read {
            path: dir.to_path_buf(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(read)? {
            let path = entry.map_err(read)?.path();
            let yaml = path.extension().is_some_and(|ext| ext == "yml" || ext == "yaml");
            if yaml && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        Ok(files)
    }

    /// actionlint's findings on `files`, one per line. Exit status 1 means it
    /// found something; 2 and 3 that it could not check, which is an error.
    pub fn lint(files: &[PathBuf]) -> Result<Findings, Error> {
        let program = actionlint()?;
        let output = Command::new(&program)
            .args(["-oneline", "-no-color"])
            .args(files)
            .output()
            .map_err(|source| Error::Spawn {
                program: program.clone(),
                source,
            })?;
        match output.status.code() {
            Some(0 | 1) => Ok(Findings(
                String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .filter(|line| !line.trim().is_empty())
                    .map(str::to_string)
                    .collect(),
            )),
            _ => Err(Error::Failed {
                program,
                status: output.status,
                stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
            }),
        }
    }

    /// The words of a workflow, split where a shell or a sentence would split
    /// them, with the punctuation around a path taken off.
    fn words(text: &str) -> impl Iterator<Item = &str> {
        text.split(|c: char| c.is_whitespace() || "\"'`(),;".contains(c))
            .map(|word| word.trim_end_matches([':', '.']))
            .filter(|word| !word.is_empty())
    }

    /// The repository scripts a workflow names: `ci/<name>.sh` and `.ci/run`,
    /// in `run:` blocks, step names or comments alike (a comment that names a
    /// script that is gone is stale too). Sorted, each once.
    pub fn named_scripts(workflow: &str) -> Vec<String> {
        let mut scripts: Vec<String> = words(workflow)
            .filter(|w| *w == ".ci/run" || (w.starts_with("ci/") && w.ends_with(".sh")))
            .map(str::to_string)
            .collect();
        scripts.sort();
        scripts.dedup();
        scripts
    }

    /// The `evidence` subcommands a workflow runs: the first word after `-p
    /// evidence --` (or `--package evidence --`) that is not one of the tool's
    /// global options (`--root DIR`, `--evidence DIR`). Sorted, each once.
    pub fn evidence_subcommands(workflow: &str) -> Vec<String> {
        let mut found = Vec::new();
        for line in workflow.lines() {
            let words: Vec<&str> = words(line).collect();
            for (i, pair) in words.windows(3).enumerate() {
                if !(matches!(pair[0], "-p" | "--package") && pair[1] == "evidence" && pair[2] == "--") {
                    continue;
                }
                let mut rest = words[i + 3..].iter();
                while let Some(word) = rest.next() {
                    if matches!(*word, "--root" | "--evidence") {
                        rest.next();
                    } else if !word.starts_with("--") {
                        found.push(word.to_string());
                        break;
                    }
                }
            }
        }
        found.sort();
        found.dedup();
        found
    }

    /// The subcommands of a clap `enum Command` in `main_rs` (the evidence
    /// tool's `src/main.rs`), as clap names them: each variant in kebab-case.
    pub fn command_variants(main_rs: &str) -> Vec<String> {
        let body = main_rs
            .lines()
            .skip_while(|line| !line.starts_with("enum Command {"))
            .skip(1)
            .take_while(|line| !line.starts_with('}'));
        let mut names: Vec<String> = body
            .filter_map(|line| line.strip_prefix("    "))
            .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
            .map(|line| {
                let name = line
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .next()
                    .unwrap_or("");
                kebab_case(name)
            })
            .collect();
        names.sort();
        names
    }

    fn kebab_case(name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn scripts_are_read_from_runs_names_and_comments() {
            let yml = "# calls (ci/build-for-gpu.sh, ci/gpu-session.sh runs)\n\
                       - name: Build (ci/provision.sh)\n  run: .ci/run && \"ci/test.sh\"; echo ci.yml ci/notes.md\n";
            assert_eq!(
                named_scripts(yml),
                [
                    ".ci/run",
                    "ci/build-for-gpu.sh",
                    "ci/gpu-session.sh",
                    "ci/provision.sh",
                    "ci/test.sh"
                ]
            );
        }

        #[test]
        fn evidence_subcommands_skip_global_options() {
            let yml = "run: cargo run --release -p evidence -- merge \"${s[@]}\"\n\
                       run: cargo run -q --package evidence -- --evidence OUT/evidence check\n\
                       # `evidence site` in a comment is not a command; cargo xtask check\n";
            assert_eq!(evidence_subcommands(yml), ["check", "merge"]);
        }

        #[test]
        fn variants_are_kebab_case_and_fields_are_not_variants() {
            let main_rs = "#[derive(Subcommand)]\nenum Command {\n    /// Doc.\n    Record {\n        \
                           #[arg(long)]\n        lesson: String,\n    },\n    Check,\n    \
                           CompareFiles { file_a: PathBuf },\n}\n\nenum Other {\n    Nope,\n}\n";
            assert_eq!(command_variants(main_rs), ["check", "compare-files", "record"]);
        }
    }
}

fn workflow_dir() -> PathBuf {
    checker::repository_root().join(".github/workflows")
}

fn workflow_files() -> Vec<PathBuf> {
    checker::workflow_files(&workflow_dir()).unwrap_or_else(|e| panic!("{e}"))
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
    let root = checker::repository_root();
    let mut scripts = Vec::new();
    for file in workflow_files() {
        scripts.extend(checker::named_scripts(&read(&file)));
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
    let root = checker::repository_root();
    let known = checker::command_variants(&read(&root.join("crates/proof/evidence/src/main.rs")));
    assert!(
        known.iter().any(|c| c == "check"),
        "no subcommands read from evidence's main.rs: {known:?}"
    );
    let mut used = Vec::new();
    for file in workflow_files() {
        used.extend(checker::evidence_subcommands(&read(&file)));
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
