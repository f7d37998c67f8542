//! Rule 10, a lesson builds alone: each lesson directory, copied by itself
//! into an empty folder, builds its `.cu` with the nvcc line its README gives.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use lesson_registry::{build_output, copy_dir, run_build_line, BuildError};

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
    Registry(#[from] lesson_registry::RegistryError),
    #[error("{}: registered as a lesson (crates/evidence/Cargo.toml), but holds no .cu at its top", dir.display())]
    NoProgram { dir: PathBuf },
}

/// The lessons the registry names (`lesson_registry`, the list every tool
/// reads), each with its `.cu`, in name order.
pub fn lessons(root: &Path) -> Result<Vec<Lesson>, LessonError> {
    lesson_registry::lessons(root)?
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

/// The first line of `text` that is an nvcc command (`nvcc ...`), trimmed.
pub fn nvcc_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("nvcc "))
        .map(str::to_string)
}

/// The nvcc line in the `.cu`'s header comment (`// Build: nvcc ...`).
pub fn header_nvcc_line(cu_text: &str) -> Option<String> {
    cu_text
        .lines()
        .take_while(|l| l.starts_with("//") || l.trim().is_empty())
        .find_map(|l| {
            l.trim_start_matches('/')
                .trim()
                .strip_prefix("Build:")
                .map(|s| s.trim().to_string())
        })
}

/// The README's and the header's nvcc lines must exist and agree, and any
/// repetition of the line in the README must be the same line.
pub fn check_build_lines(lesson: &Lesson) -> Result<String, String> {
    let readme = lesson.dir.join("README.md");
    let readme_text = std::fs::read_to_string(&readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    let from_readme = nvcc_line(&readme_text)
        .ok_or_else(|| format!("{}: gives no `nvcc ...` build line", readme.display()))?;
    let cu_text = std::fs::read_to_string(&lesson.cu).map_err(|e| format!("{}: {e}", lesson.cu.display()))?;
    let from_header = header_nvcc_line(&cu_text).ok_or_else(|| {
        format!(
            "{}: its header comment has no `Build: nvcc ...` line",
            lesson.cu.display()
        )
    })?;
    if from_readme != from_header {
        return Err(format!(
            "{}: the README builds with `{from_readme}` but the .cu's header says `{from_header}`",
            lesson.dir.display()
        ));
    }
    // The README may repeat its line (where it shows an exported copy being
    // built); every repetition must be the same line.
    let differing = readme_text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("nvcc -") && *l != from_readme);
    if let Some(other) = differing {
        return Err(format!(
            "{}: builds with `{from_readme}` and also with `{other}`; a lesson has one nvcc line",
            readme.display()
        ));
    }
    Ok(from_readme)
}

/// A lesson that does not build copied alone, and nvcc's reason.
#[derive(Debug, thiserror::Error)]
#[error("{} copied alone does not build for {arch} with `{line}`", dir.display())]
pub struct NotAlone {
    pub dir: PathBuf,
    pub arch: &'static str,
    pub line: String,
    #[source]
    pub source: BuildError,
}

/// Copies the lesson directory alone into a fresh folder and runs its nvcc
/// line there with `nvcc`, once per architecture in [`ARCHS`]
/// (`lesson_registry::build_alone`, the routine the GPU scripts use too).
pub fn build_alone(lesson: &Lesson, nvcc: &Path, line: &str) -> Result<(), NotAlone> {
    // A fresh folder per build: two checks of one lesson may run at once.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = lesson
        .dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("lesson");
    for arch in ARCHS {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let scratch =
            std::env::temp_dir().join(format!("course-rules-{name}-{}-{arch}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let built = lesson_registry::build_alone(&lesson.dir, nvcc, line, Some(arch), &scratch);
        let _ = std::fs::remove_dir_all(&scratch);
        built.map_err(|source| NotAlone {
            dir: lesson.dir.clone(),
            arch,
            line: line.to_string(),
            source,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_lines_are_read_from_readme_and_header() {
        assert_eq!(
            nvcc_line("# T\n```\nnvcc -O3 -arch=sm_90 -o t t.cu\n./t\n```").as_deref(),
            Some("nvcc -O3 -arch=sm_90 -o t t.cu")
        );
        let cu = "// SPDX\n//\n// Build: nvcc -O3 -arch=sm_90 -o t t.cu\n// Run: ./t\n\n#include <x>\n// Build: no";
        assert_eq!(
            header_nvcc_line(cu).as_deref(),
            Some("nvcc -O3 -arch=sm_90 -o t t.cu")
        );
    }
}
