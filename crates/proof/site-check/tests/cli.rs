//! The `site-check` binary's output and exit codes.

mod support;

use std::process::{Command, Output};

use support::{good_site, write};

fn site_check(args: &[&str], path_var: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_site-check"));
    command.args(args);
    if let Some(path_var) = path_var {
        command.env("PATH", path_var);
    }
    command.output().expect("running site-check")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn exit_codes_say_clean_problems_setup_and_usage() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    good_site(dir.path());
    let site = dir.path().to_str().expect("a UTF-8 temporary path");

    let clean = site_check(&[site], None);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stderr));
    assert_eq!(
        text(&clean.stdout),
        "3 pages (3 in the browser), 5 links, 1 images: no problems\n"
    );

    write(dir.path(), "lost.html", "<!doctype html><title>x</title>");
    let faulty = site_check(&[site], None);
    assert_eq!(faulty.status.code(), Some(1));
    assert_eq!(
        text(&faulty.stdout),
        "lost.html: no link reaches this page (orphan)\n"
    );
    assert_eq!(text(&faulty.stderr), "error: 1 problem(s) in 3 pages\n");

    let no_browser = site_check(&[site], Some(""));
    assert_eq!(no_browser.status.code(), Some(1));
    let line = text(&no_browser.stderr);
    assert!(
        line.starts_with("error: ") && line.contains("ci/provision-browser.sh"),
        "{line}"
    );
    assert_eq!(line.lines().count(), 1, "{line}");

    let missing = dir.path().join("no-such-site");
    let gone = site_check(&[missing.to_str().expect("a UTF-8 path")], None);
    assert_eq!(gone.status.code(), Some(1));
    let line = text(&gone.stderr);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert_eq!(
        line.matches("No such file or directory").count(),
        1,
        "the cause once: {line}"
    );

    let usage = site_check(&[site, "--screenshot", "index.html"], None);
    assert_eq!(usage.status.code(), Some(2), "{}", text(&usage.stderr));
}

/// A chromedriver that exits as soon as it starts (a port taken between
/// choosing and binding does that) is tried three times, then named in one
/// line with how it ended, and `site-check` exits 1.
#[test]
fn a_chromedriver_that_exits_at_start_is_one_line_with_its_exit_code() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    good_site(dir.path());
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("a folder for the stand-ins");
    for (name, script) in [
        ("chromedriver", "#!/bin/sh\nexit 3\n"),
        ("chromium", "#!/bin/sh\n"),
    ] {
        let path = bin.join(name);
        std::fs::write(&path, script).expect("a stand-in");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("made executable");
    }
    let site = dir.path().to_str().expect("a UTF-8 temporary path");
    let out = site_check(&[site], Some(bin.to_str().expect("a UTF-8 path")));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let line = text(&out.stderr);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with("error: ") && line.contains("chromedriver exited at start (exit code 3)"),
        "{line}"
    );
}
