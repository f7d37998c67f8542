//! The evidence tools against what a careless or hostile maintainer hands
//! them (issue 31): devices, FIFOs and oversized files where transcripts
//! belong, links, sparse files, files of blank lines, names no recorder
//! gives, a folder name with a line break, a site folder that holds the
//! evidence or is reached through `..` or a link, an empty source beside a
//! bad one, and a run name too long for a file. Each case is made here in a
//! temporary folder; committed runs are only read.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use support::repository;

// Shared with the site tests, which use the rest of it.
#[allow(dead_code)]
mod support;

fn evidence(ev: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence"));
    cmd.arg("--root").arg(repository()).arg("--evidence").arg(ev);
    cmd
}

/// Runs `cmd`, failing the test if it is still running after 60 s (a read
/// of a FIFO or of /dev/zero would hang or eat memory).
fn within_a_minute(mut cmd: Command) -> Output {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("still running after 60 s");
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Two committed diagnostics-free Day 53 runs, copied into
/// `into/day53-pinned/`: an evidence folder that passes the check.
fn small_evidence(into: &Path) -> Vec<PathBuf> {
    let from = repository().join("evidence/day53-pinned");
    let mut names: Vec<String> = std::fs::read_dir(&from)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with("-h200-cxx.txt"))
        .collect();
    names.sort();
    names.truncate(2);
    std::fs::create_dir_all(into.join("day53-pinned")).unwrap();
    let mut out = Vec::new();
    for f in &names {
        let to = into.join("day53-pinned").join(f);
        std::fs::copy(from.join(f), &to).unwrap();
        out.push(to);
    }
    out
}

#[test]
fn devices_fifos_and_oversized_transcripts_are_refused_by_every_reader_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    small_evidence(&ev);
    let folder = ev.join("day53-pinned");
    let zero = folder.join("2026-11-30T000000Z-h200-zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let fifo = folder.join("2026-11-30T000001Z-h200-fifo.txt");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let big = folder.join("2026-11-30T000002Z-h200-big.txt");
    std::fs::write(&big, vec![b'a'; (evidence::capped::TRANSCRIPT_CAP + 1) as usize]).unwrap();

    let mut check = evidence(&ev);
    check.arg("check");
    let out = within_a_minute(check);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for (file, says) in [
        (&zero, "symbolic link"),
        (&fifo, "FIFO"),
        (&big, "over the 16777216-byte cap"),
    ] {
        let name = file.file_name().unwrap().to_string_lossy();
        assert!(
            err.lines().any(|l| l.contains(&*name) && l.contains(says)),
            "{name}: {says}: {err}"
        );
    }
    let mut site = evidence(&ev);
    site.arg("site").arg(dir.path().join("site"));
    // The site lists the evidence's problems on its pages; what matters is
    // that it ends, having read none of these files.
    let out = within_a_minute(site);
    assert!(out.status.code().is_some(), "{}", stderr(&out));
    let mut files = evidence(&ev);
    files.arg("compare-files").arg(&zero).arg(&big);
    let out = within_a_minute(files);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("not a regular file"), "{}", stderr(&out));
}

#[test]
fn compare_and_plot_name_the_count_and_the_first_problem_on_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    small_evidence(&ev);
    for i in 0..200 {
        let junk = ev.join(format!("day53-pinned/2026-11-30T00{:04}Z-junk.txt", i));
        std::fs::write(junk, "not a transcript\n").unwrap();
    }
    let mut plot = evidence(&ev);
    plot.arg("plot").arg("--out").arg(dir.path().join("plots"));
    let out = within_a_minute(plot);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("200 problem(s)") && err.contains("the first: ") && err.contains("-junk.txt"),
        "{err}"
    );
    assert!(err.contains("`evidence check` lists them all"), "{err}");
    assert!(err.len() < 2000, "{} bytes", err.len());
}

