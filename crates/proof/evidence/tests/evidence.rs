//! The evidence tool against the committed evidence, and against broken,
//! truncated and mutated copies of it.

use std::path::{Path, PathBuf};
use std::process::Command;

use evidence::check::{table, Cell};
use evidence::judge;
use evidence::transcript::{self, Body, Transcript};
use lesson_spec::Lesson;

fn evidence_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../evidence")
}

fn all(dir: &Path) -> Vec<Transcript> {
    evidence::load::transcript_files(dir)
        .iter()
        .map(|f| transcript::read(f).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn lesson(name: &str) -> &'static dyn Lesson {
    lessons::find(name).unwrap()
}

/// The first successful transcript of `lesson` in `dir` whose name ends in `suffix`.
fn first(dir: &Path, lesson: &str, suffix: &str) -> PathBuf {
    evidence::load::transcript_files(dir)
        .into_iter()
        .find(|f| {
            let name = f.to_string_lossy();
            name.contains(lesson)
                && name.ends_with(suffix)
                && String::from_utf8(evidence::capped::transcript(f).unwrap())
                    .unwrap()
                    .contains("# exit code: 0")
        })
        .unwrap_or_else(|| panic!("no transcript ending {suffix}"))
}

/// Every problem `evidence check` finds under `dir`: the same path as the
/// command, so that CI names every one, not the first.
fn every_problem(dir: &Path) -> Vec<String> {
    evidence::check::run(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .problems
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn every_committed_transcript_parses_and_every_claim_holds_or_is_explained() {
    let dir = evidence_dir();
    let problems = every_problem(&dir);
    assert!(
        problems.is_empty(),
        "{} problem(s) in the evidence (as `cargo run -p evidence -- check` reports them):\n{}",
        problems.len(),
        problems.join("\n")
    );
    let transcripts = evidence::load::load(&dir).unwrap().transcripts;
    assert!(transcripts.len() >= 20, "{} transcripts", transcripts.len());
    // A lesson not yet recorded (no evidence/<lesson>/) has nothing to hold.
    for lesson in lessons::LESSONS.iter().filter(|l| dir.join(l.name()).is_dir()) {
        let t = table(*lesson, &transcripts, &judge::expected(*lesson).unwrap());
        let holds = t
            .rows
            .iter()
            .flat_map(|r| &r.cells)
            .filter(|(_, c)| matches!(c, Cell::Holds(_)))
            .count();
        // A judge that read the transcripts wrong would find few or no claims
        // holding. The bound is low enough for a lesson with few claims and
        // one session (Day 30's first).
        assert!(holds > 10, "{}: only {holds} claims held", lesson.name());
    }
}

/// `lesson`'s folder of the committed evidence, its transcripts, in
/// a fresh folder `dir`.
fn copy_lesson(dir: &Path, lesson: &str) {
    std::fs::create_dir_all(dir.join(lesson)).unwrap();
    for entry in std::fs::read_dir(evidence_dir().join(lesson)).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(lesson).join(entry.file_name())).unwrap();
    }
}

/// The text of `file` with its first line starting (after spaces) with
/// `start` passed through `edit`.
fn edit_line(file: &Path, start: &str, edit: impl Fn(&str) -> String) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in {}", file.display()));
    text.replacen(line, &edit(line), 1)
}

