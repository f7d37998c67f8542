//! Every CUDA status checked, one way, on the Rust side: the twin of the
//! course's `CUDA_CHECK` macro.
//!
//! [`check!`] takes a CUDA runtime status (a `cudaError_t` returned through a
//! lesson's FFI), a cudarc driver result or a cudarc CUPTI result, and turns a failure into a
//! [`CudaError`] that names the file, the line, the call's text and CUDA's
//! error name and message, printed in the course's shape:
//!
//! ```text
//! CUDA error code/day09-timing/src/main.rs:88: d_a.copy_from_host(&h_a): out of memory (CUDA_ERROR_OUT_OF_MEMORY)
//! ```
//!
//! [`require_driver`] comes before the first cudarc call: cudarc panics (exit
//! code 101) when libcuda cannot be loaded, and a learner without a GPU should
//! read one line instead.
//!
//! Not for: printing or exiting (`lesson-cli` does that), or allocating and
//! timing (`cuda-objects`, `time-kernel`).

mod error;
pub mod runtime;

pub use error::{CudaError, NoDriver};
pub use runtime::RuntimeStatus;

use cudarc::cupti::result::CuptiError;
use cudarc::driver::DriverError;

/// Checks a CUDA status; evaluates to `Result<T, CudaError>` for use with `?`.
///
/// ```text
/// let ctx = check!(CudaContext::new(0))?;        // a cudarc result: yields its value
/// check!(unsafe { ffi::day09_vector_add(...) })?; // a cudaError_t from FFI
/// ```
#[macro_export]
macro_rules! check {
    ($call:expr) => {
        $crate::Status::check($call, file!(), line!(), stringify!($call))
    };
}

/// Anything [`check!`] accepts: a status that is success or a CUDA error.
pub trait Status {
    /// What a success carries: `()` for a bare status, `T` for `Result<T, _>`.
    type Output;
    fn check(self, file: &'static str, line: u32, call: &'static str) -> Result<Self::Output, CudaError>;
}

impl Status for RuntimeStatus {
    type Output = ();
    fn check(self, file: &'static str, line: u32, call: &'static str) -> Result<(), CudaError> {
        if self.is_success() {
            Ok(())
        } else {
            Err(CudaError::new(file, line, call, self.name(), self.message()))
        }
    }
}

impl<T> Status for Result<T, DriverError> {
    type Output = T;
    fn check(self, file: &'static str, line: u32, call: &'static str) -> Result<T, CudaError> {
        self.map_err(|e| {
            // The enum's own name needs no driver; the message comes from
            // cuGetErrorString, which cudarc would panic on without libcuda.
            let name = format!("{:?}", e.0);
            let message = require_driver()
                .ok()
                .and_then(|()| e.error_string().ok())
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "no driver loaded to describe this error".to_string());
            CudaError::new(file, line, call, name, message)
        })
    }
}

impl<T> Status for Result<T, CuptiError> {
    type Output = T;
    fn check(self, file: &'static str, line: u32, call: &'static str) -> Result<T, CudaError> {
        self.map_err(|e| {
            let name = format!("{:?}", e.0);
            // CUPTI describes these by repeating their name; say what they
            // mean for the person running the program instead. Otherwise a
            // CUPTI status only comes back from a call into libcupti, so the
            // library is loaded and can describe it. cudarc's Debug and
            // Display for CuptiError unwrap that description; this does not.
            let message = match cupti_hint(e.0) {
                Some(hint) => hint.to_string(),
                None => e
                    .error_string()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| "CUPTI gave no description".to_string()),
            };
            CudaError::new(file, line, call, name, message)
        })
    }
}

/// What a CUPTI status means in plain words, where CUPTI's own text does not say.
fn cupti_hint(status: cudarc::cupti::sys::CUptiResult) -> Option<&'static str> {
    use cudarc::cupti::sys::CUptiResult as R;
    match status {
        R::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED => {
            Some("another CUPTI client, such as a profiler (ncu, nsys), is attached to this process")
        }
        R::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES => {
            Some("this user may not profile the GPU (the driver's RmProfilingAdminOnly setting)")
        }
        _ => None,
    }
}

/// Succeeds when libcuda can be loaded; call it before any cudarc call.
pub fn require_driver() -> Result<(), NoDriver> {
    // SAFETY: only tries to open the library by name and closes it again.
    let present = unsafe { cudarc::driver::sys::is_culib_present() };
    if present {
        Ok(())
    } else {
        Err(NoDriver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_passes_through_with_its_value() {
        let ok: Result<u32, DriverError> = Ok(7);
        assert_eq!(check!(ok).unwrap(), 7);
        assert!(check!(RuntimeStatus::SUCCESS).is_ok());
    }

    #[test]
    fn a_runtime_failure_names_file_line_call_and_cuda_text() {
        let line = line!() + 1;
        let err = check!(RuntimeStatus(2)).unwrap_err();
        assert_eq!(err.file, file!());
        assert_eq!(err.line, line);
        assert_eq!(err.call, "RuntimeStatus(2)");
        assert_eq!(err.name, "cudaErrorMemoryAllocation");
        assert_eq!(err.message, "out of memory");
        assert_eq!(
            err.to_string(),
            format!(
                "CUDA error {}:{line}: RuntimeStatus(2): out of memory (cudaErrorMemoryAllocation)",
                file!()
            )
        );
    }

    #[test]
    fn the_call_text_is_the_expression_as_written() {
        let status = |code| RuntimeStatus(code);
        let code = 1;
        let err = check!(status(code)).unwrap_err();
        assert_eq!(err.call, "status(code)");
        assert_eq!(err.name, "cudaErrorInvalidValue");
    }

    #[test]
    fn a_cupti_failure_with_a_plain_reason_says_it() {
        use cudarc::cupti::sys::CUptiResult;
        // No libcupti is needed: these statuses are described without it.
        let failed: Result<(), CuptiError> = Err(CuptiError(
            CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
        ));
        let err = check!(failed).unwrap_err();
        assert_eq!(err.name, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
        assert!(err.message.contains("profiler (ncu, nsys)"), "{err}");
        assert!(cupti_hint(CUptiResult::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).is_some());
        assert!(
            cupti_hint(CUptiResult::CUPTI_ERROR_UNKNOWN).is_none(),
            "others keep CUPTI's text"
        );
    }

    #[test]
    fn a_driver_failure_without_a_driver_still_names_the_code() {
        // Without libcuda, cuGetErrorName cannot run; the error must still be
        // one useful line rather than a panic.
        if require_driver().is_ok() {
            return; // The fallback text is only reachable without a driver.
        }
        let failed: Result<(), DriverError> = Err(DriverError(
            cudarc::driver::sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY,
        ));
        let err = check!(failed).unwrap_err();
        assert_eq!(err.name, "CUDA_ERROR_OUT_OF_MEMORY");
        assert!(err.to_string().starts_with("CUDA error "));
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn no_driver_is_one_line_that_says_what_to_do() {
        let text = NoDriver.to_string();
        assert!(text.starts_with("no CUDA driver found"), "{text}");
        assert!(text.contains("NVIDIA GPU and driver"), "{text}");
        assert!(!text.contains('\n'));
    }
}
