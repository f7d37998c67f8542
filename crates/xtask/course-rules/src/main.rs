//! `course-rules`: the course's rules, run by hand, and a new lesson made
//! (`new-lesson`; a lesson's export is `lesson-export`'s).
//!
//! Every command reads the repository the working directory is in (or
//! `--root DIR`), never the checkout the binary was compiled in. `check`
//! prints one `path:line:col: what: why` line per finding and exits 1 when
//! there is any; a failure to run prints one line and exits 1; a usage error
//! is clap's message and exit 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use course_rules::{new_lesson, quotes, read_text};

#[derive(Debug, Parser)]
#[command(
    name = "course-rules",
    version,
    about = "The course's rules as checks, and new lessons made."
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
    /// Make a new lesson (code/LESSON, its report package, its registry and map lines) that builds and passes its tests.
    NewLesson(new_lesson::Args),
}

/// A `snippet` argument that is not `FILE#NAME`.
#[derive(Debug, thiserror::Error)]
#[error("`{0}`: expected FILE#NAME")]
struct NotFileHashName(String);

fn parse_snippet_target(target: &str) -> Result<(String, String), NotFileHashName> {
    match target.split_once('#') {
        Some((file, name)) if !file.is_empty() && !name.is_empty() => {
            Ok((file.to_string(), name.to_string()))
        }
        _ => Err(NotFileHashName(target.to_string())),
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
        Command::NewLesson(args) => new_lesson::run(&root, &args),
    }
}

fn check(root: &Path, build: bool, nvcc: Option<PathBuf>) -> Result<ExitCode> {
    let nvcc = match (build, nvcc) {
        (false, _) => None,
        (true, Some(given)) if given.is_file() => Some(given),
        (true, Some(given)) => anyhow::bail!("--nvcc {}: no such file", given.display()),
        (true, None) => Some(
            course_rules::find_nvcc(root)
                .context("finding nvcc to build each lesson alone (or pass --no-build)")?,
        ),
    };
    let mut problems = course_rules::check_host_clocks(root);
    problems.extend(course_rules::check_verbatim(root));
    problems.extend(course_rules::check_snippets(root));
    problems.extend(course_rules::check_lessons(root, nvcc.as_deref()));
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
    for rel in project_files::project_files(root) {
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
