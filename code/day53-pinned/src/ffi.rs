//! pinned.cu's kernel, launched through the C interface in pinned.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;

use std::sync::LazyLock;

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

/// pinned.cu's constants, read from the .cu this binary links (pinned.h's
/// `day53_constants`), so an edit of pinned.cu is one the twin follows.
pub struct Constants {
    pub sweep_mib: Vec<usize>,
    pub max_sweep_bytes: usize,
    pub probe_bytes: usize,
    pub kernel_elems: usize,
    pub warmup_runs: u32,
    pub timed_runs: u32,
    pub scale: f32,
    pub rel_tolerance: f32,
}

/// The .cu's constants, read once.
pub static CU: LazyLock<Constants> = LazyLock::new(|| {
    // SAFETY: takes nothing; `sweep_mib` points at `num_sweep` sizes of static storage.
    let c = unsafe { day53_lesson_constants() };
    let count = |v: i32| u32::try_from(v).unwrap_or(0);
    let sweep_mib = match usize::try_from(c.num_sweep) {
        Ok(n) if n > 0 && !c.sweep_mib.is_null() => {
            unsafe { std::slice::from_raw_parts(c.sweep_mib, n) }.to_vec()
        }
        _ => Vec::new(),
    };
    Constants {
        sweep_mib,
        max_sweep_bytes: c.max_sweep_bytes,
        probe_bytes: c.probe_bytes,
        kernel_elems: c.kernel_elems,
        warmup_runs: count(c.warmup_runs),
        timed_runs: count(c.timed_runs),
        scale: c.scale,
        rel_tolerance: c.rel_tolerance,
    }
});
