//! Finding the CUDA toolkit, in one documented order.
//!
//! 1. `LESSON_NVCC`: the path of an `nvcc` to use, for when a machine has
//!    several toolkits;
//! 2. `CUDA_HOME`, then `CUDA_PATH`: a toolkit root holding `bin/nvcc`;
//! 3. the first `nvcc` on `PATH`;
//! 4. `/usr/local/cuda`;
//! 5. the project's own toolchain, `.toolchain/cuda` in the workspace root, as
//!    `ci/provision.sh` leaves it.
//!
//! A variable that is set but points at no nvcc is an error, not a reason to
//! look further: a silent fallback would build with a toolkit nobody chose.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::fail::fail;

/// The variable that names an `nvcc` explicitly; it wins over every other place.
pub const NVCC_VAR: &str = "LESSON_NVCC";

/// The command that provisions the project's own toolkit, named in the error.
pub const PROVISION_COMMAND: &str = "ci/provision.sh";

/// A CUDA toolkit: its root (with `include/` and the runtime libraries) and its nvcc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolkit {
    pub root: PathBuf,
    pub nvcc: PathBuf,
}

/// Why no toolkit was found: a variable that names none, or nothing on the
/// search order at all (which names the command that provisions one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocateError {
    #[error("{NVCC_VAR} is set to {}, which is not a file", .0.display())]
    NvccNotAFile(PathBuf),
    #[error("{var} is set to {}, which has no bin/nvcc", root.display())]
    NoBinNvcc { var: &'static str, root: PathBuf },
    #[error(
        "no CUDA toolkit found ({NVCC_VAR}, CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda and \
         .toolchain/cuda were searched); run `{PROVISION_COMMAND}` to install CUDA 13.0 into the project"
    )]
    NotFound,
}

/// Finds the toolkit by the order in the module header.
///
/// `var` reads an environment variable, `is_file` tests a path and
/// `project_root` is the workspace root; all three are parameters so the order
/// can be tested without touching the real environment.
pub fn locate(
    var: &dyn Fn(&str) -> Option<OsString>,
    is_file: &dyn Fn(&Path) -> bool,
    project_root: Option<&Path>,
) -> Result<Toolkit, LocateError> {
    let from_nvcc = |nvcc: PathBuf| {
        // A toolkit root is the folder above bin/nvcc.
        let root = nvcc
            .parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Toolkit { root, nvcc }
    };

    if let Some(nvcc) = var(NVCC_VAR).filter(|v| !v.is_empty()) {
        let nvcc = PathBuf::from(nvcc);
        if !is_file(&nvcc) {
            return Err(LocateError::NvccNotAFile(nvcc));
        }
        return Ok(from_nvcc(nvcc));
    }
    for name in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(root) = var(name).filter(|v| !v.is_empty()) {
            let nvcc = Path::new(&root).join("bin").join("nvcc");
            if !is_file(&nvcc) {
                return Err(LocateError::NoBinNvcc {
                    var: name,
                    root: PathBuf::from(root),
                });
            }
            return Ok(from_nvcc(nvcc));
        }
    }
    if let Some(path) = var("PATH") {
        for dir in std::env::split_paths(&path) {
            let nvcc = dir.join("nvcc");
            if is_file(&nvcc) {
                return Ok(from_nvcc(nvcc));
            }
        }
    }
    let usr_local = PathBuf::from("/usr/local/cuda/bin/nvcc");
    if is_file(&usr_local) {
        return Ok(from_nvcc(usr_local));
    }
    if let Some(project) = project_root {
        let nvcc = project.join(".toolchain/cuda/bin/nvcc");
        if is_file(&nvcc) {
            return Ok(from_nvcc(nvcc));
        }
    }
    Err(LocateError::NotFound)
}

/// The workspace root, found by walking up from `start` to the folder whose
/// `Cargo.toml` declares `[workspace]`.
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        manifest
            .lines()
            .any(|line| line.trim() == "[workspace]")
            .then(|| dir.to_path_buf())
    })
}

impl Toolkit {
    /// Finds the toolkit from inside a build script, and asks Cargo to rebuild
    /// when any variable in the search order changes.
    pub fn from_build_env() -> Result<Toolkit, LocateError> {
        for name in [NVCC_VAR, "CUDA_HOME", "CUDA_PATH", "PATH"] {
            println!("cargo:rerun-if-env-changed={name}");
        }
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
        let project = manifest_dir.as_deref().and_then(workspace_root);
        locate(
            &|name| std::env::var_os(name),
            &|p| p.is_file(),
            project.as_deref(),
        )
    }

