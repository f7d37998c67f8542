//! Rule 10, a lesson builds alone: each lesson directory, copied by itself
//! into an empty folder, builds its `.cu` with the nvcc line its README gives.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The architectures a copied lesson must build for.
pub const ARCHS: [&str; 2] = ["sm_75", "sm_90"];

/// A lesson directory: `code/<name>/` with one `.cu` at its top.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub dir: PathBuf,
    pub cu: PathBuf,
}

/// The lessons under `root/code`, in name order.
pub fn lessons(root: &Path) -> Vec<Lesson> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(root.join("code")) else {
        return found;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        let cu = files
            .flatten()
            .map(|f| f.path())
            .find(|p| p.extension().is_some_and(|e| e == "cu"));
        if let Some(cu) = cu {
            found.push(Lesson { dir, cu });
        }
    }
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    found
}

/// The README's and the header's nvcc lines must exist and agree, and any
/// repetition of the line in the README must be the same line: lesson-spec's
/// check, the one each report package's recipe test runs too.
pub fn check_build_lines(lesson: &Lesson) -> Result<String, String> {
    let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let readme = read(&lesson.dir.join("README.md"))?;
    let cu = read(&lesson.cu)?;
    lesson_spec::nvcc_line::documented_nvcc_line(&readme, &cu)
        .map(str::to_string)
        .map_err(|e| format!("{}: {e}", lesson.dir.display()))
}

/// Copies the lesson directory alone into a fresh folder and runs its nvcc
/// line there with `nvcc`, once per architecture in [`ARCHS`].
pub fn build_alone(lesson: &Lesson, nvcc: &Path, line: &str) -> Result<(), String> {
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
        copy_dir(&lesson.dir, &scratch).map_err(|e| format!("copying {}: {e}", lesson.dir.display()))?;
        let built = run_build_line(nvcc, line, &scratch, Some(arch));
        let _ = std::fs::remove_dir_all(&scratch);
        built.map_err(|e| {
            format!(
                "{} copied alone does not build for {arch} with `{line}`: {e}",
                lesson.dir.display()
            )
        })?;
    }
    Ok(())
}

/// Runs the nvcc line `line` in `dir` with the compiler `nvcc`, with its
/// `-arch=` replaced by `arch` when one is given; the error is nvcc's first
/// line that says `error`.
pub fn run_build_line(nvcc: &Path, line: &str, dir: &Path, arch: Option<&str>) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"nvcc") || !words.iter().any(|w| w.starts_with("-arch=")) {
        return Err(format!("`{line}`: expected `nvcc ... -arch=sm_XX ...`"));
    }
    let args: Vec<String> = words[1..]
        .iter()
        .map(|w| match arch {
            Some(arch) if w.starts_with("-arch=") => format!("-arch={arch}"),
            _ => w.to_string(),
        })
        .collect();
    let out = Command::new(nvcc)
        .args(&args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", nvcc.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(err.trim())
        .to_string())
}

/// The file an nvcc line writes: the word after its `-o`.
pub fn build_output(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == "-o")?;
    words.next()
}

/// Copies the folder `from`, with everything below it, to `to`.
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
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
