//! `evidence`: record lesson runs, and check, compare, plot and publish what
//! was recorded. Every subcommand and flag is parsed here and each is the
//! work of a library: the GPU session's from `evidence-recorder` (whose own
//! binary the GPU machine gets), the evidence's reading and judging from
//! `evidence-model`, the figure blocks and instrument tables from
//! `evidence-figures`, the site and charts from `site-build`.
//!
//! Not for: any of that work itself; this file parses and dispatches.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use evidence_figures::blocks as figures;
use evidence_model::runs::group;
use evidence_model::transcript::{self, Transcript};
use evidence_model::{atomic, check, compare, load, merge, twin};
use evidence_recorder::cli::{BuildAlone, Check, Lessons, Recipe, Record, Tree};
use site_build::plot;

/// Recorded lesson runs as data.
///
/// Every command reads one tree: `--root DIR` (the repository; by default
/// the one the working directory is in) and its `evidence/` folder, or the
/// folder `--evidence DIR` names (a GPU session's OUT/evidence).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    tree: Tree,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Record(Record),
    /// Add GPU sessions' evidence folders to the evidence, and print
    /// `DIR: N new transcripts, M already there` for each DIR.
    ///
    /// Every transcript in a DIR is checked as `evidence check` reads the
    /// evidence: it parses and stands in its lesson's folder under its date,
    /// it is not dated in the future, and it copies no run in the evidence
    /// or in another DIR. A DIR holds the evidence folders alone (those
    /// `record --lesson` takes), and they hold .txt transcripts alone; their
    /// .json twins are not copied (`evidence twin` derives one when wanted).
    /// Nothing is replaced or removed: a name the evidence or an earlier DIR
    /// has with other bytes is a clash, and a file there byte for byte is
    /// skipped, so merging again is harmless. New files are written whole,
    /// gzip'd (`<name>.txt.gz`, which every tool reads as `<name>.txt`); git
    /// is the journal (commit what a merge added).
    ///
    /// Exit status: 0 when merged; 1, with nothing written, when anything is
    /// refused (one line for each problem, naming its file), or when a DIR
    /// is missing or holds no transcripts (one line); 2 for a bad command
    /// line.
    Merge {
        /// A GPU session's OUT/evidence: <lesson>/<UTC time>-<gpu>-<program>.txt.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    Check(Check),
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
    /// SVG charts of each lesson's runs.
    Plot {
        /// Where to write the charts.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// The instrument's proof from one session: ncu, the instrument's modes,
    /// the course's method and the peer tools, side by side.
    Instrument {
        /// ncu's CSV of the session.
        #[arg(long, value_name = "FILE")]
        ncu: PathBuf,
        /// The peer tools' output of the session.
        #[arg(long, value_name = "FILE")]
        peers: PathBuf,
        /// The folder of the instrument's JSON files.
        #[arg(long, value_name = "DIR")]
        json_dir: PathBuf,
    },
    /// Every figure block in the repository's documents against the
    /// evidence: exit 1 listing each stale block; with --write, rewrite them.
    Figures {
        /// Rewrite every stale block from the evidence.
        #[arg(long, conflicts_with = "list")]
        write: bool,
        /// List every block: file, name and query.
        #[arg(long)]
        list: bool,
    },
    /// Write the evidence as a static site into DIR.
    ///
    /// An index of every claim on every GPU and toolkit, a page per lesson
    /// (the figures behind each verdict, the charts, the C++ and Rust
    /// twins, every transcript), a page per transcript and the instrument's
    /// page. It works from file:// and fetches nothing outside DIR. DIR must
    /// be new, empty, or a site this command wrote, which it replaces whole.
    Site {
        #[arg(value_name = "DIR")]
        out: PathBuf,
    },
    /// The recording sessions in the evidence, oldest first, one line each:
    /// its id, GPU, driver, toolkits, commit, runs, span and folders.
    ///
    /// A session is the runs whose headers give the same GPU, driver, host
    /// and commit, each started at most 30 minutes after the one before
    /// it; the toolkit may differ within one (a recording builds with the
    /// machine's nvcc and with CUDA 13.5). Exit status: 1, with one line,
    /// when the evidence has a problem (`evidence check` lists them).
    Sessions,
    /// What changed between each GPU's last two sessions: the claims whose
    /// verdict flipped, each figure a claim or cause reads that moved
    /// beyond its noise (SAME, FASTER, SLOWER, HIGHER, LOWER or UNSURE,
    /// by the instrument's rule), and the rule's false alarms on the
    /// evidence's own A/A comparisons.
    ///
    /// Exit status: 0 whatever changed; 1, with one line, when the evidence
    /// has a problem.
    Changes,
    Lessons(Lessons),
    Recipe(Recipe),
    BuildAlone(BuildAlone),
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    cli_exit::finish(run(cli_exit::parse::<Cli>()))
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let (root, evidence) = cli.tree.resolve()?;
    match cli.command {
        Command::Record(record) => return Ok(record.run(evidence)),
        Command::Check(check) => return check.run(&evidence),
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
                let bytes = evidence_model::capped::transcript(f).with_context(|| f.display().to_string())?;
                let text = String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8", f.display()))?;
                print!("{}", twin::pretty(&f.display().to_string(), &text));
            }
        }
        Command::Plot { out } => plot_all(&evidence, &out)?,
        Command::Instrument { ncu, peers, json_dir } => {
            let table = evidence_figures::instrument::from_files(&ncu, &peers, &json_dir)?;
            print!("{table}");
        }
        Command::Figures { list: true, .. } => {
            for line in figures::list(&root)? {
                println!("{line}");
            }
        }
        Command::Figures { write, .. } => return figures_cmd(&root, &evidence, write),
        Command::Site { out } => {
            let built = site_build::build(&root, &evidence, &out)?;
            println!(
                "wrote {} pages and {} charts to {}; start at {}",
                built.pages,
                built.charts,
                out.display(),
                out.join(site_build::INDEX).display()
            );
        }
        Command::Sessions => {
            let all = read_all_or_fail(&evidence)?;
            print!(
                "{}",
                evidence_model::sessions::render(&evidence_model::sessions::of(&all))
            );
        }
        Command::Changes => print!("{}", changes_cmd(&evidence)?),
        Command::Lessons(lessons) => lessons.run(),
        Command::Recipe(recipe) => recipe.run()?,
        Command::BuildAlone(build) => build.run(&root)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Every run in `dir` that passes the evidence's checks, or an error
/// listing every problem found.
fn read_all_or_fail(dir: &Path) -> anyhow::Result<Vec<Transcript>> {
    /// How many problems the line quotes; `check` lists the rest.
    const QUOTED: usize = 3;
    let loaded = load::load(dir)?;
    if loaded.problems.is_empty() {
        return Ok(loaded.transcripts);
    }
    let n = loaded.problems.len();
    let quoted: Vec<String> = loaded.problems[..n.min(QUOTED)]
        .iter()
        .map(ToString::to_string)
        .collect();
    let quoted = quoted.join("; ");
    let more = match n.saturating_sub(QUOTED) {
        0 => String::new(),
        left => format!(" and {left} more"),
    };
    bail!(
        "{n} problem(s) in {}: {quoted}{more}; `evidence check` lists them all",
        dir.display()
    )
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

/// Checks (or with `write` rewrites) every figure block under `root`, and
/// says which blocks were rewritten and which were not.
fn figures_cmd(root: &Path, evidence: &Path, write: bool) -> anyhow::Result<ExitCode> {
    let outcome = figures::run(root, evidence, write);
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
    let sessions = evidence_model::sessions::of(&all);
    let history = evidence_model::history::of(&sessions);
    let mut problems = Vec::new();
    let mut flips = Vec::new();
    for (lesson, table) in lessons::LESSONS
        .iter()
        .zip(check::every_lesson(&all, &mut problems))
    {
        let per = evidence_model::changes::per_session(&table, &sessions);
        flips.extend(evidence_model::changes::flips(lesson.name(), &per, &sessions));
    }
    Ok(evidence_model::changes::render(&sessions, &history, &flips))
}

/// Each lesson's charts of each program's plain runs, with the lesson's
/// reference runs beside them.
fn plot_all(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let all = read_all_or_fail(dir)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    for lesson in lessons::LESSONS {
        for chart in plot::lesson_charts(&all, *lesson, None)? {
            let path = out.join(format!("{}.svg", chart.stem));
            atomic::write(&path, chart.svg).with_context(|| format!("writing {}", path.display()))?;
            println!("{}", path.display());
        }
    }
    Ok(())
}
