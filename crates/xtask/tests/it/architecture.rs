//! The invariants ARCHITECTURE.md marks "Architecture invariant", checked
//! from `cargo metadata`, and a planted violation of each that the check
//! must name.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

/// Crates the course and measure tiers must not link: HTML, plotting,
/// browsers, async.
const NOT_IN_THE_COURSE_TIER: &[&str] = &[
    "plotters",
    "html5gum",
    "html5ever",
    "scraper",
    "tl",
    "kuchikiki",
    "tokio",
    "async-std",
    "smol",
    "futures",
    "futures-util",
    "hyper",
    "reqwest",
    "ureq",
    "fantoccini",
    "thirtyfour",
    "headless_chrome",
    "chromiumoxide",
    "maud",
    "askama",
    "tera",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

fn metadata() -> Value {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .current_dir(root())
        .output()
        .expect("running cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

/// A package as the rules see it: its name and its folder relative to the
/// workspace root (`crates/course/cuda-check`, `code/day09-timing/tools`).
struct Package {
    name: String,
    dir: String,
    /// (dependency id, its kinds: "normal", "build", "dev").
    deps: Vec<(String, Vec<String>)>,
}

struct Graph {
    packages: HashMap<String, Package>,
    /// (package id, dependency name) for optional dependencies that only
    /// dev-dependency declarations switch on (lesson-spec's `testkit`):
    /// `cargo metadata` resolves features for the whole workspace at once,
    /// so its graph shows them as links that no build of the package makes.
    test_only: BTreeSet<(String, String)>,
}

impl Graph {
    fn new(meta: &Value) -> Graph {
        let root = meta["workspace_root"].as_str().unwrap_or_default();
        let mut packages: HashMap<String, Package> = HashMap::new();
        for p in meta["packages"].as_array().into_iter().flatten() {
            let manifest = p["manifest_path"].as_str().unwrap_or_default();
            let dir = Path::new(manifest).parent().unwrap_or(Path::new(""));
            let dir = dir
                .strip_prefix(root)
                .map(|d| d.display().to_string())
                .unwrap_or_default();
            let name = p["name"].as_str().unwrap_or_default().to_string();
            packages.insert(
                p["id"].as_str().unwrap_or_default().to_string(),
                Package {
                    name,
                    dir,
                    deps: vec![],
                },
            );
        }
        for node in meta["resolve"]["nodes"].as_array().into_iter().flatten() {
            let deps = node["deps"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| {
                    let kinds = d["dep_kinds"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|k| k["kind"].as_str().unwrap_or("normal").to_string())
                        .collect();
                    (d["pkg"].as_str().unwrap_or_default().to_string(), kinds)
                })
                .collect();
            if let Some(p) = packages.get_mut(node["id"].as_str().unwrap_or_default()) {
                p.deps = deps;
            }
        }
        let test_only = test_only_optional_deps(meta);
        Graph { packages, test_only }
    }

    fn in_workspace(&self, id: &str) -> bool {
        !self.packages[id].dir.is_empty()
    }

    fn direct(&self, id: &str, kind: &str) -> Vec<&str> {
        self.packages[id]
            .deps
            .iter()
            .filter(|(_, kinds)| kinds.iter().any(|k| k == kind))
            .filter(|(d, _)| {
                !self
                    .test_only
                    .contains(&(id.to_string(), self.packages[d].name.clone()))
            })
            .map(|(d, _)| d.as_str())
            .collect()
    }

    /// Everything `id` links: its normal dependencies, transitively.
    fn linked(&self, id: &str) -> BTreeSet<&str> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![id];
        while let Some(p) = todo.pop() {
            for d in self.direct(p, "normal") {
                if seen.insert(d) {
                    todo.push(d);
                }
            }
        }
        seen
    }

    /// A package that runs nvcc or links CUDA: cudarc, or a build script
    /// with cuda-build.
    fn is_cuda(&self, id: &str) -> bool {
        let p = &self.packages[id];
        p.name == "cudarc"
            || self
                .direct(id, "build")
                .iter()
                .any(|b| self.packages[*b].name == "cuda-build")
    }

    fn tier(&self, id: &str) -> &str {
        let dir = &self.packages[id].dir;
        match dir.split('/').collect::<Vec<_>>().as_slice() {
            ["code", _] => "twin",
            ["code", _, "tools"] => "tools",
            ["crates", "xtask", ..] => "xtask",
            ["crates", tier, _] => tier,
            _ => "",
        }
    }
}

/// Optional dependencies that only dev-dependency declarations switch on,
/// as (the package's id, the dependency's name).
fn test_only_optional_deps(meta: &Value) -> BTreeSet<(String, String)> {
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let mut found = BTreeSet::new();
    for p in &packages {
        let name = p["name"].as_str().unwrap_or_default();
        // The features some declaration outside [dev-dependencies] asks of p.
        let mut built_with: BTreeSet<String> = BTreeSet::new();
        for q in &packages {
            for d in q["dependencies"].as_array().into_iter().flatten() {
                if d["name"] == name && d["kind"] != "dev" {
                    let asked = d["features"].as_array().into_iter().flatten();
                    built_with.extend(asked.filter_map(|f| f.as_str()).map(String::from));
                    if d["uses_default_features"] != false {
                        built_with.insert("default".into());
                    }
                }
            }
        }
        let features = p["features"].as_object().cloned().unwrap_or_default();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let dep = d["name"].as_str().unwrap_or_default();
            if d["optional"] != true {
                continue;
            }
            let switched_on_by_a_build = features.iter().any(|(feature, enables)| {
                built_with.contains(feature)
                    && enables.as_array().into_iter().flatten().any(|e| {
                        let e = e.as_str().unwrap_or_default();
                        e == format!("dep:{dep}") || e == dep || e.starts_with(&format!("{dep}/"))
                    })
            });
            if !switched_on_by_a_build {
                found.insert((p["id"].as_str().unwrap_or_default().to_string(), dep.to_string()));
            }
        }
    }
    found
}

/// Every broken invariant, one line each.
fn violations(meta: &Value) -> Vec<String> {
    let g = Graph::new(meta);
    let mut found = Vec::new();
    let mut ids: Vec<&String> = g.packages.keys().filter(|id| g.in_workspace(id)).collect();
    ids.sort_by_key(|id| &g.packages[*id].dir);
    for id in ids {
        let p = &g.packages[id];
        match g.tier(id) {
            "twin" => {
                for d in g.direct(id, "normal") {
                    let own_tools = g.packages[d].dir == format!("{}/tools", p.dir);
                    if g.in_workspace(d) && !["course", "measure"].contains(&g.tier(d)) && !own_tools {
                        found.push(format!(
                            "{}: the lesson depends on {} ({}), outside the course and measure tiers and its own tools",
                            p.dir, g.packages[d].name, g.packages[d].dir
                        ));
                    }
                }
            }
            tier @ ("course" | "measure") => {
                for d in g.linked(id) {
                    if NOT_IN_THE_COURSE_TIER.contains(&g.packages[d].name.as_str()) {
                        found.push(format!("{}: the {tier} tier links {}", p.dir, g.packages[d].name));
                    }
                }
            }
            tier @ ("tools" | "proof") => {
                for d in std::iter::once(id.as_str()).chain(g.linked(id)) {
                    if g.is_cuda(d) {
                        found.push(format!(
                            "{}: the {tier} tier links CUDA through {}",
                            p.dir, g.packages[d].name
                        ));
                    }
                }
            }
            _ => {}
        }
        if p.dir.starts_with("crates/") && p.name != "lessons" {
            for d in g.direct(id, "normal").into_iter().chain(g.direct(id, "build")) {
                if g.packages[d].dir.starts_with("code/") {
                    found.push(format!(
                        "{}: names the lesson package {} outside the registry",
                        p.dir, g.packages[d].name
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn the_workspace_keeps_every_architecture_invariant() {
    let found = violations(&metadata());
    assert!(
        found.is_empty(),
        "ARCHITECTURE.md's invariants broken:\n{}",
        found.join("\n")
    );
}

/// Adds a normal dependency from the package named `from` to the one named
/// `to` in `meta`'s resolve graph.
fn plant(meta: &mut Value, from: &str, to: &str) {
    let id_of = |meta: &Value, name: &str| {
        meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["id"].clone())
    };
    let to_id = id_of(meta, to).unwrap_or_else(|| panic!("{to} is in the metadata"));
    let from_id = id_of(meta, from).unwrap_or_else(|| panic!("{from} is in the metadata"));
    let node = meta["resolve"]["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|n| n["id"] == from_id)
        .unwrap();
    node["deps"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "name": to, "pkg": to_id, "dep_kinds": [{ "kind": null }] }));
}

#[test]
fn a_planted_violation_of_each_invariant_is_named() {
    let clean = metadata();
    let cases = [
        ("day10-block-sizes", "evidence", "the lesson depends on evidence"),
        ("cuda-check", "html5gum", "the course tier links html5gum"),
        (
            "day10-block-sizes-report",
            "cuda-objects",
            "the tools tier links CUDA through",
        ),
        ("evidence", "cudarc", "the proof tier links CUDA through cudarc"),
        (
            "evidence",
            "day11-row4-report",
            "names the lesson package day11-row4-report",
        ),
    ];
    for (from, to, expected) in cases {
        let mut meta = clean.clone();
        plant(&mut meta, from, to);
        let found = violations(&meta);
        assert!(
            found.iter().any(|line| line.contains(expected)),
            "planting {from} -> {to} should be named ({expected}); found:\n{}",
            found.join("\n")
        );
    }
}