#[test]
fn names_no_recorder_gives_are_refused_on_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let runs = small_evidence(&ev);
    let text = std::fs::read(&runs[0]).unwrap();
    let folder = ev.join("day53-pinned");
    let odd = ["a b", "a\nb", "a<b", "a\"b", "a\\b"];
    for (i, name) in odd.iter().enumerate() {
        std::fs::write(folder.join(format!("2026-11-30T00000{i}Z-{name}.txt")), &text).unwrap();
    }
    let mut check = evidence(&ev);
    check.arg("check");
    let out = within_a_minute(check);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let misnamed: Vec<&str> = err.lines().filter(|l| l.contains("not a file name")).collect();
    assert_eq!(misnamed.len(), odd.len(), "{err}");
    assert!(misnamed.iter().any(|l| l.contains(r"a\nb")), "{err}");
    // Merge holds a session's names to the same rule.
    let dest = dir.path().join("dest");
    let mut merge = Command::new(env!("CARGO_BIN_EXE_evidence"));
    merge.arg("--evidence").arg(&dest).arg("merge").arg(&ev);
    let out = within_a_minute(merge);
    assert_eq!(out.status.code(), Some(1));
    let refused: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.contains("not a file name"))
        .map(String::from)
        .collect();
    assert_eq!(refused.len(), odd.len(), "{}", stderr(&out));
    assert!(!dest.join("day53-pinned").exists());
}

/// The names a file name's characters allow but `record --name` refuses:
/// a flag, dots, a hidden file. Refused by check and merge alike, by name.
#[test]
fn run_names_record_refuses_are_refused_in_file_names_too() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let runs = small_evidence(&ev);
    let folder = ev.join("day53-pinned");
    let original = runs[0].file_name().unwrap().to_string_lossy().into_owned();
    let stamp = &original[..original.find('Z').unwrap() + 1];
    let text = std::fs::read(&runs[0]).unwrap();
    let odd = ["-x", "..", ".hidden"];
    for name in odd {
        std::fs::write(folder.join(format!("{stamp}-{name}.txt")), &text).unwrap();
    }
    std::fs::write(folder.join(".hidden.txt"), &text).unwrap();
    let refusals = |err: &str| -> Vec<String> {
        let mut named: Vec<String> = odd
            .iter()
            .filter(|name| {
                err.lines().any(|l| {
                    l.contains(&format!("{stamp}-{name}.txt:"))
                        && l.contains(&format!("`{name}` in the file name is not a run name"))
                })
            })
            .map(|name| name.to_string())
            .collect();
        if err.lines().any(|l| l.contains("/.hidden.txt: not a file name")) {
            named.push(".hidden.txt".into());
        }
        named
    };
    let mut check = evidence(&ev);
    check.arg("check");
    let out = within_a_minute(check);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(refusals(&stderr(&out)).len(), 4, "{}", stderr(&out));
    let dest = dir.path().join("dest");
    let mut merge = Command::new(env!("CARGO_BIN_EXE_evidence"));
    merge.arg("--evidence").arg(&dest).arg("merge").arg(&ev);
    let out = within_a_minute(merge);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(refusals(&stderr(&out)).len(), 4, "{}", stderr(&out));
    assert!(!dest.join("day53-pinned").exists());
}

/// A refused value with a line break is shown quoted: the error stays the
/// one line it is (clap's own message would print the value as typed).
#[test]
fn a_run_name_with_a_line_break_is_refused_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--evidence")
        .arg(dir.path())
        .args([
            "record",
            "--lesson",
            "diagnostics",
            "--name",
            "a\nb",
            "--",
            "true",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(r#"error: invalid value for '--name <NAME>': "a\nb" is not a run name"#)
            && first.ends_with("starting with a letter or digit"),
        "{err}"
    );
    assert!(err.contains("Usage: evidence record"), "{err}");
}

/// A link is refused whatever it leads to: a device, or a transcript that
/// passes on its own (the campaign's links were read through). A sparse
/// file reads its holes as NUL bytes, which no transcript holds.
#[test]
fn links_and_sparse_files_fail_check_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let runs = small_evidence(&ev);
    let outside = dir.path().join("outside.txt");
    std::fs::rename(&runs[1], &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &runs[1]).unwrap();
    let sparse = ev.join("diagnostics/2026-11-30T000000Z-h200-sparse.txt");
    std::fs::create_dir_all(sparse.parent().unwrap()).unwrap();
    let text = "# lesson: diagnostics\n# date: 2026-11-30T00:00:00Z\n# gpu: NVIDIA H200\n# driver: d\n\
                # cuda runtime: r\n# nvcc: n\n# host: h\n# command: c\n# environment: e\n\
                # commit: 0123456\n# exit code: 0\n# ---\nline\n";
    std::fs::write(&sparse, text).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&sparse)
        .unwrap()
        .set_len(1 << 20)
        .unwrap();
    let mut check = evidence(&ev);
    check.arg("check");
    let out = within_a_minute(check);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    for (file, says) in [(&runs[1], "symbolic link"), (&sparse, "a NUL byte")] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("error: {}", file.display())) && l.contains(says)),
            "{}: {says}: {err}",
            file.display()
        );
    }
}

