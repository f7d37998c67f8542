//! The one line a lesson's failure prints, in the course's shapes.

use cuda_check::CudaError;

/// A lesson's own check failed. The text is printed exactly as given, so
/// the Rust and C++ programs fail with the same line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckFailed(pub String);

/// The line printed for a lesson's error. A CUDA error or a failed check
/// anywhere in the chain is printed alone, in the course's shape (`CUDA
/// error <file>:<line>: <call>: <message> (<name>)`, or the check's own
/// line), so the twins fail as the C++ programs do; anything else is
/// `error: ` and the error with its context, all on one line.
pub fn error_line(e: &anyhow::Error) -> String {
    let course_shape = e.chain().find_map(|cause| {
        if let Some(cuda) = cause.downcast_ref::<CudaError>() {
            Some(cuda.to_string())
        } else {
            cause.downcast_ref::<CheckFailed>().map(CheckFailed::to_string)
        }
    });
    match course_shape {
        // A message with a newline inside would break the one-line promise.
        Some(line) => line.replace('\n', " "),
        None => cli_exit::error_line(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    fn cuda() -> CudaError {
        CudaError::new(
            "a.rs",
            7,
            "f()",
            "cudaErrorInvalidValue".into(),
            "invalid argument".into(),
        )
    }

    #[test]
    fn a_cuda_error_keeps_the_courses_shape_even_under_context() {
        let want = "CUDA error a.rs:7: f(): invalid argument (cudaErrorInvalidValue)";
        assert_eq!(error_line(&cuda().into()), want);
        let wrapped = Err::<(), _>(cuda()).context("timing row 4").unwrap_err();
        assert_eq!(error_line(&wrapped), want);
    }

    #[test]
    fn a_failed_check_is_its_own_line() {
        let check = CheckFailed("vectorAdd wrong at 3: got 1, want 2".into());
        assert_eq!(error_line(&check.into()), "vectorAdd wrong at 3: got 1, want 2");
    }

    #[test]
    fn anything_else_is_error_and_its_context_chain_on_one_line() {
        assert_eq!(
            error_line(&cuda_check::NoDriver.into()),
            "error: no CUDA driver found (libcuda.so.1 could not be loaded); this program needs an NVIDIA GPU and driver"
        );
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission\ndenied");
        let e = Err::<(), _>(io).context("writing out.json").unwrap_err();
        assert_eq!(error_line(&e), "error: writing out.json: permission denied");
    }

    #[test]
    fn a_multi_line_cuda_message_is_folded() {
        let mut e = cuda();
        e.message = "two\nlines".into();
        assert_eq!(
            error_line(&e.into()),
            "CUDA error a.rs:7: f(): two lines (cudaErrorInvalidValue)"
        );
    }
}
