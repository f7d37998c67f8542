//! One lesson written out as a Cargo project of its own, for a learner to
//! take away (`cargo xtask export LESSON DIR`).
//!
//! The lesson's directory becomes the new project's root: its files as they
//! are, its `Cargo.toml` the new workspace's root manifest, and every package
//! it needs to build, copied under `crates/<name>/` (a package inside the
//! lesson's directory keeps its place). Which packages: the path-dependency
//! closure, from `cargo metadata` ([`closure`]). The manifests are made
//! explicit ([`manifest`]) and the repository's `Cargo.lock` comes along,
//! trimmed by cargo and held to the repository's versions ([`trim_lock`]),
//! with what cargo's local registry lacks fetched for this platform. The
//! transcripts the lesson's files name come along under `evidence/<lesson>/`
//! ([`transcripts_named`]), where its tests look for them. Everything is
//! written into a staging folder beside the destination and renamed into
//! place at the end, so a failed export leaves nothing behind.
//!
//! The copied `cuda-build` finds nvcc as it does here, except that the
//! project's own `.toolchain/cuda` is now looked for in the exported folder:
//! set `CUDA_HOME` (or put nvcc on `PATH`) to build it.
//!
//! Not for: the course's rules (`rules`, whose rule 10 builds a lesson's
//! `.cu` copied alone), or building the export.

pub mod manifest;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::LazyLock;

use anyhow::{anyhow, bail, Context, Result};
use regex::Regex;
use serde_json::Value;

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The packages copied from outside the lesson's directory.
    pub shared_crates: Vec<String>,
    /// Test-only dependencies left out because their package was not copied.
    pub dropped_dev_dependencies: Vec<String>,
    /// Whether cargo's local registry held every package the lesson needs,
    /// or some were fetched, for the platform named.
    pub fetched_for: Option<String>,
}

/// Writes the lesson named `lesson` (its directory's name under `code/`) of
/// the repository at `root` into `dest`, which must not exist or be empty.
/// `cargo` runs `cargo metadata`, and `cargo fetch` where the local registry
/// lacks a package the lesson needs.
pub fn export(root: &Path, lesson: &str, dest: &Path, cargo: &Path) -> Result<Exported> {
    let root = root
        .canonicalize()
        .with_context(|| format!("resolving {}", root.display()))?;
    let all = ::lessons::lessons(&root)?;
    let Some(lesson_dir) = all.iter().find(|l| l.name == lesson).map(|l| l.dir.clone()) else {
        let known: Vec<&str> = all.iter().map(|l| l.name.as_str()).collect();
        bail!(
            "no lesson named `{lesson}` under code/ (the lessons: {})",
            known.join(", ")
        );
    };
    let dest = &absolute_destination(dest)?;
    if dest.starts_with(&root) {
        bail!(
            "{}: is inside the repository at {}; export a lesson to a folder outside it",
            dest.display(),
            root.display()
        );
    }
    let occupied = match std::fs::read_dir(dest) {
        Ok(mut entries) => entries.next().is_some(),
        Err(_) => dest.exists() || dest.is_symlink(),
    };
    if occupied {
        bail!(
            "{}: exists and is not an empty directory; export writes only into a new or empty one",
            dest.display()
        );
    }
    let packages = workspace_packages(cargo, &root)?;
    let needed = closure(&packages, &lesson_dir)?;
    if !needed.iter().any(|p| p.dir == lesson_dir) {
        bail!("{}: has no Cargo package", lesson_dir.display());
    }
    let placement = needed.iter().map(|p| {
        let to = match p.dir.strip_prefix(&lesson_dir) {
            Ok(inside) => inside.to_path_buf(),
            Err(_) => Path::new("crates").join(&p.name),
        };
        let from = p.dir.canonicalize();
        Ok((
            from.with_context(|| format!("resolving {}", p.dir.display()))?,
            to,
        ))
    });
    let placement = placement.collect::<Result<Vec<_>>>()?;
    let inherited = manifest::Inherited::read(&root)?;

    // Removed on drop, whatever is left in it: a failed export leaves nothing.
    let staging = staging_dir(dest)?;
    let (dropped_dev_dependencies, fetched_for) = write_project(
        &root,
        &lesson_dir,
        &needed,
        &placement,
        &inherited,
        staging.path(),
        cargo,
    )?;
    move_into_place(staging.path(), dest)?;
    let shared_crates = needed.iter().filter(|p| !p.dir.starts_with(&lesson_dir));
    Ok(Exported {
        shared_crates: shared_crates.map(|p| p.name.clone()).collect(),
        dropped_dev_dependencies,
        fetched_for,
    })
}

