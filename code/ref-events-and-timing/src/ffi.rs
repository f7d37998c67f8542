//! events.cu's kernels, launched through the C interface in events.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them;
// outside the test build the lesson's constants (read only by the test that
// holds main.rs's copies to them) go unused.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#[cfg_attr(not(test), allow(dead_code))]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;

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

/// events.cu's constants as the .cu compiles them (events.h's
/// `events_constants`, plain values and pointers to static arrays), for
/// the test that holds main.rs's copies to them.
#[cfg(test)]
pub fn lesson_constants() -> events_constants {
    // SAFETY: takes nothing and returns the struct by value.
    unsafe { events_lesson_constants() }
}
