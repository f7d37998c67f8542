//! `evidence`: record lesson runs, and check, compare and plot what was recorded.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use evidence::transcript::{self, Transcript};
use evidence::{atomic, check, compare, figures, group, lessons, load, plot, record, transcript_files, twin};
use lesson_spec::Parsed;

/// Recorded lesson runs as data.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run COMMAND and write DIR/LESSON/<UTC start>-NAME.txt (header, then the
    /// output as it comes) and its .json twin; print the transcript's path.
    ///
    /// Exit status: the program's, as a shell gives it (128+N for a program
    /// ended by signal N, 127 for one that could not start); 124 when
    /// --timeout ended it, as timeout(1) says; 128+N when the recorder was
    /// stopped by signal N (passed on to the program, and the transcript
    /// finished); 1, with one line, when the transcript could not be written
    /// or finished (the line says how the program ended); 2 for a bad
    /// command line. The path is printed only for a transcript finished
    /// with its twin.
    Record {
        #[arg(long)]
        dir: PathBuf,
        /// A lesson (`evidence lessons`) or one of the other evidence folders.
        #[arg(long, value_parser = record::lesson_folder)]
        lesson: String,
        /// The run's name, one word: the transcript is <UTC start>-NAME.txt.
        #[arg(long, value_parser = record::run_name)]
        name: String,
        /// End a program still running after SECONDS (SIGKILL to everything
        /// it started), and record that.
        #[arg(long, value_name = "SECONDS", value_parser = record::parse_seconds)]
        timeout: Option<std::time::Duration>,
        /// After passing SIGINT, SIGTERM or SIGHUP on to the program, end it
        /// with SIGKILL if it is still running SECONDS later.
        #[arg(long, value_name = "SECONDS", value_parser = record::parse_seconds, default_value = "5")]
        grace: std::time::Duration,
        /// VAR=value assignments the command runs with, then `--` and the command.
        #[arg(value_name = "VAR=value", value_parser = env_assignment)]
        env: Vec<(String, String)>,
        #[arg(last = true, required = true, value_name = "COMMAND", value_parser = record::header_word)]
        command: Vec<String>,
    },
    /// Every lesson page claim against every transcript in DIR; exit 1 on an
    /// unexpected failure or an unreadable transcript, having reported all of them.
    Check {
        #[arg(default_value = "evidence")]
        dir: PathBuf,
    },
    /// Two groups of runs of LESSON (files ending -A.txt and -B.txt) by their
    /// medians, or, given two files, two transcripts side by side.
    Compare {
        /// LESSON A B [DIR], or FILE_A FILE_B.
        #[arg(num_args = 2..=4, required = true)]
        args: Vec<String>,
        /// Only runs of these commits (comma-separated prefixes).
        #[arg(long, default_value = "")]
        commit: String,
    },
    /// Write the .json twin of every transcript in DIR.
    Twins {
        #[arg(default_value = "evidence")]
        dir: PathBuf,
    },
    /// SVG charts of each lesson's runs into OUT_DIR.
    Plot {
        /// [DIR] OUT_DIR: the evidence (default evidence/) and where to write.
        #[arg(num_args = 1..=2, required = true)]
        dirs: Vec<PathBuf>,
    },
    /// The instrument's proof from one session: ncu, the instrument's modes,
    /// the course's method and the peer tools, side by side.
    Instrument {
        ncu: PathBuf,
        peers: PathBuf,
        json_dir: PathBuf,
    },
    /// Every figure block in the documents against the evidence: exit 1
    /// listing each stale block; with --write, rewrite them.
    Figures {
        /// Rewrite every stale block from the evidence.
        #[arg(long, conflicts_with = "list")]
        write: bool,
        /// List every block: file, name and query.
        #[arg(long)]
        list: bool,
        /// The repository's root.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// The lessons this workspace knows, one per line.
    Lessons,
    /// How LESSON is recorded, as `key value` lines for scripts.
    Recipe { lesson: String },
}

