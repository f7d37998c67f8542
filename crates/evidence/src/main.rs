//! `evidence`: record lesson runs, and check, compare and plot what was recorded.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use evidence::check::{render, table};
use evidence::claims::ExpectedFailures;
use evidence::transcript::{self, Transcript};
use evidence::{compare, plot, record, transcript_files};

const USAGE: &str = "\
evidence: recorded lesson runs as data

  evidence record --dir DIR --lesson L --name N [--timeout SECONDS] [VAR=value ...] -- COMMAND ...
      run COMMAND, write DIR/L/<UTC start>-N.txt (header + output) and its .json twin;
      --timeout ends a program still running after SECONDS
  evidence check [DIR]
      every lesson page claim against every transcript in DIR (default evidence/);
      exit 1 on an unexpected failure or a malformed transcript
  evidence compare LESSON NAME_A NAME_B [DIR] [--commit PREFIX[,PREFIX...]]
      two groups of runs (files ending -NAME_A.txt / -NAME_B.txt) by their medians,
      optionally only runs of the commits given
  evidence compare FILE_A FILE_B
      two transcripts side by side
  evidence twins [DIR]
      write the .json twin of every transcript in DIR
  evidence plot [DIR] OUT_DIR
      SVG charts of each lesson's sweep into OUT_DIR
  evidence instrument NCU.txt PEERS.txt JSON_DIR
      the instrument's proof from one session: ncu, the instrument's modes, the
      course's method and the peer tools, side by side
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["record", rest @ ..] => {
            let path = record::record(&parse_record(rest)?)?;
            println!("{}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        ["check"] => check(Path::new("evidence")),
        ["check", dir] => check(Path::new(dir)),
        ["compare", a, b] => {
            let (ta, tb) = (read(Path::new(a))?, read(Path::new(b))?);
            print!("{}", compare::render(a, &[&ta], b, &[&tb]));
            Ok(ExitCode::SUCCESS)
        }
        ["compare", lesson, a, b] => compare_groups(Path::new("evidence"), lesson, a, b, ""),
        ["compare", lesson, a, b, "--commit", c] => compare_groups(Path::new("evidence"), lesson, a, b, c),
        ["compare", lesson, a, b, dir] => compare_groups(Path::new(dir), lesson, a, b, ""),
        ["compare", lesson, a, b, dir, "--commit", c] => compare_groups(Path::new(dir), lesson, a, b, c),
        ["twins"] => twins(Path::new("evidence")),
        ["twins", dir] => twins(Path::new(dir)),
        ["plot", out] => plot_all(Path::new("evidence"), Path::new(out)),
        ["plot", dir, out] => plot_all(Path::new(dir), Path::new(out)),
        ["instrument", ncu, peers, json_dir] => {
            let table =
                evidence::instrument::from_files(Path::new(ncu), Path::new(peers), Path::new(json_dir))?;
            print!("{table}");
            Ok(ExitCode::SUCCESS)
        }
        ["-h"] | ["--help"] => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err("unknown or incomplete command (try --help)".into()),
    }
}

fn parse_record(words: &[&str]) -> Result<record::Request, String> {
    let mut dir = None;
    let mut lesson = None;
    let mut name = None;
    let mut env = Vec::new();
    let mut timeout = None;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--dir" | "--lesson" | "--name" | "--timeout" => {
                let value = words
                    .get(i + 1)
                    .ok_or_else(|| format!("{} needs a value", words[i]))?;
                match words[i] {
                    "--dir" => dir = Some(PathBuf::from(value)),
                    "--lesson" => lesson = Some(value.to_string()),
                    "--timeout" => timeout = Some(record::parse_timeout(value)?),
                    _ => name = Some(value.to_string()),
                }
                i += 2;
            }
            "--" => {
                let command: Vec<String> = words[i + 1..].iter().map(|s| s.to_string()).collect();
                if command.is_empty() {
                    return Err("nothing to record after --".into());
                }
                return Ok(record::Request {
                    dir: dir.ok_or("record needs --dir")?,
                    lesson: lesson.ok_or("record needs --lesson")?,
                    name: name.ok_or("record needs --name")?,
                    env,
                    command,
                    timeout,
                });
            }
            w => match w.split_once('=') {
                Some((k, v)) if !k.is_empty() && !k.starts_with('-') => {
                    env.push((k.to_string(), v.to_string()));
                    i += 1;
                }
                _ => {
                    return Err(format!(
                        "record: unexpected `{w}` (VAR=value, or -- before the command)"
                    ))
                }
            },
        }
    }
    Err("record: put -- before the command".into())
}

