//! The subcommands a GPU session runs (`record`, `check`, `lessons`,
//! `recipe`, `build-alone`) and the tree every subcommand reads (`--root`,
//! `--evidence`), as clap arguments with their help, and what each does.
//! Both binaries take them from here: `evidence` (every subcommand) and
//! `evidence-recorder` (these alone, the binary ci/build-for-gpu.sh carries
//! to the GPU machine), so the two say and do the same.
//!
//! Not for: the other subcommands (crates/proof/evidence/src/main.rs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use evidence_model::check;

use crate::record;

/// The tree a command reads.
#[derive(clap::Args)]
pub struct Tree {
    /// The repository [default: the one the working directory is in, else .].
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The evidence folder to read or record into [default: ROOT/evidence].
    #[arg(long, global = true, value_name = "DIR")]
    evidence: Option<PathBuf>,
}

impl Tree {
    /// The repository and its evidence folder: as given, or the repository
    /// the working directory is in (else `.`) and its `evidence/`.
    pub fn resolve(self) -> anyhow::Result<(PathBuf, PathBuf)> {
        let root = match self.root {
            Some(root) => root,
            None => {
                let here = std::env::current_dir().context("reading the working directory")?;
                lesson_registry::find_repository(&here).unwrap_or_else(|| PathBuf::from("."))
            }
        };
        let evidence = self.evidence.unwrap_or_else(|| root.join("evidence"));
        Ok((root, evidence))
    }
}

/// Run COMMAND and write EVIDENCE/LESSON/<UTC start>-NAME.txt (header,
/// then the output as it comes); print the transcript's path.
///
/// Exit status: the program's, as a shell gives it (128+N for a program
/// ended by signal N, 127 for one that could not start); 124 when
/// --timeout ended it, as timeout(1) says; 128+N when the recorder was
/// stopped by signal N (passed on to the program, and the transcript
/// finished); 1, with one line, when the transcript could not be written
/// or finished (the line says how the program ended); 2 for a bad
/// command line; 1, with one line and nothing run, for a header value
/// holding a control character (EVIDENCE_RUNTIME, EVIDENCE_NVCC) or a
/// commit `check` would refuse. The path is printed only for a finished
/// transcript.
#[derive(clap::Args)]
pub struct Record {
    /// A lesson (`evidence lessons`) or one of the other evidence folders.
    #[arg(long, value_parser = cli_exit::OwnMessage(record::lesson_folder))]
    lesson: String,
    /// The run's name, one word: the transcript is <UTC start>-NAME.txt.
    #[arg(long, value_parser = cli_exit::OwnMessage(record::run_name))]
    name: String,
    /// End a program still running after SECONDS (SIGKILL to everything
    /// it started), and record that.
    #[arg(long, value_name = "SECONDS", value_parser = cli_exit::OwnMessage(record::parse_seconds))]
    timeout: Option<std::time::Duration>,
    /// After passing SIGINT, SIGTERM or SIGHUP on to the program, end it
    /// with SIGKILL if it is still running SECONDS later.
    #[arg(long, value_name = "SECONDS", value_parser = cli_exit::OwnMessage(record::parse_seconds), default_value = "5")]
    grace: std::time::Duration,
    /// VAR=value assignments the command runs with, then `--` and the command.
    #[arg(value_name = "VAR=value", value_parser = cli_exit::OwnMessage(record::env_assignment))]
    env: Vec<(String, String)>,
    #[arg(last = true, required = true, value_name = "COMMAND", value_parser = cli_exit::OwnMessage(record::header_word))]
    command: Vec<String>,
}

impl Record {
    /// Records into `evidence`, prints the transcript's path, and passes
    /// the program's exit status on.
    pub fn run(self, evidence: PathBuf) -> ExitCode {
        let request = record::Request {
            dir: evidence,
            lesson: self.lesson,
            name: self.name,
            env: self.env,
            command: self.command,
            timeout: self.timeout,
            grace: self.grace,
        };
        match record::record(&request) {
            Ok(recorded) => {
                if recorded.replaced > 0 {
                    eprintln!(
                        "note: the program printed {} invalid UTF-8 sequence(s); {} holds U+FFFD in their place",
                        recorded.replaced,
                        recorded.path.display()
                    );
                }
                println!("{}", recorded.path.display());
                ExitCode::from(recorded.ending.exit_status())
            }
            Err(e) => {
                let status = e.exit_status();
                eprintln!("{}", cli_exit::error_line(&e.into()));
                ExitCode::from(status)
            }
        }
    }
}

