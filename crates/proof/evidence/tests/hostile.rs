//! `evidence check` against transcripts made to fool it, many of each
//! kind, generated here into temporary folders (never into `evidence/`):
//! impossible exit statuses, numbers no run measures, headers with a field
//! missing, repeated or impossible, dates before any run, files in the
//! wrong place or under the wrong name, copies, bytes that are not text. The check must name every case in one run, never panic, and never
//! exit 0, together or one case at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evidence::transcript::REQUIRED;

fn evidence_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence")
}

/// One hostile case: the files it adds (relative to the evidence folder),
/// the file its problem must name, and what the problem must say (one of).
struct Case {
    kind: &'static str,
    files: Vec<(PathBuf, Vec<u8>)>,
    named: String,
    says: &'static [&'static str],
}

/// The committed successful runs of `lesson` named `-<suffix>.txt`, in
/// name order.
fn committed(lesson: &str, suffix: &str) -> Vec<PathBuf> {
    evidence::load::transcript_files(&evidence_dir())
        .into_iter()
        .filter(|f| {
            f.parent().unwrap().ends_with(lesson)
                && f.to_string_lossy().ends_with(suffix)
                && String::from_utf8(evidence::capped::transcript(f).unwrap())
                    .unwrap()
                    .contains("\n# exit code: 0\n")
        })
        .collect()
}

/// A committed run's text, whether kept as text or gzip'd by a merge.
fn read(path: &Path) -> String {
    String::from_utf8(evidence::capped::transcript(path).unwrap()).unwrap()
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The compact date a transcript's name starts with, from its header.
fn stamp(text: &str) -> String {
    let date = text
        .lines()
        .find_map(|l| l.strip_prefix("# date: "))
        .filter(|d| !d.is_empty())
        .unwrap_or("x");
    date.replace(':', "")
}

/// `text` with the header line `# key: ...` replaced by `line` (removed
/// when `line` is empty).
fn header_line(text: &str, key: &str, line: &str) -> String {
    let prefix = format!("# {key}: ");
    let mut out = String::new();
    for l in text.split_inclusive('\n') {
        if l.starts_with(&prefix) {
            if !line.is_empty() {
                out.push_str(line);
                out.push('\n');
            }
        } else {
            out.push_str(l);
        }
    }
    out
}

/// A transcript case: `text` as `lesson/<stamp of text>-<name>.txt`.
fn transcript(
    kind: &'static str,
    lesson: &str,
    name: &str,
    text: String,
    says: &'static [&'static str],
) -> Case {
    let file = format!("{}-{name}.txt", stamp(&text));
    Case {
        kind,
        files: vec![(PathBuf::from(lesson).join(&file), text.into_bytes())],
        named: file,
        says,
    }
}

fn exit_statuses(base: &str) -> Vec<Case> {
    let bad = [
        "signal 2147483647 (SIGWHAT)",
        "signal -128",
        "signal -9 (SIGKILL)",
        "signal 0",
        "signal 65 (SIG65)",
        "signal 9 SIGKILL",
        "signal x",
        "signal",
        "-1",
        "-128",
        "256",
        "99999999999",
        "3.5",
        "zero",
        "",
    ];
    bad.iter()
        .enumerate()
        .map(|(i, value)| {
            let text = header_line(base, "exit code", &format!("# exit code: {value}"));
            transcript(
                "exit status",
                "day09-timing",
                &format!("h200-cxx-exit{i}"),
                text,
                &["exit code"],
            )
        })
        .collect()
}

