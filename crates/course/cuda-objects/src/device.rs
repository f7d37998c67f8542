//! Device memory with `cudaMalloc` semantics.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaContext, CudaStream, DeviceRepr, DriverError};

use crate::device_memory::DeviceMemory;
use crate::owner::{invalid_value, release};

/// `len` elements of `T` in device memory from `cuMemAlloc`, freed on drop.
///
/// The contents start undefined, as with `cudaMalloc`; fill them before use.
pub struct DeviceBuffer<T> {
    ptr: sys::CUdeviceptr,
    len: usize,
    ctx: Arc<CudaContext>,
    _elem: PhantomData<T>,
}

impl<T: DeviceRepr> DeviceBuffer<T> {
    /// Allocates `len` elements on the context's device.
    pub fn alloc(ctx: &Arc<CudaContext>, len: usize) -> Result<Self, DriverError> {
        ctx.bind_to_thread()?;
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(invalid_value)?;
        // SAFETY: a plain allocation; the contents are never read as T before
        // a copy or a kernel writes them.
        let ptr = unsafe { result::malloc_sync(bytes) }?;
        Ok(DeviceBuffer {
            ptr,
            len,
            ctx: ctx.clone(),
            _elem: PhantomData,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device address, for a kernel launcher.
    pub fn as_ptr(&self) -> *const T {
        self.ptr as *const T
    }

    /// The device address, for a kernel launcher that writes.
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr as *mut T
    }

    /// The raw driver address.
    pub fn device_ptr(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    /// Copies `src` into the front of the buffer and returns when the copy is
    /// done, like `cudaMemcpy(..., cudaMemcpyHostToDevice)`: on the legacy
    /// default stream, staged through a bounce buffer when `src` is pageable.
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<(), DriverError> {
        if src.len() > self.len {
            return Err(invalid_value());
        }
        self.ctx.bind_to_thread()?;
        // SAFETY: the destination holds at least src.len() elements.
        unsafe { result::memcpy_htod_sync(self.ptr, src) }
    }

    /// Fills `dst` from the front of the buffer, like `cudaMemcpy(...,
    /// cudaMemcpyDeviceToHost)`.
    pub fn copy_to_host(&self, dst: &mut [T]) -> Result<(), DriverError> {
        if dst.len() > self.len {
            return Err(invalid_value());
        }
        self.ctx.bind_to_thread()?;
        // SAFETY: the source holds at least dst.len() elements.
        unsafe { result::memcpy_dtoh_sync(dst, self.ptr) }
    }

    /// Sets every byte to zero and returns when that is done, like
    /// `cudaMemset(ptr, 0, bytes)`.
    pub fn zero(&mut self) -> Result<(), DriverError> {
        self.ctx.bind_to_thread()?;
        // SAFETY: the buffer holds len() elements, all of them overwritten.
        unsafe { result::memset_d8_sync(self.ptr, 0, self.len * std::mem::size_of::<T>()) }
    }

    /// Queues setting every byte to zero on `stream`, like
    /// `cudaMemsetAsync(ptr, 0, bytes, stream)`; also what a stream capture
    /// records as a memset node.
    pub fn zero_async(&mut self, stream: &CudaStream) -> Result<(), DriverError> {
        self.ctx.bind_to_thread()?;
        // SAFETY: the buffer holds len() elements, all of them overwritten.
        unsafe {
            result::memset_d8_async(
                self.ptr,
                0,
                self.len * std::mem::size_of::<T>(),
                stream.cu_stream(),
            )
        }
    }

    /// Starts copying all of `src` into the front of this buffer on
    /// `stream`, like `cudaMemcpyAsync(..., cudaMemcpyDeviceToDevice)`.
    /// Dropping either buffer before the copy is done is safe: the free
    /// waits for the device. The context must be current on this thread:
    /// the call binds nothing, so a timed copy holds the copy alone.
    pub fn copy_from_device_async(
        &mut self,
        src: &DeviceBuffer<T>,
        stream: &CudaStream,
    ) -> Result<(), DriverError> {
        if src.len > self.len {
            return Err(invalid_value());
        }
        let bytes = src.len * std::mem::size_of::<T>();
        // SAFETY: both buffers hold at least `bytes` bytes, and free waits for the copy.
        unsafe { result::memcpy_dtod_async(self.ptr, src.ptr, bytes, stream.cu_stream()) }
    }

    /// Starts copying `src` into the front of the buffer on `stream` and
    /// returns, like `cudaMemcpyAsync`. How soon it returns depends on `src`:
    /// Day 53 measures exactly that.
    ///
    /// # Safety
    /// `src` must stay alive and unchanged until the stream has finished the copy.
    pub unsafe fn copy_from_host_async(
        &mut self,
        src: &[T],
        stream: sys::CUstream,
    ) -> Result<(), DriverError> {
        if src.len() > self.len {
            return Err(invalid_value());
        }
        self.ctx.bind_to_thread()?;
        result::memcpy_htod_async(self.ptr, src, stream)
    }
}

impl<T> crate::device_memory::sealed::Sealed for DeviceBuffer<T> {}

impl<T: DeviceRepr> DeviceMemory<T> for DeviceBuffer<T> {
    fn device_address(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    fn len(&self) -> usize {
        self.len
    }
}

impl<T> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: ptr came from cuMemAlloc and is freed exactly once.
        release(&*self.ctx, |keep| keep(unsafe { result::free_sync(self.ptr) }));
    }
}
