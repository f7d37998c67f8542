//! `course-rules export`, run for real: every lesson, exported outside the
//! checkout, builds there with cargo and with its README's nvcc line, using
//! nothing of the repository but a CUDA toolkit named by `CUDA_HOME`; and a
//! refused export leaves its destination as it was.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use course_rules::export::lockfile;
use course_rules::{lessons, repository_root};

const BIN: &str = env!("CARGO_BIN_EXE_course-rules");

/// A fresh folder under the system's temp dir, outside the checkout.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("course-rules-export-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(
        !dir.starts_with(repository_root()),
        "{} is inside the checkout",
        dir.display()
    );
    dir
}

fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

fn export(lesson: &str, dest: &Path) -> Output {
    Command::new(BIN)
        .args(["export", lesson])
        .arg(dest)
        .current_dir(repository_root())
        .output()
        .expect("course-rules runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every file under `dir` with its contents, to show a refusal changed nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    course_rules::files::project_files(dir)
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dir.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// The packages `cargo metadata` finds in the exported project: every one
/// that is not from a registry must live inside it.
fn assert_self_contained(dest: &Path) {
    let out = Command::new(cargo())
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(dest)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let local: Vec<&str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["source"].is_null())
        .map(|p| p["manifest_path"].as_str().unwrap())
        .collect();
    assert!(local.len() > 1, "{local:?}");
    let dest = dest.canonicalize().unwrap();
    for manifest in local {
        assert!(
            Path::new(manifest).starts_with(&dest),
            "{manifest} is outside {}",
            dest.display()
        );
        let text = std::fs::read_to_string(manifest).unwrap();
        assert!(!text.contains("workspace = true"), "{manifest}:\n{text}");
    }
}

#[test]
fn every_lesson_exported_outside_the_checkout_builds_with_cargo_and_its_nvcc_line() {
    let root = repository_root();
    let toolkit = cuda_build::locate(&|name| std::env::var_os(name), &|p| p.is_file(), Some(&root))
        .expect("nvcc: run ci/provision.sh (the test command does)");
    let base = scratch("build");
    // One target folder for every exported lesson, so the registry crates build once.
    let target = base.join("target");
    let all = lessons::lessons(&root);
    assert!(!all.is_empty(), "no lessons under {}", root.display());
    for (n, lesson) in all.iter().enumerate() {
        let name = lesson.dir.file_name().unwrap().to_str().unwrap();
        let line = lessons::check_build_lines(lesson).unwrap();
        let dest = base.join(name);
        if n == 0 {
            // An empty destination is as good as a missing one.
            std::fs::create_dir(&dest).unwrap();
        }
        let out = export(name, &dest);
        assert_eq!(out.status.code(), Some(0), "export {name}: {}", text(&out.stderr));
        assert_self_contained(&dest);
        let repo_lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
        let lesson_lock = std::fs::read_to_string(dest.join("Cargo.lock")).unwrap();
        assert_eq!(lockfile::check_same_versions(&repo_lock, &lesson_lock), Ok(()));

        let built = Command::new(cargo())
            .args(["build", "--release", "--offline"])
            .current_dir(&dest)
            .env("CARGO_TARGET_DIR", &target)
            .env("CUDA_HOME", &toolkit.root)
            .env_remove("LESSON_NVCC")
            .env_remove("CUDA_PATH")
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "cargo build in {}:\n{}",
            dest.display(),
            text(&built.stderr)
        );
        let rust_binary = target.join("release").join(name);
        assert!(rust_binary.is_file(), "{} was not built", rust_binary.display());

        lessons::run_build_line(&toolkit.nvcc, &line, &dest, None)
            .unwrap_or_else(|e| panic!("`{line}` in {}: {e}", dest.display()));
        let cuda_binary = dest.join(lessons::build_output(&line).expect("the nvcc line names its output"));
        assert!(cuda_binary.is_file(), "{} was not built", cuda_binary.display());
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn an_unknown_lesson_is_refused_with_one_line_and_nothing_written() {
    let base = scratch("unknown");
    let dest = base.join("out");
    let out = export("day00-nothing", &dest);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no lesson named `day00-nothing`"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(&base).unwrap().count(),
        0,
        "something was written"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_directory_that_is_not_empty_is_refused_and_left_as_it_was() {
    let base = scratch("occupied");
    let dest = base.join("out");
    std::fs::create_dir_all(dest.join("src")).unwrap();
    std::fs::write(dest.join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
    std::fs::write(dest.join("src/main.rs"), "fn main() {}\n").unwrap();
    let before = snapshot(&dest);
    let lesson = lessons::lessons(&repository_root()).remove(0);
    let out = export(lesson.dir.file_name().unwrap().to_str().unwrap(), &dest);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is not an empty directory"), "{stderr}");
    assert_eq!(snapshot(&dest), before);
    assert_eq!(
        std::fs::read_dir(&base).unwrap().count(),
        1,
        "a staging folder was left behind"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn every_lesson_readme_says_how_to_take_it_away() {
    for lesson in lessons::lessons(&repository_root()) {
        let name = lesson.dir.file_name().unwrap().to_str().unwrap();
        let readme = std::fs::read_to_string(lesson.dir.join("README.md")).unwrap();
        let command = format!("cargo run -p course-rules -- export {name} ");
        assert!(readme.contains(&command), "{name}/README.md lacks `{command}...`");
        assert!(
            readme.contains("cargo build --release --offline"),
            "{name}/README.md"
        );
    }
}
