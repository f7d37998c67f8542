//! row4.cu's kernels, memory facts and CPU loop, through the C interface in
//! row4.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them;
// outside the test build blocks_for (read by a test) goes unused.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#[cfg_attr(not(test), allow(dead_code))]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;

use std::sync::LazyLock;

use cuda_check::{check, within_buffers, CudaError};
use cuda_objects::{runtime_stream, DeviceBuffer};
use cudarc::driver::CudaStream;

pub use sys::day11_memory_facts as MemoryFacts;

/// Queues vectorAdd over the first `n` elements.
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
        day11_vector_add(
            a.as_ptr(),
            b.as_ptr(),
            out.as_mut_ptr(),
            n,
            runtime_stream(stream),
        )
    })
}

/// Queues vectorAdd4 (float4 loads and stores) over the first `n` elements.
pub fn vector_add4(
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("vector_add4", n, &[a.len(), b.len(), out.len()])?;
    // SAFETY: all three buffers hold at least n floats on this context.
    check!(unsafe {
        day11_vector_add4(
            a.as_ptr(),
            b.as_ptr(),
            out.as_mut_ptr(),
            n,
            runtime_stream(stream),
        )
    })
}

/// Queues copy4 of the first `n` floats of `src` into `dst`.
pub fn copy4(
    src: &DeviceBuffer<f32>,
    dst: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("copy4", n, &[src.len(), dst.len()])?;
    // SAFETY: both buffers hold at least n floats on this context.
    check!(unsafe { day11_copy4(src.as_ptr(), dst.as_mut_ptr(), n, runtime_stream(stream)) })
}

/// Queues readToFlush over the first `bytes` of `buf`.
pub fn read_to_flush(
    buf: &DeviceBuffer<f32>,
    bytes: usize,
    sink: &mut DeviceBuffer<f32>,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("read_to_flush", bytes, &[buf.len() * std::mem::size_of::<f32>()])?;
    within_buffers("read_to_flush", 1, &[sink.len()])?;
    // SAFETY: buf holds at least `bytes` bytes and sink one float.
    check!(unsafe { day11_read_to_flush(buf.as_ptr(), bytes, sink.as_mut_ptr(), runtime_stream(stream)) })
}

/// cudaMemset over the whole buffer, every byte `value`.
pub fn fill_bytes(out: &mut DeviceBuffer<f32>, value: u8) -> Result<(), CudaError> {
    // SAFETY: the buffer holds len() floats.
    check!(unsafe { day11_fill_bytes(out.as_mut_ptr(), i32::from(value), out.len()) })
}

/// cudaMemcpy of the first `n` floats of `src` into `dst`, device to device.
pub fn copy_device(dst: &mut DeviceBuffer<f32>, src: &DeviceBuffer<f32>, n: usize) -> Result<(), CudaError> {
    within_buffers("copy_device", n, &[src.len(), dst.len()])?;
    // SAFETY: both buffers hold at least n floats on this context.
    check!(unsafe { day11_copy_device(dst.as_mut_ptr(), src.as_ptr(), n) })
}

/// The device's memory facts and what row4.cu computes from them.
pub fn memory_facts(device: usize) -> Result<MemoryFacts, CudaError> {
    let device = i32::try_from(device).map_err(|_| {
        CudaError::refused(
            file!(),
            line!(),
            "memory_facts",
            "the device ordinal is too large",
        )
    })?;
    let mut facts = MemoryFacts {
        memory_clock_khz: 0,
        bus_width_bits: 0,
        l2_bytes: 0,
        peak_gb_s: 0.0,
        flush_bytes: 0,
    };
    // SAFETY: writes one struct.
    check!(unsafe { day11_memory_facts_of(device, &mut facts) })?;
    Ok(facts)
}

/// row4.cu's CPU reference over the first `n` elements of each slice.
pub fn vector_add_cpu(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = a.len().min(b.len()).min(out.len());
    // SAFETY: all three slices hold at least n floats; out is not aliased.
    unsafe { day11_vector_add_cpu(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), n) }
}

/// The grid row4.cu launches vectorAdd with for `n` elements (its test's).
#[cfg(test)]
pub fn blocks_for(n: usize) -> i32 {
    // SAFETY: pure arithmetic.
    unsafe { day11_blocks_for(n) }
}

/// row4.cu's constants, read from the .cu this binary links (row4.h's
/// `day11_constants`), so an edit of row4.cu is one the twin follows.
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
    let c = unsafe { day11_lesson_constants() };
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
