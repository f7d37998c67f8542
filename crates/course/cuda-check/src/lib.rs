//! Every CUDA status checked, one way, on the Rust side: the twin of the
//! course's `CUDA_CHECK` macro.
//!
//! [`check!`] takes a CUDA runtime status (a `cudaError_t` returned through a
//! lesson's FFI), a cudarc driver result or, with the `cupti` feature, a
//! cudarc CUPTI result (module `cupti`), and turns a failure into a
//! [`CudaError`] that names the file, the line, the call's text and CUDA's
//! error name and message, printed in the course's shape:
//!
//! ```text
//! CUDA error code/<lesson>/src/main.rs:88: d_a.copy_from_host(&h_a): out of memory (CUDA_ERROR_OUT_OF_MEMORY)
//! ```
//!
//! [`require_driver`] comes before the first cudarc call: cudarc panics (exit
//! code 101) when libcuda cannot be loaded, and a learner without a GPU should
//! read one line instead.
//!
//! Not for: printing or exiting (`lesson-cli` does that), or allocating and
//! timing (`cuda-objects`, `time-kernel`, `instrument`).

#[cfg(feature = "cupti")]
pub mod cupti;
mod error;
pub mod runtime;

pub use error::{CudaError, NoDriver};
pub use runtime::RuntimeStatus;

use cudarc::driver::DriverError;

/// Checks a CUDA status; evaluates to `Result<T, CudaError>` for use with `?`.
///
/// ```text
/// let ctx = check!(CudaContext::new(0))?;        // a cudarc result: yields its value
/// check!(unsafe { ffi::lesson_launch(...) })?;    // a cudaError_t from FFI
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
            // The enum's own name needs no driver.
            let name = format!("{:?}", e.0);
            CudaError::new(file, line, call, name, driver_message(e, require_driver()))
        })
    }
}

/// The driver's message for `e` where there is a driver to ask
/// (cuGetErrorString, which cudarc would panic on without libcuda), and a
/// sentence that says so where there is none.
fn driver_message(e: DriverError, driver: Result<(), NoDriver>) -> String {
    driver
        .ok()
        .and_then(|()| e.error_string().ok())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "no driver loaded to describe this error".to_string())
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

/// Refuses a launch over `n` elements when a buffer it touches holds fewer
/// (`lens`, each buffer's length): past the end the kernel would fault on
/// the device, far from the call, so a lesson's safe wrapper refuses it here
/// where it can be named. The error names the wrapper's own file and line.
#[track_caller]
pub fn within_buffers(call: &'static str, n: usize, lens: &[usize]) -> Result<(), CudaError> {
    if lens.iter().all(|&len| n <= len) {
        return Ok(());
    }
    let at = std::panic::Location::caller();
    Err(CudaError::refused(
        at.file(),
        at.line(),
        call,
        "n is past the end of a buffer",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_within_every_buffer_passes_and_one_past_an_end_is_refused_where_it_was_made() {
        assert_eq!(within_buffers("vector_add", 4, &[4, 5]), Ok(()));
        assert_eq!(within_buffers("vector_add", 0, &[]), Ok(()));
        let line = line!() + 1;
        let e = within_buffers("vector_add", 5, &[8, 4]).unwrap_err();
        assert_eq!((e.file, e.line, e.call), (file!(), line, "vector_add"));
        assert_eq!(e.name, "cudaErrorInvalidValue");
        assert_eq!(e.message, "n is past the end of a buffer");
    }

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
    fn a_driver_failure_names_the_code_in_one_line_with_or_without_a_driver() {
        // With a driver the message is cuGetErrorString's; without one it is
        // the fallback. Either way: no panic, the code's name, one line.
        let failed: Result<(), DriverError> = Err(DriverError(
            cudarc::driver::sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY,
        ));
        let err = check!(failed).unwrap_err();
        assert_eq!(err.name, "CUDA_ERROR_OUT_OF_MEMORY");
        assert!(!err.message.is_empty());
        assert!(err.to_string().starts_with("CUDA error "));
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn without_a_driver_the_message_says_there_was_none_to_ask() {
        let oom = DriverError(cudarc::driver::sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY);
        assert_eq!(
            driver_message(oom, Err(NoDriver)),
            "no driver loaded to describe this error"
        );
    }

    #[test]
    fn no_driver_is_one_line_that_says_what_to_do() {
        let text = NoDriver.to_string();
        assert!(text.starts_with("no CUDA driver found"), "{text}");
        assert!(text.contains("NVIDIA GPU and driver"), "{text}");
        assert!(!text.contains('\n'));
    }
}