/// Issue 21's item 4 and issue 22's "done when": a NaN transcript, a
/// copied transcript, a doctored claim and a truncated file, added
/// together, are each named by the test CI runs, in one run.
#[test]
fn ci_names_every_problem_in_the_evidence_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    copy_lesson(dir, "day53-pinned");
    let runs: Vec<PathBuf> = evidence::load::transcript_files(dir)
        .into_iter()
        .filter(|f| {
            f.to_string_lossy().ends_with("-h200-cxx.txt")
                && String::from_utf8(evidence::capped::transcript(f).unwrap())
                    .unwrap()
                    .contains("# exit code: 0")
        })
        .collect();
    let name = |f: &Path| f.file_name().unwrap().to_string_lossy().into_owned();
    let [doctored, truncated, nan, copied, ..] = runs.as_slice() else {
        panic!("too few day53 runs: {runs:?}")
    };
    let text = edit_line(doctored, "pinned  call", |l| {
        let percent = l.rsplit("call is").next().unwrap();
        l.replace(percent, "  50.0%")
    });
    std::fs::write(doctored, text).unwrap();
    let cut: String = std::fs::read_to_string(truncated)
        .unwrap()
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(truncated, cut).unwrap();
    let text = edit_line(nan, "1 MiB", |l| l.replacen("0.", "NaN", 1));
    std::fs::write(nan, text).unwrap();
    let copy = copied.with_file_name(name(copied).replace(".txt", "-2.txt"));
    std::fs::copy(copied, &copy).unwrap();

    let problems = every_problem(dir);
    let all = problems.join("\n");
    for (file, why) in [
        (
            name(doctored),
            "d53-pinned-async-returns fails: call is 50% of completion",
        ),
        (name(truncated), ":21: the transcript ends before"),
        (name(nan), "is not a number"),
        (name(&copy), "the same file as"),
    ] {
        assert!(
            problems.iter().any(|p| p.contains(&file) && p.contains(why)),
            "{file}: {why:?} not among:\n{all}"
        );
    }
    assert!(all.contains(&name(copied)), "the copy's line names both: {all}");
}

#[test]
fn a_day09_transcript_parses_to_its_numbers() {
    let file = first(&evidence_dir(), "day09-timing", "T223246Z-h200-cxx.txt");
    let t = transcript::read(&file).unwrap();
    assert_eq!(t.header.gpu_name(), "NVIDIA H200");
    assert_eq!(t.header.exit_code, 0);
    let Body::Report(parsed) = t.body else {
        panic!("not a report")
    };
    let r: &day09_timing_report::Report = parsed.as_any().downcast_ref().expect("a Day 9 report");
    assert_eq!(
        (r.elems, r.blocks, r.runs, r.warmups),
        (16_777_827, 65_539, 10, 3)
    );
    assert_eq!(r.sweep.len(), 4);
    assert_eq!(r.sweep[0].n, 1024);
    assert!(r.warm_ms > 0.0 && r.round_trip_ms > r.warm_ms);
}

#[test]
fn a_transcript_edited_to_break_a_claim_fails_the_check() {
    let src = evidence_dir();
    let dir_scratch = tempfile::tempdir().unwrap();
    let dir = dir_scratch.path().to_path_buf();
    for lesson in ["day53-pinned", "day09-timing"] {
        std::fs::create_dir_all(dir.join(lesson)).unwrap();
        for f in evidence::load::transcript_files(&src)
            .iter()
            .filter(|f| f.parent().unwrap().ends_with(lesson))
        {
            let to = dir.join(lesson).join(f.file_name().unwrap());
            // A run a merge added is kept gzip'd; the copy is the text.
            std::fs::write(&to, evidence::capped::transcript(f).unwrap()).unwrap();
        }
    }
    let victim = first(&dir, "day53-pinned", "-h200-cxx.txt");
    let text = std::fs::read_to_string(&victim).unwrap();
    let pinned_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("pinned  call"))
        .unwrap();
    let percent = pinned_line.rsplit("call is").next().unwrap();
    let edited = text.replace(pinned_line, &pinned_line.replace(percent, "  50.0%"));
    std::fs::write(&victim, &edited).unwrap();

    let transcripts = all(&dir);
    let day53 = lesson("day53-pinned");
    let t = table(day53, &transcripts, &judge::expected(day53).unwrap());
    let failures = t.unexpected_failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0]
            .message
            .starts_with("d53-pinned-async-returns fails: call is 50% of completion"),
        "{failures:?}"
    );
    let name = victim.file_name().unwrap().to_string_lossy().into_owned();
    assert!(failures[0].path.ends_with(&name), "{failures:?}");

    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["check", "--evidence"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: 1 problem(s) in"));
}

