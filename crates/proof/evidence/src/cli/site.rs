//! The subcommands of the default feature `site`: the charts, the figure
//! blocks and the site. The GPU machine's build (`--no-default-features`)
//! leaves them out, and with them every HTML and plotting crate.
//!
//! Not for: the other subcommands (main.rs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use evidence::atomic;
use evidence::figures::blocks as figures;
use evidence::site::plot;

#[derive(clap::Subcommand)]
pub enum Command {
    /// SVG charts of each lesson's runs.
    Plot {
        /// Where to write the charts.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Every figure block in the repository's documents against the
    /// evidence: exit 1 listing each stale block; with --write, rewrite them.
    Figures {
        /// Rewrite every stale block from the evidence.
        #[arg(long)]
        write: bool,
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
}

impl Command {
    pub fn run(self, root: &Path, evidence: &Path) -> anyhow::Result<ExitCode> {
        match self {
            Command::Plot { out } => plot_all(evidence, &out)?,
            Command::Figures { write } => return figures_cmd(root, evidence, write),
            Command::Site { out } => {
                let built = evidence::site::build(root, evidence, &out)?;
                println!(
                    "wrote {} pages and {} charts to {}; start at {}",
                    built.pages,
                    built.charts,
                    out.display(),
                    out.join(evidence::site::INDEX).display()
                );
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// Checks (or with `write` rewrites) every figure block under `root`, and
/// says which blocks were rewritten and which were not.
fn figures_cmd(root: &Path, evidence: &Path, write: bool) -> anyhow::Result<ExitCode> {
    let outcome = figures::run(root, evidence, write);
    for e in &outcome.errors {
        eprintln!("error: {e}");
    }
    for s in &outcome.rewritten {
        println!("rewrote {s}");
    }
    let (left, why) = match write {
        true => (&outcome.not_rewritten, " left as they were"),
        false => (&outcome.stale, ""),
    };
    for s in left {
        match write {
            true => eprintln!("error: not rewritten: {s}, as its document has an error above"),
            false => eprintln!("error: {s} differs from the evidence"),
        }
    }
    if outcome.errors.is_empty() && left.is_empty() {
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
    if !left.is_empty() {
        eprintln!(
            "error: {} stale figure block(s){why}; run `{}`",
            left.len(),
            figures::WRITE_COMMAND
        );
    }
    Ok(ExitCode::FAILURE)
}

/// Each lesson's charts of each program's plain runs, with the lesson's
/// reference runs beside them.
fn plot_all(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let all = crate::read_all_or_fail(dir)?;
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
