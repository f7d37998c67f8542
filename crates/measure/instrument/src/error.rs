//! [`Error`]: why a measurement could not be made, one variant per cause. A
//! failed CUDA call is [`Error::Cuda`]; every other variant is a refusal of
//! the instrument's own, said in one line that names its real cause.

use cuda_check::CudaError;

use crate::driver::DriverTooOld;
use crate::libcupti::CuptiUnavailable;
use crate::sampling::BudgetError;
#[cfg(feature = "cupti")]
use crate::trace::RecordsError;

/// Why [`crate::measure::Instrument::measure`] (or the calibration, or a
/// graph capture) stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error(transparent)]
    Budget(#[from] BudgetError),
    #[error(transparent)]
    Driver(#[from] DriverTooOld),
    /// Every sample throttled, and throttled samples are left out.
    #[error("all {samples} samples were taken while the GPU was throttling")]
    AllThrottled { samples: usize },
    #[error(transparent)]
    CuptiUnavailable(#[from] CuptiUnavailable),
    /// CUPTI has one set of activity callbacks per process.
    #[cfg(feature = "cupti")]
    #[error("a kernel trace is already running in this process")]
    TraceBusy,
    #[cfg(feature = "cupti")]
    #[error("{buffers} CUPTI record buffer(s) could not be allocated; records were lost")]
    RecordsLost { buffers: usize },
    /// The trace's records are not one set of kernels per launch (a launch
    /// that runs no kernel, say).
    #[cfg(feature = "cupti")]
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// The isolated mode joins the flush to the launch through a
    /// programmatic edge, which only a kernel can take.
    #[error(
        "isolated mode needs a launch that starts with a kernel launch \
         (the flush joins it through a programmatic edge)"
    )]
    IsolatedNeedsKernel,
    #[error("the graph capture recorded no work")]
    EmptyCapture,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instruments_own_refusals_name_their_cause_and_no_cuda_error() {
        let budget = BudgetError::Samples { min: 60, max: 50 };
        let lines = [
            Error::from(budget).to_string(),
            Error::AllThrottled { samples: 400 }.to_string(),
            Error::from(CuptiUnavailable::NotBuilt).to_string(),
            Error::IsolatedNeedsKernel.to_string(),
            Error::EmptyCapture.to_string(),
        ];
        assert_eq!(lines[0], "sample budget: min 60 and max 50 samples cannot be met");
        assert_eq!(
            lines[1],
            "all 400 samples were taken while the GPU was throttling"
        );
        for line in &lines {
            assert!(
                !line.contains("cudaError") && !line.contains("CUDA error"),
                "{line}"
            );
            assert!(!line.contains('\n'), "{line}");
        }
    }

    #[test]
    fn a_cuda_error_is_printed_as_cuda_says_it() {
        let cuda = CudaError::new(
            "a.rs",
            7,
            "f()",
            "cudaErrorMemoryAllocation".into(),
            "out of memory".into(),
        );
        let e = Error::from(cuda.clone());
        assert_eq!(e.to_string(), cuda.to_string());
        assert!(matches!(e, Error::Cuda(c) if c == cuda));
    }
}
