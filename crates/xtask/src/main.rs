//! `xtask` (`cargo xtask ...`): the course's rules run by hand, a lesson
//! exported, and a new lesson made.
//!
//! Every command reads the repository the working directory is in (or
//! `--root DIR`), never the checkout the binary was compiled in. `check`
//! prints one `path:line:col: what: why` line per finding and exits 1 when
//! there is any; a failure to run prints one line and exits 1; a usage error
//! is clap's message and exit 2. A refused or failed export prints one
//! line, leaves nothing behind and exits 1.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use xtask::new_lesson;
use xtask::rules::{self, quotes, read_text};

#[derive(Debug, Parser)]
#[command(
    name = "xtask",
    version,
    about = "The repository's own tasks: the course's rules as checks, a lesson exported, new lessons made."
)]
struct Cli {
    /// The repository to read [default: the one the working directory is in].
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every rule; print each finding as `path:line:col: what: why` and exit 1 on any.
    Check {
        /// Skip building each lesson copied alone with its README's nvcc line.
        #[arg(long, conflicts_with = "nvcc")]
        no_build: bool,
        /// Build each lesson alone with this nvcc [default: the one the build finds].
        #[arg(long, value_name = "PATH")]
        nvcc: Option<PathBuf>,
    },
    /// Print one snippet of a source file, dedented.
    Snippet {
        /// The file, relative to the repository, and the snippet's name.
        #[arg(value_name = "FILE#NAME", value_parser = parse_snippet_target)]
        target: (String, String),
    },
    /// Rewrite every quote in the Markdown files from its source.
    Sync,
    /// Write a lesson into DIR as a Cargo project of its own, with copies of the shared crates it uses.
    Export {
        /// The lesson: its directory's name under code/ (e.g. the one `ls code` lists).
        lesson: String,
        /// A directory that does not exist yet, or an empty one.
        dir: PathBuf,
    },
    /// Make a new lesson (code/LESSON, its report package, its registry and map lines) that builds and passes its tests.
    NewLesson(new_lesson::Args),
}

fn parse_snippet_target(target: &str) -> Result<(String, String), String> {
    match target.split_once('#') {
        Some((file, name)) if !file.is_empty() && !name.is_empty() => Ok((file.into(), name.into())),
        _ => Err(format!("`{target}`: expected FILE#NAME")),
    }
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    let cli = cli_exit::parse::<Cli>();
    cli_exit::finish(run(cli))
}

fn run(cli: Cli) -> Result<ExitCode> {
    let root = ::lessons::repository(cli.root.as_deref())?;
    match cli.command {
        Command::Check { no_build, nvcc } => check(&root, !no_build, nvcc),
        Command::Snippet { target: (file, name) } => {
            let text = quotes::snippet(&root, &file, &name)
                .with_context(|| format!("printing snippet {file}#{name}"))?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Sync => sync(&root),
        Command::Export { lesson, dir } => export(&root, &lesson, &dir),
        Command::NewLesson(args) => new_lesson::run(&root, &args),
    }
}

fn check(root: &Path, build: bool, nvcc: Option<PathBuf>) -> Result<ExitCode> {
    let nvcc = match (build, nvcc) {
        (false, _) => None,
        (true, Some(given)) if given.is_file() => Some(given),
        (true, Some(given)) => anyhow::bail!("--nvcc {}: no such file", given.display()),
        (true, None) => Some(
            rules::find_nvcc(root).context("finding nvcc to build each lesson alone (or pass --no-build)")?,
        ),
    };
    let mut problems = rules::check_host_clocks(root);
    problems.extend(rules::check_verbatim(root));
    problems.extend(rules::check_snippets(root));
    problems.extend(rules::check_lessons(root, nvcc.as_deref()));
    for p in &problems {
        println!("{p}");
    }
    println!("checked {}: {} finding(s)", root.display(), problems.len());
    Ok(match problems.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    })
}

fn sync(root: &Path) -> Result<ExitCode> {
    for rel in xtask::files::project_files(root) {
        if rel.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let path = root.join(&rel);
        let text = read_text(&path)?;
        let synced =
            quotes::sync(root, &text).with_context(|| format!("syncing the quotes in {}", rel.display()))?;
        if synced != text {
            std::fs::write(&path, synced).with_context(|| format!("writing {}", rel.display()))?;
            println!("rewrote {}", rel.display());
        }
    }
    println!("synced {}", root.display());
    Ok(ExitCode::SUCCESS)
}

fn export(root: &Path, lesson: &str, dir: &Path) -> Result<ExitCode> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let done = xtask::export::export(root, lesson, dir, Path::new(&cargo))
        .with_context(|| format!("exporting {lesson} into {}", dir.display()))?;
    println!(
        "exported {lesson} from {} into {}, with {}",
        root.display(),
        dir.display(),
        done.shared_crates.join(", ")
    );
    if let Some(host) = &done.fetched_for {
        println!("fetched the packages it needs that cargo's local registry lacked, for {host}");
    }
    if !done.dropped_dev_dependencies.is_empty() {
        println!(
            "left out, as their packages are not needed to build: the test-only dependencies {}",
            done.dropped_dev_dependencies.join(", ")
        );
    }
    println!(
        "build it there: cargo build --release --offline (with CUDA_HOME set to a CUDA toolkit), then the README's nvcc line"
    );
    Ok(ExitCode::SUCCESS)
}
