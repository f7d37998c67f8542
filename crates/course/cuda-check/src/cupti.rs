//! CUPTI statuses through [`check!`](crate::check), with a plain reason where
//! CUPTI's own text only repeats the status's name. Built with the `cupti`
//! feature, which only a crate that calls CUPTI turns on.
//!
//! Not for: loading libcupti or tracing (the `instrument` crate's `trace`).

use cudarc::cupti::result::CuptiError;
use cudarc::cupti::sys::CUptiResult;

use crate::{CudaError, Status};

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
            let message = match plain_reason(e.0) {
                Some(reason) => reason.to_string(),
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
fn plain_reason(status: CUptiResult) -> Option<&'static str> {
    match status {
        CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED => {
            Some("another CUPTI client, such as a profiler (ncu, nsys), is attached to this process")
        }
        CUptiResult::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES => {
            Some("this user may not profile the GPU (the driver's RmProfilingAdminOnly setting)")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;

    #[test]
    fn a_cupti_failure_with_a_plain_reason_says_it() {
        // No libcupti is needed: these statuses are described without it.
        let failed: Result<(), CuptiError> = Err(CuptiError(
            CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
        ));
        let err = check!(failed).unwrap_err();
        assert_eq!(err.name, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
        assert!(err.message.contains("profiler (ncu, nsys)"), "{err}");
    }

    #[test]
    fn only_statuses_whose_text_says_nothing_get_a_plain_reason() {
        let privileges = plain_reason(CUptiResult::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
        assert!(privileges.is_some_and(|r| r.contains("RmProfilingAdminOnly")));
        assert!(
            plain_reason(CUptiResult::CUPTI_ERROR_UNKNOWN).is_none(),
            "others keep CUPTI's text"
        );
    }

    #[test]
    fn a_cupti_success_passes_its_value_through() {
        let ok: Result<u32, CuptiError> = Ok(5);
        assert_eq!(check!(ok).unwrap(), 5);
    }
}
