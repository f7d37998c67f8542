//! pinned.cu's kernel, launched through the C interface in pinned.h.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

use cuda_check::{check, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::CudaStream;

/// Where scaleCopy reads from: a device address and how many floats it holds.
#[derive(Clone, Copy)]
pub struct Input {
    pub ptr: *const f32,
    pub len: usize,
}

/// Queues scaleCopy over the first `n` elements on `stream`.
pub fn scale_copy(
    input: Input,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    if n > input.len || n > out.len() {
        return Err(CudaError::refused(
            file!(),
            line!(),
            "scale_copy",
            "n is past the end of a buffer",
        ));
    }
    let raw = stream.cu_stream() as cudaStream_t;
    // SAFETY: input and out hold at least n floats reachable from this context.
    check!(unsafe { day53_scale_copy(input.ptr, out.as_mut_ptr(), n, raw) })
}
