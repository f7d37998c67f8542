//! A stream with `cudaStreamCreate` semantics.

use std::sync::Arc;

use cudarc::driver::{result, CudaContext, CudaStream, DriverError};

use crate::owner::release;

/// A blocking stream: it synchronises with the legacy default stream, as a
/// stream from `cudaStreamCreate` does. cudarc's `new_stream` makes
/// non-blocking ones, which would change what a lesson measures.
pub struct BlockingStream {
    stream: Arc<CudaStream>,
}

impl BlockingStream {
    pub fn create(ctx: &Arc<CudaContext>) -> Result<Self, DriverError> {
        ctx.bind_to_thread()?;
        let raw = result::stream::create(result::stream::StreamKind::Default)?;
        // SAFETY: raw is a live stream of ctx; Drop below destroys it only
        // after this wrapper, which borrows it, is gone with self.
        let stream = unsafe { ctx.wrap_borrowed_stream(raw) };
        Ok(BlockingStream { stream })
    }

    /// The cudarc view of the stream, for events and `time-kernel`.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }
}

impl Drop for BlockingStream {
    fn drop(&mut self) {
        let raw = self.stream.cu_stream();
        // SAFETY: the stream was created in `create` and is destroyed once.
        release(&**self.stream.context(), |keep| {
            keep(unsafe { result::stream::destroy(raw) })
        });
    }
}

/// cudarc's stream handle as a lesson's `cudaStream_t`, for its FFI: the
/// same pointer, two bindings' names (cudarc's and the lesson's bindgen's)
/// for the opaque struct behind it. `S` is the lesson's `CUstream_st`,
/// inferred from the launcher's parameter.
pub fn runtime_stream<S>(stream: &CudaStream) -> *mut S {
    stream.cu_stream() as *mut S
}
