//! A lesson's C++ program built as a learner builds it: the lesson's
//! directory copied alone into a folder of its own, its one nvcc line run
//! there, nothing else. A lesson that needs a file outside its directory
//! fails here as it would for the learner.

use std::path::{Path, PathBuf};
use std::process::Command;

pub use lesson_spec::nvcc_line::build_output;

/// Why a lesson did not build alone.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("`{line}`: expected `nvcc ... -arch=sm_XX ... -o BINARY ...`")]
    NotAnNvccLine { line: String },
    #[error("copying {} into {}", from.display(), to.display())]
    Copy {
        from: PathBuf,
        to: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot run {}", nvcc.display())]
    Spawn {
        nvcc: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// nvcc ran and failed; the message is its first line that says
    /// `error` (all of its output is kept for a tool to print).
    #[error("{first_error}")]
    Failed { first_error: String, output: String },
}

/// Copies `lesson_dir` alone into `into` (created if missing) and runs the
/// nvcc line `line` there with the compiler `nvcc`, its `-arch=` replaced
/// as [`run_build_line`] says for `archs`. Returns the path of the program
/// built (the line's `-o`).
pub fn build_alone(
    lesson_dir: &Path,
    nvcc: &Path,
    line: &str,
    archs: &[&str],
    into: &Path,
) -> Result<PathBuf, BuildError> {
    let binary = checked_line(line)?;
    copy_dir(lesson_dir, into).map_err(|source| BuildError::Copy {
        from: lesson_dir.to_path_buf(),
        to: into.to_path_buf(),
        source,
    })?;
    run_build_line(nvcc, line, into, archs)?;
    Ok(into.join(binary))
}

/// Runs the nvcc line `line` in `dir` with the compiler `nvcc`. Its
/// `-arch=` is kept for no `archs`, replaced by `-arch=ARCH` for one, and by
/// one `-gencode=arch=compute_N,code=sm_N` per architecture for several:
/// one run that compiles the host code once and the device code for each
/// (what building once per architecture proves, in less time).
pub fn run_build_line(nvcc: &Path, line: &str, dir: &Path, archs: &[&str]) -> Result<(), BuildError> {
    checked_line(line)?;
    // A relative path to the compiler is the caller's, not the copy's.
    let nvcc = match nvcc.components().count() > 1 && nvcc.is_relative() {
        true => std::path::absolute(nvcc).unwrap_or_else(|_| nvcc.to_path_buf()),
        false => nvcc.to_path_buf(),
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let args: Vec<String> = words[1..]
        .iter()
        .flat_map(|w| match archs {
            [_, _, ..] if w.starts_with("-arch=") => archs
                .iter()
                .map(|a| format!("-gencode=arch={},code={a}", a.replacen("sm_", "compute_", 1)))
                .collect(),
            [arch] if w.starts_with("-arch=") => vec![format!("-arch={arch}")],
            _ => vec![w.to_string()],
        })
        .collect();
    let out = Command::new(&nvcc)
        .args(&args)
        .current_dir(dir)
        .output()
        .map_err(|source| BuildError::Spawn { nvcc, source })?;
    if out.status.success() {
        return Ok(());
    }
    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    let first_error = err
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(err.trim())
        .to_string();
    Err(BuildError::Failed { first_error, output })
}

/// The binary `line` writes, if it is an nvcc line with an `-arch=` and an
/// `-o`: the shape every lesson's line has, and the one this routine edits.
fn checked_line(line: &str) -> Result<&str, BuildError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let is_nvcc = words.first() == Some(&"nvcc") && words.iter().any(|w| w.starts_with("-arch="));
    match build_output(line) {
        Some(binary) if is_nvcc => Ok(binary),
        _ => Err(BuildError::NotAnNvccLine {
            line: line.to_string(),
        }),
    }
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

    #[test]
    fn the_output_is_the_word_after_dash_o() {
        assert_eq!(build_output("nvcc -O3 -arch=sm_90 -o t t.cu"), Some("t"));
        assert_eq!(build_output("nvcc -O3 t.cu"), None);
    }

    #[test]
    fn a_line_that_is_not_nvccs_is_refused_before_anything_runs() {
        let scratch = std::env::temp_dir().join(format!("lessons-build-refused-{}", std::process::id()));
        let err = build_alone(
            Path::new("."),
            Path::new("/bin/false"),
            "gcc -o t t.c",
            &[],
            &scratch,
        )
        .unwrap_err();
        assert!(matches!(err, BuildError::NotAnNvccLine { .. }), "{err}");
        assert!(!scratch.exists(), "nothing was copied");
        let err =
            run_build_line(Path::new("/bin/false"), "nvcc -O3 -o t t.cu", Path::new("."), &[]).unwrap_err();
        assert!(
            err.to_string().contains("expected `nvcc ... -arch=sm_XX"),
            "{err}"
        );
    }

    #[test]
    fn a_compiler_that_fails_gives_its_first_error_line_for_the_arch_asked() {
        use std::os::unix::fs::PermissionsExt;
        // A stand-in for nvcc that names its arguments, then fails as nvcc does.
        let dir = std::env::temp_dir().join(format!("lessons-build-fails-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("nvcc");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho \"warning: $*\" >&2\necho 't.cu(1): error: bad' >&2\nexit 2\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = run_build_line(&fake, "nvcc -O3 -arch=sm_90 -o t t.cu", &dir, &["sm_75"]).unwrap_err();
        let both =
            run_build_line(&fake, "nvcc -O3 -arch=sm_90 -o t t.cu", &dir, &["sm_75", "sm_90"]).unwrap_err();
        let _ = std::fs::remove_dir_all(&dir);
        match both {
            BuildError::Failed { output, .. } => assert!(
                output.contains(
                    "warning: -O3 -gencode=arch=compute_75,code=sm_75 -gencode=arch=compute_90,code=sm_90 -o t t.cu"
                ),
                "{output}"
            ),
            other => panic!("{other}"),
        }
        match err {
            BuildError::Failed { first_error, output } => {
                assert_eq!(first_error, "t.cu(1): error: bad");
                assert!(output.contains("warning: -O3 -arch=sm_75 -o t t.cu"), "{output}");
            }
            other => panic!("{other:?}"),
        }
    }
}
