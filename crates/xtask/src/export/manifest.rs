//! A package's `Cargo.toml` rewritten to stand outside this repository.
//!
//! Every value a member inherits with `x.workspace = true` (package keys,
//! dependencies, lints) is replaced by the root manifest's value, and every
//! path dependency is pointed at the package's copy. The lesson's own
//! manifest also becomes the new workspace's root ([`make_workspace_root`]).
//! Edits go through `toml_edit`, so comments and layout survive.
//!
//! Not for: deciding which packages are copied ([`super::closure`](super::closure)).

use std::path::{Component, Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

/// The dependency tables of a manifest, and whether each is for tests only.
const DEPENDENCY_TABLES: [(&str, bool); 3] = [
    ("dependencies", false),
    ("build-dependencies", false),
    ("dev-dependencies", true),
];

/// What the repository's root manifest lends its members, and the folder its
/// dependency paths are relative to.
pub struct Inherited {
    root: PathBuf,
    workspace: Table,
    profile: Option<Item>,
}

impl Inherited {
    /// Reads `root/Cargo.toml`.
    pub fn read(root: &Path) -> Result<Inherited> {
        let path = root.join("Cargo.toml");
        let doc = parse(&path)?;
        let workspace = doc.get("workspace").and_then(Item::as_table);
        let workspace = workspace
            .with_context(|| format!("{}: has no [workspace] table", path.display()))?
            .clone();
        Ok(Inherited {
            root: root.to_path_buf(),
            workspace,
            profile: doc.get("profile").cloned(),
        })
    }

    fn lent(&self, section: &str, key: &str) -> Result<&Item> {
        let lent = self.workspace.get(section).and_then(|s| s.get(key));
        lent.with_context(|| format!("inherits {key} but the root manifest has no workspace.{section}.{key}"))
    }
}

/// Where the copied packages land: each package's folder in the repository
/// and its folder relative to the export's root.
pub type Placement = [(PathBuf, PathBuf)];

/// Reads and parses a manifest.
pub fn parse(path: &Path) -> Result<DocumentMut> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    text.parse::<DocumentMut>()
        .with_context(|| path.display().to_string())
}

/// Rewrites the manifest of the package that lived in `from_dir` and now
/// lives at `to_dir` (relative to the export's root). A test-only dependency
/// on a package that was not copied is dropped, with its name returned; any
/// other dependency on one is an error.
pub fn rewrite(
    doc: &mut DocumentMut,
    from_dir: &Path,
    to_dir: &Path,
    inherited: &Inherited,
    placement: &Placement,
) -> Result<Vec<String>> {
    if let Some(package) = doc.get_mut("package").and_then(Item::as_table_like_mut) {
        for (key, item) in package.iter_mut() {
            if is_inherited(item) {
                *item = inherited.lent("package", &key)?.clone();
            }
        }
    }
    if doc.get("lints").is_some_and(is_inherited) {
        let lints = inherited.workspace.get("lints");
        doc["lints"] = lints
            .context("inherits lints but the root manifest has no [workspace.lints]")?
            .clone();
    }
    let places = Places {
        from_dir,
        to_dir,
        inherited,
        placement,
    };
    let mut dropped = places.dependency_tables(doc.as_table_mut())?;
    if let Some(targets) = doc.get_mut("target").and_then(Item::as_table_like_mut) {
        for (_, target) in targets.iter_mut() {
            if let Some(target) = target.as_table_mut() {
                dropped.extend(places.dependency_tables(target)?);
            }
        }
    }
    Ok(dropped)
}

/// Makes the lesson's manifest the root of a workspace of `members`, with
/// the repository's resolver and `[profile.*]` sections.
pub fn make_workspace_root(doc: &mut DocumentMut, members: &[String], inherited: &Inherited) {
    let mut workspace = Table::new();
    if let Some(resolver) = inherited.workspace.get("resolver") {
        workspace.insert("resolver", resolver.clone());
    }
    let mut list: Array = members.iter().collect();
    // One member a line, as a person would write the list.
    for member in list.iter_mut() {
        member.decor_mut().set_prefix("\n    ");
    }
    list.set_trailing("\n");
    list.set_trailing_comma(true);
    workspace.insert("members", Item::Value(Value::Array(list)));
    // Tables print in the order of their positions; these go after the rest.
    let mut position = doc.iter().count() as isize + 1_000;
    workspace.set_position(position);
    doc.insert("workspace", Item::Table(workspace));
    if let Some(mut profile) = inherited.profile.clone() {
        if let Some(profile) = profile.as_table_mut() {
            for (_, item) in profile.iter_mut() {
                if let Some(table) = item.as_table_mut() {
                    position += 1;
                    table.set_position(position);
                }
            }
        }
        doc.insert("profile", profile);
    }
}