fn numbers(day09: &str, day53: &str) -> Vec<Case> {
    let mut out = Vec::new();
    // Rows 3 to 5 are 32-bit floats: 1e308 is read as inf there.
    let rows = [
        ("3  events, kernel, first launch", "0.313"),
        ("4  events, kernel, after warm-up", "0.062"),
        ("5  events, copies + kernel + copy back", "28.587"),
        ("cudaSetDevice(0)", "233.095"),
    ];
    let values: [(&str, &[&str]); 9] = [
        ("NaN", &["not a finite number"]),
        ("nan", &["not a finite number"]),
        ("inf", &["not a finite number"]),
        ("-inf", &["not a finite number"]),
        ("infinity", &["not a finite number"]),
        ("1e309", &["not a finite number"]),
        ("-0.062", &["never negative"]),
        ("-1", &["never negative"]),
        ("1e308", &["not a finite number"]),
    ];
    for (r, (row, _)) in rows.iter().enumerate() {
        let line = day09
            .lines()
            .find(|l| l.trim_start().starts_with(row))
            .unwrap_or_else(|| panic!("no row {row:?}"));
        let number = line.split_whitespace().rev().nth(1).unwrap();
        for (v, (value, says)) in values.iter().enumerate() {
            // 1e308 is a finite 64-bit float: only the 32-bit rows refuse it.
            if *value == "1e308" && r == 3 {
                continue;
            }
            let edited = line.replace(number, value);
            let text = day09.replacen(line, &edited, 1);
            out.push(transcript(
                "number",
                "day09-timing",
                &format!("h200-cxx-n{r}-{v}"),
                text,
                says,
            ));
        }
    }
    let line = day53
        .lines()
        .find(|l| l.trim_start().starts_with("1 MiB"))
        .unwrap();
    let pageable = format!("{} GB/s", line.split_whitespace().nth(4).unwrap());
    for (v, value) in ["NaN", "inf", "-inf", "1e999"].iter().enumerate() {
        let text = day53.replacen(line, &line.replacen(&pageable, &format!("{value} GB/s"), 1), 1);
        out.push(transcript(
            "number",
            "day53-pinned",
            &format!("h200-cxx-n{v}"),
            text,
            &["not a finite number"],
        ));
    }
    out
}

fn headers(base: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, key) in REQUIRED.iter().enumerate() {
        let text = header_line(base, key, "");
        out.push(transcript(
            "header field missing",
            "day09-timing",
            &format!("h200-cxx-missing{i}"),
            text,
            &["has no `#"],
        ));
        let line = base
            .lines()
            .find(|l| l.starts_with(&format!("# {key}: ")))
            .unwrap();
        for (j, again) in [line.to_string(), format!("# {key}: 1")].iter().enumerate() {
            let text = base.replacen(line, &format!("{line}\n{again}"), 1);
            out.push(transcript(
                "header field repeated",
                "day09-timing",
                &format!("h200-cxx-twice{i}-{j}"),
                text,
                &["appears again"],
            ));
        }
        if *key != "exit code" {
            let text = header_line(base, key, &format!("# {key}: "));
            out.push(transcript(
                "header field empty",
                "day09-timing",
                &format!("h200-cxx-empty{i}"),
                text,
                &["is empty", "has no `#"],
            ));
        }
    }
    for (i, date) in [
        "yesterday-ish",
        "2026-13-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-11-30T24:00:00Z",
        "2026-11-30 04:44:49",
        "2026-11-30T04:44:49+01:00",
        "2026-11-30T04:44:49.5Z",
        "20261130T044449Z",
    ]
    .iter()
    .enumerate()
    {
        let text = header_line(base, "date", &format!("# date: {date}"));
        let file = format!("2026-11-30T044449Z-h200-cxx-date{i}.txt");
        out.push(Case {
            kind: "date impossible",
            files: vec![(PathBuf::from("day09-timing").join(&file), text.into_bytes())],
            named: file,
            says: &["is not a UTC time"],
        });
    }
    for (i, date) in ["2099-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]
        .iter()
        .enumerate()
    {
        let text = header_line(base, "date", &format!("# date: {date}"));
        out.push(transcript(
            "date in the future",
            "day09-timing",
            &format!("h200-cxx-future{i}"),
            text,
            // "now" in the header's own format (date(1)'s, ending in Z).
            &["Z): no run has happened yet"],
        ));
    }
    for (i, commit) in [
        "unknown",
        "xyz",
        "123",
        "ABCDEF1",
        "g123456",
        "0123456789abcdef0123456789abcdef012345678",
        "dd62e85 extra",
    ]
    .iter()
    .enumerate()
    {
        let text = header_line(base, "commit", &format!("# commit: {commit}"));
        out.push(transcript(
            "commit impossible",
            "day09-timing",
            &format!("h200-cxx-commit{i}"),
            text,
            &["is not a git commit"],
        ));
    }
    for (i, line) in ["#lesson: x", "# no colon here", "lesson: day09-timing", "#"]
        .iter()
        .enumerate()
    {
        let text = base.replacen("# host: ", &format!("{line}\n# host: "), 1);
        out.push(transcript(
            "header line malformed",
            "day09-timing",
            &format!("h200-cxx-line{i}"),
            text,
            &["expected `# key: value`"],
        ));
    }
    out
}