/// A run kept both as `x.txt` and gzip'd as `x.txt.gz` is two runs under
/// one name, whatever each holds: refused by name, neither read (the
/// campaign's file beside a packed run of the same name passed `check`).
#[test]
fn a_run_kept_as_a_file_and_gzip_d_beside_it_fails_check() {
    use evidence::capped::{gzip, gzipped};
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let runs = small_evidence(&ev);
    let check = || {
        let mut check = evidence(&ev);
        check.arg("check");
        within_a_minute(check)
    };
    let own = std::fs::read(&runs[0]).unwrap();
    let other = std::fs::read(&runs[1]).unwrap();
    std::fs::write(gzipped(&runs[0]), gzip(&other)).unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let first = format!("error: {}", runs[0].display());
    assert!(
        err.lines()
            .any(|l| l.starts_with(&first) && l.contains("kept twice")),
        "{err}"
    );
    // Kept gzip'd alone, as a merge keeps it, it is read by its name.
    std::fs::remove_file(&runs[0]).unwrap();
    std::fs::write(gzipped(&runs[0]), gzip(&own)).unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Eight transcripts of blank lines, each under the 16 MiB cap, took 3.9 GB
/// and 19 s to check (the campaign): each is now refused by its line count
/// before a line is kept, in a small multiple of its bytes.
#[test]
fn transcripts_of_blank_lines_are_refused_fast_in_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    small_evidence(&ev);
    let folder = ev.join("diagnostics");
    std::fs::create_dir_all(&folder).unwrap();
    let blank = "\n".repeat((evidence::capped::TRANSCRIPT_CAP - 1024) as usize);
    for i in 0..8 {
        let text = format!(
            "# lesson: diagnostics\n# date: 2026-11-30T00:00:0{i}Z\n# gpu: NVIDIA H200\n# driver: d\n\
             # cuda runtime: r\n# nvcc: n\n# host: h\n# command: c\n# environment: e\n\
             # commit: 0123456\n# exit code: 0\n# ---\n{blank}"
        );
        std::fs::write(folder.join(format!("2026-11-30T00000{i}Z-h200-blank.txt")), text).unwrap();
    }
    // Under a 300 MB address-space limit, where one of these files took
    // 490 MB before: an allocation past it would end the check.
    let mut check = Command::new("sh");
    check
        .arg("-c")
        .arg("ulimit -v 300000 && exec \"$0\" --root \"$1\" --evidence \"$2\" check")
        .arg(env!("CARGO_BIN_EXE_evidence"))
        .arg(repository())
        .arg(&ev);
    let out = within_a_minute(check);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let refused = stderr(&out)
        .lines()
        .filter(|l| l.contains("-line cap on a transcript"))
        .count();
    assert_eq!(refused, 8, "{}", stderr(&out));
}

/// A FIFO or a device handed to `twin` is refused at once, not waited on
/// or read without end.
#[test]
fn twin_prints_a_transcript_s_json_and_refuses_a_fifo_or_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let runs = small_evidence(&ev);
    let mut twin = evidence(&ev);
    twin.arg("twin").arg(&runs[0]);
    let out = within_a_minute(twin);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains("\"exit_code\": 0") && json.contains("\"kind\": \"report\""),
        "{json}"
    );
    assert_eq!(
        json,
        evidence::twin::pretty(
            &runs[0].display().to_string(),
            &std::fs::read_to_string(&runs[0]).unwrap()
        )
    );
    let fifo = dir.path().join("fifo.txt");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let zero = dir.path().join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for (file, says) in [(&fifo, "FIFO"), (&zero, "symbolic link")] {
        let mut twin = evidence(&ev);
        twin.arg("twin").arg(file);
        let out = within_a_minute(twin);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
}

