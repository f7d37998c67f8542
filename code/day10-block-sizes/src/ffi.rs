//! blocks.cu's kernels, occupancy queries and CPU references, through the C
//! interface in blocks.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them;
// outside the test build the lesson's constants, but for kFmaPeriod (read
// by fma_reference), go unused (the test holds main.rs's copies to them).
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#[cfg_attr(not(test), allow(dead_code))]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;

use cuda_check::{check, within_buffers, CudaError};
use cuda_objects::{runtime_stream, DeviceBuffer};
use cudarc::driver::CudaStream;

pub use sys::day10_kernel as Kernel;

/// Queues vectorAdd over the first `n` elements, `threads` per block.
pub fn vector_add(
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    threads: u32,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("vector_add", n, &[a.len(), b.len(), out.len()])?;
    // SAFETY: all three buffers hold at least n floats on this context.
    check!(unsafe {
        day10_vector_add(
            a.as_ptr(),
            b.as_ptr(),
            out.as_mut_ptr(),
            n,
            threads as i32,
            runtime_stream(stream),
        )
    })
}

/// Queues fmaChains over the first `n` elements, `threads` per block.
pub fn fma_chains(
    out: &mut DeviceBuffer<f32>,
    n: usize,
    threads: u32,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("fma_chains", n, &[out.len()])?;
    // SAFETY: out holds at least n floats on this context.
    check!(unsafe { day10_fma_chains(out.as_mut_ptr(), n, threads as i32, runtime_stream(stream)) })
}

/// cudaMemset over the whole buffer, every byte `value`.
pub fn fill_bytes(out: &mut DeviceBuffer<f32>, value: u8) -> Result<(), CudaError> {
    // SAFETY: the buffer holds len() floats.
    check!(unsafe { day10_fill_bytes(out.as_mut_ptr(), i32::from(value), out.len()) })
}

/// How many blocks of `threads` fit on one SM at once.
pub fn blocks_per_sm(kernel: Kernel, threads: u32) -> Result<u32, CudaError> {
    let mut blocks = 0;
    // SAFETY: writes one int.
    check!(unsafe { day10_blocks_per_sm(kernel, threads as i32, &mut blocks) })?;
    Ok(blocks.max(0) as u32)
}

/// The occupancy API's block size for `kernel`.
pub fn suggested_block_size(kernel: Kernel) -> Result<u32, CudaError> {
    let mut threads = 0;
    // SAFETY: writes one int.
    check!(unsafe { day10_suggested_block_size(kernel, &mut threads) })?;
    Ok(threads.max(0) as u32)
}

/// The device's SM count and the most threads and blocks one SM holds.
pub fn sm_limits(device: usize) -> Result<(u32, u32, u32), CudaError> {
    let (mut sms, mut threads, mut blocks) = (0, 0, 0);
    let device = i32::try_from(device)
        .map_err(|_| CudaError::refused(file!(), line!(), "sm_limits", "the device ordinal is too large"))?;
    // SAFETY: writes three ints.
    check!(unsafe { day10_sm_limits(device, &mut sms, &mut threads, &mut blocks) })?;
    let count = |v: i32| v.max(0) as u32;
    Ok((count(sms), count(threads), count(blocks)))
}

/// blocks.cu's CPU reference for vectorAdd over the first `n` elements.
pub fn vector_add_cpu(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = a.len().min(b.len()).min(out.len());
    // SAFETY: all three slices hold at least n floats; out is not aliased.
    unsafe { day10_vector_add_cpu(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), n) }
}

/// blocks.cu's CPU reference for fmaChains: its kFmaPeriod distinct
/// results, element i's being `table[i % kFmaPeriod]`.
pub fn fma_reference() -> Vec<f32> {
    let mut table = vec![0.0f32; fma_period()];
    // SAFETY: the table holds the .cu's kFmaPeriod floats.
    unsafe { day10_fma_reference(table.as_mut_ptr()) };
    table
}

/// blocks.cu's kFmaPeriod, the size of fma_reference's table. The .cu's own
/// value, not main.rs's copy, as the C function writes that many floats.
fn fma_period() -> usize {
    // A negative period (the constants test fails on one) makes the .cu's
    // loop write nothing, so an empty table stays sound.
    usize::try_from(lesson_constants().fma_period).unwrap_or(0)
}

/// blocks.cu's constants as the .cu compiles them (blocks.h's
/// `day10_constants`, plain values and pointers to static arrays), for
/// the test that holds main.rs's copies to them.
pub fn lesson_constants() -> day10_constants {
    // SAFETY: takes nothing and returns the struct by value.
    unsafe { day10_lesson_constants() }
}
