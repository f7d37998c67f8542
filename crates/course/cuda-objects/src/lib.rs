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
//! | [`timing_event`], [`EventPair`] | `cudaEventCreate`, a start/stop pair | `cuEventCreate(CU_EVENT_DEFAULT)` |
//! | [`event::record`], [`event::record_external`], [`event::wait`] | `cudaEventRecord(WithFlags)`, `cudaStreamWaitEvent` | `cuEventRecord(WithFlags)`, `cuStreamWaitEvent` |
//! | [`Graph`] | `cudaStreamBeginCapture` .. `cudaGraphLaunch` | `cuStreamBeginCapture` .. `cuGraphLaunch` |
//! | [`LoadedKernel`] | `cuModuleLoadData`, `cuModuleGetFunction`, `cuLaunchKernel` | the same |
//! | [`DeviceFacts`], [`DriverVersion`], [`free_memory`] | `cudaGetDeviceProperties`, `cudaDriverGetVersion`, `cudaMemGetInfo` | `cuDeviceGetAttribute`, `cuDriverGetVersion`, `cuMemGetInfo` |
//!
//! This is the one safe layer, as cudarc's `safe` is over its `result`: code
//! outside this crate and `cuda-check` makes no raw driver call (CUPTI's few
//! aside, in the instrument's `trace` and `libcupti`).
//! A kernel launcher's safe wrapper takes [`DeviceMemory`], which only a
//! [`DeviceBuffer`] and a [`MappedView`] implement, never a raw address.
//! Every owner holds its context and drops as cudarc's do: the context made
//! current, the destroy call's failure recorded on it, where
//! `CudaContext::check_err` finds it (module `owner`).
//!
//! cudarc's own helpers differ in ways a timing lesson cannot ignore: its
//! stream allocations come from a stream-ordered pool (`cuMemAllocAsync`), its
//! `alloc_pinned` is write-combined (slow for the CPU to read), its streams are
//! non-blocking, and its slices record events around every use. Nothing here
//! does any of that.
//!
//! Not for: checking statuses (`cuda-check`) or the course's timing loop
//! (`time-kernel`).

mod device;
mod device_memory;
pub mod event;
mod graph;
mod host;
mod info;
mod module;
mod owner;
mod stream;

pub use device::DeviceBuffer;
pub use device_memory::DeviceMemory;
pub use event::{timing_event, EventPair};
pub use graph::{Edge, Graph, NodeId};
pub use host::{MappedView, Mapping, PinnedHost};
pub use info::{free_memory, DeviceFacts, DriverVersion};
pub use module::LoadedKernel;
pub use stream::{runtime_stream, BlockingStream};