/// `dest` as an absolute path with every link resolved, so that `.` has a
/// name and a folder inside the repository is recognised however it is
/// spelled. The part of it that does not exist yet is taken as written, and
/// may not climb with `..`.
fn absolute_destination(dest: &Path) -> Result<PathBuf> {
    let absolute = std::path::absolute(dest).with_context(|| format!("resolving {}", dest.display()))?;
    let mut existing = absolute.as_path();
    let mut missing = Vec::new();
    while !existing.exists() {
        missing.push(existing.file_name().unwrap_or_default().to_owned());
        existing = existing.parent().unwrap_or(Path::new("/"));
    }
    let mut resolved = existing
        .canonicalize()
        .with_context(|| format!("resolving {}", existing.display()))?;
    for name in missing.iter().rev() {
        if name.is_empty() || name == ".." || name == "." {
            bail!(
                "{}: name a destination without `..` in its part that does not exist yet",
                dest.display()
            );
        }
        resolved.push(name);
    }
    Ok(resolved)
}

/// A fresh folder beside `dest`, on the same file system, so the finished
/// project can be renamed into place.
fn staging_dir(dest: &Path) -> Result<tempfile::TempDir> {
    let name = dest
        .file_name()
        .ok_or_else(|| anyhow!("{}: names no directory", dest.display()))?;
    let parent = dest.parent().unwrap_or(Path::new("/"));
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let prefix = format!(".{}.export-", name.to_string_lossy());
    // A plain folder's mode (the umask's), not a temporary one's 0700: it becomes the project.
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o777);
    let staging = tempfile::Builder::new()
        .prefix(&prefix)
        .permissions(mode)
        .tempdir_in(parent);
    staging.with_context(|| format!("creating a folder in {}", parent.display()))
}

