//! A kernel of the instrument's own, loaded from PTX text, so the instrument
//! needs no compiler: the driver compiles it for whatever GPU runs it.
//!
//! Not for: the kernels being measured, which the caller launches.

use std::ffi::{c_void, CStr};

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{self, CUfunction, CUmodule};
use cudarc::driver::{result, CudaStream};

/// One function of a module loaded from PTX; the module lives as long as it.
pub(crate) struct PtxKernel {
    module: CUmodule,
    function: CUfunction,
}

impl PtxKernel {
    /// Loads `ptx` into the current context and finds `name` in it.
    pub(crate) fn load(ptx: &CStr, name: &CStr) -> Result<PtxKernel, CudaError> {
        // SAFETY: NUL-terminated PTX text.
        let module = check!(unsafe { result::module::load_data(ptx.as_ptr() as *const c_void) })?;
        let mut function: CUfunction = std::ptr::null_mut();
        // SAFETY: a loaded module and a NUL-terminated name; writes one handle.
        let found =
            check!(unsafe { sys::cuModuleGetFunction(&mut function, module, name.as_ptr()) }.result());
        if let Err(e) = found {
            // SAFETY: loaded above, unloaded once.
            let _ = unsafe { result::module::unload(module) };
            return Err(e);
        }
        Ok(PtxKernel { module, function })
    }

    /// Queues one launch on `stream`.
    ///
    /// # Safety
    /// `params` must match the kernel's parameters, and whatever they point
    /// to must outlive the launch.
    pub(crate) unsafe fn launch(
        &self,
        grid: u32,
        block: u32,
        params: &mut [*mut c_void],
        stream: &CudaStream,
    ) -> Result<(), CudaError> {
        // SAFETY: the caller vouches for the parameters.
        check!(unsafe {
            result::launch_kernel(
                self.function,
                (grid, 1, 1),
                (block, 1, 1),
                0,
                stream.cu_stream(),
                params,
            )
        })
    }
}

impl Drop for PtxKernel {
    fn drop(&mut self) {
        // SAFETY: loaded in load, unloaded once; nothing to report to.
        let _ = unsafe { result::module::unload(self.module) };
    }
}