fn is_inherited(item: &Item) -> bool {
    item.as_table_like()
        .and_then(|t| t.get("workspace"))
        .and_then(Item::as_bool)
        == Some(true)
}

/// What a dependency's path is resolved against and rewritten to.
struct Places<'a> {
    from_dir: &'a Path,
    to_dir: &'a Path,
    inherited: &'a Inherited,
    placement: &'a Placement,
}

impl Places<'_> {
    /// Rewrites the dependency tables of `table` (the manifest or one
    /// `[target.'cfg'...]` section), keeping each entry's key and comments.
    fn dependency_tables(&self, table: &mut Table) -> Result<Vec<String>> {
        let mut dropped = Vec::new();
        for (name, test_only) in DEPENDENCY_TABLES {
            let Some(deps) = table.get_mut(name).and_then(Item::as_table_mut) else {
                continue;
            };
            let entries: Vec<_> = deps.iter().map(|(k, _)| k.to_string()).collect();
            for key in entries {
                let (formatted_key, item) = deps.get_key_value(&key).expect("listed just now");
                let formatted_key = formatted_key.clone();
                let rewritten = self
                    .dependency(&key, item)
                    .with_context(|| format!("{name}.{key}"))?;
                deps.remove(&key);
                match rewritten {
                    Some(value) => {
                        deps.insert_formatted(&formatted_key, Item::Value(value));
                    }
                    None if test_only => dropped.push(key),
                    None => bail!("{name}.{key}: its package is not copied"),
                }
            }
        }
        Ok(dropped)
    }

    /// One dependency, made explicit; `None` for a path dependency on a
    /// package that is not copied.
    fn dependency(&self, key: &str, item: &Item) -> Result<Option<Value>> {
        let own = as_inline(item).ok_or_else(|| anyhow!("not a version or a table"))?;
        let (mut entry, base) = match own.get("workspace").and_then(Value::as_bool) {
            Some(true) => (self.lent_dependency(key, &own)?, self.inherited.root.as_path()),
            _ => (own, self.from_dir),
        };
        if let Some(path) = entry.get("path").and_then(Value::as_str) {
            let Some(to) = self.copy_of(&base.join(path)) else {
                return Ok(None);
            };
            entry.insert("path", Value::from(slashed(&relative(self.to_dir, &to))));
        }
        entry.fmt();
        Ok(Some(match (entry.len(), entry.get("version")) {
            (1, Some(version)) => version.clone(),
            _ => Value::InlineTable(entry),
        }))
    }

    /// The root's entry for an inherited dependency, with the member's own
    /// `features` added and its other keys (such as `optional`) applied.
    fn lent_dependency(&self, key: &str, own: &InlineTable) -> Result<InlineTable> {
        let lent = as_inline(self.inherited.lent("dependencies", key)?);
        let mut entry = lent.context("the root's entry is not a version or a table")?;
        for (key, value) in own.iter().filter(|(k, _)| *k != "workspace") {
            match (key, entry.get_mut("features"), value.as_array()) {
                ("features", Some(Value::Array(all)), Some(more)) => {
                    for feature in more.iter().filter_map(Value::as_str) {
                        if !all.iter().any(|f| f.as_str() == Some(feature)) {
                            all.push(feature);
                        }
                    }
                    all.fmt();
                }
                _ => {
                    entry.insert(key, value.clone());
                }
            }
        }
        Ok(entry)
    }

    /// Where the package at `dir` was copied to, if it was.
    fn copy_of(&self, dir: &Path) -> Option<PathBuf> {
        let dir = dir.canonicalize().ok()?;
        self.placement
            .iter()
            .find(|(from, _)| *from == dir)
            .map(|(_, to)| to.clone())
    }
}

/// A dependency written as a version string, an inline table or a table,
/// as an inline table.
fn as_inline(item: &Item) -> Option<InlineTable> {
    match item {
        Item::Value(Value::String(version)) => {
            let mut entry = InlineTable::new();
            entry.insert("version", Value::from(version.value().as_str()));
            Some(entry)
        }
        Item::Value(Value::InlineTable(entry)) => Some(entry.clone()),
        Item::Table(entry) => Some(entry.clone().into_inline_table()),
        _ => None,
    }
}