/// Copies the packages, rewrites their manifests and writes the lock file;
/// returns the test-only dependencies left out, and the platform packages
/// were fetched for, if any were.
fn write_project(
    root: &Path,
    lesson_dir: &Path,
    needed: &[&Package],
    placement: &manifest::Placement,
    inherited: &manifest::Inherited,
    staging: &Path,
    cargo: &Path,
) -> Result<(Vec<String>, Option<String>)> {
    let member = |to: &Path| manifest::slashed(&manifest::relative(Path::new(""), to));
    let mut members: Vec<String> = placement.iter().map(|(_, to)| member(to)).collect();
    members.sort();
    let copy = |from: &Path, to: &Path| {
        crate::files::copy_project_files(from, to).with_context(|| format!("copying {}", from.display()))
    };
    copy(lesson_dir, staging)?;
    let name = lesson_dir.file_name().unwrap_or_default();
    let own_files = crate::files::project_files(lesson_dir)
        .into_iter()
        .map(|rel| lesson_dir.join(rel));
    let names = own_files.flat_map(|f| transcripts_named(&std::fs::read_to_string(f).unwrap_or_default()));
    let (evidence, to) = (
        root.join("evidence").join(name),
        staging.join("evidence").join(name),
    );
    for named in names.collect::<BTreeSet<_>>() {
        // As recorded, or as `evidence merge` commits it (`<name>.txt.gz`,
        // which the testkit reads under its `.txt` name too).
        for transcript in [named.clone(), format!("{named}.gz")] {
            if evidence.join(&transcript).is_file() {
                std::fs::create_dir_all(&to).with_context(|| format!("creating {}", to.display()))?;
                std::fs::copy(evidence.join(&transcript), to.join(&transcript))
                    .with_context(|| format!("copying {}'s transcript {transcript}", lesson_dir.display()))?;
            }
        }
    }
    let mut dropped = Vec::new();
    for (package, (from, to)) in needed.iter().zip(placement) {
        if !package.dir.starts_with(lesson_dir) {
            copy(&package.dir, &staging.join(to))?;
        }
        let path = staging.join(to).join("Cargo.toml");
        let mut doc = manifest::parse(&path)?;
        let left_out = manifest::rewrite(&mut doc, from, to, inherited, placement)
            .with_context(|| format!("{}/Cargo.toml", package.dir.display()))?;
        dropped.extend(left_out.into_iter().map(|dep| format!("{}: {dep}", package.name)));
        if to.as_os_str().is_empty() {
            manifest::make_workspace_root(&mut doc, &members, inherited);
        }
        std::fs::write(&path, doc.to_string()).with_context(|| format!("writing {}", path.display()))?;
    }
    let read =
        |path: &Path| std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()));
    let original = read(&root.join("Cargo.lock"))?;
    let lock = staging.join("Cargo.lock");
    std::fs::write(&lock, &original).with_context(|| format!("writing {}", lock.display()))?;
    let fetched_for = trim_lock(cargo, staging)?;
    check_same_versions(&original, &read(&lock)?)?;
    Ok((dropped, fetched_for))
}

/// Renames the finished project to `dest`. An empty `dest` that exists is
/// kept and filled instead, entry by entry: it may be the learner's working
/// directory (`export day09-timing .`), which must stay the folder they are
/// in, not a removed one with a new folder of the same name beside it. What
/// is left of `staging` is its owner's to remove.
fn move_into_place(staging: &Path, dest: &Path) -> Result<()> {
    let moving = || format!("moving the project into {}", dest.display());
    if !dest.is_dir() {
        return std::fs::rename(staging, dest).with_context(moving);
    }
    let entries: Vec<_> = std::fs::read_dir(staging)
        .and_then(|dir| dir.map(|e| e.map(|e| e.file_name())).collect())
        .with_context(|| format!("reading {}", staging.display()))?;
    for (n, name) in entries.iter().enumerate() {
        if let Err(e) = std::fs::rename(staging.join(name), dest.join(name)) {
            // Leave dest empty again, as it was found.
            for moved in &entries[..n] {
                let _ = std::fs::rename(dest.join(moved), staging.join(moved));
            }
            return Err(e).with_context(moving);
        }
    }
    Ok(())
}

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

