//! events.cu's kernels, launched through the C interface in events.h.

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

/// Nanoseconds in `ms` milliseconds, rounded to the nearest as events.cu's
/// nsFromMs rounds them.
pub fn ns_from_ms(ms: f64) -> u64 {
    (ms * 1.0e6 + 0.5) as u64
}

/// Queues spinFor (one warp waiting `ms` on the device's global timer).
pub fn spin(ms: f64, stream: &CudaStream) -> Result<(), CudaError> {
    // SAFETY: no pointers; the stream is live for the borrow.
    check!(unsafe { events_spin(ns_from_ms(ms), runtime_stream(stream)) })
}

/// Queues spinCycles (one warp waiting `cycles` SM clock cycles).
pub fn spin_cycles(cycles: u64, stream: &CudaStream) -> Result<(), CudaError> {
    let cycles = i64::try_from(cycles).unwrap_or(i64::MAX);
    // SAFETY: as for `spin`; a null `ns` asks the kernel to write nothing.
    check!(unsafe { events_spin_cycles(cycles, std::ptr::null_mut(), runtime_stream(stream)) })
}

/// Queues spinCycles, which writes its own duration on the device's global
/// timer, in nanoseconds, to `ns[index]`.
pub fn spin_cycles_timed(
    cycles: u64,
    ns: &mut DeviceBuffer<u64>,
    index: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    if index >= ns.len() {
        return Err(CudaError::refused(
            file!(),
            line!(),
            "spin_cycles_timed",
            "index is past the end of the buffer",
        ));
    }
    let cycles = i64::try_from(cycles).unwrap_or(i64::MAX);
    // SAFETY: index < ns.len(), so the kernel's one write lands inside the
    // buffer, which outlives the borrow; the caller synchronises before it
    // is read or freed.
    check!(unsafe { events_spin_cycles(cycles, ns.as_mut_ptr().add(index), runtime_stream(stream)) })
}

/// events.cu's loadEveryKernel: every kernel launched once, doing nothing,
/// then `stream` synchronised, so no lazy load lands in a timed part.
pub fn load_every_kernel(stream: &CudaStream) -> Result<(), CudaError> {
    // SAFETY: the kernels are launched with n = 0 and touch no memory.
    check!(unsafe { events_load_every_kernel(runtime_stream(stream)) })
}

/// Queues spinFor for `ms` on every block the device holds at once.
pub fn hog(ms: f64, stream: &CudaStream) -> Result<(), CudaError> {
    // SAFETY: as for `spin`.
    check!(unsafe { events_hog(ns_from_ms(ms), runtime_stream(stream)) })
}

/// The count a launch over `n` elements passes, refused when a buffer
/// holds fewer (see `within_buffers`) or `n` is past i32's range.
#[track_caller]
fn fits(n: usize, buffers: &[usize], call: &'static str) -> Result<i32, CudaError> {
    // i32's range is one more bound the count must keep within.
    within_buffers(call, n, buffers)?;
    within_buffers(call, n, &[i32::MAX as usize])?;
    Ok(n as i32)
}

/// Queues produce: each block waits `ms`, then buf[i] = 3 * i + 1.
pub fn produce(buf: &mut DeviceBuffer<i32>, n: usize, ms: f64, stream: &CudaStream) -> Result<(), CudaError> {
    let count = fits(n, &[buf.len()], "produce")?;
    // SAFETY: buf holds at least n ints of this context and outlives the
    // borrow; the caller synchronises before it is freed.
    check!(unsafe { events_produce(buf.as_mut_ptr(), count, ns_from_ms(ms), runtime_stream(stream)) })
}

/// Queues consume: out[i] = 2 * buf[i] + 1.
pub fn consume(
    buf: &DeviceBuffer<i32>,
    out: &mut DeviceBuffer<i32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    let count = fits(n, &[buf.len(), out.len()], "consume")?;
    // SAFETY: as for `produce`, for both buffers.
    check!(unsafe { events_consume(buf.as_ptr(), out.as_mut_ptr(), count, runtime_stream(stream)) })
}

/// events.cu's constants, read from the .cu this binary links (events.h's
/// `events_constants`), so an edit of events.cu is one the twin follows.
pub struct Constants {
    pub part1_kernel_ms: Vec<f64>,
    pub part1_reps: u32,
    pub part2_kernel_ms: f64,
    pub part2_reps: u32,
    pub part3_kernel_ms: f64,
    pub part3_reps: u32,
    pub part4_ops: u32,
    pub part4_chain: u32,
    pub part4_rounds: u32,
    pub part5_producer_ms: f64,
    pub part5_elems: usize,
    pub part5_reps: u32,
    pub part6_kernel_ms: f64,
    pub part6_queued_ms: f64,
    pub part6_delay_ms: f64,
    pub part6_hog_ms: f64,
    pub part6_reps: u32,
    pub part7_idle_ms: f64,
    pub part7_cycles: u64,
    pub part7_launches: usize,
    pub part8_iters: u32,
    pub warmup_runs: u32,
    pub timed_runs: u32,
}

/// The .cu's constants, read once.
pub static CU: LazyLock<Constants> = LazyLock::new(|| {
    // SAFETY: takes nothing; `part1_kernel_ms` points at `num_part1` values of static storage.
    let c = unsafe { events_lesson_constants() };
    let count = |v: i32| u32::try_from(v).unwrap_or(0);
    let part1_kernel_ms = match usize::try_from(c.num_part1) {
        Ok(n) if n > 0 && !c.part1_kernel_ms.is_null() => {
            unsafe { std::slice::from_raw_parts(c.part1_kernel_ms, n) }.to_vec()
        }
        _ => Vec::new(),
    };
    Constants {
        part1_kernel_ms,
        part1_reps: count(c.part1_reps),
        part2_kernel_ms: c.part2_kernel_ms,
        part2_reps: count(c.part2_reps),
        part3_kernel_ms: c.part3_kernel_ms,
        part3_reps: count(c.part3_reps),
        part4_ops: count(c.part4_ops),
        part4_chain: count(c.part4_chain),
        part4_rounds: count(c.part4_rounds),
        part5_producer_ms: c.part5_producer_ms,
        part5_elems: count(c.part5_elems) as usize,
        part5_reps: count(c.part5_reps),
        part6_kernel_ms: c.part6_kernel_ms,
        part6_queued_ms: c.part6_queued_ms,
        part6_delay_ms: c.part6_delay_ms,
        part6_hog_ms: c.part6_hog_ms,
        part6_reps: count(c.part6_reps),
        part7_idle_ms: c.part7_idle_ms,
        part7_cycles: u64::try_from(c.part7_cycles).unwrap_or(0),
        part7_launches: count(c.part7_launches) as usize,
        part8_iters: count(c.part8_iters),
        warmup_runs: count(c.warmup_runs),
        timed_runs: count(c.timed_runs),
    }
});
