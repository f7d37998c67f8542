//! timing.cu's kernels, launched through the C interface in timing.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;

use std::sync::LazyLock;

use cuda_check::{check, within_buffers, CudaError};
use cuda_objects::{runtime_stream, DeviceBuffer};
use cudarc::driver::CudaStream;

/// Queues vectorAdd over the first `n` elements on `stream`.
pub fn vector_add(
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("vector_add", n, &[a.len(), b.len(), out.len()])?;
    // SAFETY: all three buffers hold at least n floats on this context.
    check!(unsafe {
        day09_vector_add(
            a.as_ptr(),
            b.as_ptr(),
            out.as_mut_ptr(),
            n,
            runtime_stream(stream),
        )
    })
}

/// Queues vectorScale over the first `n` elements on `stream`.
pub fn vector_scale(
    a: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("vector_scale", n, &[a.len(), out.len()])?;
    // SAFETY: both buffers hold at least n floats on this context.
    check!(unsafe { day09_vector_scale(a.as_ptr(), out.as_mut_ptr(), n, runtime_stream(stream)) })
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

/// timing.cu's constants, read from the .cu this binary links (timing.h's
/// `day09_constants`), so an edit of timing.cu is one the twin follows.
pub struct Constants {
    pub elems: usize,
    pub threads_per_block: u32,
    pub warmup_runs: u32,
    pub timed_runs: u32,
    pub rel_tolerance: f32,
    pub sweep: Vec<usize>,
}

/// The .cu's constants, read once.
pub static CU: LazyLock<Constants> = LazyLock::new(|| {
    // SAFETY: takes nothing; `sweep` points at `num_sweep` sizes of static storage.
    let c = unsafe { day09_lesson_constants() };
    let count = |v: i32| u32::try_from(v).unwrap_or(0);
    let sweep = match usize::try_from(c.num_sweep) {
        Ok(n) if n > 0 && !c.sweep.is_null() => unsafe { std::slice::from_raw_parts(c.sweep, n) }.to_vec(),
        _ => Vec::new(),
    };
    Constants {
        elems: c.elems,
        threads_per_block: count(c.threads_per_block),
        warmup_runs: count(c.warmup_runs),
        timed_runs: count(c.timed_runs),
        rel_tolerance: c.rel_tolerance,
        sweep,
    }
});
