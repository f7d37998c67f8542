//! Rule 10, a lesson builds alone: each lesson directory, copied by itself
//! into an empty folder, builds its `.cu` with the nvcc line its README gives.

use std::path::{Path, PathBuf};

use anyhow::Context;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use ::lessons::{build_output, copy_dir, run_build_line, BuildError};

/// The architectures a copied lesson must build for.
pub const ARCHS: [&str; 2] = ["sm_75", "sm_90"];

/// A lesson directory: `code/<name>/` with one `.cu` at its top.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub dir: PathBuf,
    pub cu: PathBuf,
}

/// The registry names a lesson the rules cannot read.
#[derive(Debug, thiserror::Error)]
pub enum LessonError {
    #[error(transparent)]
    Registry(#[from] ::lessons::RegistryError),
    #[error("{}: registered as a lesson (crates/proof/lessons/Cargo.toml), but holds no .cu at its top", dir.display())]
    NoProgram { dir: PathBuf },
}

/// The lessons the registry names (`lessons`, the list every tool
/// reads), each with its `.cu`, in name order.
pub fn lessons(root: &Path) -> Result<Vec<Lesson>, LessonError> {
    ::lessons::lessons(root)?
        .into_iter()
        .map(|registered| {
            let cu = std::fs::read_dir(&registered.dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|f| f.path())
                .find(|p| p.extension().is_some_and(|e| e == "cu"));
            match cu {
                Some(cu) => Ok(Lesson {
                    dir: registered.dir,
                    cu,
                }),
                None => Err(LessonError::NoProgram { dir: registered.dir }),
            }
        })
        .collect()
}

/// The README's and the header's nvcc lines must exist and agree, and any
/// repetition of the line in the README must be the same line: lesson-spec's
/// check, the one each report package's recipe test runs too.
pub fn check_build_lines(lesson: &Lesson) -> anyhow::Result<String> {
    let read = |path: PathBuf| std::fs::read_to_string(&path).with_context(|| path.display().to_string());
    let readme = read(lesson.dir.join("README.md"))?;
    let cu = read(lesson.cu.clone())?;
    let line = lesson_spec::nvcc_line::documented_nvcc_line(&readme, &cu);
    Ok(line
        .with_context(|| lesson.dir.display().to_string())?
        .to_string())
}

/// Copies the lesson directory alone into a fresh folder and runs its nvcc
/// line there with `nvcc`, for every architecture in [`ARCHS`]
/// (`lessons::build_alone`, the routine the GPU scripts use too).
/// One nvcc run builds for all of them; only when it fails is each built
/// alone, so that the error names the architecture that fails.
pub fn build_alone(lesson: &Lesson, nvcc: &Path, line: &str) -> anyhow::Result<()> {
    let not_alone = |arch: &str| {
        format!(
            "{} copied alone does not build for {arch} with `{line}`",
            lesson.dir.display()
        )
    };
    let Err(together) = build_in_scratch(lesson, nvcc, line, &ARCHS) else {
        return Ok(());
    };
    for arch in ARCHS {
        build_in_scratch(lesson, nvcc, line, &[arch]).with_context(|| not_alone(arch))?;
    }
    Err(together).with_context(|| not_alone(&ARCHS.join(" and ")))
}

fn build_in_scratch(lesson: &Lesson, nvcc: &Path, line: &str, archs: &[&str]) -> Result<(), BuildError> {
    // A fresh folder per build: two checks of one lesson may run at once.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = lesson
        .dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("lesson");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let scratch = std::env::temp_dir().join(format!(
        "xtask-{name}-{}-{}-{n}",
        std::process::id(),
        archs.join("-")
    ));
    let _ = std::fs::remove_dir_all(&scratch);
    let built = ::lessons::build_alone(&lesson.dir, nvcc, line, archs, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    built.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reading the line itself is lesson-spec's (`nvcc_line`), tested there.
    #[test]
    fn the_build_output_is_the_nvcc_lines_o() {
        assert_eq!(build_output("nvcc -O3 -arch=sm_90 -o t t.cu"), Some("t"));
        assert_eq!(build_output("nvcc -O3 t.cu"), None);
    }
}
