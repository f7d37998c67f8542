//! Page-locked host memory with `cudaMallocHost` / `cudaHostAlloc` semantics.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaContext, DeviceRepr, DriverError, ValidAsZeroBits};

use crate::device_memory::DeviceMemory;
use crate::owner::{invalid_value, release};

/// Whether the pages are also mapped into the device's address space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mapping {
    /// Plain page-locked memory, `cudaMallocHost`. Cached and not
    /// write-combined, so the CPU reads it at full speed.
    Unmapped,
    /// `cudaHostAllocMapped`: a kernel can dereference it through
    /// [`PinnedHost::device_view`] (zero-copy), every access crossing the bus.
    Mapped,
}

/// `len` elements of `T` in page-locked host memory, zeroed, freed on drop.
pub struct PinnedHost<T> {
    ptr: *mut T,
    len: usize,
    mapping: Mapping,
    ctx: Arc<CudaContext>,
}

impl<T: DeviceRepr + ValidAsZeroBits> PinnedHost<T> {
    pub fn alloc(ctx: &Arc<CudaContext>, len: usize, mapping: Mapping) -> Result<Self, DriverError> {
        ctx.bind_to_thread()?;
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(invalid_value)?;
        let flags = match mapping {
            Mapping::Unmapped => 0,
            Mapping::Mapped => sys::CU_MEMHOSTALLOC_DEVICEMAP,
        };
        // SAFETY: a plain allocation, zeroed below before any read as T.
        let ptr = unsafe { result::malloc_host(bytes, flags) }? as *mut T;
        // SAFETY: ptr holds `bytes` writable bytes; all-zero is a valid T.
        unsafe { std::ptr::write_bytes(ptr, 0, len) };
        Ok(PinnedHost {
            ptr,
            len,
            mapping,
            ctx: ctx.clone(),
        })
    }

    /// The device's view of these pages, the address a kernel reads them
    /// by, like `cudaHostGetDevicePointer`. Only mapped memory has one. The
    /// view borrows the allocation, so the pages can be neither freed nor
    /// written from the host while a launcher holds it.
    pub fn device_view(&self) -> Result<MappedView<'_, T>, DriverError> {
        if self.mapping != Mapping::Mapped {
            return Err(invalid_value());
        }
        let mut address: sys::CUdeviceptr = 0;
        // SAFETY: ptr is a live mapped allocation from cuMemHostAlloc.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut address, self.ptr.cast(), 0) }.result()?;
        Ok(MappedView { address, host: self })
    }
}

/// Mapped pinned memory as a kernel reads it (zero-copy): its device
/// address, borrowed from the [`PinnedHost`] that owns the pages.
pub struct MappedView<'a, T> {
    address: sys::CUdeviceptr,
    host: &'a PinnedHost<T>,
}

impl<T> crate::device_memory::sealed::Sealed for MappedView<'_, T> {}

impl<T> DeviceMemory<T> for MappedView<'_, T> {
    fn device_address(&self) -> sys::CUdeviceptr {
        self.address
    }

    fn len(&self) -> usize {
        self.host.len
    }
}

impl<T> Deref for PinnedHost<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: ptr holds len initialised elements for the life of self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> DerefMut for PinnedHost<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for deref, and &mut self gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T> Drop for PinnedHost<T> {
    fn drop(&mut self) {
        // SAFETY: ptr came from cuMemHostAlloc and is freed exactly once.
        release(&*self.ctx, |keep| {
            keep(unsafe { result::free_host(self.ptr.cast()) })
        });
    }
}