/// Every lesson page claim against every transcript in the evidence;
/// exit 1 on an unexpected failure or an unreadable transcript, having
/// reported all of them.
#[derive(clap::Args)]
pub struct Check {}

impl Check {
    /// Every transcript and twin read as a record, then claims over every
    /// run that passes; then every problem found, each on its own line.
    pub fn run(self, dir: &Path) -> anyhow::Result<ExitCode> {
        let checked = check::run(dir)?;
        for table in &checked.tables {
            println!("{table}");
        }
        for table in &checked.whys {
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
}

/// The lessons this workspace knows, one per line.
#[derive(clap::Args)]
pub struct Lessons {}

impl Lessons {
    pub fn run(self) {
        for lesson in lessons::LESSONS {
            println!("{}", lesson.name());
        }
    }
}

/// How a lesson is recorded, as `key value` lines for scripts.
#[derive(clap::Args)]
pub struct Recipe {
    #[arg(long)]
    lesson: String,
}

impl Recipe {
    pub fn run(self) -> anyhow::Result<()> {
        print!("{}", lessons::lesson(&self.lesson)?.recipe().to_lines());
        Ok(())
    }
}

/// Build a lesson's C++ program as a learner does: ROOT/code/LESSON
/// copied alone into a folder, its recipe's nvcc line run there. Prints
/// the program's path; nvcc's output goes to stderr.
#[derive(clap::Args)]
pub struct BuildAlone {
    #[arg(long)]
    lesson: String,
    /// The compiler that runs the line.
    #[arg(long, value_name = "PATH", default_value = "nvcc")]
    nvcc: PathBuf,
    /// The folder to build in (created; must not hold the lesson
    /// already) [default: a new temporary folder, left in place].
    #[arg(long, value_name = "DIR")]
    into: Option<PathBuf>,
}

impl BuildAlone {
    /// Builds the lesson of the repository at `root` and prints the
    /// program's path.
    pub fn run(self, root: &Path) -> anyhow::Result<()> {
        println!("{}", self.build(root)?.display());
        Ok(())
    }

    /// The lesson's recipe line run by the one build-alone routine
    /// (`lesson_registry::build_alone`, which course-rules' rule 10 runs
    /// too) in `into` or a new temporary folder.
    fn build(self, root: &Path) -> anyhow::Result<PathBuf> {
        let BuildAlone { lesson, nvcc, into } = self;
        let line = lessons::lesson(&lesson)?.recipe().nvcc;
        let made_here = into.is_none();
        let into = match into {
            Some(dir) if dir.read_dir().is_ok_and(|mut d| d.next().is_some()) => {
                bail!(
                    "--into {}: not empty; build-alone builds in a new or empty folder",
                    dir.display()
                )
            }
            Some(dir) => dir,
            None => tempfile::Builder::new()
                .prefix(&format!("{lesson}-alone-"))
                .tempdir()
                .context("making a temporary folder to build in")?
                .keep(),
        };
        let dir = root.join("code").join(&lesson);
        let built = lesson_registry::build_alone(&dir, &nvcc, line, &[], &into);
        if built.is_err() && made_here {
            // A folder this command made and nothing was built in is not left behind.
            let _ = std::fs::remove_dir_all(&into);
        }
        match built {
            Ok(program) => Ok(program),
            Err(lesson_registry::BuildError::Failed { first_error, output }) => {
                eprint!("{output}");
                bail!(
                    "{lesson} copied alone into {} does not build with `{line}`: {first_error}",
                    into.display()
                )
            }
            Err(e) => Err(anyhow::Error::new(e).context(format!("building {lesson} alone with `{line}`"))),
        }
    }
}
