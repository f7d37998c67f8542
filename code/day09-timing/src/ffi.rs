//! timing.cu's kernels, launched through the C interface in timing.h.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

use cuda_check::{check, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::CudaStream;

/// cudarc's stream handle as the runtime's `cudaStream_t`: the same pointer,
/// two bindings' names for the opaque struct behind it.
fn raw(stream: &CudaStream) -> cudaStream_t {
    stream.cu_stream() as cudaStream_t
}

/// Queues vectorAdd over the first `n` elements on `stream`.
pub fn vector_add(
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    // A launch past the end of a buffer would be a fault on the device, so
    // refuse it here where it can be named.
    if n > a.len() || n > b.len() || n > out.len() {
        return Err(CudaError::refused(
            file!(),
            line!(),
            "vector_add",
            "n is past the end of a buffer",
        ));
    }
    // SAFETY: all three buffers hold at least n floats on this context.
    check!(unsafe { day09_vector_add(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), n, raw(stream)) })
}

/// Queues vectorScale over the first `n` elements on `stream`.
pub fn vector_scale(
    a: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    if n > a.len() || n > out.len() {
        return Err(CudaError::refused(
            file!(),
            line!(),
            "vector_scale",
            "n is past the end of a buffer",
        ));
    }
    // SAFETY: both buffers hold at least n floats on this context.
    check!(unsafe { day09_vector_scale(a.as_ptr(), out.as_mut_ptr(), n, raw(stream)) })
}

/// The grid timing.cu launches for `n` elements.
pub fn blocks_for(n: usize) -> i32 {
    // SAFETY: pure arithmetic.
    unsafe { day09_blocks_for(n) }
}

/// timing.cu's CPU reference over the first `n` elements of each slice.
pub fn vector_add_cpu(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = a.len().min(b.len()).min(out.len());
    // SAFETY: all three slices hold at least n floats; out is not aliased.
    unsafe { day09_vector_add_cpu(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), n) }
}
