//! The scripts under `ci/` that can run without a GPU.
//!
//! `ci/lesson.sh` and `ci/provision.sh` on a machine whose NVIDIA driver is
//! too old for the CUDA 13 toolkit: one line naming the two ways out, before
//! anything is built. The driver is faked: a `nvidia-smi` on `PATH` that
//! prints the version a query asks for, as the real one does.
//!
//! `ci/report-diff.sh`, which the GPU session uses to show two builds of a
//! program print the same report, on committed transcripts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use course_rules::repository_root;

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
