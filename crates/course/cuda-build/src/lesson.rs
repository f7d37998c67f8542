//! Compiling one lesson: its `.cu` through nvcc, its C header through bindgen.

use std::path::{Path, PathBuf};

use crate::fail::fail;
use crate::toolkit::Toolkit;
use crate::ARCHS_VAR;

/// Defined when a lesson's `.cu` is compiled into the Rust binary, so the file
/// leaves out its own `main` (which would collide with Rust's at link time).
pub const NO_MAIN_DEFINE: &str = "LESSON_NO_MAIN";

/// Machine code for Turing (T4), Ampere (A100) and Hopper (H100, H200), plus
/// PTX for the newest so later GPUs can compile it at load time.
pub const DEFAULT_ARCHS: &[u32] = &[75, 80, 90];

/// One lesson's native half: a `.cu` file and the C header the Rust side binds.
pub struct Lesson {
    cu: PathBuf,
    header: PathBuf,
    prefix: String,
}

impl Lesson {
    /// `cu` and `header` are relative to the lesson's directory; `prefix` selects
    /// the header's functions to bind (every launcher starts with it).
    pub fn new(cu: impl AsRef<Path>, header: impl AsRef<Path>, prefix: &str) -> Self {
        Lesson {
            cu: cu.as_ref().to_path_buf(),
            header: header.as_ref().to_path_buf(),
            prefix: prefix.to_string(),
        }
    }

    /// Compiles, links and binds; on any failure prints one line and exits 1.
    pub fn build(&self) {
        println!("cargo:rerun-if-changed={}", self.cu.display());
        println!("cargo:rerun-if-changed={}", self.header.display());
        println!("cargo:rerun-if-env-changed={ARCHS_VAR}");

        let toolkit = Toolkit::from_build_env().unwrap_or_else(|e| fail(&e.to_string()));
        let archs = match std::env::var(ARCHS_VAR) {
            Ok(list) => parse_archs(&list).unwrap_or_else(|e| fail(&e.to_string())),
            Err(_) => DEFAULT_ARCHS.to_vec(),
        };

        // cc takes nvcc from NVCC; point it at the toolkit our search chose.
        // Build scripts are single-threaded, so setting it cannot race.
        std::env::set_var("NVCC", &toolkit.nvcc);
        let mut build = cc::Build::new();
        build
            .cuda(true)
            .file(&self.cu)
            .define(NO_MAIN_DEFINE, None)
            // The release profile keeps line tables for Rust, and cc would
            // turn that into nvcc's -G, which disables device optimisation.
            .debug(false)
            .opt_level(3)
            .flag("-std=c++17")
            .flag("-O3")
            .flag("-lineinfo")
            // Constants only the standalone main() uses are unused here.
            .flag("-diag-suppress=177")
            // cc picks cudart's search path from nvcc's location, which misses
            // the wheels' lib/; emit_link_cudart_static adds every candidate.
            .cudart("none")
            .warnings(false);
        for flag in gencode_flags(&archs) {
            build.flag(&flag);
        }
        let stem = self
            .cu
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("lesson")
            .to_string();
        if let Err(e) = build.try_compile(&format!("{stem}_cu")) {
            fail(&format!("nvcc failed on {}: {e}", self.cu.display()));
        }
        toolkit.emit_link_cudart_static();
        // The nvcc this build used, for a lesson's tests that build an
        // edited copy of its .cu the same way.
        println!("cargo:rustc-env=CUDA_BUILD_NVCC={}", toolkit.nvcc.display());

        self.bind(&toolkit);
    }

    fn bind(&self, toolkit: &Toolkit) {
        let mut builder = bindgen::Builder::default()
            .header(self.header.to_string_lossy())
            .allowlist_function(format!("{}.*", self.prefix))
            .allowlist_var(format!("{}.*", self.prefix))
            // cudaError_t is the shared RuntimeStatus, so every lesson's
            // launchers return a type cuda-check's `check!` accepts.
            .blocklist_type("cudaError(_t)?")
            .raw_line("pub use cuda_check::RuntimeStatus as cudaError_t;")
            .default_enum_style(bindgen::EnumVariation::Rust {
                non_exhaustive: false,
            })
            .layout_tests(false)
            .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()));
        for dir in toolkit.include_dirs() {
            builder = builder.clang_arg(format!("-I{}", dir.display()));
        }
        let bindings = builder
            .generate()
            .unwrap_or_else(|e| fail(&format!("bindgen failed on {}: {e}", self.header.display())));
        let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR is not set")));
        bindings
            .write_to_file(out.join("bindings.rs"))
            .unwrap_or_else(|e| fail(&format!("cannot write bindings: {e}")));
    }
}

/// `-gencode` flags: machine code for every architecture, PTX for the newest.
pub fn gencode_flags(archs: &[u32]) -> Vec<String> {
    let mut flags: Vec<String> = archs
        .iter()
        .map(|a| format!("-gencode=arch=compute_{a},code=sm_{a}"))
        .collect();
    if let Some(newest) = archs.iter().max() {
        flags.push(format!("-gencode=arch=compute_{newest},code=compute_{newest}"));
    }
    flags
}

/// A `LESSON_CUDA_ARCHS` that names no architecture the build can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchsError {
    #[error("{ARCHS_VAR}: `{0}` is not a compute capability like 90")]
    NotACapability(String),
    #[error("{ARCHS_VAR} is set but names no architecture")]
    Empty,
}

/// Parses `LESSON_CUDA_ARCHS`: compute capabilities such as `75,90` or `sm_90;80`.
pub fn parse_archs(list: &str) -> Result<Vec<u32>, ArchsError> {
    let archs: Result<Vec<u32>, ArchsError> = list
        .split([',', ';', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let digits = s.strip_prefix("sm_").unwrap_or(s);
            digits
                .parse::<u32>()
                .ok()
                .filter(|a| (50..=200).contains(a))
                .ok_or_else(|| ArchsError::NotACapability(s.to_string()))
        })
        .collect();
    let archs = archs?;
    if archs.is_empty() {
        return Err(ArchsError::Empty);
    }
    Ok(archs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_gencode_is_sm75_sm80_sm90_and_ptx_for_90() {
        assert_eq!(
            gencode_flags(DEFAULT_ARCHS),
            [
                "-gencode=arch=compute_75,code=sm_75",
                "-gencode=arch=compute_80,code=sm_80",
                "-gencode=arch=compute_90,code=sm_90",
                "-gencode=arch=compute_90,code=compute_90",
            ]
        );
    }

    #[test]
    fn ptx_goes_to_the_newest_whatever_the_order() {
        let flags = gencode_flags(&[90, 75]);
        assert_eq!(flags.last().unwrap(), "-gencode=arch=compute_90,code=compute_90");
    }

    #[test]
    fn archs_parse_with_either_separator_and_sm_prefix() {
        assert_eq!(parse_archs("75,90").unwrap(), [75, 90]);
        assert_eq!(parse_archs("sm_90; 80").unwrap(), [90, 80]);
    }

    #[test]
    fn bad_archs_are_one_line_errors() {
        for bad in ["", " , ", "ninety", "sm_9x", "7"] {
            let err = parse_archs(bad).unwrap_err().to_string();
            assert!(err.starts_with(ARCHS_VAR), "{bad:?}: {err}");
            assert!(!err.contains('\n'));
        }
    }
}
