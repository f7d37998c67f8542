//! `evidence merge` on GPU sessions' evidence folders written here into
//! temporary folders (never into `evidence/`; committed runs are only
//! read): two machines' sessions merged, a merge run again, a clash of
//! names, a bad transcript among good ones, a copy of a run already there,
//! twins (never copied) and a folder no evidence has. What is refused
//! leaves the destination as it was, byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evidence::merge::{self, MergeError, Merged};

/// A run of `folder` dated `date` on `gpu`, whose output is `body`.
fn run_text(folder: &str, date: &str, gpu: &str, body: &str) -> String {
    format!(
        "# lesson: {folder}\n# date: {date}\n# gpu: {gpu}\n# driver: 580.159.04 (CUDA 13.0)\n\
         # cuda runtime: runtime 13.0\n# nvcc: release 13.0, V13.0.88\n# host: Linux x86_64, 16 cores\n\
         # command: ./probe\n# environment: (nothing that changes behaviour)\n\
         # commit: 0123456789abcdef0123456789abcdef01234567\n# exit code: 0\n# ---\n{body}"
    )
}

/// Writes `text` as `dir/<its lesson>/<its date>-<name>.txt` with its twin,
/// as `evidence record` leaves them in a session folder; the transcript's
/// path.
fn put(dir: &Path, name: &str, text: &str) -> PathBuf {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
            .unwrap_or_else(|| panic!("no `# {key}:` in {text}"))
            .to_string()
    };
    let folder = dir.join(field("lesson"));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(format!("{}-{name}.txt", field("date").replace(':', "")));
    std::fs::write(&path, text).unwrap();
    let twin = evidence::twin::pretty(&path.display().to_string(), text);
    std::fs::write(path.with_extension("json"), twin).unwrap();
    path
}

/// A session's folder with one diagnostics run on `gpu` (`h200`, `a100`).
fn session(gpu: &str, date: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("NVIDIA {} (compute capability 9.0)", gpu.to_uppercase());
    put(
        dir.path(),
        &format!("{gpu}-probe"),
        &run_text("diagnostics", date, &name, &format!("probe on {gpu}: 1.25 ms\n")),
    );
    dir
}

/// Every file under `dir` and its bytes; a gzip'd transcript `x.txt.gz`
/// (as a merge keeps one) as `x.txt` and the bytes it holds.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Some(txt) = path.to_str().unwrap().strip_suffix(".gz") {
                let rel = Path::new(txt).strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, evidence::capped::transcript(Path::new(txt)).unwrap());
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A committed successful C++ run of Day 9 (read, never written): a lesson
/// report, whose copies are told by the report alone.
fn day09_run() -> String {
    let evidence = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence");
    evidence::load::transcript_files(&evidence)
        .into_iter()
        .filter(|f| f.parent().unwrap().ends_with("day09-timing"))
        .filter(|f| f.to_string_lossy().ends_with("-h200-cxx.txt"))
        .map(|f| String::from_utf8(evidence::capped::transcript(&f).unwrap()).unwrap())
        .find(|t| t.contains("\n# exit code: 0\n"))
        .expect("a committed Day 9 C++ run")
}

/// The refusals of a merge that must fail, each as its line.
fn refusals(sources: &[&Path], dest: &Path) -> Vec<String> {
    let sources: Vec<PathBuf> = sources.iter().map(|s| s.to_path_buf()).collect();
    match merge::merge(&sources, dest) {
        Err(MergeError::Refused(r)) => r.iter().map(ToString::to_string).collect(),
        other => panic!("expected refusals, got {other:?}"),
    }
}

/// Asserts that one line names `file` and says `says`.
fn assert_refused(lines: &[String], file: &Path, says: &str) {
    let file = file.display().to_string();
    assert!(
        lines.iter().any(|l| l.starts_with(&file) && l.contains(says)),
        "no line names {file} with {says:?}: {lines:#?}"
    );
}

fn evidence_cmd(dest: &Path, args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--evidence")
        .arg(dest)
        .arg("merge")
        .args(args)
        .output()
        .unwrap()
}

