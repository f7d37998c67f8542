//! Which packages a lesson needs: the path-dependency closure, computed from
//! `cargo metadata` rather than from a list someone has to keep up to date.
//!
//! Not for: registry dependencies (the copied `Cargo.lock` pins those) or
//! rewriting manifests ([`super::manifest`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One package of the workspace, as `cargo metadata --no-deps` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    /// The folder holding its `Cargo.toml`.
    pub dir: PathBuf,
    /// The folders of the packages it depends on by path, normal and build
    /// dependencies only: what building it needs.
    pub build_needs: Vec<PathBuf>,
    /// The folders of the packages its tests alone depend on by path
    /// (dev-dependencies): a lesson's test kit, which its export keeps so
    /// that its tests run there too.
    pub test_needs: Vec<PathBuf>,
}

/// Why the packages a lesson needs could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ClosureError {
    #[error("running {} metadata", cargo.display())]
    Spawn {
        cargo: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cargo metadata failed in {}: {first_error}", root.display())]
    Failed { root: PathBuf, first_error: String },
    #[error("reading cargo metadata's output")]
    Output(#[source] serde_json::Error),
    #[error("cargo metadata's output has no `packages` list")]
    NoPackages,
    #[error("a package in cargo metadata has no name")]
    NoName,
    #[error("package {name} has no manifest_path")]
    NoManifest { name: String },
    #[error("package {name}: manifest path {manifest} has no folder")]
    NoFolder { name: String, manifest: String },
    #[error("{package} depends on the package at {}, which is not in the workspace", dir.display())]
    Outside { package: String, dir: PathBuf },
}

/// The workspace's packages, from `cargo metadata` run with `cargo` on the
/// workspace at `root`.
pub fn workspace_packages(cargo: &Path, root: &Path) -> Result<Vec<Package>, ClosureError> {
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .output()
        .map_err(|source| ClosureError::Spawn {
            cargo: cargo.to_path_buf(),
            source,
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(ClosureError::Failed {
            root: root.to_path_buf(),
            first_error: stderr
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or(stderr.trim())
                .to_string(),
        });
    }
    let metadata: Value = serde_json::from_slice(&out.stdout).map_err(ClosureError::Output)?;
    metadata["packages"]
        .as_array()
        .ok_or(ClosureError::NoPackages)?
        .iter()
        .map(package)
        .collect()
}

fn package(entry: &Value) -> Result<Package, ClosureError> {
    let name = entry["name"].as_str().ok_or(ClosureError::NoName)?;
    let manifest = entry["manifest_path"]
        .as_str()
        .ok_or_else(|| ClosureError::NoManifest {
            name: name.to_string(),
        })?;
    let dir = Path::new(manifest)
        .parent()
        .ok_or_else(|| ClosureError::NoFolder {
            name: name.to_string(),
            manifest: manifest.to_string(),
        })?;
    let path_deps = |tests_only: bool| {
        entry["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            // kind is null for normal dependencies, "build" or "dev" otherwise.
            .filter(|dep| (dep["kind"] == "dev") == tests_only)
            .filter_map(|dep| dep["path"].as_str().map(PathBuf::from))
            .collect()
    };
    Ok(Package {
        name: name.to_string(),
        dir: dir.to_path_buf(),
        build_needs: path_deps(false),
        test_needs: path_deps(true),
    })
}

/// The packages inside `lesson_dir` (the lesson and any sub-package of it),
/// the packages their tests need, and, transitively, every package those
/// need to build, each once, in the order found. A shared crate's own
/// test-only dependencies are left out: its tests stay in the repository.
pub fn closure<'a>(packages: &'a [Package], lesson_dir: &Path) -> Result<Vec<&'a Package>, ClosureError> {
    let mut found: Vec<&Package> = packages
        .iter()
        .filter(|p| p.dir.starts_with(lesson_dir))
        .collect();
    let mut next = 0;
    while let Some(&package) = found.get(next) {
        let tests = match package.dir.starts_with(lesson_dir) {
            true => &package.test_needs[..],
            false => &[],
        };
        for dir in package.build_needs.iter().chain(tests) {
            let needed = packages
                .iter()
                .find(|p| &p.dir == dir)
                .ok_or_else(|| ClosureError::Outside {
                    package: package.name.clone(),
                    dir: dir.clone(),
                })?;
            if !found.iter().any(|p| p.dir == needed.dir) {
                found.push(needed);
            }
        }
        next += 1;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(name: &str, dir: &str, needs: &[&str]) -> Package {
        Package {
            name: name.into(),
            dir: dir.into(),
            build_needs: needs.iter().map(PathBuf::from).collect(),
            test_needs: Vec::new(),
        }
    }

    #[test]
    fn the_lessons_test_needs_come_along_and_a_shared_crates_do_not() {
        let tested = |mut p: Package, tests: &str| {
            p.test_needs.push(tests.into());
            p
        };
        let all = [
            tested(pkg("lesson", "/r/code/lesson", &["/r/crates/a"]), "/r/crates/kit"),
            tested(pkg("a", "/r/crates/a", &[]), "/r/crates/a-tests"),
            pkg("kit", "/r/crates/kit", &["/r/crates/b"]),
            pkg("b", "/r/crates/b", &[]),
            pkg("a-tests", "/r/crates/a-tests", &[]),
        ];
        let names: Vec<&str> = closure(&all, Path::new("/r/code/lesson"))
            .unwrap()
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["lesson", "a", "kit", "b"]);
    }

    #[test]
    fn the_closure_follows_needs_transitively_and_takes_every_package_in_the_lesson() {
        let all = [
            pkg(
                "lesson",
                "/r/code/lesson",
                &["/r/crates/a", "/r/code/lesson/report"],
            ),
            pkg("lesson-report", "/r/code/lesson/report", &["/r/crates/b"]),
            pkg("a", "/r/crates/a", &["/r/crates/b"]),
            pkg("b", "/r/crates/b", &[]),
            pkg("unused", "/r/crates/unused", &[]),
            pkg("other-lesson", "/r/code/lesson-two", &["/r/crates/unused"]),
        ];
        let names: Vec<&str> = closure(&all, Path::new("/r/code/lesson"))
            .unwrap()
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["lesson", "lesson-report", "a", "b"]);
    }

    #[test]
    fn a_need_outside_the_workspace_is_an_error() {
        let all = [pkg("lesson", "/r/code/lesson", &["/elsewhere/c"])];
        let err = closure(&all, Path::new("/r/code/lesson"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("/elsewhere/c"), "{err}");
    }

    #[test]
    fn this_workspace_lists_every_lesson_with_its_build_dependencies() {
        let root = course_rules::repository_root();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let all = workspace_packages(Path::new(&cargo), &root).unwrap();
        for lesson in ::lessons::lessons(&root).unwrap() {
            let package = all.iter().find(|p| p.dir == lesson.dir).unwrap();
            assert!(
                package
                    .build_needs
                    .iter()
                    .any(|d| d.ends_with("crates/course/cuda-build")),
                "{package:?}"
            );
        }
    }
}
