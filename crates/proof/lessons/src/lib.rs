//! The lesson registry: the one list of lessons the shared tools know.
//! Every `<lesson>-report` dependency in this package's Cargo.toml is a
//! lesson ([`report_packages`]), so adding a lesson is one line there.
//! [`LESSONS`] is that list compiled in (build.rs writes it); [`lessons()`]
//! reads the same lines from the checkout a tool runs in (xtask's rules and
//! export). [`build_alone`] builds a lesson's directory copied alone, as a
//! learner who took it away would.
//!
//! Not for: what a lesson's output means (each report package, through
//! `lesson-spec`), or finding nvcc (`cuda-build`).

mod build_alone;
mod manifest;
mod registry;
mod tree;

pub use build_alone::{build_alone, build_output, copy_dir, run_build_line, BuildError};
pub use manifest::report_packages;
pub use registry::{lessons, registry_manifest, Registered, RegistryError, REGISTRY};
pub use tree::{find_repository, is_repository, repository, RootError};

use lesson_spec::Lesson;

pub static LESSONS: &[&dyn Lesson] = include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// The lesson named `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Lesson> {
    LESSONS.iter().copied().find(|l| l.name() == name)
}

/// A name that is no lesson, with every lesson there is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no lesson is named `{name}` (known: {})", known.join(", "))]
pub struct UnknownLesson {
    pub name: String,
    pub known: Vec<&'static str>,
}

/// The lesson named `name`, or an error listing every lesson.
pub fn lesson(name: &str) -> Result<&'static dyn Lesson, UnknownLesson> {
    find(name).ok_or_else(|| UnknownLesson {
        name: name.to_string(),
        known: LESSONS.iter().map(|l| l.name()).collect(),
    })
}

/// The folder of probes run while looking into a finding, whose output no
/// lesson parses.
pub const DIAGNOSTICS: &str = "diagnostics";

/// Folders of `evidence/` that hold runs of no one lesson: diagnostics,
/// the GPU-only tests, the instrument's proof and its kernel suite, and the
/// machine's facts (see `evidence/README.md`).
pub const OTHER_FOLDERS: &[&str] = &[
    DIAGNOSTICS,
    "gpu-tests",
    "instrument",
    "instrument-suite",
    "machine",
];

/// A name that is no evidence folder, with every folder there is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no lesson or evidence folder is named {name:?} (known: {})", known.join(", "))]
pub struct UnknownFolder {
    pub name: String,
    pub known: Vec<&'static str>,
}

/// `name` if it is an evidence folder: a lesson's, or one of
/// [`OTHER_FOLDERS`].
pub fn folder(name: &str) -> Result<&str, UnknownFolder> {
    if find(name).is_some() || OTHER_FOLDERS.contains(&name) {
        return Ok(name);
    }
    let mut known: Vec<&'static str> = LESSONS.iter().map(|l| l.name()).collect();
    known.extend(OTHER_FOLDERS);
    Err(UnknownFolder {
        name: name.to_string(),
        known,
    })
}