fn read(path: &Path) -> Result<Transcript, String> {
    transcript::read(path).map_err(|e| e.to_string())
}

/// Every transcript in `dir`, or every parse error.
fn read_all(dir: &Path) -> Result<Vec<Transcript>, String> {
    let files = transcript_files(dir);
    if files.is_empty() {
        return Err(format!("{}: no transcripts found", dir.display()));
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        match transcript::read(&f) {
            Ok(t) => out.push(t),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\nerror: "))
    }
}

fn check(dir: &Path) -> Result<ExitCode, String> {
    let all = read_all(dir)?;
    let expected_path = dir.join("expected-failures.txt");
    let expected = match std::fs::read_to_string(&expected_path) {
        Ok(text) => {
            ExpectedFailures::parse(&expected_path.display().to_string(), &text).map_err(|e| e.to_string())?
        }
        Err(_) => ExpectedFailures::default(),
    };
    let mut lessons: Vec<String> = all.iter().map(|t| t.header.lesson.clone()).collect();
    lessons.sort();
    lessons.dedup();
    let mut failures = Vec::new();
    for lesson in lessons {
        let t = table(&lesson, &all, &expected);
        println!("{}", render(&t));
        failures.extend(t.unexpected_failures());
    }
    if failures.is_empty() {
        println!("every claim holds, or fails only where evidence/expected-failures.txt says why");
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("error: {} unexpected claim failure(s)", failures.len());
        Ok(ExitCode::FAILURE)
    }
}

fn group<'a>(all: &'a [Transcript], lesson: &str, name: &str) -> Vec<&'a Transcript> {
    let suffix = format!("-{name}.txt");
    all.iter()
        .filter(|t| t.header.lesson == lesson && t.header.exit_code == 0 && t.file.ends_with(&suffix))
        .collect()
}

fn compare_groups(dir: &Path, lesson: &str, a: &str, b: &str, commit: &str) -> Result<ExitCode, String> {
    let all = read_all(dir)?;
    let pick = |name: &str| -> Vec<&Transcript> {
        group(&all, lesson, name)
            .into_iter()
            .filter(|t| compare::of_commits(&t.header.commit, commit))
            .collect()
    };
    let (ga, gb) = (pick(a), pick(b));
    for (name, g) in [(a, &ga), (b, &gb)] {
        if g.is_empty() {
            return Err(format!(
                "no successful {lesson} runs named *-{name}.txt in {}",
                dir.display()
            ));
        }
    }
    print!("{}", compare::render(a, &ga, b, &gb));
    Ok(ExitCode::SUCCESS)
}

fn twins(dir: &Path) -> Result<ExitCode, String> {
    for f in transcript_files(dir) {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        record::write_twin(&f, &text)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn plot_all(dir: &Path, out: &Path) -> Result<ExitCode, String> {
    let all = read_all(dir)?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut written = Vec::new();
    for program in ["cxx", "rust"] {
        let name = format!("h200-{program}");
        if let Some(chart) = plot::day09_sweep(&group(&all, "day09-timing", &name), program) {
            written.push((format!("day09-timing-sweep-{program}.svg"), plot::svg(&chart)?));
        }
        let reference = group(&all, "day53-pinned", "h200-torch-reference");
        if let Some(chart) = plot::day53_bandwidth(&group(&all, "day53-pinned", &name), program, &reference) {
            written.push((
                format!("day53-pinned-bandwidth-{program}.svg"),
                plot::svg(&chart)?,
            ));
        }
    }
    for (file, svg) in written {
        let path = out.join(file);
        std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
