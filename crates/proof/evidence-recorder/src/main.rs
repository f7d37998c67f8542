//! `evidence-recorder`: the subcommands of `evidence` that a GPU session
//! runs, in a binary that links no HTML or plotting crate.
//! ci/build-for-gpu.sh carries it to the GPU machine as
//! `.evidence-bin/evidence`, which ci/gpu-session.sh runs.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use evidence_recorder::cli::{BuildAlone, Check, Lessons, Recipe, Record, Tree};

/// The subcommands of `evidence` that a GPU session runs: record a run,
/// check what was recorded, and say how each lesson is recorded and built.
///
/// Every command reads the tree `evidence` reads: `--root DIR` and its
/// `evidence/` folder, or the folder `--evidence DIR` names.
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
    Check(Check),
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
        Command::Lessons(lessons) => lessons.run(),
        Command::Recipe(recipe) => recipe.run()?,
        Command::BuildAlone(build) => build.run(&root)?,
    }
    Ok(ExitCode::SUCCESS)
}