fn env_assignment(word: &str) -> Result<(String, String), String> {
    let word = record::header_word(word)?;
    match word.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.starts_with('-') => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("`{word}` is not VAR=value (put -- before the command)")),
    }
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    cli_exit::finish(run(cli_exit::parse::<Cli>()))
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Record {
            dir,
            lesson,
            name,
            timeout,
            grace,
            env,
            command,
        } => {
            let request = record::Request {
                dir,
                lesson,
                name,
                env,
                command,
                timeout,
                grace,
            };
            return Ok(record_cmd(&request));
        }
        Command::Check { dir } => return check(&dir),
        Command::Compare { args, commit } => compare_cmd(&args, &commit)?,
        Command::Twins { dir } => return twins(&dir),
        Command::Plot { dirs } => match dirs.as_slice() {
            [out] => plot_all(Path::new("evidence"), out)?,
            [dir, out] => plot_all(dir, out)?,
            _ => unreachable!("clap takes one or two"),
        },
        Command::Instrument { ncu, peers, json_dir } => {
            let table =
                evidence::instrument::from_files(&ncu, &peers, &json_dir).map_err(anyhow::Error::msg)?;
            print!("{table}");
        }
        Command::Figures { list: true, root, .. } => {
            for line in figures::list(&root).map_err(anyhow::Error::msg)? {
                println!("{line}");
            }
        }
        Command::Figures { write, root, .. } => return figures_cmd(&root, write),
        Command::Lessons => {
            for lesson in lessons::LESSONS {
                println!("{}", lesson.name());
            }
        }
        Command::Recipe { lesson } => print!("{}", find_lesson(&lesson)?.recipe().to_lines()),
    }
    Ok(ExitCode::SUCCESS)
}

/// Records, prints the transcript's path, and passes the program's exit
/// status on (see `evidence record --help`).
fn record_cmd(request: &record::Request) -> ExitCode {
    match record::record(request) {
        Ok(recorded) => {
            println!("{}", recorded.path.display());
            ExitCode::from(recorded.exit_status())
        }
        Err(e) => {
            let status = e.exit_status();
            eprintln!("{}", cli_exit::error_line(&e.into()));
            ExitCode::from(status)
        }
    }
}

fn find_lesson(name: &str) -> anyhow::Result<&'static dyn lesson_spec::Lesson> {
    lessons::find(name).with_context(|| {
        let known: Vec<&str> = lessons::LESSONS.iter().map(|l| l.name()).collect();
        format!("no lesson is named `{name}` (known: {})", known.join(", "))
    })
}

/// Every run in `dir` that passes the evidence's checks, or an error
/// listing every problem found.
fn read_all_or_fail(dir: &Path) -> anyhow::Result<Vec<Transcript>> {
    let loaded = load::load(dir)?;
    if !loaded.problems.is_empty() {
        bail!(
            "{} problem(s) in {} (`evidence check` lists them): {}",
            loaded.problems.len(),
            dir.display(),
            loaded.problems.join("; ")
        );
    }
    Ok(loaded.transcripts)
}

/// Every transcript and twin read as a record, then claims over every run
/// that passes; then every problem found, each on its own line.
fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    let checked = check::run(dir)?;
    for table in &checked.tables {
        println!("{table}");
    }
    if checked.problems.is_empty() {
        println!("every claim holds, or fails only where the lesson's expected-failures.txt says why");
        return Ok(ExitCode::SUCCESS);
    }
    for p in &checked.problems {
        eprintln!("error: {p}");
    }
    eprintln!(
        "error: {} problem(s) in {}",
        checked.problems.len(),
        dir.display()
    );
    Ok(ExitCode::FAILURE)
}

/// Checks (or with `write` rewrites) every figure block under `root`, and
/// says which blocks were rewritten and which were not.
fn figures_cmd(root: &Path, write: bool) -> anyhow::Result<ExitCode> {
    let outcome = figures::run(root, write);
    for e in &outcome.errors {
        eprintln!("error: {e}");
    }
    if write {
        for s in &outcome.rewritten {
            println!("rewrote {s}");
        }
        for s in &outcome.not_rewritten {
            eprintln!("error: not rewritten: {s}, as its document has an error above");
        }
    } else {
        for s in &outcome.stale {
            eprintln!("error: {s} differs from the evidence");
        }
    }
    let stale_left = if write {
        outcome.not_rewritten.len()
    } else {
        outcome.stale.len()
    };
    if outcome.errors.is_empty() && stale_left == 0 {
        println!("{} figure blocks match the evidence", outcome.blocks);
        return Ok(ExitCode::SUCCESS);
    }
    if !outcome.errors.is_empty() {
        eprintln!(
            "error: {} figure block problem(s) under {}",
            outcome.errors.len(),
            root.display()
        );
    }
    if stale_left > 0 {
        eprintln!(
            "error: {stale_left} stale figure block(s){}; run `{}`",
            if write { " left as they were" } else { "" },
            figures::WRITE_COMMAND
        );
    }
    Ok(ExitCode::FAILURE)
}

