//! A kernel loaded at run time from PTX text or a cubin, with the module it
//! lives in: one owner, as cudarc's `CudaModule` (module `owner`).
//!
//! Not for: the lessons' kernels, which are linked in from their `.cu` and
//! launched through each lesson's FFI.

use std::ffi::{c_void, CStr};
use std::sync::Arc;

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{self, CUfunction, CUmodule};
use cudarc::driver::{result, CudaContext, CudaStream};

use crate::owner::{release, KeepsErrors};

/// One function of a module loaded into a context; the module lives as long
/// as it.
pub struct LoadedKernel {
    module: CUmodule,
    function: CUfunction,
    ctx: Arc<CudaContext>,
}

impl LoadedKernel {
    /// Loads NUL-terminated PTX text into `ctx`, which the driver compiles
    /// for the GPU it runs on, and finds `name` in it.
    pub fn from_ptx(ctx: &Arc<CudaContext>, ptx: &CStr, name: &CStr) -> Result<LoadedKernel, CudaError> {
        // A module is loaded into the current context.
        check!(ctx.bind_to_thread())?;
        // SAFETY: NUL-terminated PTX text, read by the call only.
        let module = check!(unsafe { result::module::load_data(ptx.as_ptr() as *const c_void) })?;
        Self::find(ctx, module, name)
    }

    /// Loads a cubin (an ELF image for one architecture) into `ctx` and
    /// finds `name` in it. Refused when `cubin` is not an ELF image, which
    /// the driver would read past the end of.
    pub fn from_cubin(ctx: &Arc<CudaContext>, cubin: &[u8], name: &CStr) -> Result<LoadedKernel, CudaError> {
        check_is_cubin(cubin)?;
        check!(ctx.bind_to_thread())?;
        // SAFETY: an ELF image, whose header gives the driver its length.
        let module = check!(unsafe { result::module::load_data(cubin.as_ptr() as *const c_void) })?;
        Self::find(ctx, module, name)
    }

    fn find(ctx: &Arc<CudaContext>, module: CUmodule, name: &CStr) -> Result<LoadedKernel, CudaError> {
        let mut function: CUfunction = std::ptr::null_mut();
        // SAFETY: a loaded module and a NUL-terminated name; writes one handle.
        let found =
            check!(unsafe { sys::cuModuleGetFunction(&mut function, module, name.as_ptr()) }.result());
        if let Err(e) = found {
            // The lookup's error is the one to return; an unload that fails
            // too is kept on the context, as Drop keeps it.
            // SAFETY: loaded by the caller into ctx, still current; unloaded once.
            ctx.keep(unsafe { result::module::unload(module) });
            return Err(e);
        }
        Ok(LoadedKernel {
            module,
            function,
            ctx: ctx.clone(),
        })
    }

    /// Queues one launch of a one-dimensional grid on `stream`.
    ///
    /// # Safety
    /// `params` must match the kernel's parameters, and whatever they point
    /// to must outlive the launch.
    pub unsafe fn launch(
        &self,
        grid: u32,
        block: u32,
        params: &mut [*mut c_void],
        stream: &CudaStream,
    ) -> Result<(), CudaError> {
        // SAFETY: the caller vouches for the parameters.
        unsafe { self.launch_shaped((grid, 1, 1), (block, 1, 1), 0, params, stream) }
    }

    /// Queues one launch of any grid and block shape, with `shared` bytes
    /// of dynamic shared memory per block, on `stream`.
    ///
    /// # Safety
    /// As [`LoadedKernel::launch`].
    pub unsafe fn launch_shaped(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
        params: &mut [*mut c_void],
        stream: &CudaStream,
    ) -> Result<(), CudaError> {
        // SAFETY: the caller vouches for the parameters.
        check!(unsafe {
            result::launch_kernel(self.function, grid, block, shared, stream.cu_stream(), params)
        })
    }

    /// The driver's handle, for the attribute and parameter queries a
    /// caller makes of it; valid while `self` lives.
    pub fn function(&self) -> CUfunction {
        self.function
    }
}

/// Refuses an image that is not a cubin before the driver reads it: the
/// driver takes an ELF image's length from its header.
fn check_is_cubin(image: &[u8]) -> Result<(), CudaError> {
    if image.starts_with(b"\x7fELF") {
        return Ok(());
    }
    Err(CudaError::refused(
        file!(),
        line!(),
        "LoadedKernel::from_cubin",
        "the image is not a cubin (no ELF header)",
    ))
}

impl Drop for LoadedKernel {
    fn drop(&mut self) {
        let module = self.module;
        // SAFETY: loaded once, unloaded once (cuModuleUnload acts on the
        // current context, which release makes the module's own).
        release(&*self.ctx, |keep| keep(unsafe { result::module::unload(module) }));
    }
}

#[cfg(test)]
mod tests {
    use super::check_is_cubin;

    #[test]
    fn an_image_that_is_not_a_cubin_is_refused_before_the_driver_reads_it() {
        // from_cubin's first step, before any driver call, so no GPU is needed.
        let err = check_is_cubin(b"// PTX, not ELF").expect_err("refused");
        assert_eq!(err.call, "LoadedKernel::from_cubin");
        assert!(err.message.contains("no ELF header"), "{err}");
        assert_eq!(check_is_cubin(b"\x7fELF\x02\x01"), Ok(()));
    }
}