/// The path from folder `from` to folder `to`, both relative to one root.
pub(crate) fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: PathBuf = from[shared..].iter().map(|_| Component::ParentDir).collect();
    path.extend(&to[shared..]);
    if path.as_os_str().is_empty() {
        path.push(".");
    }
    path
}

/// A relative path as a manifest writes it, with `/` on every platform.
pub(crate) fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = r#"[workspace]
resolver = "2"
members = ["crates/*", "code/*"]

[workspace.package]
edition = "2021"
license = "MIT"

[workspace.dependencies]
cudarc = { version = "0.19", default-features = false, features = ["std"] }
libc = "0.2"
shared = { path = "crates/shared" }
tester = { path = "crates/tester" }

[profile.release]
debug = "line-tables-only"
"#;

    const LESSON: &str = r#"[package]
name = "lesson"
edition.workspace = true
license.workspace = true

[dependencies]
# Why cudarc: kept.
cudarc = { workspace = true, features = ["cupti", "std"] }
libc.workspace = true
shared.workspace = true
report = { path = "report" }

[dev-dependencies]
tester.workspace = true
"#;

    /// A repository in a temp folder: root manifest, a lesson with a
    /// sub-package, and two shared crates, of which only one is copied.
    fn repository(tag: &str) -> (PathBuf, Vec<(PathBuf, PathBuf)>) {
        let dir = std::env::temp_dir().join(format!("lesson-export-manifest-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["code/lesson/report", "crates/shared", "crates/tester"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::write(dir.join("Cargo.toml"), ROOT).unwrap();
        let dir = dir.canonicalize().unwrap();
        let placement = vec![
            (dir.join("code/lesson"), PathBuf::new()),
            (dir.join("code/lesson/report"), PathBuf::from("report")),
            (dir.join("crates/shared"), PathBuf::from("crates/shared")),
        ];
        (dir, placement)
    }

    #[test]
    fn inherited_values_become_explicit_and_paths_point_at_the_copies() {
        let (dir, placement) = repository("explicit");
        let inherited = Inherited::read(&dir).unwrap();
        let mut doc: DocumentMut = LESSON.parse().unwrap();
        let dropped = rewrite(
            &mut doc,
            &dir.join("code/lesson"),
            Path::new(""),
            &inherited,
            &placement,
        )
        .unwrap();
        assert_eq!(dropped, ["tester"]);
        make_workspace_root(
            &mut doc,
            &[".".into(), "crates/shared".into(), "report".into()],
            &inherited,
        );
        let text = doc.to_string();
        for want in [
            "edition = \"2021\"\n",
            "license = \"MIT\"\n",
            "# Why cudarc: kept.\ncudarc = { version = \"0.19\", default-features = false, features = [\"std\", \"cupti\"] }\n",
            "libc = \"0.2\"\n",
            "shared = { path = \"crates/shared\" }\n",
            "report = { path = \"report\" }\n",
            "[workspace]\nresolver = \"2\"\nmembers = [\n    \".\",\n    \"crates/shared\",\n    \"report\",\n]\n",
            "[profile.release]\ndebug = \"line-tables-only\"\n",
        ] {
            assert!(text.contains(want), "{want:?} not in\n{text}");
        }
        assert!(
            !text.contains("workspace = true") && !text.contains("tester"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_build_dependency_on_a_package_not_copied_is_an_error() {
        let (dir, placement) = repository("not-copied");
        let inherited = Inherited::read(&dir).unwrap();
        let mut doc: DocumentMut = "[package]\nname = \"x\"\n[build-dependencies]\ntester.workspace = true\n"
            .parse()
            .unwrap();
        let err = rewrite(
            &mut doc,
            &dir.join("crates/shared"),
            Path::new("crates/shared"),
            &inherited,
            &placement,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "build-dependencies.tester: its package is not copied"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn relative_paths_climb_only_as_far_as_needed() {
        assert_eq!(
            relative(Path::new(""), Path::new("crates/a")),
            PathBuf::from("crates/a")
        );
        assert_eq!(
            relative(Path::new("crates/b"), Path::new("crates/a")),
            PathBuf::from("../a")
        );
        assert_eq!(relative(Path::new("report"), Path::new("")), PathBuf::from(".."));
        assert_eq!(relative(Path::new("a"), Path::new("a")), PathBuf::from("."));
    }
}