/// Copies, and files in the wrong place or under the wrong name.
fn places(day09: &[PathBuf], day53: &Path, rust: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    // A day53 run in Day 9's folder, under its own name and a Day 9 name.
    let text = read(day53);
    for (i, name) in [file_name(day53), format!("{}-h200-cxx-moved.txt", stamp(&text))]
        .into_iter()
        .enumerate()
    {
        let _ = i;
        out.push(Case {
            kind: "wrong folder",
            files: vec![(
                PathBuf::from("day09-timing").join(&name),
                text.clone().into_bytes(),
            )],
            named: name,
            says: &["the header says lesson `day53-pinned`"],
        });
    }
    for (i, original) in day09.iter().take(4).enumerate() {
        let text = read(original);
        let name = file_name(original);
        let original_file = (
            PathBuf::from("day09-timing").join(&name),
            text.clone().into_bytes(),
        );
        // The same file under a clash number.
        let copy = name.replace(".txt", &format!("-{}.txt", i + 2));
        out.push(Case {
            kind: "copy",
            files: vec![
                original_file.clone(),
                (
                    PathBuf::from("day09-timing").join(&copy),
                    text.clone().into_bytes(),
                ),
            ],
            named: copy,
            says: &["the same file as"],
        });
        // The same report, its header moved a minute on and its name to match.
        let date = text.lines().find_map(|l| l.strip_prefix("# date: ")).unwrap();
        let later = format!(
            "{}{}{}",
            &date[..14],
            (date.as_bytes()[14] - b'0' + 1) % 6,
            &date[15..]
        );
        let moved = header_line(&text, "date", &format!("# date: {later}"));
        let copy = format!("{}-h200-cxx.txt", later.replace(':', ""));
        out.push(Case {
            kind: "copy",
            files: vec![
                original_file,
                (PathBuf::from("day09-timing").join(&copy), moved.into_bytes()),
            ],
            named: copy,
            says: &["the same report as"],
        });
        // Names that are not `<date>-NAME.txt`.
        for (j, bad) in [
            "notadate-h200-cxx.txt".to_string(),
            format!("2020-01-01T000000Z-h200-cxx-{i}.txt"),
            format!("{}.txt", stamp(&text)),
            format!("{}-.txt", stamp(&text)),
        ]
        .into_iter()
        .enumerate()
        {
            let _ = j;
            out.push(Case {
                kind: "name",
                files: vec![(
                    PathBuf::from("day09-timing").join(&bad),
                    text.clone().into_bytes(),
                )],
                named: bad,
                says: &["the file name does not begin with the run's date"],
            });
        }
    }
    // A run whose lesson is no evidence folder, in a folder of that name:
    // where `evidence record` never writes, so nowhere a run belongs.
    let base = read(&day09[0]);
    for folder in ["scratch", "Day09-timing", "day09-timing-old"] {
        let text = header_line(&base, "lesson", &format!("# lesson: {folder}"));
        out.push(transcript(
            "unknown folder",
            folder,
            "h200-cxx",
            text,
            &["no lesson or evidence folder is named"],
        ));
    }
    // The Rust twin's run named as the C++ program's, and the reverse.
    let text = read(rust);
    let name = file_name(rust).replace("-rust", "-cxx");
    out.push(Case {
        kind: "wrong program",
        files: vec![(PathBuf::from("day09-timing").join(&name), text.into_bytes())],
        named: name,
        says: &["named as a run of the C++ program"],
    });
    let text = read(&day09[0]);
    let name = file_name(&day09[0]).replace("-cxx", "-rust");
    out.push(Case {
        kind: "wrong program",
        files: vec![(PathBuf::from("day09-timing").join(&name), text.into_bytes())],
        named: name,
        says: &["named as a run of the Rust twin"],
    });
    out
}

/// What the hostile-input campaign of issue 42 got past the check: dates
/// before any run, a GPU name that no file or page can be named after, and
/// a file of blank lines that took half a gigabyte to read.
fn campaign(base: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, date) in [
        "1970-01-01T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "2019-12-31T23:59:59Z",
    ]
    .iter()
    .enumerate()
    {
        let text = header_line(base, "date", &format!("# date: {date}"));
        out.push(transcript(
            "dated before any run",
            "day09-timing",
            &format!("h200-cxx-early{i}"),
            text,
            &["before 2020"],
        ));
    }
    let gpu = format!("# gpu: NVIDIA {} (compute capability 9.0)", "H".repeat(300));
    out.push(transcript(
        "a GPU name too long",
        "day09-timing",
        "h200-cxx-long-gpu",
        header_line(base, "gpu", &gpu),
        &["over the 100-byte cap"],
    ));
    let header_end = base.find("# ---\n").unwrap() + "# ---\n".len();
    let blank = format!(
        "{}{}",
        &base[..header_end],
        "\n".repeat(evidence::transcript::MAX_LINES)
    );
    out.push(transcript(
        "blank lines",
        "diagnostics",
        "h200-blank",
        blank.replace("day09-timing", "diagnostics"),
        &["-line cap"],
    ));
    out
}