fn compare_cmd(args: &[String], commit: &str) -> anyhow::Result<()> {
    match args {
        [a, b] => {
            let (ta, tb) = (transcript::read(Path::new(a))?, transcript::read(Path::new(b))?);
            print!("{}", compare::render(a, &[&ta], b, &[&tb]));
            Ok(())
        }
        [lesson, a, b] => compare_groups(Path::new("evidence"), lesson, a, b, commit),
        [lesson, a, b, dir] => compare_groups(Path::new(dir), lesson, a, b, commit),
        _ => unreachable!("clap takes two to four"),
    }
}

fn compare_groups(dir: &Path, lesson: &str, a: &str, b: &str, commit: &str) -> anyhow::Result<()> {
    find_lesson(lesson)?;
    let all = read_all_or_fail(dir)?;
    let pick = |name: &str| -> Vec<&Transcript> {
        group(&all, lesson, name)
            .into_iter()
            .filter(|t| compare::of_commits(&t.header.commit, commit))
            .collect()
    };
    let (ga, gb) = (pick(a), pick(b));
    for (name, g) in [(a, &ga), (b, &gb)] {
        if g.is_empty() {
            bail!(
                "no successful {lesson} runs named *-{name}.txt in {}",
                dir.display()
            );
        }
    }
    print!("{}", compare::render(a, &ga, b, &gb));
    Ok(())
}

/// Writes every transcript's twin; a transcript that cannot be read is
/// named and skipped, and the others still get theirs.
fn twins(dir: &Path) -> anyhow::Result<ExitCode> {
    let files = transcript_files(dir);
    if files.is_empty() {
        bail!("{}: no transcripts found", dir.display());
    }
    let mut failed = 0;
    for f in &files {
        let written = std::fs::read(f)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|e| format!("not UTF-8 ({e}); no twin written")))
            .and_then(|text| twin::write(f, &text).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: {}: {e}", f.display());
            failed += 1;
        }
    }
    if failed == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "error: {failed} of {} transcript(s) got no twin; every other twin was written",
        files.len()
    );
    Ok(ExitCode::FAILURE)
}

/// Each lesson's charts of each program's plain runs, with the lesson's
/// reference runs beside them.
fn plot_all(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let all = read_all_or_fail(dir)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    for lesson in lessons::LESSONS {
        let reference = lesson.recipe().reference.map(|r| r.name);
        for program in ["cxx", "rust"] {
            // Plain runs only: a variant (`-eager`) or a diagnostic name
            // measures something else.
            let runs: Vec<&Transcript> = all
                .iter()
                .filter(|t| t.header.lesson == lesson.name() && t.header.exit_code == 0)
                .filter(|t| t.file.ends_with(&format!("-{program}.txt")) && !t.under_sanitizer())
                .collect();
            let references: Vec<&Transcript> = match reference {
                Some(name) => group(&all, lesson.name(), name),
                None => Vec::new(),
            };
            let runs_parsed: Vec<&dyn Parsed> = runs.iter().filter_map(|t| t.body.parsed()).collect();
            let references: Vec<&dyn Parsed> = references.iter().filter_map(|t| t.body.parsed()).collect();
            for spec in lesson.charts(program, &runs_parsed, &references) {
                let path = out.join(format!("{}.svg", spec.stem));
                let svg =
                    plot::svg(&plot::from_spec(&spec, plot::describe(&runs))).map_err(anyhow::Error::msg)?;
                atomic::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
                println!("{}", path.display());
            }
        }
    }
    Ok(())
}
