//! Whether the cupti mode can run here: the build needs the `cupti` feature
//! and libcupti must be found. It ships with the toolkit, not the driver,
//! and is often not on the loader's path, so [`available`] also looks in the
//! toolkit's usual places, and says why not ([`CuptiUnavailable`]).

/// Why the cupti mode cannot run in this process. The table and the JSON
/// carry the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CuptiUnavailable {
    /// A build without the `cupti` feature.
    #[error("this build of the instrument has no cupti mode (its cupti feature is off)")]
    NotBuilt,
    /// libcupti ships with the toolkit, not the driver.
    #[error(
        "libcupti was not found on the library path or in the CUDA toolkit \
         (add the toolkit's extras/CUPTI/lib64 to LD_LIBRARY_PATH)"
    )]
    NotFound,
}

/// Whether the cupti mode can run in this process, and why not if not:
/// libcupti must be found, and the build must have the `cupti` feature.
/// Asked once.
pub fn available() -> Result<(), CuptiUnavailable> {
    #[cfg(feature = "cupti")]
    {
        static LOADED: std::sync::OnceLock<Result<(), CuptiUnavailable>> = std::sync::OnceLock::new();
        *LOADED.get_or_init(load::load)
    }
    #[cfg(not(feature = "cupti"))]
    Err(CuptiUnavailable::NotBuilt)
}

#[cfg(feature = "cupti")]
mod load {
    use std::path::PathBuf;

    use cudarc::cupti::sys;

    use crate::libcupti::CuptiUnavailable;

    /// Where libcupti lives in a CUDA toolkit, most specific first.
    pub(super) fn toolkit_library_candidates() -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = ["CUDA_HOME", "CUDA_PATH"]
            .iter()
            .filter_map(|v| std::env::var_os(v).map(PathBuf::from))
            .collect();
        roots.push(PathBuf::from("/usr/local/cuda"));
        let mut out = Vec::new();
        for root in roots {
            for dir in ["extras/CUPTI/lib64", "lib64", "targets/x86_64-linux/lib"] {
                for name in ["libcupti.so.13", "libcupti.so"] {
                    out.push(root.join(dir).join(name));
                }
            }
        }
        out
    }

    pub(super) fn load() -> Result<(), CuptiUnavailable> {
        // CUPTI, raw on purpose (`trace` says why): whether libcupti, the
        // toolkit's library and not the driver's, can be opened.
        // SAFETY: only tries to open the library by its usual names.
        if unsafe { sys::is_culib_present() } {
            return Ok(());
        }
        for path in toolkit_library_candidates() {
            let Some(text) = path.to_str().filter(|_| path.is_file()) else {
                continue;
            };
            let Ok(c_path) = std::ffi::CString::new(text) else {
                continue;
            };
            // Loaded once by its full path and kept: the loader then answers
            // cudarc's later open by the library's own name (its soname) with it.
            // SAFETY: loading a shared library; the handle is never closed.
            let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
            // CUPTI, as above: opened now that the loader holds it.
            // SAFETY: as above.
            if !handle.is_null() && unsafe { sys::is_culib_present() } {
                return Ok(());
            }
        }
        Err(CuptiUnavailable::NotFound)
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn the_toolkit_search_looks_in_extras_cupti_first() {
            let c = super::toolkit_library_candidates();
            let first_default = c.iter().position(|p| p.starts_with("/usr/local/cuda")).unwrap();
            assert!(
                c[first_default].ends_with("extras/CUPTI/lib64/libcupti.so.13"),
                "{:?}",
                c[first_default]
            );
        }
    }
}