    /// The folders that may hold the runtime libraries: a system install keeps
    /// them under `targets/<arch>-linux/lib` or `lib64`, the PyPI wheels under `lib`.
    pub fn library_dirs(&self) -> Vec<PathBuf> {
        [
            self.root.join("lib64"),
            self.root.join("lib"),
            self.root.join("targets/x86_64-linux/lib"),
        ]
        .into_iter()
        .filter(|dir| dir.is_dir())
        .collect()
    }

    /// The folders that may hold `cuda_runtime_api.h`.
    pub fn include_dirs(&self) -> Vec<PathBuf> {
        [
            self.root.join("include"),
            self.root.join("targets/x86_64-linux/include"),
        ]
        .into_iter()
        .filter(|dir| dir.is_dir())
        .collect()
    }

    /// Emits the search paths and the link line for `libcudart_static.a`.
    ///
    /// The library is named without a `static=` kind on purpose: rustc then
    /// passes a plain `-lcudart_static` instead of bundling the archive into
    /// each rlib, so several crates can ask for it without duplicate symbols.
    pub fn emit_link_cudart_static(&self) {
        for dir in self.library_dirs() {
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
        println!("cargo:rustc-link-lib=cudart_static");
        // cudart_static loads libcuda with dlopen and uses threads and clocks.
        for lib in ["dl", "pthread", "rt"] {
            println!("cargo:rustc-link-lib={lib}");
        }
    }
}

/// Links the static CUDA runtime into the crate being built, for crates that
/// call cudart themselves without compiling a `.cu` (such as `cuda-check`).
pub fn link_cudart_static() {
    let toolkit = Toolkit::from_build_env().unwrap_or_else(|e| fail(&e.to_string()));
    toolkit.emit_link_cudart_static();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn files(paths: &[&str]) -> impl Fn(&Path) -> bool {
        let set: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        move |p| set.iter().any(|q| q == p)
    }

    #[test]
    fn explicit_nvcc_wins_over_everything() {
        let t = locate(
            &env(&[(NVCC_VAR, "/opt/a/bin/nvcc"), ("CUDA_HOME", "/opt/b")]),
            &files(&["/opt/a/bin/nvcc", "/opt/b/bin/nvcc"]),
            None,
        )
        .unwrap();
        assert_eq!(t.root, PathBuf::from("/opt/a"));
    }

    #[test]
    fn cuda_home_before_cuda_path_before_path() {
        let is = files(&["/h/bin/nvcc", "/p/bin/nvcc", "/s/bin/nvcc"]);
        let all = env(&[("CUDA_HOME", "/h"), ("CUDA_PATH", "/p"), ("PATH", "/s/bin")]);
        assert_eq!(locate(&all, &is, None).unwrap().root, PathBuf::from("/h"));
        let no_home = env(&[("CUDA_PATH", "/p"), ("PATH", "/s/bin")]);
        let t = locate(&no_home, &is, None).unwrap();
        assert_eq!(t.root, PathBuf::from("/p"));
        let path_only = env(&[("PATH", "/x:/s/bin")]);
        let t = locate(&path_only, &is, None).unwrap();
        assert_eq!(t.nvcc, PathBuf::from("/s/bin/nvcc"));
    }

    #[test]
    fn usr_local_before_project_toolchain() {
        let is = files(&["/usr/local/cuda/bin/nvcc", "/w/.toolchain/cuda/bin/nvcc"]);
        let t = locate(&env(&[]), &is, Some(Path::new("/w"))).unwrap();
        assert_eq!(t.nvcc, PathBuf::from("/usr/local/cuda/bin/nvcc"));
        let is = files(&["/w/.toolchain/cuda/bin/nvcc"]);
        let t = locate(&env(&[]), &is, Some(Path::new("/w"))).unwrap();
        assert_eq!(t.root, PathBuf::from("/w/.toolchain/cuda"));
    }

    #[test]
    fn a_variable_pointing_nowhere_is_an_error_not_a_fallback() {
        let is = files(&["/usr/local/cuda/bin/nvcc"]);
        let err = locate(&env(&[("CUDA_HOME", "/nope")]), &is, None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("CUDA_HOME is set to /nope"), "{err}");
        let err = locate(&env(&[(NVCC_VAR, "/nope/nvcc")]), &is, None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("LESSON_NVCC"), "{err}");
    }

    #[test]
    fn nothing_found_names_the_provisioning_command() {
        let err = locate(&env(&[("PATH", "/bin")]), &files(&[]), Some(Path::new("/w")))
            .unwrap_err()
            .to_string();
        assert!(err.contains(PROVISION_COMMAND), "{err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }

    #[test]
    fn workspace_root_is_the_folder_declaring_the_workspace() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = workspace_root(here).expect("this crate lives in the workspace");
        assert!(root.join("crates/course/cuda-build").is_dir());
        assert_ne!(root, here);
    }
}
