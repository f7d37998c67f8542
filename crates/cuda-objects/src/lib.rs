//! CUDA objects made the way the course's C++ makes them, owned by Rust values
//! that free them on drop.
//!
//! | here | course C++ | driver call |
//! | --- | --- | --- |
//! | [`DeviceBuffer::alloc`] | `cudaMalloc` | `cuMemAlloc` |
//! | [`PinnedHost::alloc`] with [`Mapping::Unmapped`] | `cudaMallocHost` | `cuMemHostAlloc(0)` |
//! | [`PinnedHost::alloc`] with [`Mapping::Mapped`] | `cudaHostAlloc(cudaHostAllocMapped)` | `cuMemHostAlloc(DEVICEMAP)` |
//! | [`PinnedHost::device_view`] | `cudaHostGetDevicePointer` | `cuMemHostGetDevicePointer` |
//! | [`BlockingStream::create`] | `cudaStreamCreate` | `cuStreamCreate(CU_STREAM_DEFAULT)` |
//!
//! A kernel launcher's safe wrapper takes [`DeviceMemory`], which only a
//! [`DeviceBuffer`] and a [`MappedView`] implement, never a raw address.
//!
//! cudarc's own helpers differ in ways a timing lesson cannot ignore: its
//! stream allocations come from a stream-ordered pool (`cuMemAllocAsync`), its
//! `alloc_pinned` is write-combined (slow for the CPU to read), its streams are
//! non-blocking, and its slices record events around every use. Nothing here
//! does any of that.
//!
//! Not for: checking statuses (`cuda-check`) or timing (`time-kernel`).

mod device;
mod device_memory;
mod host;
mod stream;

pub use device::DeviceBuffer;
pub use device_memory::DeviceMemory;
pub use host::{MappedView, Mapping, PinnedHost};
pub use stream::BlockingStream;

use cudarc::driver::DriverError;

/// A copy asked to move more elements than one side holds, or a device address
/// asked of unmapped memory. Reported as a
/// driver `CUDA_ERROR_INVALID_VALUE`, which is what `cuMemcpy` itself would
/// say, so every failure goes through the same check.
fn invalid_value() -> DriverError {
    DriverError(cudarc::driver::sys::cudaError_enum::CUDA_ERROR_INVALID_VALUE)
}