/// `cargo ARGS`, its output when it succeeded, else its first error line.
fn cargo_run(
    cargo: &Path,
    args: &[&str],
    manifest_dir: &Path,
) -> Result<std::result::Result<Output, String>> {
    let out = Command::new(cargo)
        .args(args)
        .arg("--manifest-path")
        .arg(manifest_dir.join("Cargo.toml"))
        .output()
        .with_context(|| format!("running {} {}", cargo.display(), args[0]))?;
    if out.status.success() {
        return Ok(Ok(out));
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Ok(Err(stderr))
}

fn first_error(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(stderr.trim())
}

/// The workspace's packages, from `cargo metadata` run with `cargo` on the
/// workspace at `root`.
pub fn workspace_packages(cargo: &Path, root: &Path) -> Result<Vec<Package>> {
    let args = ["metadata", "--format-version", "1", "--no-deps", "--offline"];
    let out = cargo_run(cargo, &args, root)?
        .map_err(|e| anyhow!("cargo metadata failed in {}: {}", root.display(), first_error(&e)))?;
    let metadata: Value = serde_json::from_slice(&out.stdout).context("reading cargo metadata's output")?;
    let packages = metadata["packages"]
        .as_array()
        .context("cargo metadata's output has no `packages` list")?;
    let package = |entry: &Value| -> Option<Package> {
        let path_deps = |tests_only: bool| {
            let deps = entry["dependencies"].as_array().into_iter().flatten();
            // kind is null for normal dependencies, "build" or "dev" otherwise.
            let deps = deps.filter(|dep| (dep["kind"] == "dev") == tests_only);
            deps.filter_map(|dep| dep["path"].as_str().map(PathBuf::from))
                .collect()
        };
        Some(Package {
            name: entry["name"].as_str()?.to_string(),
            dir: Path::new(entry["manifest_path"].as_str()?)
                .parent()?
                .to_path_buf(),
            build_needs: path_deps(false),
            test_needs: path_deps(true),
        })
    };
    packages
        .iter()
        .map(|p| package(p).context("a package in cargo metadata lacks a name or manifest path"))
        .collect()
}

/// The packages inside `lesson_dir` (the lesson and any sub-package of it),
/// the packages their tests need, and, transitively, every package those
/// need to build, each once, in the order found. A shared crate's own
/// test-only dependencies are left out: its tests stay in the repository.
pub fn closure<'a>(packages: &'a [Package], lesson_dir: &Path) -> Result<Vec<&'a Package>> {
    let mut found: Vec<&Package> = packages
        .iter()
        .filter(|p| p.dir.starts_with(lesson_dir))
        .collect();
    let mut next = 0;
    while let Some(&package) = found.get(next) {
        let tests = if package.dir.starts_with(lesson_dir) {
            &package.test_needs[..]
        } else {
            &[]
        };
        for dir in package.build_needs.iter().chain(tests) {
            let needed = packages.iter().find(|p| &p.dir == dir).ok_or_else(|| {
                let name = &package.name;
                anyhow!(
                    "{name} depends on the package at {}, which is not in the workspace",
                    dir.display()
                )
            })?;
            if !found.iter().any(|p| p.dir == needed.dir) {
                found.push(needed);
            }
        }
        next += 1;
    }
    Ok(found)
}

/// Lets cargo drop the lock entries the project at `dir` does not use;
/// returns the platform packages were fetched for, if any were.
///
/// The local registry is read first, offline, so a machine that has built
/// the repository exports without the network. Where it lacks a package
/// the lesson needs, `cargo fetch` brings it and the lock is trimmed again;
/// only when the fetch fails too is that an error.
///
/// Only this machine's platform is asked for. Cargo still resolves, and
/// writes, every platform's entries from the index it has cached, but it
/// reads the sources of this platform's packages alone: the ones a build
/// here downloaded. Without the filter it wants Windows-only crates (clap's
/// `anstyle-wincon`) that no Linux build ever fetches, and a fresh machine's
/// export failed on them.
pub fn trim_lock(cargo: &Path, dir: &Path) -> Result<Option<String>> {
    let host = host_platform(cargo)?;
    let metadata = [
        "metadata",
        "--format-version",
        "1",
        "--offline",
        "--filter-platform",
        &host,
    ];
    let Some(lacking) = lacks(cargo_run(cargo, &metadata, dir)?)? else {
        return Ok(None);
    };
    // Cargo may rewrite the lock file while it fetches, dropping what the
    // project does not use; the export holds the result to the repository's versions.
    if let Err(stderr) = cargo_run(cargo, &["fetch", "--target", &host], dir)? {
        bail!(
            "cargo's local registry lacks a package the lesson needs ({lacking}) and fetching it \
             failed ({}); run `cargo fetch` in the repository (it needs the network), then export again",
            fetch_failure(&stderr)
        );
    }
    match lacks(cargo_run(cargo, &metadata, dir)?)? {
        None => Ok(Some(host)),
        Some(still) => {
            bail!("cargo fetch ran, but cargo's local registry still lacks a package the lesson needs ({still})")
        }
    }
}

