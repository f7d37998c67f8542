//! crossover.cu's kernels, launched through the C interface in crossover.h,
//! and its constants as the .cu compiles them.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use std::ffi::CStr;
use std::sync::LazyLock;

use cuda_check::{check, within_buffers, CudaError};
use cuda_objects::{runtime_stream, DeviceBuffer};
use cudarc::driver::CudaStream;

/// Queues kernel `kernel` (an index into [`Constants::kernels`]) over n
/// elements on `stream`: out = f(x, y); the dot product adds into out[0].
pub fn launch(
    kernel: usize,
    x: &DeviceBuffer<f32>,
    y: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("launch", n, &[x.len(), y.len(), out.len()])?;
    let kernel = i32::try_from(kernel).unwrap_or(-1);
    let (x, y, out, stream) = (x.as_ptr(), y.as_ptr(), out.as_mut_ptr(), runtime_stream(stream));
    // SAFETY: the three buffers hold at least n floats on this context, and
    // the launcher refuses a kernel index it does not have.
    check!(unsafe { sys::day30_launch(kernel, x, y, out, n, stream) })
}

/// Queues the empty kernel: the launch floor.
pub fn empty(stream: &CudaStream) -> Result<(), CudaError> {
    // SAFETY: the kernel takes nothing.
    check!(unsafe { sys::day30_empty(runtime_stream(stream)) })
}

/// Queues the copy kernel over n floats.
pub fn copy(
    input: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    within_buffers("copy", n, &[input.len(), out.len()])?;
    // SAFETY: both buffers hold at least n floats on this context.
    check!(unsafe { sys::day30_copy(input.as_ptr(), out.as_mut_ptr(), n, runtime_stream(stream)) })
}

/// Queues the FMA-rate kernel, one thread per element of out.
pub fn fma_rate(out: &mut DeviceBuffer<f32>, threads: usize, stream: &CudaStream) -> Result<(), CudaError> {
    within_buffers("fma_rate", threads, &[out.len()])?;
    // SAFETY: out holds at least `threads` floats on this context.
    check!(unsafe { sys::day30_fma_rate(out.as_mut_ptr(), threads, runtime_stream(stream)) })
}

/// One kernel of the lesson's set and its counts (crossover.h's
/// `day30_kernel_info`).
pub struct KernelInfo {
    pub name: String,
    pub bytes: f64,
    pub ops: f64,
    pub h2d_bytes: f64,
    pub h2d_calls: u32,
    pub d2h_bytes: f64,
    pub d2h_calls: u32,
    pub d2h_fixed: f64,
    pub degree: u32,
}

/// crossover.cu's constants (crossover.h's `day30_constants`), read from the
/// .cu this binary links, so an edit of the .cu is one the twin follows.
pub struct Constants {
    pub kernels: Vec<KernelInfo>,
    pub report_sizes: Vec<usize>,
    pub sweep_min: usize,
    pub sweep_max: usize,
    pub warmup_runs: u32,
    pub timed_runs: u32,
    pub timed_calls: u32,
    pub bw_elems: usize,
    pub rate_threads: usize,
    pub rate_iters: u32,
    pub rate_chains: u32,
    pub copy_small_bytes: usize,
    pub copy_large_bytes: usize,
    pub cpu_bw_elems: usize,
    pub cpu_rate_elems: usize,
    pub cpu_chain: u32,
    pub cpu_ring: usize,
    pub cpu_min_ms: f64,
    pub saxpy_a: f32,
    pub stencil_w: [f32; 3],
    pub poly_c: f32,
    pub rate_a: f32,
    pub rate_b: f32,
    pub example_bytes: f64,
    pub example_ops: f64,
    pub rel_tolerance: f32,
}

/// The .cu's constants, read once.
pub static CU: LazyLock<Constants> = LazyLock::new(|| {
    // SAFETY: takes nothing; the pointers it returns are to static storage
    // of the counts it gives.
    let c = unsafe { sys::day30_lesson_constants() };
    let count = |v: i32| u32::try_from(v).unwrap_or(0);
    let slice = |n: i32| usize::try_from(n).unwrap_or(0);
    let kernels = match slice(c.num_kernels) {
        n if n > 0 && !c.kernels.is_null() => unsafe { std::slice::from_raw_parts(c.kernels, n) },
        _ => &[],
    };
    let report_sizes = match slice(c.num_report_sizes) {
        n if n > 0 && !c.report_sizes.is_null() => unsafe { std::slice::from_raw_parts(c.report_sizes, n) },
        _ => &[],
    };
    Constants {
        kernels: kernels
            .iter()
            .map(|k| KernelInfo {
                // SAFETY: each name is a string literal of the .cu.
                name: unsafe { CStr::from_ptr(k.name) }.to_string_lossy().into_owned(),
                bytes: k.bytes,
                ops: k.ops,
                h2d_bytes: k.h2d_bytes,
                h2d_calls: count(k.h2d_calls),
                d2h_bytes: k.d2h_bytes,
                d2h_calls: count(k.d2h_calls),
                d2h_fixed: k.d2h_fixed,
                degree: count(k.degree),
            })
            .collect(),
        report_sizes: report_sizes.to_vec(),
        sweep_min: c.sweep_min,
        sweep_max: c.sweep_max,
        warmup_runs: count(c.warmup_runs),
        timed_runs: count(c.timed_runs),
        timed_calls: count(c.timed_calls),
        bw_elems: c.bw_elems,
        rate_threads: c.rate_threads,
        rate_iters: count(c.rate_iters),
        rate_chains: count(c.rate_chains),
        copy_small_bytes: c.copy_small_bytes,
        copy_large_bytes: c.copy_large_bytes,
        cpu_bw_elems: c.cpu_bw_elems,
        cpu_rate_elems: c.cpu_rate_elems,
        cpu_chain: count(c.cpu_chain),
        cpu_ring: slice(c.cpu_ring),
        cpu_min_ms: c.cpu_min_ms,
        saxpy_a: c.saxpy_a,
        stencil_w: [c.stencil_w0, c.stencil_w1, c.stencil_w2],
        poly_c: c.poly_c,
        rate_a: c.rate_a,
        rate_b: c.rate_b,
        example_bytes: c.example_bytes,
        example_ops: c.example_ops,
        rel_tolerance: c.rel_tolerance,
    }
});