fn bytes(base: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let s = stamp(base);
    let header_end = base.find("# ---\n").unwrap() + "# ---\n".len();
    let raw: [(&str, Vec<u8>, &'static [&'static str]); 7] = [
        ("latin1", [base.as_bytes(), b"caf\xe9\n"].concat(), &["not UTF-8"]),
        ("binary", vec![0xff, 0xfe, 0x00, 0x01, 0x80], &["not UTF-8"]),
        // What a sparse file reads as: its holes are NUL bytes.
        ("holes", [base.as_bytes(), &[0u8; 4096]].concat(), &["a NUL byte"]),
        (
            "bom",
            [b"\xef\xbb\xbf".as_slice(), base.as_bytes()].concat(),
            &["expected `# key: value`"],
        ),
        ("empty", Vec::new(), &["no `# ---` line"]),
        ("no header", b"hello\nworld\n".to_vec(), &["no `# ---` line"]),
        (
            "one long line",
            [&base.as_bytes()[..header_end], "x".repeat(5_000_000).as_bytes()].concat(),
            &["GPU:", "expected"],
        ),
    ];
    for (what, content, says) in raw {
        let name = format!("{s}-h200-cxx-{}.txt", what.replace(' ', "-"));
        out.push(Case {
            kind: "bytes",
            files: vec![(PathBuf::from("day09-timing").join(&name), content)],
            named: name,
            says,
        });
    }
    out
}

fn all_cases() -> Vec<Case> {
    let day09 = committed("day09-timing", "-h200-cxx.txt");
    let day53 = committed("day53-pinned", "-h200-cxx.txt");
    let rust = committed("day09-timing", "-h200-rust.txt");
    let base = read(day09.last().unwrap());
    let mut cases = exit_statuses(&base);
    cases.extend(numbers(&base, &read(&day53[0])));
    cases.extend(headers(&base));
    cases.extend(places(&day09[1..], &day53[0], &rust[0]));
    cases.extend(campaign(&base));
    cases.extend(bytes(&base));
    cases
}

fn write_case(root: &Path, case: &Case) {
    for (path, content) in &case.files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

fn check(root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["check", "--evidence"])
        .arg(root)
        .output()
        .unwrap()
}

/// The problem lines of a run of the check, with no panic and exit 1.
fn problems(out: &Output, what: &str) -> Vec<String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: panicked:\n{stderr}");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{what}: exit status; stderr:\n{stderr}"
    );
    stderr.lines().map(str::to_string).collect()
}

fn named(lines: &[String], case: &Case) -> bool {
    lines
        .iter()
        .any(|l| l.contains(&case.named) && case.says.iter().any(|s| l.contains(s)))
}

#[test]
fn every_hostile_case_is_named_in_one_run_without_a_panic() {
    let cases = all_cases();
    let root = tempfile::tempdir().unwrap();
    for case in &cases {
        write_case(root.path(), case);
    }
    let lines = problems(&check(root.path()), "all cases together");
    let missed: Vec<String> = cases
        .iter()
        .filter(|c| !named(&lines, c))
        .map(|c| format!("{} ({}): {:?}", c.named, c.kind, c.says))
        .collect();
    assert!(
        missed.is_empty(),
        "{} of {} cases not named:\n{}\n\nthe check said:\n{}",
        missed.len(),
        cases.len(),
        missed.join("\n"),
        lines.join("\n").chars().take(20_000).collect::<String>()
    );
    // A 5 MB line is quoted, not echoed.
    assert!(
        lines.iter().all(|l| l.len() < 2_000),
        "a line of {} bytes",
        lines.iter().map(String::len).max().unwrap()
    );
    let mut kinds: Vec<&str> = cases.iter().map(|c| c.kind).collect();
    kinds.dedup();
    eprintln!(
        "{} hostile cases of {} kinds named in one run",
        cases.len(),
        kinds.len()
    );
}

#[test]
fn every_hostile_case_alone_fails_the_check_by_name() {
    for (i, case) in all_cases().iter().enumerate() {
        let root = tempfile::tempdir().unwrap();
        write_case(root.path(), case);
        let what = format!("case {i}, {} ({})", case.named, case.kind);
        let lines = problems(&check(root.path()), &what);
        assert!(
            named(&lines, case),
            "{what}: {:?} not said:\n{}",
            case.says,
            lines.join("\n")
        );
    }
}
