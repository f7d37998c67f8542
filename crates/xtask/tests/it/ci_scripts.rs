//! The scripts under `ci/` that can run without a GPU.
//!
//! `ci/lesson.sh` and `ci/provision.sh` on a machine whose NVIDIA driver is
//! too old for the CUDA 13 toolkit: one line naming the two ways out, before
//! anything is built. The driver is faked: a `nvidia-smi` on `PATH` that
//! prints the version a query asks for, as the real one does.
//!
//! `ci/report-diff.sh`, which the GPU session uses to show two builds of a
//! program print the same report, on committed transcripts.
//!
//! `ci/provision.sh`'s stamp against a toolkit link that no longer leads
//! anywhere, with a fake `python3` whose venv's pip "installs" a fake nvcc;
//! and `ci/finish-evidence-bin.sh`, the end of `ci/build-for-gpu.sh`, on a
//! planted `.evidence-bin/` of ELF and text files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use xtask::rules::repository_root;

/// A folder holding a fake `nvidia-smi` (printing `driver`, or absent when
/// `None`) and fake `cargo` and `python3` that leave a mark when they run,
/// so a test can show nothing was built or provisioned.
fn fake_machine(tag: &str, driver: Option<&str>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("course-rules-driver-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    };
    if let Some(driver) = driver {
        script("nvidia-smi", &format!("echo '{driver}'"));
    }
    for tool in ["cargo", "python3"] {
        script(tool, &format!("touch '{}/{tool}-ran'", dir.display()));
    }
    dir
}

/// Runs `bash <script> <args>` from the repository with `fake` first on a
/// `PATH` that has no CUDA toolkit, and no toolkit variables.
fn run(fake: &Path, script: &str, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(script)
        .args(args)
        .current_dir(repository_root())
        .env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
        .env_remove("LESSON_NVCC")
        .env_remove("CUDA_HOME")
        .env_remove("CUDA_PATH")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_names_the_ways_out(line: &str, driver: &str) {
    assert!(line.contains(driver), "{line}");
    assert!(line.contains("580"), "{line}");
    assert!(line.contains("update the driver"), "{line}");
    assert!(line.contains("CUDA 12 toolkit"), "{line}");
}

#[test]
fn lesson_sh_on_a_driver_older_than_580_says_so_in_one_line_and_builds_nothing() {
    if Path::new("/usr/local/cuda/bin/nvcc").exists() {
        // lesson.sh would use that toolkit and never reach the check; this
        // machine cannot show the case (CI's and the developers' have none).
        panic!(
            "/usr/local/cuda/bin/nvcc exists here: the test needs a machine without a system CUDA toolkit"
        );
    }
    let fake = fake_machine("old", Some("535.104.05"));
    let out = run(&fake, "ci/lesson.sh", &["day09-timing"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_names_the_ways_out(&stderr, "535.104.05");
    assert!(!fake.join("cargo-ran").exists(), "cargo ran");
    assert!(!fake.join("python3-ran").exists(), "provisioning ran");
    let _ = std::fs::remove_dir_all(&fake);
}

/// The check alone, as both scripts source it: its exit status and line for
/// a driver that is too old, new enough, missing, or unreadable.
#[test]
fn the_driver_check_passes_580_and_newer_and_machines_without_a_driver() {
    let cases = [
        (Some("535.104.05"), true),
        (Some("575.57.08"), true),
        (Some("580.159.04"), false),
        (Some("590.12"), false),
        (None, false),
        (Some("No devices were found"), false),
    ];
    for (driver, too_old) in cases {
        let fake = fake_machine("check", driver);
        let out = Command::new("bash")
            .args(["-c", "source ci/driver.sh && driver_too_old_for 13"])
            .current_dir(repository_root())
            .env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(out.status.success(), too_old, "{driver:?}: {stdout}");
        match too_old {
            true => {
                assert_eq!(stdout.lines().count(), 1, "{stdout}");
                assert_names_the_ways_out(&stdout, driver.unwrap());
            }
            false => assert_eq!(stdout, "", "{driver:?}"),
        }
        let _ = std::fs::remove_dir_all(&fake);
    }
}

#[test]
fn provision_sh_refuses_a_toolkit_it_does_not_pin_before_doing_anything() {
    let fake = fake_machine("version", Some("535.104.05"));
    let out = run(&fake, "ci/provision.sh", &["12.4"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("13.0 or 13.5"), "{stderr}");
    assert!(!fake.join("python3-ran").exists(), "provisioning ran");
    let _ = std::fs::remove_dir_all(&fake);
}

/// Two transcripts in a scratch folder, each with `body` after its header.
fn transcripts(tag: &str, a: &str, b: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("course-rules-report-diff-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let header = "# lesson: x\n# exit code: 0\n# ---\n";
    let (pa, pb) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&pa, format!("{header}{a}")).unwrap();
    std::fs::write(&pb, format!("{header}{b}")).unwrap();
    (pa, pb)
}

fn report_diff(a: &Path, b: &Path) -> Output {
    Command::new("bash")
        .arg("ci/report-diff.sh")
        .arg(a)
        .arg(b)
        .current_dir(repository_root())
        .output()
        .unwrap()
}

#[test]
fn report_diff_masks_what_was_measured_and_names_what_was_printed_differently() {
    let (a, b) = transcripts(
        "same",
        "row 4   0.061 ms   3.3 TB/s\nbuffer at 0x7f2a00000000\nverdict: holds (under 20 us)\n    192   0.06105   0.58%   +0.0%  best\n",
        "row 4  12.345 ms  -1.5e3 TB/s\nbuffer at 0x7f2b00200000\nverdict: does not hold (under 20 us)\n    192   0.06203   1.08%   +1.6%  no\n",
    );
    let out = report_diff(&a, &b);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("same report, numbers masked: 4 lines"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(a.parent().unwrap());

    let (a, b) = transcripts(
        "differ",
        "row 4  0.061 ms\n",
        "row 4  0.061 ms\nwall clock, whole process  900 ms\n",
    );
    let out = report_diff(&a, &b);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("> wall clock, whole process N ms"), "{stdout}");
    assert!(stdout.contains("the reports differ"), "{stdout}");
    let _ = std::fs::remove_dir_all(a.parent().unwrap());
}

/// Writes an executable shell script at `path`.
fn script_at(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(path, perms).unwrap();
}

/// A scratch checkout holding only `ci/provision.sh` and what it sources,
/// and a folder with a fake `python3`: `-m venv DIR` makes a venv whose
/// python's `-m pip install` writes a fake nvcc where the wheels put
/// theirs, and each venv made adds a line to `venvs-made`.
fn provision_sandbox(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let base = std::env::temp_dir().join(format!("course-rules-provision-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let checkout = base.join("real");
    std::fs::create_dir_all(checkout.join("ci")).unwrap();
    for file in ["provision.sh", "driver.sh"] {
        std::fs::copy(
            repository_root().join("ci").join(file),
            checkout.join("ci").join(file),
        )
        .unwrap();
    }
    let fake = base.join("fake");
    let made = base.join("venvs-made");
    script_at(
        &fake.join("python3"),
        &format!(
            "[ \"$1 $2\" = '-m venv' ] || exit 3\n\
             mkdir -p \"$3/bin\"\n\
             echo \"$3\" >>'{}'\n\
             cat >\"$3/bin/python\" <<'PY'\n\
             #!/bin/sh\n\
             cu=\"$(dirname \"$0\")/../lib/python3.99/site-packages/nvidia/cu13\"\n\
             mkdir -p \"$cu/bin\" \"$cu/lib\"\n\
             printf '#!/bin/sh\\necho \"Cuda compilation tools, fake\"\\necho \"Build fake\"\\n' >\"$cu/bin/nvcc\"\n\
             chmod +x \"$cu/bin/nvcc\"\n\
             PY\n\
             chmod +x \"$3/bin/python\"",
            made.display()
        ),
    );
    (checkout, fake, made)
}

fn venvs_made(made: &Path) -> usize {
    std::fs::read_to_string(made).map_or(0, |t| t.lines().count())
}

/// `bash <script>` with `fake` first on a `PATH` without CUDA; its output
/// and the path on its last line.
fn provision(script: &Path, fake: &Path) -> (Output, PathBuf) {
    let out = Command::new("bash")
        .arg(script)
        .env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
        .output()
        .unwrap();
    let printed = PathBuf::from(text(&out.stdout).lines().last().unwrap_or_default());
    (out, printed)
}

/// The checkout reached through a link that then goes away, as a worktree
/// under a linked folder: the toolkit link must not have pointed through
/// it. And a stamp whose link dangles is not trusted: the compiler is
/// installed again and the printed path leads to an nvcc.
#[test]
fn provision_sh_distrusts_its_stamp_when_the_toolkit_link_dangles() {
    let (checkout, fake, made) = provision_sandbox("dangling");
    let via = checkout.parent().unwrap().join("via");
    std::os::unix::fs::symlink(&checkout, &via).unwrap();

    let (out, printed) = provision(&via.join("ci/provision.sh"), &fake);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(venvs_made(&made), 1, "{}", text(&out.stderr));
    assert_eq!(
        printed,
        checkout.join(".toolchain/cuda"),
        "the root resolved with pwd -P"
    );

    // The link goes; the checkout stays. The stamp is trusted, and the
    // toolkit is found where it was.
    std::fs::remove_file(&via).unwrap();
    let (out, printed) = provision(&checkout.join("ci/provision.sh"), &fake);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        printed.join("bin/nvcc").is_file(),
        "{} leads to no nvcc",
        printed.display()
    );
    assert_eq!(
        venvs_made(&made),
        1,
        "provisioned again with a good stamp and link"
    );

    // A dangling toolkit link beside a good stamp.
    let link = checkout.join(".toolchain/cuda");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(checkout.join("gone/nvidia/cu13"), &link).unwrap();
    assert!(std::fs::read_dir(checkout.join(".toolchain/13.0"))
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with("provisioned-")));
    let (out, printed) = provision(&checkout.join("ci/provision.sh"), &fake);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(venvs_made(&made), 2, "the stamp was trusted over a dangling link");
    assert!(
        printed.join("bin/nvcc").is_file(),
        "{} leads to no nvcc",
        printed.display()
    );
    let _ = std::fs::remove_dir_all(checkout.parent().unwrap());
}

/// A small ELF program with debug sections, built by the C compiler that
/// links Rust programs here too.
fn elf_with_debug_info(dir: &Path) -> PathBuf {
    let source = dir.join("probe.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let program = dir.join("probe");
    let out = Command::new("cc")
        .arg("-g")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .output()
        .unwrap();
    assert!(out.status.success(), "cc: {}", text(&out.stderr));
    assert!(has_debug_info(&program), "cc -g wrote no .debug_info");
    program
}

/// Whether the ELF file names a `.debug_info` section (in its section
/// name table, which `strip --strip-debug` rewrites without it).
fn has_debug_info(path: &Path) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(11).any(|w| w == b".debug_info")
}

/// `.evidence-bin/` as ci/build-for-gpu.sh leaves it for one lesson
/// `day01-x` (C++ program `x`): a fake `evidence` answering `lessons` and
/// `recipe`, ELF programs, and the text file `cuda-13.5/nvcc-version`.
/// Returns the folder and the ELF files' names in it.
fn planted_evidence_bin(base: &Path) -> (PathBuf, Vec<&'static str>) {
    let dir = base.join(".evidence-bin");
    std::fs::create_dir_all(&dir).unwrap();
    let elf = elf_with_debug_info(base);
    let elves = vec![
        "cuda-13.5/cuda-versions",
        "cuda-13.5/day01-x/day01-x",
        "cuda-13.5/day01-x/x",
        "cuda-versions-rust",
        "day01-x",
        "day01-x-cxx-hostbuilt",
        "instrument-suite",
        "tests/cuda-check-on_gpu",
    ];
    for name in &elves {
        let to = dir.join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&elf, to).unwrap();
    }
    script_at(
        &dir.join("evidence"),
        "case $1 in lessons) echo day01-x ;; recipe) echo 'binary x' ;; *) exit 2 ;; esac",
    );
    std::fs::write(
        dir.join("cuda-13.5/nvcc-version"),
        "Cuda compilation tools, release 13.5, V13.5.37\n",
    )
    .unwrap();
    (dir, elves)
}

fn finish(dir: &Path) -> Output {
    Command::new("bash")
        .arg("ci/finish-evidence-bin.sh")
        .arg(dir)
        .current_dir(repository_root())
        .output()
        .unwrap()
}

/// The end of ci/build-for-gpu.sh strips the ELF files, and only those: a
/// text file such as nvcc-version made `strip` fail, and the script with it,
/// after everything was built.
#[test]
fn finishing_the_evidence_bin_strips_its_elf_files_and_leaves_text_alone() {
    let base_scratch = tempfile::tempdir().unwrap();
    let base = base_scratch.path().to_path_buf();
    std::fs::create_dir_all(&base).unwrap();
    let (dir, elves) = planted_evidence_bin(&base);
    let version_before = std::fs::read(dir.join("cuda-13.5/nvcc-version")).unwrap();
    let evidence_before = std::fs::read(dir.join("evidence")).unwrap();

    let out = finish(&dir);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let stripped: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("stripped "))
        .collect();
    assert_eq!(stripped, elves, "{stdout}");
    for name in &elves {
        assert!(!has_debug_info(&dir.join(name)), "{name} kept its debug sections");
    }
    assert_eq!(
        std::fs::read(dir.join("cuda-13.5/nvcc-version")).unwrap(),
        version_before
    );
    assert_eq!(std::fs::read(dir.join("evidence")).unwrap(), evidence_before);
    // The listing ends the output: every file, by its path in the folder.
    let mut listed: Vec<&str> = stdout.lines().rev().take(elves.len() + 2).collect();
    listed.sort_unstable();
    let mut all = elves.clone();
    all.extend(["cuda-13.5/nvcc-version", "evidence"]);
    all.sort_unstable();
    assert_eq!(listed, all, "{stdout}");
    let _ = std::fs::remove_dir_all(&base);
}

/// A folder that lacks what ci/gpu-session.sh reads fails the build,
/// naming each missing file, before anything is stripped.
#[test]
fn finishing_an_incomplete_evidence_bin_names_what_is_missing() {
    let base_scratch = tempfile::tempdir().unwrap();
    let base = base_scratch.path().to_path_buf();
    std::fs::create_dir_all(&base).unwrap();
    let (dir, _) = planted_evidence_bin(&base);
    for gone in ["cuda-13.5/day01-x/x", "cuda-13.5/nvcc-version"] {
        std::fs::remove_file(dir.join(gone)).unwrap();
    }
    let out = finish(&dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.contains("lacks cuda-13.5/day01-x/x"), "{stderr}");
    assert!(stderr.contains("lacks cuda-13.5/nvcc-version"), "{stderr}");
    assert!(
        has_debug_info(&dir.join("day01-x")),
        "stripped although incomplete"
    );
    let _ = std::fs::remove_dir_all(&base);
}
