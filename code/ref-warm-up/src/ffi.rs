//! warmup.cu's first call and kernels, through the C interface in warmup.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use sys::*;
// The first-call kinds warmup.h names, as main.rs matches on them.
pub use sys::warmup_first_call_kind;

use std::ffi::c_void;

use std::sync::LazyLock;

use cuda_check::{check, CudaError};
use cuda_objects::{runtime_stream, DeviceBuffer};
use cudarc::driver::CudaStream;
use ref_warm_up_report::Then;

/// Device memory from warmup.cu's cudaMalloc (the first call's with
/// `--first malloc`, or Part 2's), freed with cudaFree when dropped.
pub struct RuntimeBuffer(*mut c_void);

impl RuntimeBuffer {
    /// The device address cudaMalloc returned, as Part 5 prints it.
    pub fn address(&self) -> u64 {
        self.0 as u64
    }
}

impl Drop for RuntimeBuffer {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: the pointer came from cudaMalloc in warmup.cu and is
            // freed once, here. A failure at exit changes nothing the
            // report says, so its status is not reported.
            let _ = unsafe { warmup_free(self.0) };
        }
    }
}

/// cudaMalloc of `bytes`, then a synchronise, through warmup.cu: Part 2's
/// timed step, the very calls warmup.cu's main times.
pub fn malloc(bytes: usize) -> Result<RuntimeBuffer, CudaError> {
    let mut buffer: *mut c_void = std::ptr::null_mut();
    // SAFETY: `buffer` is a valid place for the allocation's address.
    check!(unsafe { warmup_malloc(&mut buffer, bytes) })?;
    Ok(RuntimeBuffer(buffer))
}

/// warmup.cu's firstCall: the call `kind` names, then a synchronise, made by
/// the .cu's own code.
pub fn first_call(kind: warmup_first_call_kind, device: i32) -> Result<RuntimeBuffer, CudaError> {
    let mut buffer: *mut c_void = std::ptr::null_mut();
    // SAFETY: `buffer` is a valid place for the allocation's address.
    check!(unsafe { warmup_first_call(kind, device, &mut buffer) })?;
    Ok(RuntimeBuffer(buffer))
}

/// Which of the post's kernels to launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PostKernel {
    Simple,
    Complex,
}

/// Queues `kernel` over all of `a` with `threads` per block on `stream`.
pub fn launch(
    kernel: PostKernel,
    a: &mut DeviceBuffer<f32>,
    threads: i32,
    stream: &CudaStream,
) -> Result<(), CudaError> {
    let n = i32::try_from(a.len())
        .map_err(|_| CudaError::refused(file!(), line!(), "launch", "n does not fit the kernel's int"))?;
    let raw = runtime_stream(stream);
    // SAFETY: a holds n floats on this context, and the kernels touch only
    // the first n.
    match kernel {
        PostKernel::Simple => check!(unsafe { warmup_simple_kernel(a.as_mut_ptr(), n, threads, raw) }),
        PostKernel::Complex => check!(unsafe { warmup_complex_kernel(a.as_mut_ptr(), n, threads, raw) }),
    }
}

/// warmup.cu's constants, read from the .cu this binary links (warmup.h's
/// `warmup_constants`), so an edit of warmup.cu is one the twin follows.
pub struct Constants {
    pub elems: usize,
    pub block_sizes: Vec<i32>,
    pub calls: usize,
    pub complex_steps: u32,
    pub malloc_bytes: Vec<usize>,
    pub malloc_count: usize,
    pub malloc_run: usize,
    pub warmup_runs: u32,
    pub timed_runs: u32,
    pub rel_tolerance: f32,
    /// The post's figures (kThen*), the first call's one a kind of first
    /// call, in `warmup_first_call_kind`'s order.
    then_first_call_ms: Vec<f64>,
    then_rest: [f64; 5],
}

impl Constants {
    /// The closing table's "then" column for a run whose first call is `kind`.
    pub fn then(&self, kind: warmup_first_call_kind) -> Then {
        let [malloc_ratio, simple_over_percent, complex_over_percent, no_sync_max_ms, sync_first_ms] =
            self.then_rest;
        Then {
            first_call_ms: self
                .then_first_call_ms
                .get(kind as usize)
                .copied()
                .unwrap_or(f64::NAN),
            malloc_ratio,
            simple_over_percent,
            complex_over_percent,
            no_sync_max_ms,
            sync_first_ms,
        }
    }
}

/// The .cu's constants, read once.
pub static CU: LazyLock<Constants> = LazyLock::new(|| {
    // SAFETY: takes nothing; the arrays are the .cu's, of static storage.
    let c = unsafe { warmup_lesson_constants() };
    let count = |v: i32| usize::try_from(v).unwrap_or(0);
    Constants {
        elems: count(c.elems),
        // SAFETY: each array holds its count of values, of static storage.
        block_sizes: unsafe { static_array(c.block_sizes, c.num_block_sizes) },
        calls: count(c.calls),
        complex_steps: count(c.complex_steps) as u32,
        malloc_bytes: unsafe { static_array(c.malloc_bytes, c.num_malloc_sizes) },
        malloc_count: count(c.malloc_count),
        malloc_run: count(c.malloc_run),
        warmup_runs: count(c.warmup_runs) as u32,
        timed_runs: count(c.timed_runs) as u32,
        rel_tolerance: c.rel_tolerance,
        // SAFETY: one value a kind of first call, of static storage.
        then_first_call_ms: unsafe {
            static_array(
                c.then_first_call_ms,
                warmup_first_call_kind::WARMUP_FIRST_LAUNCH as i32 + 1,
            )
        },
        then_rest: [
            c.then_malloc_ratio,
            c.then_simple_over_percent,
            c.then_complex_over_percent,
            c.then_no_sync_max_ms,
            c.then_sync_first_ms,
        ],
    }
});

/// A C array of `len` values as a Vec; empty for no values.
///
/// # Safety
/// `ptr` points at `len` values, or `len` is 0 or less.
unsafe fn static_array<T: Copy>(ptr: *const T, len: i32) -> Vec<T> {
    match usize::try_from(len) {
        Ok(n) if n > 0 && !ptr.is_null() => std::slice::from_raw_parts(ptr, n).to_vec(),
        _ => Vec::new(),
    }
}