/// One unreadable transcript must not hide a claim failure in another: the
/// check reports every problem it finds, then fails.
#[test]
fn check_reports_every_unreadable_transcript_and_every_failed_claim() {
    let src = evidence_dir();
    let dir_scratch = tempfile::tempdir().unwrap();
    let dir = dir_scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("day53-pinned")).unwrap();
    let original = first(&src, "day53-pinned", "-h200-cxx.txt");
    let good = std::fs::read_to_string(&original).unwrap();
    // Named as `evidence record` names runs that start in the same second.
    let stem = original.file_stem().unwrap().to_string_lossy().into_owned();
    let [a, b, c, d] = ["", "-2", "-3", "-4"].map(|n| format!("{stem}{n}.txt"));
    let pinned_line = good
        .lines()
        .find(|l| l.trim_start().starts_with("pinned  call"))
        .unwrap();
    let percent = pinned_line.rsplit("call is").next().unwrap();
    let failing = good.replace(pinned_line, &pinned_line.replace(percent, "  50.0%"));
    let cut: String = good.lines().take(20).map(|l| format!("{l}\n")).collect();
    for (name, text) in [(&a, &good), (&b, &cut), (&c, &failing), (&d, &cut)] {
        let file = dir.join("day53-pinned").join(name);
        std::fs::write(&file, text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["check", "--evidence"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for want in [
        format!("{b}:21: the transcript ends before"),
        format!("{d}:21: the transcript ends before"),
        format!("{c}: d53-pinned-async-returns fails: call is 50% of completion"),
        "error: 3 problem(s) in".to_string(),
    ] {
        assert!(stderr.contains(&want), "{want:?} not in {stderr}");
    }
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&stem),
        "the table of what parsed"
    );
}

#[test]
fn every_truncation_is_an_error_naming_the_file_and_a_line() {
    for (dir, suffix) in [
        ("day09-timing", "-h200-cxx.txt"),
        ("day53-pinned", "-h200-rust.txt"),
    ] {
        let file = first(&evidence_dir(), dir, suffix);
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Every proper prefix that drops at least one non-blank line of output.
        let last_content = lines.iter().rposition(|l| !l.trim().is_empty()).unwrap();
        for keep in 0..=last_content {
            let prefix = lines[..keep].join("\n");
            let err =
                transcript::parse("cut.txt", &prefix).expect_err(&format!("{dir}: {keep} lines parsed"));
            assert_eq!(err.path, "cut.txt");
            assert!(err.line >= 1 && err.line <= keep + 1, "{keep} lines: {err}");
        }
        // Cutting inside a line is an error too, never a panic.
        for cut in (0..text.len()).step_by(7).filter(|c| text.is_char_boundary(*c)) {
            let _ = transcript::parse("cut.txt", &text[..cut]);
        }
    }
}