/// What a `cargo metadata --offline` run says the local registry lacks
/// (cargo's first error line), if anything; any other failure is an error.
fn lacks(run: std::result::Result<Output, String>) -> Result<Option<String>> {
    let Err(stderr) = run else {
        return Ok(None);
    };
    let first = first_error(&stderr);
    let missing = [
        "failed to download",
        "--offline was specified",
        "no matching package",
    ];
    match missing.iter().any(|m| stderr.contains(m)) {
        true => Ok(Some(first.trim_start_matches("error: ").to_string())),
        false => bail!("cargo metadata --offline failed in the exported project: {first}"),
    }
}

/// `cargo fetch`'s failure in one line: that cargo is offline where it says
/// so, else the innermost `Caused by:` (the network's own words, such as
/// `[6] Couldn't resolve host name ...`), else its first error line.
fn fetch_failure(stderr: &str) -> &str {
    if ["offline mode", "--offline was specified"]
        .iter()
        .any(|o| stderr.contains(o))
    {
        return "cargo is set to work offline: CARGO_NET_OFFLINE or net.offline";
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
}

/// The platform cargo builds for by default here, from `cargo -vV`'s
/// `host:` line.
pub fn host_platform(cargo: &Path) -> Result<String> {
    let out = Command::new(cargo)
        .arg("-vV")
        .output()
        .with_context(|| format!("running {} -vV", cargo.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let host = stdout.lines().find_map(|line| line.strip_prefix("host: "));
    host.map(str::to_string)
        .ok_or_else(|| anyhow!("{} -vV printed no `host:` line", cargo.display()))
}

/// An error naming the first package the trimmed lock pins and the
/// original does not.
pub fn check_same_versions(original: &str, trimmed: &str) -> Result<()> {
    let pins = |lock: &str| -> Result<BTreeSet<(String, String, String)>> {
        let doc: toml_edit::DocumentMut = lock.parse().context("Cargo.lock")?;
        let packages = doc.get("package").and_then(toml_edit::Item::as_array_of_tables);
        let field =
            |p: &toml_edit::Table, k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
        let packages = packages.context("Cargo.lock: no [[package]] entries")?.iter();
        Ok(packages
            .map(|p| (field(p, "name"), field(p, "version"), field(p, "source")))
            .collect())
    };
    let original = pins(original)?;
    match pins(trimmed)?.into_iter().find(|pin| !original.contains(pin)) {
        None => Ok(()),
        Some((name, version, _)) => {
            bail!("the exported Cargo.lock pins {name} {version}, which the repository's Cargo.lock does not")
        }
    }
}

/// Every transcript file name (`<UTC date>-NAME.txt`, the recorder's naming,
/// as `2026-11-29T223246Z-h200-cxx.txt`) that appears in `text`: a report
/// package's tests read the lesson's C++/Rust pair and its README quotes a
/// run, so an export carries those under its own `evidence/<lesson>/`
/// (where lesson-spec's testkit `evidence_dir` looks in an export).
pub fn transcripts_named(text: &str) -> BTreeSet<String> {
    static NAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b\d{4}-\d\d-\d\dT\d{6}Z-[A-Za-z0-9._-]+?\.txt\b").expect("a valid regex")
    });
    NAME.find_iter(text).map(|m| m.as_str().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(name: &str, dir: &str, needs: &[&str]) -> Package {
        let build_needs = needs.iter().map(PathBuf::from).collect();
        Package {
            name: name.into(),
            dir: dir.into(),
            build_needs,
            test_needs: Vec::new(),
        }
    }

    fn names(all: &[Package]) -> Vec<&str> {
        closure(all, Path::new("/r/code/lesson"))
            .unwrap()
            .iter()
            .map(|p| p.name.as_str())
            .collect()
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
        assert_eq!(names(&all), ["lesson", "a", "kit", "b"]);
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
        assert_eq!(names(&all), ["lesson", "lesson-report", "a", "b"]);
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
        let root = crate::rules::repository_root();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let all = workspace_packages(Path::new(&cargo), &root).unwrap();
        for lesson in ::lessons::lessons(&root).unwrap() {
            let package = all.iter().find(|p| p.dir == lesson.dir).unwrap();
            let cuda_build = package
                .build_needs
                .iter()
                .any(|d| d.ends_with("crates/course/cuda-build"));
            assert!(cuda_build, "{package:?}");
        }
    }

    #[test]
    fn a_package_missing_from_the_registry_is_told_from_other_failures() {
        let stderr = "error: failed to download `anstyle-wincon v3.0.11`\n\nCaused by:\n  attempting to make an HTTP request, but --offline was specified\n";
        let lacking = lacks(Err(stderr.to_string())).unwrap();
        assert_eq!(
            lacking.as_deref(),
            Some("failed to download `anstyle-wincon v3.0.11`")
        );
        let other = lacks(Err("error: failed to parse manifest at `x/Cargo.toml`\n".into())).unwrap_err();
        assert!(
            other.to_string().starts_with("cargo metadata --offline failed"),
            "{other}"
        );
    }

    #[test]
    fn an_unreachable_registry_is_named_by_the_innermost_cause() {
        let stderr = "    Updating crates.io index\n\
            warning: spurious network error (3 tries remaining): [6] Couldn't resolve host name\n\
            error: failed to get `anyhow` as a dependency of package `day09-timing v0.1.0 (/tmp/x)`\n\n\
            Caused by:\n  download of config.json failed\n\n\
            Caused by:\n  [6] Couldn't resolve host name (Could not resolve host: index.crates.io)\n";
        let reason = fetch_failure(stderr);
        assert_eq!(
            reason,
            "[6] Couldn't resolve host name (Could not resolve host: index.crates.io)"
        );
    }

    #[test]
    fn offline_cargo_says_so_and_anything_else_is_its_first_error() {
        let offline = "error: no matching package named `clap` found\nlocation searched: crates.io index\n\
            As a reminder, you're using offline mode (--offline) which can sometimes cause surprising \
            resolution failures, if this error is too confusing you may wish to retry without `--offline`.\n";
        assert!(fetch_failure(offline).starts_with("cargo is set to work offline"));
        let parse = fetch_failure("error: failed to parse manifest at `/x/Cargo.toml`\n");
        assert_eq!(parse, "failed to parse manifest at `/x/Cargo.toml`");
        assert_eq!(fetch_failure("killed\n"), "killed");
        assert_eq!(fetch_failure(""), "cargo fetch printed no reason");
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
        let lock = "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\nsource = \"registry+x\"\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";
        let subset = "version = 4\n\n[[package]]\nname = \"b\"\nversion = \"0.1.0\"\n";
        assert!(check_same_versions(lock, subset).is_ok());
        let moved =
            "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.1\"\nsource = \"registry+x\"\n";
        let err = check_same_versions(lock, moved).unwrap_err().to_string();
        assert!(err.contains("pins a 1.0.1"), "{err}");
    }

    #[test]
    fn transcript_names_are_found_in_code_and_markdown() {
        let text = r#"evidence: ("2026-11-29T223246Z-h200-cxx.txt", "2026-11-29T223247Z-h200-rust.txt"),
<!-- transcript: evidence/day10-block-sizes/2026-12-01T213033Z-h200-cxx.txt -->
not one: 2026-11-29-h200.txt, 2026-11-29T2232Z-x.txt, notes.txt, 2026-11-29T223246Z-h200-cxx.json"#;
        let want = [
            "2026-11-29T223246Z-h200-cxx.txt",
            "2026-11-29T223247Z-h200-rust.txt",
            "2026-12-01T213033Z-h200-cxx.txt",
        ];
        assert_eq!(transcripts_named(text), want.map(String::from).into());
    }
}
