//! The cold-cache mode ([`crate::Mode::ColdCache`]): one launch per sample,
//! after an L2 flush ([`crate::flush`]) outside the timed region.

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::timing_event;
use cudarc::driver::{CudaContext, CudaEvent};

use super::setup::{timed_ms, Setup};
use crate::flush::L2Flush;
use crate::mode::Launch;

pub(crate) struct ColdCache {
    flush: L2Flush,
    flush_start: CudaEvent,
}

impl ColdCache {
    pub(super) fn new(ctx: &Arc<CudaContext>) -> Result<ColdCache, CudaError> {
        Ok(ColdCache {
            flush: L2Flush::new(ctx)?,
            flush_start: timing_event(ctx)?,
        })
    }

    pub(super) fn take(
        &self,
        setup: &mut Setup<'_, impl Launch>,
        gpu_ms: &mut f64,
    ) -> Result<f64, CudaError> {
        let (stream, events, launch) = (setup.stream, setup.events, &mut *setup.launch);
        // The flush is queued just before the start event and not waited
        // for: the device stays busy while the host queues the launch, so the
        // sample holds the kernel on a cold L2 and no host latency.
        check!(self.flush_start.record(stream))?;
        self.flush.queue(stream)?;
        let total = timed_ms(events, stream, || launch(stream))?;
        // The flush is outside the timed region, but GPU time all the same.
        *gpu_ms += total + f64::from(check!(self.flush_start.elapsed_ms(&events.start))?);
        Ok(total)
    }
}
