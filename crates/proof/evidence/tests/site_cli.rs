//! `evidence site` refuses to write where it may not, in one line and with
//! exit status 1: a folder it did not write, a file, a mount point.

use std::path::Path;
use std::process::{Command, Output};

use support::repository;

mod support;

/// An evidence folder under `tmp` holding one committed run of Day 10 and
/// its twin: enough for a site.
fn one_run(tmp: &Path) -> std::path::PathBuf {
    let ev = tmp.join("evidence");
    let from = repository().join("evidence/day10-block-sizes");
    let mut runs: Vec<_> = std::fs::read_dir(&from)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with("-h200-cxx.txt"))
        .collect();
    runs.sort();
    let txt = runs.first().expect("a committed Day 10 h200-cxx run");
    std::fs::create_dir_all(ev.join("day10-block-sizes")).unwrap();
    std::fs::copy(from.join(txt), ev.join("day10-block-sizes").join(txt)).unwrap();
    ev
}

/// `evidence --root REPOSITORY --evidence EV site OUT`.
fn site(ev: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["--root".as_ref(), repository().as_os_str()])
        .args([
            "--evidence".as_ref(),
            ev.as_os_str(),
            "site".as_ref(),
            out.as_os_str(),
        ])
        .output()
        .unwrap()
}

#[test]
fn it_refuses_any_folder_it_did_not_write_and_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = one_run(tmp.path());
    let other = tmp.path().join("notes");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("mine.txt"), "keep me").unwrap();
    let status = site(&ev, &other);
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not a site `evidence site` wrote"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(other.join("mine.txt")).unwrap(),
        "keep me"
    );

    // A file where the site should go: one line, its cause said once.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let refused = site(&ev, &file);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(
        stderr.matches("not a folder").count(),
        1,
        "the cause once: {stderr}"
    );
}

#[test]
fn a_mount_point_is_refused_before_anything_is_built() {
    // /proc is a mount point on every Linux machine this runs on; a site
    // there could never be renamed into place, so it is refused up front
    // rather than after a whole build.
    let tmp = tempfile::tempdir().unwrap();
    let ev = one_run(tmp.path());
    let refused = site(&ev, Path::new("/proc"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("/proc") && stderr.contains("a mount point"),
        "{stderr}"
    );
    // No staging folder was made beside it.
    let staged = std::fs::read_dir("/")
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().contains("evidence-site"));
    assert!(!staged, "a staging folder was left in /");
}