/// A source folder whose name holds a line break is refused on one line:
/// the name is shown escaped, never printed so as to start a forged line.
#[test]
fn a_folder_name_with_a_line_break_cannot_forge_an_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    small_evidence(&src);
    std::fs::create_dir_all(src.join("x\nerror: forged")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--evidence")
        .arg(dir.path().join("dest"))
        .arg("merge")
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.lines().all(|l| !l.starts_with("error: forged")), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains(r"x\nerror: forged"), "{err}");
}

#[test]
fn a_run_name_too_long_for_a_file_is_a_usage_error_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--evidence")
        .arg(dir.path())
        .args(["record", "--lesson", "diagnostics", "--name"])
        .arg("n".repeat(232))
        .arg("--")
        .arg("touch")
        .arg(&marker)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("at most 100"), "{}", stderr(&out));
    assert!(!marker.exists(), "the program ran");
    assert!(!dir.path().join("diagnostics").exists());
}

#[test]
fn a_site_folder_holding_the_evidence_or_reached_by_dots_or_links_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    small_evidence(&ev);
    let site = dir.path().join("s");
    let build = |ev: &Path, out: &Path| {
        let mut cmd = evidence(ev);
        cmd.arg("site").arg(out);
        within_a_minute(cmd)
    };
    assert_eq!(build(&ev, &site).status.code(), Some(0));

    // The evidence inside the site's folder: refused, and kept.
    let inside = site.join("ev");
    std::fs::create_dir_all(inside.join("day53-pinned")).unwrap();
    for f in std::fs::read_dir(ev.join("day53-pinned")).unwrap().flatten() {
        std::fs::copy(f.path(), inside.join("day53-pinned").join(f.file_name())).unwrap();
    }
    let out = build(&inside, &site);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("holds the evidence folder"),
        "{}",
        stderr(&out)
    );
    assert!(inside.join("day53-pinned").is_dir(), "the evidence was deleted");
    std::fs::remove_dir_all(&inside).unwrap();

    // `S/lessons/..` is S: rebuilt, not emptied.
    let out = build(&ev, &site.join("lessons/.."));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(site.join("index.html").is_file());

    // A link to an empty folder, and a link to the site: written through.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let to_empty = dir.path().join("to-empty");
    std::os::unix::fs::symlink(&empty, &to_empty).unwrap();
    assert_eq!(build(&ev, &to_empty).status.code(), Some(0));
    assert!(empty.join("index.html").is_file());
    let to_site = dir.path().join("to-site");
    std::os::unix::fs::symlink(&site, &to_site).unwrap();
    assert_eq!(build(&ev, &to_site).status.code(), Some(0));
    assert!(std::fs::symlink_metadata(&to_site)
        .unwrap()
        .file_type()
        .is_symlink());

    // Nothing is left beside the sites: no staging folder survives.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_stale_staging_folder_of_a_killed_site_build_is_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    small_evidence(&ev);
    let stale = dir.path().join(".s.evidence-site-killed");
    std::fs::create_dir_all(stale.join("lessons")).unwrap();
    std::fs::write(stale.join("index.html"), "half").unwrap();
    let mut cmd = evidence(&ev);
    cmd.arg("site").arg(dir.path().join("s"));
    assert_eq!(within_a_minute(cmd).status.code(), Some(0));
    assert!(!stale.exists());
}

#[test]
fn a_merge_reports_every_source_s_problems_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let m1 = dir.path().join("m1");
    small_evidence(&m1);
    std::fs::write(m1.join("day53-pinned/stray.log"), "x").unwrap();
    std::fs::write(m1.join("notes.txt"), "x").unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--evidence")
        .arg(dir.path().join("dest"))
        .arg("merge")
        .arg(&m1)
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("no transcripts to merge"), "{err}");
    assert!(err.contains("stray.log") && err.contains("notes.txt"), "{err}");
}
