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
    let stamp = success_stamp(lesson, nvcc, line);
    if stamp.as_ref().is_some_and(|s| s.is_file()) {
        return Ok(());
    }
    let not_alone = |arch: &str| {
        format!(
            "{} copied alone does not build for {arch} with `{line}`",
            lesson.dir.display()
        )
    };
    let Err(together) = build_in_scratch(lesson, nvcc, line, &ARCHS) else {
        if let Some(stamp) = stamp {
            // Only a time saved is lost where it cannot be written.
            let _ = stamp.parent().map(std::fs::create_dir_all);
            let _ = std::fs::write(&stamp, line);
        }
        return Ok(());
    };
    for arch in ARCHS {
        build_in_scratch(lesson, nvcc, line, &[arch]).with_context(|| not_alone(arch))?;
    }
    Err(together).with_context(|| not_alone(&ARCHS.join(" and ")))
}

/// Where a success of [`build_alone`] is remembered, as cargo remembers an
/// unchanged crate: a file under the checkout's target folder named by a
/// hash of everything the build reads (each of the lesson's project files
/// by path and bytes, the line, the architectures, and the nvcc by path,
/// size and time). A second run of the rules skips the compiler for an unchanged
/// lesson; any changed byte builds it again, and a failure is never
/// remembered. None where the folder cannot be read.
fn success_stamp(lesson: &Lesson, nvcc: &Path, line: &str) -> Option<PathBuf> {
    use std::hash::{Hash, Hasher};
    let root = lesson.dir.parent()?.parent()?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let mut hasher = std::hash::DefaultHasher::new();
    for rel in crate::files::project_files(&lesson.dir) {
        (&rel, std::fs::read(lesson.dir.join(&rel)).ok()?).hash(&mut hasher);
    }
    let compiler = std::fs::canonicalize(nvcc).ok()?;
    let meta = compiler.metadata().ok()?;
    (line, ARCHS, &compiler, meta.len(), meta.modified().ok()).hash(&mut hasher);
    let name = lesson.dir.file_name()?.to_string_lossy();
    Some(
        target
            .join("built-alone")
            .join(format!("{name}-{:016x}", hasher.finish())),
    )
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

    /// A compiler that counts its runs in `runs` beside it and fails
    /// whenever the lesson's .cu holds `broken`.
    fn counting_nvcc(dir: &Path) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let nvcc = dir.join("nvcc");
        let script = format!(
            "#!/bin/sh\necho run >> {}\n! grep -q broken demo.cu\n",
            dir.join("runs").display()
        );
        std::fs::write(&nvcc, script).unwrap();
        std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755)).unwrap();
        nvcc
    }

    #[test]
    fn an_unchanged_lesson_is_not_compiled_again_and_any_changed_byte_or_failure_is() {
        let root = std::env::temp_dir().join(format!("xtask-built-alone-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("code/demo");
        std::fs::create_dir_all(&dir).unwrap();
        let cu = dir.join("demo.cu");
        std::fs::write(&cu, "int main() {}\n").unwrap();
        let lesson = Lesson { dir, cu: cu.clone() };
        let nvcc = counting_nvcc(&root);
        let line = "nvcc -O3 -arch=sm_90 -o demo demo.cu";
        let runs = || std::fs::read_to_string(root.join("runs")).map_or(0, |t| t.lines().count());

        build_alone(&lesson, &nvcc, line).unwrap();
        assert_eq!(runs(), 1);
        build_alone(&lesson, &nvcc, line).unwrap();
        assert_eq!(runs(), 1, "an unchanged lesson was compiled again");
        std::fs::write(&cu, "int main() { return 0; }\n").unwrap();
        build_alone(&lesson, &nvcc, line).unwrap();
        assert_eq!(runs(), 2, "a changed .cu was not compiled");
        // A failure is not remembered: it runs the compiler every time (for
        // both architectures, then for the first alone, which names it).
        std::fs::write(&cu, "broken\n").unwrap();
        assert!(build_alone(&lesson, &nvcc, line).is_err());
        assert!(build_alone(&lesson, &nvcc, line).is_err());
        assert_eq!(runs(), 2 + 2 * 2);
        let _ = std::fs::remove_dir_all(&root);
    }

    // Reading the line itself is lesson-spec's (`nvcc_line`), tested there.
    #[test]
    fn the_build_output_is_the_nvcc_lines_o() {
        assert_eq!(build_output("nvcc -O3 -arch=sm_90 -o t t.cu"), Some("t"));
        assert_eq!(build_output("nvcc -O3 t.cu"), None);
    }
}
