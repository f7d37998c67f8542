//! A pair of timing events around GPU work queued on one stream: the clock
//! every mode but CUPTI's reads.
//!
//! Not for: the course's warm-up-and-mean timing (`time-kernel`).

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};

/// Start and stop events, reused for every sample of a measurement.
pub(crate) struct Events {
    pub(crate) start: CudaEvent,
    pub(crate) stop: CudaEvent,
}

impl Events {
    pub(crate) fn new(ctx: &Arc<CudaContext>) -> Result<Events, CudaError> {
        Ok(Events {
            start: timing_event(ctx)?,
            stop: timing_event(ctx)?,
        })
    }

    /// Milliseconds of GPU time that `work` queues on `stream`.
    pub(crate) fn time(
        &self,
        stream: &CudaStream,
        work: impl FnOnce() -> Result<(), CudaError>,
    ) -> Result<f64, CudaError> {
        check!(self.start.record(stream))?;
        work()?;
        check!(self.stop.record(stream))?;
        check!(self.stop.synchronize())?;
        check!(runtime::last_error())?;
        Ok(f64::from(check!(self.start.elapsed_ms(&self.stop))?))
    }
}

/// An event that records time (the default flags).
pub(crate) fn timing_event(ctx: &Arc<CudaContext>) -> Result<CudaEvent, CudaError> {
    check!(ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))
}
