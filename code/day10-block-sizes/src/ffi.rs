//! blocks.cu's kernels, occupancy queries and CPU references, through the C
//! interface in blocks.h.

// bindgen's items for the lesson's C header, raw and private: the safe
// wrappers below are the only way in. C's names, as the header spells them.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
pub(crate) mod sys {
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
pub fn fma_reference(c: &Constants) -> Vec<f32> {
    let mut table = vec![0.0f32; c.fma_period];
    // SAFETY: the table holds the .cu's kFmaPeriod floats (c is the .cu's).
    unsafe { day10_fma_reference(table.as_mut_ptr()) };
    table
}

/// blocks.cu's constants, read from the .cu that was compiled in, so an
/// edit there (more block sizes, another n) is one the twin follows.
#[derive(Debug, Clone, PartialEq)]
pub struct Constants {
    pub elems: usize,
    pub warmup_runs: u32,
    pub timed_runs: u32,
    pub repeats: u32,
    pub rel_tolerance: f32,
    pub block_sizes: Vec<u32>,
    pub fma_chains: u32,
    pub fma_steps: u32,
    pub fma_period: usize,
    pub fma_flops_per_element: u32,
}

impl Constants {
    /// The constants of the blocks.cu this binary links.
    pub fn of_the_cu() -> Self {
        // SAFETY: takes nothing; the struct points at the .cu's static array.
        unsafe { Self::from_c(&day10_lesson_constants()) }
    }

    /// # Safety
    /// `c.block_sizes` points at `c.num_block_sizes` ints that outlive the
    /// call, as `day10_lesson_constants` gives them.
    pub(crate) unsafe fn from_c(c: &day10_constants) -> Self {
        let count = |v: i32| u32::try_from(v).unwrap_or(0);
        let sizes = match usize::try_from(c.num_block_sizes) {
            Ok(n) if n > 0 && !c.block_sizes.is_null() => std::slice::from_raw_parts(c.block_sizes, n),
            _ => &[],
        };
        Constants {
            elems: c.elems,
            warmup_runs: count(c.warmup_runs),
            timed_runs: count(c.timed_runs),
            repeats: count(c.repeats),
            rel_tolerance: c.rel_tolerance,
            block_sizes: sizes.iter().map(|&s| count(s)).collect(),
            fma_chains: count(c.fma_chains),
            fma_steps: count(c.fma_steps),
            fma_period: count(c.fma_period) as usize,
            fma_flops_per_element: count(c.fma_flops_per_element),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::path::Path;
    use std::process::Command;

    /// The constants of a copy of blocks.cu edited by `edits` (each a
    /// `(was, becomes)` pair that must match), built alone by the nvcc this
    /// build used into a shared library, read through [`Constants::from_c`]
    /// as the twin reads its own.
    fn constants_of_an_edited_copy(edits: &[(&str, &str)]) -> Constants {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = std::env::temp_dir().join(format!("day10-edited-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut cu = std::fs::read_to_string(here.join("blocks.cu")).unwrap();
        for (was, becomes) in edits {
            assert_eq!(cu.matches(was).count(), 1, "{was:?} in blocks.cu");
            cu = cu.replace(was, becomes);
        }
        std::fs::write(dir.join("blocks.cu"), cu).unwrap();
        std::fs::copy(here.join("blocks.h"), dir.join("blocks.h")).unwrap();
        let lib = dir.join("libblocks.so");
        let status = Command::new(env!("CUDA_BUILD_NVCC"))
            .current_dir(&dir)
            .args(["-std=c++17", "-DLESSON_NO_MAIN", "-shared", "-Xcompiler", "-fPIC"])
            // PTX only: nothing here runs a kernel, and ptxas is the slow part.
            .args([
                "-gencode",
                "arch=compute_75,code=compute_75",
                "-diag-suppress=177",
            ])
            .args(["-o", "libblocks.so", "blocks.cu"])
            .status()
            .unwrap();
        assert!(status.success(), "nvcc: {status}");
        let path = CString::new(lib.to_str().unwrap()).unwrap();
        // SAFETY: a library built just now from the lesson's own sources;
        // RTLD_LOCAL keeps its symbols from the test binary's.
        let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(!handle.is_null(), "dlopen {}", lib.display());
        let name = CString::new("day10_lesson_constants").unwrap();
        // SAFETY: the symbol is blocks.h's `day10_constants day10_lesson_constants(void)`.
        let constants = unsafe {
            let f = libc::dlsym(handle, name.as_ptr());
            assert!(!f.is_null());
            let f: unsafe extern "C" fn() -> day10_constants = std::mem::transmute(f);
            // The library stays loaded: the struct points into it.
            Constants::from_c(&f())
        };
        let _ = std::fs::remove_dir_all(&dir);
        constants
    }

    /// README's "Try it": add 48 and 160 to kBlockSizes. The twin's sizes
    /// are the edited .cu's, in its order, and nothing else changes.
    #[test]
    fn the_twin_runs_the_block_sizes_of_an_edited_blocks_cu() {
        let edited = constants_of_an_edited_copy(&[
            ("kBlockSizes[] = {32, 64,", "kBlockSizes[] = {32, 48, 64,"),
            (" 128, 192, 256,", " 128, 160, 192, 256,"),
            ("kNumBlockSizes = 11;", "kNumBlockSizes = 13;"),
        ]);
        let linked = Constants::of_the_cu();
        let mut want = linked.block_sizes.clone();
        want.extend([48, 160]);
        want.sort_unstable();
        assert_eq!(edited.block_sizes, want);
        assert_eq!(
            edited,
            Constants {
                block_sizes: want,
                ..linked
            }
        );
    }
}