fn stderr_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn two_machines_sessions_merge_into_the_evidence_and_pass_its_checks() {
    let h200 = session("h200", "2026-11-30T04:44:49Z");
    put(
        h200.path(),
        "h200-gpu-tests",
        &run_text(
            "gpu-tests",
            "2026-11-30T04:45:10Z",
            "NVIDIA H200",
            "test result: ok\n",
        ),
    );
    let a100 = session("a100", "2026-11-30T04:44:49Z");
    let dest = tempfile::tempdir().unwrap();
    let sources = [h200.path().to_path_buf(), a100.path().to_path_buf()];

    let merged = merge::merge(&sources, dest.path()).unwrap();
    assert_eq!(
        merged,
        [
            Merged {
                source: sources[0].clone(),
                new: 2,
                already_there: 0
            },
            Merged {
                source: sources[1].clone(),
                new: 1,
                already_there: 0
            },
        ]
    );
    // Every transcript of both sessions, as it came; their twins are not
    // copied (derived, never kept).
    let mut expected = snapshot(h200.path());
    expected.extend(snapshot(a100.path()));
    assert_eq!(expected.len(), 6, "{:?}", expected.keys());
    expected.retain(|p, _| p.extension().is_some_and(|e| e == "txt"));
    assert_eq!(snapshot(dest.path()), expected);
    // Each kept gzip'd, as `zcat` reads it.
    for rel in expected.keys() {
        let gz = evidence::capped::gzipped(&dest.path().join(rel));
        let out = Command::new("gzip").arg("-dc").arg(&gz).output().unwrap();
        assert_eq!(out.stdout, expected[rel], "{}", gz.display());
    }
    let loaded = evidence::load::load(dest.path()).unwrap();
    assert!(loaded.problems.is_empty(), "{:#?}", loaded.problems);
    assert_eq!(loaded.transcripts.len(), 3);
}

#[test]
fn merging_again_changes_nothing_and_says_already_there() {
    let h200 = session("h200", "2026-11-30T04:44:49Z");
    let dest = tempfile::tempdir().unwrap();
    let first = evidence_cmd(dest.path(), &[h200.path()]);
    assert_eq!(first.status.code(), Some(0), "{:?}", stderr_lines(&first));
    let before = snapshot(dest.path());
    assert_eq!(before.len(), 1);

    let again = evidence_cmd(dest.path(), &[h200.path()]);
    assert_eq!(again.status.code(), Some(0), "{:?}", stderr_lines(&again));
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        format!("{}: 0 new transcripts, 1 already there\n", h200.path().display())
    );
    assert!(again.stderr.is_empty(), "{:?}", stderr_lines(&again));
    assert_eq!(snapshot(dest.path()), before);
}

#[test]
fn a_clash_of_names_is_refused_and_the_evidence_left_as_it_was() {
    let date = "2026-11-30T04:44:49Z";
    let dest = session("h200", date);
    let before = snapshot(dest.path());
    // The same name, another run: recorded again with other output.
    let other = tempfile::tempdir().unwrap();
    let text = run_text("diagnostics", date, "NVIDIA H200", "probe on h200: 9.75 ms\n");
    let clash = put(other.path(), "h200-probe", &text);

    let out = evidence_cmd(dest.path(), &[other.path()]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = stderr_lines(&out)
        .iter()
        .map(|l| {
            l.strip_prefix("error: ")
                .expect("every line an error")
                .to_string()
        })
        .collect();
    // The transcript, a line (its twin is not merged, so it clashes with
    // nothing), and the count.
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert_refused(&lines, &clash, "has this name with other bytes");
    assert!(
        lines[1].contains("1 problem(s)") && lines[1].contains("nothing was written"),
        "{lines:?}"
    );
    assert_eq!(snapshot(dest.path()), before);

    // Two sources with one name and other bytes clash with each other too.
    let empty = tempfile::tempdir().unwrap();
    let first = session("h200", date);
    let lines = refusals(&[first.path(), other.path()], empty.path());
    assert_refused(&lines, &clash, "has this name with other bytes");
    assert!(snapshot(empty.path()).is_empty());
}

#[test]
fn a_bad_transcript_refuses_the_whole_merge() {
    let good = session("h200", "2026-11-30T04:44:49Z");
    let bad = tempfile::tempdir().unwrap();
    // A run dated before any run of the course (campaign: 1970 was merged).
    let epoch = put(
        bad.path(),
        "h200-epoch",
        &run_text("diagnostics", "1970-01-01T00:00:00Z", "NVIDIA H200", "z\n"),
    );
    // A header with no commit.
    let no_commit = run_text("diagnostics", "2026-11-30T05:00:00Z", "NVIDIA H200", "x\n")
        .replace("# commit: 0123456789abcdef0123456789abcdef01234567\n", "");
    let malformed = put(bad.path(), "h200-nocommit", &no_commit);
    // A run dated after now.
    let future = put(
        bad.path(),
        "h200-future",
        &run_text("diagnostics", "2099-01-01T00:00:00Z", "NVIDIA H200", "y\n"),
    );
    let dest = tempfile::tempdir().unwrap();

    let lines = refusals(&[good.path(), bad.path()], dest.path());
    assert_refused(&lines, &epoch, "before 2020");
    assert_refused(&lines, &malformed, "no `# commit:` line");
    assert_refused(&lines, &future, "after now");
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        snapshot(dest.path()).is_empty(),
        "nothing written, not even the good session's"
    );
}

