//! pinned.cu's kernel, launched through the C interface in pinned.h.

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
use cuda_objects::{runtime_stream, DeviceBuffer, DeviceMemory};
use cudarc::driver::CudaStream;

/// Queues scaleCopy over the first `n` elements on `stream`. `input` is
/// device memory or the device's view of mapped host memory (zero-copy);
/// either way an owner stands behind the address, and the borrow keeps it
/// alive and unwritten while this call queues the launch.
pub fn scale_copy(
    input: &(impl DeviceMemory<f32> + ?Sized),
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("scale_copy", n, &[input.len(), out.len()])?;
    let raw = runtime_stream(stream);
    // SAFETY: input and out hold at least n floats reachable from this
    // context, and both owners outlive the borrows taken here.
    check!(unsafe { day53_scale_copy(input.as_device_ptr(), out.as_mut_ptr(), n, raw) })
}

/// pinned.cu's constants as the .cu compiles them (pinned.h's
/// `day53_constants`, plain values and pointers to static arrays), for
/// the test that holds main.rs's copies to them.
#[cfg(test)]
pub fn lesson_constants() -> day53_constants {
    // SAFETY: takes nothing and returns the struct by value.
    unsafe { day53_lesson_constants() }
}
