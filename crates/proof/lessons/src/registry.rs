//! The registry read from a checkout at run time, as xtask (its rules and
//! export) read whatever tree they run in: every `<lesson>-report`
//! dependency in this crate's manifest ([`registry_manifest`]) is a lesson.

use std::path::{Path, PathBuf};

use crate::report_packages;

/// The manifest whose dependencies are the registry, relative to the root
/// ([`registry_manifest`] gives it in a checkout).
pub const REGISTRY: &str = "crates/proof/lessons/Cargo.toml";

/// The manifest that holds the registry's lines in the checkout at `root`:
/// the file a lesson's `<lesson>-report = { path = ... }` line is added to.
pub fn registry_manifest(root: &Path) -> PathBuf {
    root.join(REGISTRY)
}

/// A registered lesson, as a checkout holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    /// The lesson's name: its directory, package and binary.
    pub name: String,
    /// `<root>/code/<name>`.
    pub dir: PathBuf,
}

/// The registry could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("reading the lesson registry {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: registers no lesson (no `<lesson>-report = {{ path = ... }}` dependency)", path.display())]
    Empty { path: PathBuf },
}

/// The lessons registered in the checkout at `root`, in name order.
pub fn lessons(root: &Path) -> Result<Vec<Registered>, RegistryError> {
    let path = registry_manifest(root);
    let text = std::fs::read_to_string(&path).map_err(|source| RegistryError::Read {
        path: path.clone(),
        source,
    })?;
    let mut found: Vec<Registered> = report_packages(&text)
        .into_iter()
        .map(|name| Registered {
            dir: root.join("code").join(&name),
            name,
        })
        .collect();
    if found.is_empty() {
        return Err(RegistryError::Empty { path });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_packages;

    #[test]
    fn only_report_dependencies_are_lessons() {
        let manifest = "[package]\nname = \"lessons\"\n[dependencies]\n\
                        day09-timing-report = { path = \"../../../code/day09-timing/report\" }\n\
                        # old-report = { path = \"x\" }\n\
                        lesson-spec.workspace = true\nanyhow = \"1\"\n-report = \"1\"\n";
        assert_eq!(report_packages(manifest), ["day09-timing"]);
    }

    #[test]
    fn this_workspace_registers_every_lesson_directory_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
        let names: Vec<String> = lessons(&root).unwrap().into_iter().map(|l| l.name).collect();
        let mut dirs: Vec<String> = std::fs::read_dir(root.join("code"))
            .unwrap()
            .flatten()
            .filter(|e| e.path().join("Cargo.toml").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        dirs.sort();
        assert_eq!(names, dirs);
    }

    #[test]
    fn a_tree_without_the_registry_says_which_file_it_lacks() {
        let err = lessons(Path::new("/nonexistent")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "reading the lesson registry /nonexistent/crates/proof/lessons/Cargo.toml"
        );
        let cause = std::error::Error::source(&err).expect("the io error is kept");
        assert!(cause.to_string().contains("No such file"), "{cause}");
    }
}