#[test]
fn mutated_transcripts_never_panic() {
    let texts: Vec<String> = [
        ("day09-timing", "-h200-rust.txt"),
        ("day53-pinned", "-h200-cxx.txt"),
    ]
    .iter()
    .map(|(d, s)| std::fs::read_to_string(first(&evidence_dir(), d, s)).unwrap())
    .collect();
    // A fixed-seed generator: the same mutations on every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    for round in 0..3000 {
        let text = &texts[round % texts.len()];
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for _ in 0..1 + next(3) {
            let i = next(lines.len());
            match next(6) {
                0 => {
                    lines.remove(i);
                }
                1 => lines.insert(i, lines[i].clone()),
                2 => lines[i] = lines[i].replace(|c: char| c.is_ascii_digit(), "x"),
                3 => lines[i] = lines[i].replacen(' ', "", 3),
                4 => {
                    let j = next(lines.len());
                    lines.swap(i, j);
                }
                _ => {
                    let mut bytes = lines[i].clone().into_bytes();
                    if !bytes.is_empty() {
                        let j = next(bytes.len());
                        bytes[j] = b"0.-x:# \t"[next(8)];
                    }
                    lines[i] = String::from_utf8_lossy(&bytes).into_owned();
                }
            }
            if lines.is_empty() {
                break;
            }
        }
        if let Err(e) = transcript::parse("m.txt", &lines.join("\n")) {
            assert_eq!(e.path, "m.txt");
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn compare_groups_by_their_medians() {
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args([
            "compare",
            "--lesson",
            "day53-pinned",
            "h200-cxx",
            "h200-rust",
            "--evidence",
        ])
        .arg(evidence_dir())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.lines().next().unwrap().contains("h200-cxx (n="), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("256 MiB pinned, GB/s"))
        .expect(&text);
    let cols: Vec<f64> = row
        .split_whitespace()
        .rev()
        .take(4)
        .map(|c| c.parse().unwrap())
        .collect();
    let (diff, ratio, b, a) = (cols[0], cols[1], cols[2], cols[3]);
    assert!((0.9..1.1).contains(&ratio), "{row}");
    assert!((diff - (b - a)).abs() < 0.002, "B - A is the difference: {row}");
}

#[test]
fn recording_keeps_output_order_exit_code_and_never_overwrites() {
    let dir_scratch = tempfile::tempdir().unwrap();
    let dir = dir_scratch.path().to_path_buf();
    let record = || {
        Command::new(env!("CARGO_BIN_EXE_evidence"))
            .args(["record", "--evidence"])
            .arg(&dir)
            .args(["--lesson", "day09-timing", "--name", "test", "FOO=bar", "--"])
            .args(["sh", "-c", "echo one; echo two >&2; echo \"$FOO\"; exit 3"])
            .output()
            .unwrap()
    };
    let (a, b) = (record(), record());
    // The recorder passes its program's exit status on.
    assert_eq!(a.status.code(), Some(3), "{}", String::from_utf8_lossy(&a.stderr));
    let (pa, pb) = (
        String::from_utf8_lossy(&a.stdout),
        String::from_utf8_lossy(&b.stdout),
    );
    assert_ne!(
        pa.trim(),
        pb.trim(),
        "the second run must not overwrite the first"
    );
    let text = std::fs::read_to_string(pa.trim()).unwrap();
    assert!(text.contains("# exit code: 3\n"), "{text}");
    assert!(text.contains("# environment: FOO=bar\n"), "{text}");
    assert!(text.ends_with("# ---\none\ntwo\nbar\n"), "{text}");
    let t = transcript::parse("x", &text).unwrap();
    assert_eq!(t.header.exit_code, 3);
    assert!(
        matches!(t.body, Body::Unparsed { .. }),
        "a failed run is kept as lines"
    );
    // No twin: a twin is derived from its transcript when needed.
    assert!(!Path::new(pa.trim()).with_extension("json").exists());
}

fn evidence(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn bad_command_lines_are_clap_usage_errors() {
    for args in [
        &["frobnicate"][..],
        &["record", "--evidence"],
        &["record", "--evidence", "x", "--lesson", "l", "--name", "n", "--"],
        &[
            "record",
            "--evidence",
            "x",
            "--lesson",
            "l",
            "--name",
            "n",
            "NOT-AN-ASSIGNMENT",
            "--",
            "true",
        ],
        &["compare", "one"],
        // No meaning by count: a third run name, or a folder, is refused.
        &["compare", "--lesson", "day53-pinned", "a", "b", "evidence"],
        &["compare-files", "one"],
        &["plot", "evidence/plots"],
        &["check", "evidence"],
        &["recipe", "day09-timing"],
    ] {
        let out = evidence(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
        assert!(err.contains("--help"), "{err}");
    }
}

#[test]
fn runtime_failures_are_one_line_and_exit_1() {
    for (args, want) in [
        (
            &["recipe", "--lesson", "day99-nothing"][..],
            "no lesson is named `day99-nothing`",
        ),
        (
            &["check", "--evidence", "/nonexistent/evidence"],
            "no transcripts found",
        ),
        (
            &["compare", "--lesson", "day99-nothing", "a", "b"],
            "no lesson is named",
        ),
        (
            &["build-alone", "--lesson", "day99-nothing"],
            "no lesson is named",
        ),
        (
            &[
                "build-alone",
                "--lesson",
                "day09-timing",
                "--nvcc",
                "/nonexistent/nvcc",
            ],
            "cannot run /nonexistent/nvcc",
        ),
    ] {
        let out = evidence(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(want), "{err}");
    }
}

#[test]
fn help_and_version_work_for_every_subcommand() {
    let version = evidence(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("evidence "));
    for sub in [
        "record",
        "check",
        "compare",
        "compare-files",
        "twin",
        "merge",
        "plot",
        "figures",
        "lessons",
        "recipe",
        "build-alone",
    ] {
        let out = evidence(&[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(&format!("Usage: evidence {sub}")),
            "{sub}"
        );
    }
}

#[test]
fn scripts_read_the_lessons_and_their_recipes() {
    let out = evidence(&["lessons"]);
    let names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        names,
        lessons::LESSONS.iter().map(|l| l.name()).collect::<Vec<_>>()
    );
    for name in &names {
        let out = evidence(&["recipe", "--lesson", name]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text, lesson(name).recipe().to_lines());
        assert!(text.starts_with("nvcc nvcc "), "{text}");
    }
}

#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["check", "--evidence"])
        .arg(evidence_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

/// `build-alone` runs the lesson's recipe line in a copy of its directory
/// alone and prints the program's path; a stand-in for nvcc shows what it
/// was given and where.
#[test]
fn build_alone_runs_the_recipe_line_in_a_copy_of_the_lesson_alone() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = tempfile::tempdir().unwrap();
    let fake = scratch.path().join("nvcc");
    std::fs::write(
        &fake,
        "#!/bin/sh\n# Writes the -o file with the arguments it was given.\n\
         while [ \"$1\" != -o ]; do shift; done\necho \"built in $PWD\" >\"$2\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["build-alone", "--lesson", "day53-pinned", "--nvcc"])
        .arg(&fake)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let program = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let binary = lesson("day53-pinned").recipe().binary().unwrap();
    let into = program.parent().unwrap().to_path_buf();
    assert!(alone_folders().contains(&into), "{}", into.display());
    assert_eq!(program, into.join(binary));
    assert!(into.join("pinned.cu").is_file() && into.join("README.md").is_file());
    let built = std::fs::read_to_string(&program).unwrap();
    assert!(built.contains(&into.display().to_string()), "{built}");

    // A failed build in a folder of its own making leaves no folder behind.
    let before = alone_folders();
    let failed = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args([
            "build-alone",
            "--lesson",
            "day53-pinned",
            "--nvcc",
            "/nonexistent/nvcc",
        ])
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    assert!(alone_folders().is_subset(&before), "a build folder was left");
    std::fs::remove_dir_all(&into).unwrap();
}

/// The temporary folders `build-alone` makes for day53-pinned.
fn alone_folders() -> std::collections::BTreeSet<PathBuf> {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("day53-pinned-alone-"))
        })
        .collect()
}

/// The repository's evidence judges every cause every lesson's README gives
/// on some GPU, and on the NVIDIA H200, the GPU the READMEs state them for,
/// no cause reads fails unless its lesson's expected-failure list names it
/// there (a cause that fails on another GPU is shown as such; on the H200
/// it makes its README wrong, which the list must say).
#[test]
fn every_cause_is_judged() {
    let transcripts = evidence::load::load(&evidence_dir()).unwrap().transcripts;
    let mut wrong = Vec::new();
    for lesson in lessons::LESSONS {
        assert!(
            !lesson.whys().is_empty(),
            "{} names no cause check",
            lesson.name()
        );
        let expected = evidence::judge::expected(*lesson).unwrap();
        let table = evidence::why::table(*lesson, &transcripts);
        // A lesson not yet recorded (no evidence/<lesson>/) is judged nowhere yet.
        if evidence_dir().join(lesson.name()).is_dir() {
            wrong.extend(unjudged(&table));
        }
        for row in &table.rows {
            for on in row.gpus.iter().filter(|g| g.gpu == "NVIDIA H200") {
                let known = expected.reason(row.why.id, &on.gpu, "").is_some();
                if on.state == Some(lesson_spec::State::Fails) && !known {
                    wrong.push(format!("{}: {:?} on the H200", row.why.id, on.outcome));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each cause of `table` that no GPU judged, one line each: one whose
/// figures are recorded on no GPU together, so its check never ran.
fn unjudged(table: &evidence::why::Table) -> Vec<String> {
    let unjudged = table
        .rows
        .iter()
        .filter(|r| r.gpus.iter().all(|g| g.state.is_none()));
    unjudged
        .map(|r| {
            let missing: Vec<String> = r
                .why
                .figures
                .iter()
                .filter(|s| r.gpus.iter().all(|g| g.figures.iter().all(|f| f.source != **s || f.runs == 0)))
                .map(evidence::why::describe)
                .collect();
            let missing = match missing.is_empty() {
                true => "none, but never on one GPU together".to_string(),
                false => missing.join("; "),
            };
            format!(
                "{}: the cause check {} is judged on no GPU: no GPU's runs hold all its figures (recorded nowhere: {missing})",
                table.lesson, r.why.id
            )
        })
        .collect()
}

#[test]
fn a_cause_whose_figures_no_gpu_holds_together_is_unjudged_and_named() {
    use evidence::why::{judge, Row, Table};
    use lesson_spec::Why;
    let text =
        "# lesson: diagnostics\n# date: 2026-12-02T13:05:50Z\n# gpu: NVIDIA H200 (compute capability 9.0)\n\
                # driver: 580.159.04 (CUDA 13.0)\n# cuda runtime: runtime 13.0\n# nvcc: release 13.0\n\
                # host: Linux x86_64, 16 cores\n# command: ./why time\n\
                # environment: (nothing that changes behaviour)\n# commit: db4248d\n# exit code: 0\n# ---\n\
                a: 1\nb: 2\n";
    let runs = [transcript::parse("evidence/diagnostics/2026-12-02T130550Z-h200-t-why.txt", text).unwrap()];
    static JUDGED: Why = Why {
        id: "t-why-less",
        cause: "a is below b",
        figures: &[
            lesson_spec::why::lines("t-why", "a"),
            lesson_spec::why::lines("t-why", "b"),
        ],
        check: |_| lesson_spec::verdict(true, String::new),
        rival: "none",
        rival_figure: "none",
        tells_rival_apart: false,
        planted: &[0.0, 0.0],
    };
    static MISSPELT: Why = Why {
        id: "t-why-misspelt",
        cause: "a is below c",
        figures: &[
            lesson_spec::why::lines("t-why", "a"),
            lesson_spec::why::lines("t-why", "c"),
        ],
        ..JUDGED
    };
    let table = Table {
        lesson: "t",
        rows: [&JUDGED, &MISSPELT]
            .into_iter()
            .map(|why| Row {
                why,
                gpus: vec![judge(why, "NVIDIA H200", &runs)],
            })
            .collect(),
    };
    assert_eq!(
        unjudged(&table),
        [
            "t: the cause check t-why-misspelt is judged on no GPU: no GPU's runs hold all its figures \
             (recorded nowhere: diagnostics/*-t-why \"c\")"
        ]
    );
}
