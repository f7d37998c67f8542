//! `evidence`: record lesson runs, and check, compare, plot and publish what
//! was recorded. The command line is parsed here, the recorder is
//! [`record`], and the charts, figures and site ([`site`]) come with the
//! default feature `site`, which the GPU machine's build leaves out.
//!
//! Not for: reading or judging transcripts, or writing HTML (the library).

#[path = "cli/record.rs"]
mod record;
#[cfg(feature = "site")]
#[path = "cli/site.rs"]
mod site;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use evidence::runs::group;
use evidence::transcript::{self, Transcript};
use evidence::{check, compare, load, merge, twin};

/// Recorded lesson runs as data.
///
/// Every command reads one tree: `--root DIR` (the repository; by default
/// the one the working directory is in) and its `evidence/` folder, or the
/// folder `--evidence DIR` names (a GPU session's OUT/evidence).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// The repository [default: the one the working directory is in, else .].
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The evidence folder to read or record into [default: ROOT/evidence].
    #[arg(long, global = true, value_name = "DIR")]
    evidence: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Record(record::Record),
    /// Add GPU sessions' evidence folders to the evidence, and print
    /// `DIR: N new transcripts, M already there` for each DIR.
    ///
    /// Every transcript in a DIR is held to `evidence check`'s rules and must
    /// copy no run in the evidence or another DIR; .json twins are not
    /// copied. Nothing is replaced or removed: a name already there with
    /// other bytes is a clash, the same bytes are skipped. New files are
    /// written gzip'd (`<name>.txt.gz`, read as `<name>.txt`); git is the
    /// journal (commit what a merge added).
    ///
    /// Exit status: 0 when merged; 1, with nothing written and one line per
    /// problem, when anything is refused; 2 for a bad command line.
    Merge {
        /// A GPU session's OUT/evidence: <lesson>/<UTC time>-<gpu>-<program>.txt.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Every lesson page claim against every transcript in the evidence,
    /// then each claim's state and margin per recording session and each
    /// cause's per GPU; exit 1 on an unexpected failure, a claim or cause
    /// that holds in one session and fails in another of the same commit,
    /// or an unreadable transcript, having reported all of them.
    Check,
    /// Two groups of runs of a lesson (files ending -RUN_A.txt and
    /// -RUN_B.txt) by their medians.
    Compare {
        /// The lesson whose runs are compared.
        #[arg(long)]
        lesson: String,
        /// The first group's run name (e.g. h200-cxx).
        run_a: String,
        /// The second group's run name (e.g. h200-rust).
        run_b: String,
        /// Only runs of these commits (comma-separated prefixes).
        #[arg(long, default_value = "")]
        commit: String,
    },
    /// Two transcript files side by side.
    CompareFiles {
        file_a: PathBuf,
        file_b: PathBuf,
    },
    /// Print each transcript's JSON twin (the run parsed, every number
    /// typed), derived from it: twins are not kept.
    Twin {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    #[cfg(feature = "site")]
    #[command(flatten)]
    Site(site::Command),
    /// The recording sessions in the evidence, oldest first, one line each:
    /// its id, GPU, driver, toolkits, commit, runs, span and folders.
    ///
    /// A session is the runs whose headers give the same GPU, driver, host
    /// and commit, each started at most 30 minutes after the one before.
    Sessions,
    /// What each GPU's latest session changed: the claims whose verdict
    /// flipped, and each figure a claim or cause reads that it recorded,
    /// against the last 5 earlier sessions of it, labelled moved, SAME or
    /// UNSURE by the instrument's rule, with the runs a session needs to
    /// decide it; then the rule's false alarms on the evidence's A/A
    /// comparisons.
    Changes,
    /// The lessons this workspace knows, one per line.
    Lessons,
    /// How a lesson is recorded, as `key value` lines for scripts.
    Recipe {
        #[arg(long)]
        lesson: String,
    },
    /// Build a lesson's C++ program as a learner does: ROOT/code/LESSON
    /// copied alone into a folder, its recipe's nvcc line run there. Prints
    /// the program's path; nvcc's output goes to stderr.
    BuildAlone {
        #[arg(long)]
        lesson: String,
        /// The compiler that runs the line.
        #[arg(long, value_name = "PATH", default_value = "nvcc")]
        nvcc: PathBuf,
    },
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    cli_exit::finish(run(cli_exit::parse::<Cli>()))
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let root = match cli.root {
        Some(root) => root,
        None => {
            let here = std::env::current_dir().context("reading the working directory")?;
            lessons::find_repository(&here).unwrap_or_else(|| PathBuf::from("."))
        }
    };
    let evidence = cli.evidence.unwrap_or_else(|| root.join("evidence"));
    match cli.command {
        Command::Record(record) => return record.run(&evidence),
        Command::Check => return check_cmd(&evidence),
        Command::Merge { dirs } => return merge_cmd(&dirs, &evidence),
        Command::Compare {
            lesson,
            run_a,
            run_b,
            commit,
        } => compare_groups(&evidence, &lesson, &run_a, &run_b, &commit)?,
        Command::CompareFiles { file_a, file_b } => {
            let (ta, tb) = (transcript::read(&file_a)?, transcript::read(&file_b)?);
            let (a, b) = (file_a.display().to_string(), file_b.display().to_string());
            print!("{}", compare::render(&a, &[&ta], &b, &[&tb]));
        }
        Command::Twin { files } => {
            for f in &files {
                let bytes = evidence::capped::transcript(f).with_context(|| f.display().to_string())?;
                let text = String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8", f.display()))?;
                print!("{}", twin::pretty(&f.display().to_string(), &text));
            }
        }
        #[cfg(feature = "site")]
        Command::Site(command) => return command.run(&root, &evidence),
        Command::Sessions => {
            let all = read_all_or_fail(&evidence)?;
            print!("{}", evidence::sessions::render(&evidence::sessions::of(&all)));
        }
        Command::Changes => print!("{}", changes_cmd(&evidence)?),
        Command::Lessons => {
            for lesson in lessons::LESSONS {
                println!("{}", lesson.name());
            }
        }
        Command::Recipe { lesson } => print!("{}", lessons::lesson(&lesson)?.recipe().to_lines()),
        Command::BuildAlone { lesson, nvcc } => println!("{}", build_alone(&root, &lesson, &nvcc)?.display()),
    }
    Ok(ExitCode::SUCCESS)
}

/// Every transcript and twin read as a record, then claims over every run
/// that passes; then every problem found, each on its own line.
fn check_cmd(dir: &Path) -> anyhow::Result<ExitCode> {
    let checked = check::run(dir)?;
    for table in checked.tables.iter().chain(&checked.whys) {
        println!("{table}");
    }
    println!("{}", checked.closing);
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

/// The lesson's recipe line run by the one build-alone routine
/// (`lessons::build_alone`, which course-rules' rule 10 runs too) in a new
/// temporary folder, kept with the program; the program's path.
fn build_alone(root: &Path, lesson: &str, nvcc: &Path) -> anyhow::Result<PathBuf> {
    let line = lessons::lesson(lesson)?.recipe().nvcc;
    let into = tempfile::Builder::new()
        .prefix(&format!("{lesson}-alone-"))
        .tempdir()
        .context("making a temporary folder to build in")?;
    // A failed build's folder is removed with `into`; a built one is kept.
    match lessons::build_alone(&root.join("code").join(lesson), nvcc, line, &[], into.path()) {
        Ok(program) => {
            let _ = into.keep();
            Ok(program)
        }
        Err(lessons::BuildError::Failed { first_error, output }) => {
            eprint!("{output}");
            bail!("{lesson} copied alone does not build with `{line}`: {first_error}")
        }
        Err(e) => Err(anyhow::Error::new(e).context(format!("building {lesson} alone with `{line}`"))),
    }
}

/// Every run in `dir` that passes the evidence's checks, or one line
/// naming the first problem (a command that reads the evidence fails on
/// any: exit 1, with one line).
fn read_all_or_fail(dir: &Path) -> anyhow::Result<Vec<Transcript>> {
    let loaded = load::load(dir)?;
    match loaded.problems.as_slice() {
        [] => Ok(loaded.transcripts),
        [first, ..] => bail!(
            "{} problem(s) in {}, the first: {first}; `evidence check` lists them all",
            loaded.problems.len(),
            dir.display()
        ),
    }
}

/// Merges `dirs` into `evidence`, one line for each DIR; or every
/// refusal on its own line, and nothing written.
fn merge_cmd(dirs: &[PathBuf], evidence: &Path) -> anyhow::Result<ExitCode> {
    match merge::merge(dirs, evidence) {
        Ok(merged) => {
            for m in &merged {
                println!("{m}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(merge::MergeError::Refused(refusals)) => {
            for r in &refusals {
                eprintln!("error: {r}");
            }
            eprintln!(
                "error: {} problem(s) in the folders to merge; nothing was written to {}",
                refusals.len(),
                evidence.display()
            );
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e.into()),
    }
}

fn compare_groups(dir: &Path, lesson: &str, a: &str, b: &str, commit: &str) -> anyhow::Result<()> {
    lessons::lesson(lesson)?;
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

/// `evidence changes`: the flips and the moved figures of each GPU, then
/// the false alarms, as text.
fn changes_cmd(dir: &Path) -> anyhow::Result<String> {
    let all = read_all_or_fail(dir)?;
    let sessions = evidence::sessions::of(&all);
    let history = evidence::history::of(&sessions);
    let mut problems = Vec::new();
    let mut flips = Vec::new();
    for (lesson, table) in lessons::LESSONS
        .iter()
        .zip(check::every_lesson(&all, &mut problems))
    {
        let per = evidence::verdicts::per_session(&table, &sessions);
        flips.extend(evidence::changes::flips(lesson.name(), &per, &sessions));
    }
    Ok(evidence::changes::render(&sessions, &history, &flips))
}