#[test]
fn a_copy_of_a_run_already_there_under_another_name_is_refused() {
    let run = day09_run();
    let dest = tempfile::tempdir().unwrap();
    put(dest.path(), "h200-cxx", &run);
    let before = snapshot(dest.path());
    let source = tempfile::tempdir().unwrap();
    // The whole file under another run name.
    let renamed = put(source.path(), "h200-cxx-again", &run);
    // The same report under another header: another date and host.
    let date = run.lines().find_map(|l| l.strip_prefix("# date: ")).unwrap();
    let reheaded = run
        .replace(date, "2026-11-30T09:00:00Z")
        .replace("# host: ", "# host: another ");
    let moved = put(source.path(), "h200-cxx", &reheaded);

    let lines = refusals(&[source.path()], dest.path());
    assert_refused(&lines, &renamed, "the same file as");
    assert_refused(&lines, &moved, "the same report as");
    assert_eq!(snapshot(dest.path()), before);
}

#[test]
fn twins_are_not_copied_and_a_folder_no_evidence_has_is_refused() {
    let source = session("h200", "2026-11-30T04:44:49Z");
    let lone = put(
        source.path(),
        "h200-lone",
        &run_text("diagnostics", "2026-11-30T04:50:00Z", "NVIDIA H200", "a\n"),
    );
    std::fs::remove_file(lone.with_extension("json")).unwrap();
    let twin_only = put(
        source.path(),
        "h200-twin",
        &run_text("diagnostics", "2026-11-30T04:51:00Z", "NVIDIA H200", "b\n"),
    );
    std::fs::remove_file(&twin_only).unwrap();
    let unknown = source.path().join("instrument-json");
    std::fs::create_dir(&unknown).unwrap();
    std::fs::write(unknown.join("stats-1.json"), "{}").unwrap();
    let stray = source.path().join("diagnostics/notes.md");
    std::fs::write(&stray, "notes").unwrap();
    let dest = tempfile::tempdir().unwrap();

    let lines = refusals(&[source.path()], dest.path());
    assert_refused(&lines, &unknown, "no lesson or evidence folder is named");
    assert_refused(&lines, &stray, "not a transcript");
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(snapshot(dest.path()).is_empty());

    // Without them: a transcript with no twin is merged, and a twin is not.
    std::fs::remove_dir_all(&unknown).unwrap();
    std::fs::remove_file(&stray).unwrap();
    let merged = merge::merge(&[source.path().to_path_buf()], dest.path()).unwrap();
    assert_eq!(merged[0].new, 2);
    let names: Vec<PathBuf> = snapshot(dest.path()).into_keys().collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.iter().all(|p| p.extension().is_some_and(|e| e == "txt")),
        "{names:?}"
    );
}

#[test]
fn a_missing_or_empty_folder_is_one_line_and_a_bad_command_line_is_usage() {
    let dest = tempfile::tempdir().unwrap();
    let missing = dest.path().join("no-such-session");
    let out = evidence_cmd(dest.path(), &[&missing]);
    assert_eq!(out.status.code(), Some(1));
    // The source's line, then the count: every source's problems are
    // reported in one run (issue 31).
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains(&missing.display().to_string()));
    assert!(lines[1].contains("nothing was written"), "{lines:?}");

    // A session's OUT instead of OUT/evidence holds no transcript itself.
    let out_dir = tempfile::tempdir().unwrap();
    let inner = session("h200", "2026-11-30T04:44:49Z");
    std::fs::rename(inner.path(), out_dir.path().join("evidence")).unwrap();
    let out = evidence_cmd(dest.path(), &[out_dir.path()]);
    assert_eq!(out.status.code(), Some(1));
    let lines = stderr_lines(&out);
    assert!(
        lines.iter().any(|l| l.contains("no transcripts to merge")),
        "{lines:?}"
    );
    assert!(snapshot(dest.path()).is_empty());

    let usage = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["merge", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
    let none = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("merge")
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2));
}
