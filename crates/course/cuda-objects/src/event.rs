//! Events as the course's C++ uses them: timing events (`cudaEventCreate`'s
//! default flags, where cudarc's `new_event(None)` turns timing off), the
//! start/stop pair around timed work, and the bare record and wait calls.
//!
//! Not for: the course's warm-up-and-mean loop (`time-kernel`), or the
//! instrument's sampling.

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cudarc::driver::sys::{self, CUevent_flags, CUevent_record_flags};
use cudarc::driver::{result, CudaContext, CudaEvent, CudaStream};

/// An event that records time (`cudaEventCreate`'s default).
pub fn timing_event(ctx: &Arc<CudaContext>) -> Result<CudaEvent, CudaError> {
    check!(ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))
}

/// A start and a stop timing event, reused for every span they time.
pub struct EventPair {
    pub start: CudaEvent,
    pub stop: CudaEvent,
}

impl EventPair {
    pub fn new(ctx: &Arc<CudaContext>) -> Result<EventPair, CudaError> {
        Ok(EventPair {
            start: timing_event(ctx)?,
            stop: timing_event(ctx)?,
        })
    }

    /// Milliseconds of GPU time that `work` queues on `stream`, as the
    /// course times one launch: record, work, record, wait for the stop,
    /// check for a launch error, read the span.
    pub fn time(
        &self,
        stream: &CudaStream,
        work: impl FnOnce() -> Result<(), CudaError>,
    ) -> Result<f32, CudaError> {
        check!(self.start.record(stream))?;
        work()?;
        check!(self.stop.record(stream))?;
        check!(self.stop.synchronize())?;
        check!(runtime::last_error())?;
        check!(self.start.elapsed_ms(&self.stop))
    }
}

/// `cudaEventRecord`: the driver call alone, without cudarc's context bind,
/// so nothing but the record lands between two timed calls. The event and
/// stream must belong to the context current on this thread.
pub fn record(event: &CudaEvent, stream: &CudaStream) -> Result<(), CudaError> {
    // SAFETY: both handles are live for the borrow; cudarc made both in one context.
    check!(unsafe { result::event::record(event.cu_event(), stream.cu_stream()) })
}

/// `cudaEventRecordWithFlags(event, stream, cudaEventRecordExternal)`: on a
/// capturing stream, a record that becomes a node of the graph (a plain one
/// only orders the capture).
pub fn record_external(event: &CudaEvent, stream: &CudaStream) -> Result<(), CudaError> {
    let flags = CUevent_record_flags::CU_EVENT_RECORD_EXTERNAL as u32;
    // SAFETY: a live event and stream of the same context.
    check!(unsafe { sys::cuEventRecordWithFlags(event.cu_event(), stream.cu_stream(), flags) }.result())
}

/// `cudaStreamWaitEvent(stream, event, 0)`, the driver call alone.
pub fn wait(stream: &CudaStream, event: &CudaEvent) -> Result<(), CudaError> {
    // SAFETY: as for `record`.
    check!(unsafe {
        result::stream::wait_event(
            stream.cu_stream(),
            event.cu_event(),
            sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT,
        )
    })
}
