//! One lesson written out as a Cargo project of its own, for a learner to
//! take away (`cargo run -p lesson-export -- LESSON DIR`).
//!
//! The lesson's directory becomes the new project's root: its files as they
//! are, its `Cargo.toml` the new workspace's root manifest, and every package
//! it needs to build ([`closure`]), copied under `crates/<name>/` (a package
//! inside the lesson's directory keeps its place). The manifests are made
//! explicit ([`manifest`]) and the repository's `Cargo.lock` comes along,
//! trimmed ([`lockfile`]), with what cargo's local registry lacks for it
//! fetched for this platform ([`fetch`]). Everything is written into a
//! staging folder beside the destination and renamed into place at the end,
//! so a failed export leaves nothing behind.
//!
//! The copied `cuda-build` finds nvcc as it does here, except that the
//! project's own `.toolchain/cuda` is now looked for in the exported folder:
//! set `CUDA_HOME` (or put nvcc on `PATH`) to build it.
//!
//! Not for: the course's rules (`course-rules`, whose rule 10 builds a
//! lesson's `.cu` copied alone), or building the export.

pub mod closure;
pub mod fetch;
pub mod lockfile;
pub mod manifest;
pub mod transcripts;

use std::path::{Path, PathBuf};

/// Why an export did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("no lesson named `{name}` under code/ (the lessons: {known})")]
    UnknownLesson { name: String, known: String },
    #[error("{}: exists and is not an empty directory; export writes only into a new or empty one", .0.display())]
    Occupied(PathBuf),
    #[error("{}: is inside the repository at {}; export a lesson to a folder outside it", .dest.display(), .root.display())]
    InsideCheckout { dest: PathBuf, root: PathBuf },
    #[error(transparent)]
    Registry(#[from] ::lessons::RegistryError),
    #[error(transparent)]
    Closure(#[from] closure::ClosureError),
    #[error(transparent)]
    Manifest(#[from] manifest::ManifestError),
    #[error(transparent)]
    Lock(#[from] lockfile::LockError),
    /// A copied package's manifest, and what is wrong with it.
    #[error("{}/Cargo.toml", dir.display())]
    Rewrite {
        dir: PathBuf,
        #[source]
        source: manifest::ManifestError,
    },
    #[error("{}: has no Cargo package", .0.display())]
    NoPackage(PathBuf),
    #[error("{}: name a destination without `..` in its part that does not exist yet", .0.display())]
    DotDot(PathBuf),
    #[error("{}: names no directory", .0.display())]
    NoDirectory(PathBuf),
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ExportError {
    let what = what.into();
    move |source| ExportError::Io { what, source }
}

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The packages copied from outside the lesson's directory.
    pub shared_crates: Vec<String>,
    /// Test-only dependencies left out because their package was not copied.
    pub dropped_dev_dependencies: Vec<String>,
    /// Whether cargo's local registry held every package the lesson needs,
    /// or some were fetched.
    pub packages: lockfile::Packages,
}

/// Writes the lesson named `lesson` (its directory's name under `code/`) of
/// the repository at `root` into `dest`, which must not exist or be empty.
/// `cargo` runs `cargo metadata`, and `cargo fetch` where the local registry
/// lacks a package the lesson needs.
pub fn export(root: &Path, lesson: &str, dest: &Path, cargo: &Path) -> Result<Exported, ExportError> {
    let root = root
        .canonicalize()
        .map_err(io(format!("resolving {}", root.display())))?;
    let all = ::lessons::lessons(&root)?;
    let lesson_dir = all
        .iter()
        .find(|l| l.name == lesson)
        .map(|l| l.dir.clone())
        .ok_or_else(|| ExportError::UnknownLesson {
            name: lesson.to_string(),
            known: all.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", "),
        })?;
    let dest = &absolute_destination(dest)?;
    if dest.starts_with(&root) {
        return Err(ExportError::InsideCheckout {
            dest: dest.clone(),
            root,
        });
    }
    refuse_occupied(dest)?;
    let packages = closure::workspace_packages(cargo, &root)?;
    let needed = closure::closure(&packages, &lesson_dir)?;
    if !needed.iter().any(|p| p.dir == lesson_dir) {
        return Err(ExportError::NoPackage(lesson_dir));
    }
    let placement = place(&needed, &lesson_dir)?;
    let inherited = manifest::Inherited::read(&root)?;

    let staging = staging_dir(dest)?;
    let written = write_project(
        &root,
        &lesson_dir,
        &needed,
        &placement,
        &inherited,
        &staging,
        cargo,
    );
    let outcome = written.and_then(|written| {
        move_into_place(&staging, dest)?;
        Ok(written)
    });
    if outcome.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    let (dropped_dev_dependencies, packages) = outcome?;
    let shared_crates = needed
        .iter()
        .filter(|p| !p.dir.starts_with(&lesson_dir))
        .map(|p| p.name.clone())
        .collect();
    Ok(Exported {
        shared_crates,
        dropped_dev_dependencies,
        packages,
    })
}

/// `dest` as an absolute path with every link resolved, so that `.` has a
/// name and a folder inside the repository is recognised however it is
/// spelled. The part of it that does not exist yet is taken as written, and
/// may not climb with `..`.
fn absolute_destination(dest: &Path) -> Result<PathBuf, ExportError> {
    let absolute = std::path::absolute(dest).map_err(io(format!("resolving {}", dest.display())))?;
    let mut existing = absolute.as_path();
    let mut missing = Vec::new();
    while !existing.exists() {
        missing.push(existing.file_name().unwrap_or_default().to_owned());
        existing = existing.parent().unwrap_or(Path::new("/"));
    }
    let mut resolved = existing
        .canonicalize()
        .map_err(io(format!("resolving {}", existing.display())))?;
    for name in missing.iter().rev() {
        if name.is_empty() || name == ".." || name == "." {
            return Err(ExportError::DotDot(dest.to_path_buf()));
        }
        resolved.push(name);
    }
    Ok(resolved)
}

fn refuse_occupied(dest: &Path) -> Result<(), ExportError> {
    let occupied = match std::fs::read_dir(dest) {
        Ok(mut entries) => entries.next().is_some(),
        Err(_) => dest.exists() || dest.is_symlink(),
    };
    match occupied {
        true => Err(ExportError::Occupied(dest.to_path_buf())),
        false => Ok(()),
    }
}

/// Each needed package's folder and where its copy goes: the lesson's own
/// folder is the root, a package inside it keeps its place, any other goes
/// under `crates/<name>`.
fn place(needed: &[&closure::Package], lesson_dir: &Path) -> Result<Vec<(PathBuf, PathBuf)>, ExportError> {
    needed
        .iter()
        .map(|p| {
            let to = match p.dir.strip_prefix(lesson_dir) {
                Ok(inside) => inside.to_path_buf(),
                Err(_) => Path::new("crates").join(&p.name),
            };
            let from = p
                .dir
                .canonicalize()
                .map_err(io(format!("resolving {}", p.dir.display())))?;
            Ok((from, to))
        })
        .collect()
}

/// A fresh folder beside `dest`, on the same file system, so the finished
/// project can be renamed into place.
fn staging_dir(dest: &Path) -> Result<PathBuf, ExportError> {
    let name = dest
        .file_name()
        .ok_or_else(|| ExportError::NoDirectory(dest.to_path_buf()))?;
    let staging = dest.with_file_name(format!(
        ".{}.export-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    if let Some(parent) = staging.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(io(format!("creating {}", parent.display())))?;
    }
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir(&staging).map_err(io(format!("creating {}", staging.display())))?;
    Ok(staging)
}

/// Copies the packages, rewrites their manifests and writes the lock file;
/// returns the test-only dependencies left out, and where the packages the
/// lock file pins came from.
fn write_project(
    root: &Path,
    lesson_dir: &Path,
    needed: &[&closure::Package],
    placement: &manifest::Placement,
    inherited: &manifest::Inherited,
    staging: &Path,
    cargo: &Path,
) -> Result<(Vec<String>, lockfile::Packages), ExportError> {
    let mut members: Vec<String> = placement
        .iter()
        .map(|(_, to)| match to.as_os_str().is_empty() {
            true => ".".to_string(),
            false => to.to_string_lossy().replace('\\', "/"),
        })
        .collect();
    members.sort();
    project_files::copy_project_files(lesson_dir, staging)
        .map_err(io(format!("copying {}", lesson_dir.display())))?;
    // The transcripts the lesson's tests and README name, where an export's
    // tests look for them (see `transcripts`).
    let name = lesson_dir.file_name().unwrap_or_default();
    let own_files: Vec<PathBuf> = project_files::project_files(lesson_dir)
        .into_iter()
        .map(|rel| lesson_dir.join(rel))
        .collect();
    transcripts::copy_named(
        &own_files,
        &root.join("evidence").join(name),
        &staging.join("evidence").join(name),
    )
    .map_err(io(format!("copying {}'s transcripts", lesson_dir.display())))?;
    let mut dropped = Vec::new();
    for (package, (from, to)) in needed.iter().zip(placement) {
        let copy = staging.join(to);
        if !package.dir.starts_with(lesson_dir) {
            project_files::copy_project_files(&package.dir, &copy)
                .map_err(io(format!("copying {}", package.dir.display())))?;
        }
        let path = copy.join("Cargo.toml");
        let mut doc = manifest::parse(&path)?;
        let left_out = manifest::rewrite(&mut doc, from, to, inherited, placement).map_err(|source| {
            ExportError::Rewrite {
                dir: package.dir.clone(),
                source,
            }
        })?;
        dropped.extend(left_out.into_iter().map(|dep| format!("{}: {dep}", package.name)));
        if to.as_os_str().is_empty() {
            manifest::make_workspace_root(&mut doc, &members, inherited);
        }
        std::fs::write(&path, doc.to_string()).map_err(io(format!("writing {}", path.display())))?;
    }
    let original = std::fs::read_to_string(root.join("Cargo.lock"))
        .map_err(io(format!("reading {}", root.join("Cargo.lock").display())))?;
    let lock = staging.join("Cargo.lock");
    std::fs::write(&lock, &original).map_err(io(format!("writing {}", lock.display())))?;
    let packages = lockfile::trim(cargo, staging)?;
    let trimmed = std::fs::read_to_string(&lock).map_err(io(format!("reading {}", lock.display())))?;
    lockfile::check_same_versions(&original, &trimmed)?;
    Ok((dropped, packages))
}

/// Renames the finished project to `dest`. An empty `dest` that exists is
/// kept and filled instead, entry by entry: it may be the learner's working
/// directory (`export day09-timing .`), which must stay the folder they are
/// in, not a removed one with a new folder of the same name beside it.
fn move_into_place(staging: &Path, dest: &Path) -> Result<(), ExportError> {
    if !dest.is_dir() {
        return std::fs::rename(staging, dest)
            .map_err(io(format!("moving the project to {}", dest.display())));
    }
    let entries: Vec<_> = std::fs::read_dir(staging)
        .and_then(|dir| dir.map(|e| e.map(|e| e.file_name())).collect())
        .map_err(io(format!("reading {}", staging.display())))?;
    for (n, name) in entries.iter().enumerate() {
        if let Err(source) = std::fs::rename(staging.join(name), dest.join(name)) {
            // Leave dest empty again, as it was found.
            for moved in &entries[..n] {
                let _ = std::fs::rename(dest.join(moved), staging.join(moved));
            }
            return Err(ExportError::Io {
                what: format!("moving the project into {}", dest.display()),
                source,
            });
        }
    }
    std::fs::remove_dir(staging).map_err(io(format!("removing {}", staging.display())))
}
