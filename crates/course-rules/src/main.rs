//! `course-rules`: the course's rules, run by hand, a lesson exported as a
//! project of its own, and a new lesson made (`new-lesson`).
//!
//! Every command reads the repository the working directory is in (or
//! `--root DIR`), never the checkout the binary was compiled in. `check`
//! prints one `path:line:col: what: why` line per finding and exits 1 when
//! there is any; a failure to run prints one line and exits 1; a usage error
//! is clap's message and exit 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context, Result};
use clap::{Parser, Subcommand};

use course_rules::{export, files, find_repository, new_lesson, quotes, read_text};

#[derive(Debug, Parser)]
#[command(
    name = "course-rules",
    version,
    about = "The course's rules as checks, lessons exported as projects of their own, and new lessons made."
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
        Some((file, name)) if !file.is_empty() && !name.is_empty() => {
            Ok((file.to_string(), name.to_string()))
        }
        _ => Err(format!("`{target}`: expected FILE#NAME")),
    }
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    let cli = cli_exit::parse::<Cli>();
    cli_exit::finish(run(cli))
}

fn run(cli: Cli) -> Result<ExitCode> {
    let root = repository(cli.root.as_deref())?;
    match cli.command {
        Command::Check { no_build, nvcc } => check(&root, !no_build, nvcc),
        Command::Snippet { target: (file, name) } => {
            let text = quotes::snippet(&root, &file, &name)
                .with_context(|| format!("printing snippet {file}#{name}"))?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Sync => sync(&root),
        Command::Export { lesson, dir } => export_lesson(&root, &lesson, &dir),
        Command::NewLesson(args) => new_lesson::run(&root, &args),
    }
}

/// The repository to read: `--root`, or the one around the working directory.
fn repository(given: Option<&Path>) -> Result<PathBuf> {
    let found = match given {
        Some(dir) => Some(dir.to_path_buf()).filter(|d| course_rules::root::is_repository(d)),
        None => {
            let here = std::env::current_dir().context("reading the working directory")?;
            find_repository(&here)
        }
    };
    let root = found.ok_or_else(|| match given {
        Some(dir) => anyhow!(
            "--root {}: not the course's repository (no Cargo.toml with [workspace] beside a code/ directory)",
            dir.display()
        ),
        None => anyhow!(
            "not inside the course's repository (no Cargo.toml with [workspace] beside a code/ directory \
             here or above); run from inside it or pass --root DIR"
        ),
    })?;
    root.canonicalize()
        .with_context(|| format!("resolving {}", root.display()))
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
    for rel in files::project_files(root) {
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

fn export_lesson(root: &Path, lesson: &str, dir: &Path) -> Result<ExitCode> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let done = export::export(root, lesson, dir, Path::new(&cargo))
        .with_context(|| format!("exporting {lesson} into {}", dir.display()))?;
    println!(
        "exported {lesson} from {} into {}, with {}",
        root.display(),
        dir.display(),
        done.shared_crates.join(", ")
    );
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
