//! `lesson-export`: a lesson written out as a Cargo project of its own.
//!
//! It reads the repository the working directory is in (or `--root DIR`),
//! never the checkout the binary was compiled in. A refused or failed export
//! prints one line, leaves nothing behind and exits 1; a usage error is
//! clap's message and exit 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

#[derive(Debug, Parser)]
#[command(
    name = "lesson-export",
    version,
    about = "Write a lesson into DIR as a Cargo project of its own, with copies of the shared crates it uses."
)]
struct Cli {
    /// The repository to read [default: the one the working directory is in].
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The lesson: its directory's name under code/ (e.g. the one `ls code` lists).
    lesson: String,
    /// A directory that does not exist yet, or an empty one.
    dir: PathBuf,
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    let cli = cli_exit::parse::<Cli>();
    cli_exit::finish(run(cli))
}

fn run(cli: Cli) -> Result<ExitCode> {
    let root = ::lessons::repository(cli.root.as_deref())?;
    let (lesson, dir) = (cli.lesson.as_str(), cli.dir.as_path());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let done = lesson_export::export(&root, lesson, dir, Path::new(&cargo))
        .with_context(|| format!("exporting {lesson} into {}", dir.display()))?;
    println!(
        "exported {lesson} from {} into {}, with {}",
        root.display(),
        dir.display(),
        done.shared_crates.join(", ")
    );
    if let lesson_export::lockfile::Packages::Fetched { host } = &done.packages {
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
