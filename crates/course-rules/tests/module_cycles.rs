//! No import circle among any crate's modules (issue 32), kept by
//! `ci/module-cycles.py` run as an ordinary test so plain `cargo test`
//! enforces it: over every crate under `crates/`, and over planted crates
//! whose modules use each other, which it must name.

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

#[test]
fn no_crate_has_an_import_circle() {
    let out = module_cycles(&[]);
    let stdout = text(&out.stdout);
    // Each crate with a circle, and its circles.
    let circles: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  CYCLE: ") || (!l.starts_with(' ') && !l.ends_with(" 0 cycles")))
        .collect();
    assert!(
        out.status.success(),
        "ci/module-cycles.py found import circles, modules that use each other \
         (move what they share into a module of its own, which they all use):\n{}\n{}",
        circles.join("\n"),
        text(&out.stderr)
    );
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
