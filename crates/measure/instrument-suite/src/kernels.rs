//! The suite's six workloads over suite/suite.cu's four kernels: what each
//! launches, on which buffers, and what it moves.
//!
//! Not for: timing them (run.rs) or what the instrument makes of the times.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

mod ffi {
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}

use std::sync::Arc;

use clap::ValueEnum;
use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, Graph};
use cudarc::driver::{CudaContext, CudaStream};
use instrument::Traffic;

/// Day 9's full n (the ELEMS of the Day 9 lesson).
pub const DAY09_ELEMS: usize = 16 * 1024 * 1024 + 611;
/// 64 Ki floats: three arrays, 768 KiB, stay in any L2 here.
const L2_ELEMS: usize = 64 * 1024;
/// 1 GiB of 16-byte vectors.
const COPY_VECTORS: usize = (1 << 30) / 16;
/// FMA steps per chain for about 1 ms on an H200: 8 blocks of 256 threads
/// per SM, four chains each, 128 FMAs a clock per SM at about 1.98 GHz.
const FMA_ITERATIONS: usize = 32 * 1024;

/// The kernels of the suite, in the order a whole run measures them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Kernel {
    /// One block of 32 threads that does nothing: the launch floor
    Empty,
    /// vectorAdd over 64 Ki floats, resident in the L2
    VectorAddL2,
    /// Day 9's vectorAdd at full n (16,777,827 floats)
    VectorAdd,
    /// A copy of 1 GiB in 16-byte vectors: the HBM ceiling
    Copy1gib,
    /// A compute-bound FMA loop of about 1 ms
    Fma1ms,
    /// The same loop ten times longer, about 10 ms
    Fma10ms,
}

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Empty => "empty",
            Kernel::VectorAddL2 => "vector-add-l2",
            Kernel::VectorAdd => "vector-add",
            Kernel::Copy1gib => "copy-1gib",
            Kernel::Fma1ms => "fma-1ms",
            Kernel::Fma10ms => "fma-10ms",
        }
    }

    /// The size `scale` times the standard one: elements, vectors or FMA
    /// steps (the empty kernel has no size).
    pub fn size(self, scale: f64) -> usize {
        let standard = match self {
            Kernel::Empty => return 0,
            Kernel::VectorAddL2 => L2_ELEMS,
            Kernel::VectorAdd => DAY09_ELEMS,
            Kernel::Copy1gib => COPY_VECTORS,
            Kernel::Fma1ms => FMA_ITERATIONS,
            Kernel::Fma10ms => 10 * FMA_ITERATIONS,
        };
        (standard as f64 * scale).round().max(1.0) as usize
    }

    /// The bytes of each buffer a workload of `size` allocates.
    pub fn buffer_sizes(self, size: usize) -> Vec<usize> {
        // SAFETY: two constants suite.cu defines and never writes.
        let fma_threads = unsafe { ffi::suite_fma_blocks * ffi::suite_threads_per_block } as usize;
        match self {
            Kernel::Empty => vec![],
            Kernel::VectorAddL2 | Kernel::VectorAdd => vec![size * 4; 3],
            Kernel::Copy1gib => vec![size * 16; 2],
            Kernel::Fma1ms | Kernel::Fma10ms => vec![fma_threads * 4],
        }
    }

    /// What one launch reads and writes, for the memory-bound kernels.
    pub fn traffic(self, size: usize) -> Option<Traffic> {
        let bytes = |n: usize, width: usize| (n * width) as u64;
        match self {
            Kernel::VectorAddL2 | Kernel::VectorAdd => Some(Traffic {
                bytes_read: 2 * bytes(size, 4),
                bytes_written: bytes(size, 4),
            }),
            Kernel::Copy1gib => Some(Traffic {
                bytes_read: bytes(size, 16),
                bytes_written: bytes(size, 16),
            }),
            Kernel::Empty | Kernel::Fma1ms | Kernel::Fma10ms => None,
        }
    }
}

