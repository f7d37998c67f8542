//! `xtask new-lesson` run for real on a scratch copy of what it
//! reads and writes (the lessons, the registry, the README and the
//! workspace manifest): what it makes, that the rules read the lesson as
//! one of theirs, that `--remove` leaves the copy as it was, and its planted
//! negatives; and what it makes built and tested in a scratch copy of the
//! whole workspace.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use xtask::rules::{check_lessons, check_verbatim, lessons, repository_root};

/// A name no lesson of the repository has, so the test runs beside a
/// lesson made in the checkout itself.
const LESSON: &str = "day98-made-by-test";

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-new-lesson-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the command reads and writes, copied from the repository into `dir`.
fn copy_what_it_needs(dir: &Path) {
    let root = repository_root();
    xtask::files::copy_project_files(&root.join("code"), &dir.join("code")).unwrap();
    for file in ["Cargo.toml", "README.md", ::lessons::REGISTRY] {
        std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        std::fs::copy(root.join(file), dir.join(file)).unwrap();
    }
}

fn new_lesson(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("--root")
        .arg(root)
        .arg("new-lesson")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every file under `dir` and its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    xtask::files::project_files(dir)
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dir.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// A usage error as clap gives one: exit 2, nothing on stdout, `expected`
/// in clap's message.
fn assert_usage_error(out: &Output, expected: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(expected), "{expected:?} not in {stderr}");
    assert!(stderr.contains("For more information, try '--help'."), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_new_lesson_is_one_the_rules_read_and_remove_takes_it_back_byte_for_byte() {
    let dir = scratch("made");
    copy_what_it_needs(&dir);
    let before = snapshot(&dir);

    let out = new_lesson(&dir, &[LESSON]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("made {LESSON}: code/{LESSON} (10 files)")));
    let lesson = dir.join("code").join(LESSON);
    for file in [
        "made.cu",
        "made.h",
        "build.rs",
        "Cargo.toml",
        "README.md",
        "src/main.rs",
        "tests/lesson.rs",
        "tools/Cargo.toml",
        "tools/README.md",
        "tools/src/lib.rs",
    ] {
        let path = lesson.join(file);
        let written = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !written.contains("{{"),
            "{file} has a template key left: {written}"
        );
    }
    let build_rs = std::fs::read_to_string(lesson.join("build.rs")).unwrap();
    assert!(
        build_rs.contains("cuda_build::Lesson::new(\"made.cu\", \"made.h\", \"day98_\")"),
        "{build_rs}"
    );

    // The registry names it, with the path from its manifest, and so every rule reads it.
    let registry = std::fs::read_to_string(::lessons::registry_manifest(&dir)).unwrap();
    assert!(
        registry.contains(&format!(
            "{LESSON}-report = {{ path = \"../../../code/{LESSON}/tools\" }}\n"
        )),
        "{registry}"
    );
    let registered: Vec<String> = lessons::lessons(&dir)
        .unwrap()
        .into_iter()
        .map(|l| l.cu.display().to_string())
        .collect();
    assert!(
        registered.contains(&lesson.join("made.cu").display().to_string()),
        "{registered:?}"
    );
    // Rule 8: its copies of the verbatim blocks are the other lessons'; rule
    // 10's first half: its README and header give one nvcc line.
    assert_eq!(check_verbatim(&dir), Vec::<xtask::rules::Problem>::new());
    assert_eq!(check_lessons(&dir, None), Vec::<xtask::rules::Problem>::new());
    // The map lists it among the lessons, in name order.
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let map_line = readme
        .lines()
        .position(|l| l.starts_with(&format!("  {LESSON}/ ")))
        .unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(
        lines[map_line - 1] < lines[map_line] && lines[map_line] < lines[map_line + 1],
        "{readme}"
    );
    assert!(
        lines[map_line].ends_with("made.cu, made.h, Rust twin, tools/, README"),
        "{}",
        lines[map_line]
    );

    // Made twice: refused, nothing written.
    let made = snapshot(&dir);
    assert_usage_error(&new_lesson(&dir, &[LESSON]), "already exists");
    assert_eq!(snapshot(&dir), made);

    // An edited lesson is not taken back: the edit names itself and stays.
    let claims = lesson.join("tools/src/lib.rs");
    let original = std::fs::read_to_string(&claims).unwrap();
    std::fs::write(&claims, original.replace("measurable time", "an edited claim")).unwrap();
    let out = new_lesson(&dir, &[LESSON, "--remove"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("tools/src/lib.rs is not as new-lesson wrote it"),
        "{stderr}"
    );
    assert!(claims.is_file());
    std::fs::write(&claims, original).unwrap();

    // The map line's words are the author's to write, and go with the lesson.
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with(&format!("  {LESSON}/ ")))
        .unwrap();
    let edited = readme.replace(line, &format!("  {LESSON}/  words of its own"));
    std::fs::write(dir.join("README.md"), edited).unwrap();

    // Unedited, it goes, and the copy is as it was before, byte for byte.
    let out = new_lesson(&dir, &[LESSON, "--remove"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("removed {LESSON}")));
    assert!(
        snapshot(&dir) == before,
        "the copy differs from before the lesson was made"
    );
    assert_usage_error(&new_lesson(&dir, &[LESSON, "--remove"]), "there is no lesson");

    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_name_that_is_not_a_lessons_is_a_usage_error_and_nothing_is_written() {
    let dir = scratch("names");
    copy_what_it_needs(&dir);
    let before = snapshot(&dir);
    for bad in [
        "day1-x",
        "Day12-x",
        "day12",
        "day12-",
        "day12_x",
        "lesson-x",
        "ref-",
        "day12-X",
        "../day12-x",
    ] {
        assert_usage_error(&new_lesson(&dir, &[bad]), "is not a lesson name");
    }
    assert_usage_error(
        &new_lesson(&dir, &[LESSON, "--program", "Made"]),
        "is not a program name",
    );
    assert_usage_error(
        &new_lesson(&dir, &["ref-averyveryverylongword-x"]),
        "the topic's first word is no program name",
    );
    // An existing lesson's name, and a folder under code/ that is no lesson.
    let existing = lessons::lessons(&dir).unwrap()[0]
        .dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_usage_error(&new_lesson(&dir, &[&existing]), "already exists");
    std::fs::create_dir_all(dir.join("code/ref-scratchpad")).unwrap();
    assert_usage_error(&new_lesson(&dir, &["ref-scratchpad"]), "already exists");
    std::fs::remove_dir(dir.join("code/ref-scratchpad")).unwrap();
    assert!(snapshot(&dir) == before, "a refused command wrote something");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Rust it writes is as `cargo fmt` leaves it (CI runs `cargo fmt
/// --check`) whatever the names' lengths: the longest a day lesson's can
/// be, and a reference lesson's with its longest program name.
#[test]
fn what_it_writes_is_rustfmt_clean_for_the_longest_names() {
    let dir = scratch("fmt");
    copy_what_it_needs(&dir);
    let long_day = "day123-a-very-long-topic-name1";
    assert_eq!(long_day.len(), xtask::new_lesson::MAX_NAME);
    let long_ref = "ref-another-long-topic-name-xy";
    let program = "program_16_chars";
    assert_eq!(program.len(), xtask::new_lesson::MAX_PROGRAM);
    for args in [
        &[long_day, "--program", program][..],
        &[long_ref, "--program", program][..],
    ] {
        let out = new_lesson(&dir, args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let rust: Vec<PathBuf> = xtask::files::project_files(&dir.join("code").join(args[0]))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .map(|p| dir.join("code").join(args[0]).join(p))
            .collect();
        assert_eq!(rust.len(), 4, "{rust:?}");
        let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
        let out = Command::new(rustfmt)
            .args(["--check", "--edition", "2021", "--config-path"])
            .arg(repository_root().join("rustfmt.toml"))
            .args(&rust)
            .output()
            .expect("rustfmt: rustup component add rustfmt");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The names of the workspace's packages in the copy at `dir`.
fn copy_members(dir: &Path) -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(dir)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// The target folder this test was built in (it runs as
/// `<target>/debug/deps/new_lesson-<hash>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().to_path_buf()
}

/// What it makes builds and passes its own tests: the workspace copied
/// whole (its crates, lessons, manifest and lock file), the lesson made
/// there, then `cargo test` of its two packages, offline, with the nvcc
/// the repository's build uses and the same lints (the clippy wrapper the
/// test command sets reaches it too). It builds into the workspace's own
/// target folder, where the registry's crates are found built. The copy's
/// own crates sit at the same paths relative to their workspace as the
/// checkout's, which is all cargo hashes a path package by, so they would
/// overwrite the checkout's artifacts and leave every later build of the
/// checkout to redo them (a second run of the test command rebuilt the
/// lessons for it); a profile value that changes nothing a program does
/// (254 codegen units) gives them artifacts of their own.
#[test]
fn what_it_makes_builds_and_passes_its_tests_in_a_copy_of_the_workspace() {
    let root = repository_root();
    let dir = scratch("build");
    for sub in ["crates", "code"] {
        xtask::files::copy_project_files(&root.join(sub), &dir.join(sub)).unwrap();
    }
    for file in ["Cargo.toml", "Cargo.lock", "README.md"] {
        std::fs::copy(root.join(file), dir.join(file)).unwrap();
    }
    let out = new_lesson(&dir, &[LESSON]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let nvcc = xtask::rules::find_nvcc(&root).expect("nvcc: run ci/provision.sh (the test command does)");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let own_artifacts = copy_members(&dir).into_iter().flat_map(|name| {
        [
            "--config".to_string(),
            format!("profile.dev.package.{name}.codegen-units=254"),
        ]
    });
    let out = Command::new(cargo)
        .current_dir(&dir)
        .args([
            "test",
            "--offline",
            "-p",
            LESSON,
            "-p",
            &format!("{LESSON}-report"),
        ])
        .args(own_artifacts)
        .env("LESSON_NVCC", nvcc)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // Its command line, its constants against the .cu's, and its report's conformance.
    let stdout = text(&out.stdout);
    for test in [
        "without_a_driver_it_exits_1_with_one_line",
        "what_the_twin_renders_parses_back_to_the_same_numbers",
        "every_line_the_renderer_prints_is_a_printf_format_of_the_cu",
        "the_twin_takes_the_cus_rows_and_parts_in_its_order",
    ] {
        assert!(stdout.contains(&format!("{test} ... ok")), "{test}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lesson whose packages would take a name a package already has
/// (`day09-timing-report` is Day 9's tools) is refused, with nothing
/// written: made, it left a workspace where every cargo command failed.
#[test]
fn a_lesson_that_would_remake_a_package_is_refused_and_nothing_is_written() {
    let dir = scratch("taken");
    copy_what_it_needs(&dir);
    // A crate whose name is what a lesson's tools would be called.
    let planted = dir.join("crates/course/planted");
    std::fs::create_dir_all(&planted).unwrap();
    std::fs::write(
        planted.join("Cargo.toml"),
        "[package]\nname = \"day97-planted-report\"\n",
    )
    .unwrap();
    let before = snapshot(&dir);
    for (lesson, taken) in [
        ("day09-timing-report", "day09-timing-report"),
        ("day97-planted", "day97-planted-report"),
    ] {
        assert_usage_error(&new_lesson(&dir, &[lesson]), &format!("a package `{taken}`"));
        assert_eq!(snapshot(&dir), before);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lesson made half (the command cut short: files not yet written, one
/// cut off, no registry or map line yet) is taken back by --remove.
#[test]
fn a_lesson_made_half_is_taken_back_by_remove() {
    let dir = scratch("half");
    copy_what_it_needs(&dir);
    let before = snapshot(&dir);
    let made = new_lesson(&dir, &[LESSON]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    // As an interrupted run leaves it: the tools not written, main.rs cut
    // short, and the lines in the registry and the map not yet added.
    let lesson = dir.join("code").join(LESSON);
    std::fs::remove_dir_all(lesson.join("tools")).unwrap();
    let main = lesson.join("src/main.rs");
    let whole = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, &whole[..whole.len() / 2]).unwrap();
    for (path, bytes) in &before {
        if !path.starts_with("code") {
            std::fs::write(dir.join(path), bytes).unwrap();
        }
    }
    let out = new_lesson(&dir, &[LESSON, "--remove"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(snapshot(&dir), before);
    let _ = std::fs::remove_dir_all(&dir);
}
