//! No import circle among any crate's modules (issue 32), kept by
//! `ci/module-cycles.py` run as an ordinary test so plain `cargo test`
//! enforces it: over every crate of the workspace (`crates/*`, the lessons'
//! twins `code/*` and their report packages `code/*/report`), and over
//! planted crates whose modules use each other, which it must name.

use std::path::{Path, PathBuf};
use std::process::Output;

use course_rules::repository_root;

/// `python3 ci/module-cycles.py <crates>` run from the repository root.
fn module_cycles(crates: &[&Path]) -> Output {
    std::process::Command::new("python3")
        .arg("ci/module-cycles.py")
        .args(crates)
        .current_dir(repository_root())
        .output()
        .expect("python3 runs (the test command needs it on PATH)")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A crate folder under the temporary directory whose `src/` holds `files`
/// (path, text).
fn planted(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("course-rules-cycles-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, body) in files {
        let path = dir.join("src").join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    dir
}

/// Every crate of the workspace, by its members' globs (`crates/*`, the
/// lessons' twins `code/*` and their report packages `code/*/report`),
/// relative to the root: each folder of them with a `src/`.
fn workspace_crates() -> Vec<PathBuf> {
    let root = repository_root();
    let mut crates = Vec::new();
    for (parent, child) in [("crates", None), ("code", None), ("code", Some("report"))] {
        for entry in std::fs::read_dir(root.join(parent)).unwrap() {
            let dir = entry.unwrap().path();
            let dir = match child {
                Some(c) => dir.join(c),
                None => dir,
            };
            if dir.join("src").is_dir() {
                crates.push(dir.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    crates.sort();
    crates
}

#[test]
fn no_crate_has_an_import_circle() {
    let crates = workspace_crates();
    let dirs: Vec<&Path> = crates.iter().map(PathBuf::as_path).collect();
    let out = module_cycles(&dirs);
    let stdout = text(&out.stdout);
    // The script heads each crate's lines with its folder's name, in the
    // order given; every report package's is `report`, so each head is
    // named by its path here.
    let heads: Vec<&str> = stdout.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(heads.len(), crates.len(), "one head per crate:\n{stdout}");
    // Each crate with a circle, and its circles.
    let mut circles = Vec::new();
    let mut at = crates.iter();
    let mut current = None;
    for line in stdout.lines() {
        if !line.starts_with(' ') {
            current = at.next();
            if !line.ends_with(" 0 cycles") {
                circles.push(format!("{}: {line}", current.unwrap().display()));
            }
        } else if line.starts_with("  CYCLE: ") {
            circles.push(format!("{}: {line}", current.unwrap().display()));
        }
    }
    assert!(
        out.status.success() && circles.is_empty(),
        "ci/module-cycles.py found import circles, modules that use each other \
         (move what they share into a module of its own, which they all use):\n{}\n{}",
        circles.join("\n"),
        text(&out.stderr)
    );
    // It read the crates, the twins and the report packages alike.
    for wanted in [
        "crates/course-rules",
        "code/day09-timing",
        "code/day09-timing/report",
    ] {
        assert!(
            crates.iter().any(|c| c == Path::new(wanted)),
            "{wanted} was not read: {crates:?}"
        );
    }
    assert!(stdout.contains("course-rules: "), "no crate was read:\n{stdout}");
}

#[test]
fn two_modules_that_use_each_other_are_a_circle() {
    let dir = planted(
        "siblings",
        &[
            ("lib.rs", "//! Planted.\n\nmod a;\nmod b;\n"),
            ("a.rs", "//! A.\n\nuse crate::b::B;\n\npub struct A(pub B);\n"),
            (
                "b.rs",
                "//! B.\n\npub struct B;\n\npub fn a() -> crate::a::A {\n    crate::a::A(B)\n}\n",
            ),
        ],
    );
    let out = module_cycles(&[&dir]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("1 cycles"), "{stdout}");
    assert!(stdout.contains("  CYCLE: crate::a <-> crate::b\n"), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_child_that_uses_an_item_of_the_root_is_a_circle() {
    // The shape this repository had most: lib.rs uses its child, and the
    // child takes something lib.rs defines, through `super::` or `crate::`.
    let files = |child: &'static str| {
        [
            (
                "lib.rs",
                "//! Planted.\n\nmod child;\n\npub use child::run;\n\npub fn fail() {}\n",
            ),
            ("child.rs", child),
        ]
    };
    for (tag, child) in [
        (
            "super",
            "//! Child.\n\nuse super::fail;\n\npub fn run() {\n    fail()\n}\n",
        ),
        ("crate", "//! Child.\n\npub fn run() {\n    crate::fail()\n}\n"),
    ] {
        let dir = planted(tag, &files(child));
        let out = module_cycles(&[&dir]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{tag}: {stdout}{}", text(&out.stderr));
        assert!(
            stdout.contains("  CYCLE: crate <-> crate::child\n"),
            "{tag}: {stdout}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_shared_item_in_a_leaf_module_is_no_circle() {
    // The fix: what both need lives in a module of its own.
    let dir = planted(
        "leaf",
        &[
            (
                "lib.rs",
                "//! Planted.\n\nmod child;\nmod fail;\n\npub use child::run;\npub use fail::fail;\n",
            ),
            (
                "child.rs",
                "//! Child.\n\nuse crate::fail::fail;\n\npub fn run() {\n    fail()\n}\n",
            ),
            ("fail.rs", "//! Leaf.\n\npub fn fail() {}\n"),
        ],
    );
    let out = module_cycles(&[&dir]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("3 modules, 3 edges, 0 cycles"), "{stdout}");
    assert!(stdout.contains("  crate::child -> crate::fail\n"), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}