/// Zeroes `buffers` by one replay of a graph of their memsets. Zeroed one
/// by one (cuMemsetD8), they are a second kind of work outside graphs beside
/// the kernel's own launches, and on the H200 every graph the process
/// replays afterwards is 0.17 us a launch slower; in a graph they change
/// nothing (kernel-timer's gpu/floor-gap.cu, steps zv and yv, and README).
fn zero_in_a_graph(ctx: &Arc<CudaContext>, buffers: &mut [DeviceBuffer<u8>]) -> Result<(), CudaError> {
    let stream = check!(ctx.new_stream())?;
    let captured = Graph::capture(&stream, |s| {
        buffers.iter_mut().try_for_each(|b| check!(b.zero_async(s)))
    })?;
    if let Some(mut graph) = captured {
        graph.instantiate()?;
        graph.launch(&stream)?;
        check!(stream.synchronize())?;
    }
    Ok(())
}

/// One kernel at one size, with its buffers (zeroed), ready to launch.
pub struct Workload {
    pub kernel: Kernel,
    pub size: usize,
    buffers: Vec<DeviceBuffer<u8>>,
}

impl Workload {
    pub fn new(ctx: &Arc<CudaContext>, kernel: Kernel, scale: f64) -> Result<Workload, CudaError> {
        let size = kernel.size(scale);
        let sizes = kernel.buffer_sizes(size);
        check!(ctx.bind_to_thread())?;
        let mut buffers = sizes
            .into_iter()
            .map(|bytes| check!(DeviceBuffer::<u8>::alloc(ctx, bytes)))
            .collect::<Result<Vec<_>, _>>()?;
        zero_in_a_graph(ctx, &mut buffers)?;
        Ok(Workload {
            kernel,
            size,
            buffers,
        })
    }

    /// Queues one launch on `stream`.
    pub fn launch(&mut self, stream: &CudaStream) -> Result<(), CudaError> {
        let s = stream.cu_stream() as ffi::cudaStream_t;
        let ptr = |i: usize| self.buffers[i].device_ptr();
        // SAFETY (every arm): the buffers were sized in `new` for this
        // kernel at this size, and live as long as the workload.
        match self.kernel {
            Kernel::Empty => check!(unsafe { ffi::suite_empty(s) }),
            Kernel::VectorAddL2 | Kernel::VectorAdd => check!(unsafe {
                ffi::suite_vector_add(
                    ptr(0) as *const f32,
                    ptr(1) as *const f32,
                    ptr(2) as *mut f32,
                    self.size,
                    s,
                )
            }),
            Kernel::Copy1gib => check!(unsafe {
                ffi::suite_copy_vec4(
                    ptr(0) as *const ffi::float4,
                    ptr(1) as *mut ffi::float4,
                    self.size,
                    s,
                )
            }),
            Kernel::Fma1ms | Kernel::Fma10ms => {
                check!(unsafe { ffi::suite_fma(ptr(0) as *mut f32, self.size as u32, s) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_scale_and_round() {
        assert_eq!(Kernel::VectorAdd.size(1.0), DAY09_ELEMS);
        assert_eq!(
            Kernel::VectorAdd.size(1.02),
            17_113_384,
            "16,777,827 x 1.02, rounded"
        );
        assert_eq!(Kernel::Fma10ms.size(1.0), 10 * Kernel::Fma1ms.size(1.0));
        assert_eq!(Kernel::Empty.size(2.0), 0);
        assert_eq!(Kernel::Copy1gib.size(1.0) * 16, 1 << 30);
    }

    #[test]
    fn traffic_is_declared_for_the_memory_bound_kernels_only() {
        let t = Kernel::VectorAdd.traffic(DAY09_ELEMS).unwrap();
        assert_eq!(t.total(), 201_333_924, "Day 9's bytes per launch");
        assert_eq!(Kernel::Copy1gib.traffic(COPY_VECTORS).unwrap().total(), 2 << 30);
        assert_eq!(Kernel::Fma1ms.traffic(FMA_ITERATIONS), None);
        assert_eq!(Kernel::Empty.traffic(0), None);
    }
}
