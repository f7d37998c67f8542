//! A kernel loaded at run time from PTX text or a cubin, with the module it
//! lives in: one owner, unloaded on drop.
//!
//! Not for: the lessons' kernels, which are linked in from their `.cu` and
//! launched through each lesson's FFI.

use std::ffi::{c_void, CStr};

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{self, CUfunction, CUmodule};
use cudarc::driver::{result, CudaStream};

/// One function of a module loaded into the current context; the module
/// lives as long as it.
pub struct LoadedKernel {
    module: CUmodule,
    function: CUfunction,
}

impl LoadedKernel {
    /// Loads NUL-terminated PTX text, which the driver compiles for the GPU
    /// it runs on, and finds `name` in it.
    pub fn from_ptx(ptx: &CStr, name: &CStr) -> Result<LoadedKernel, CudaError> {
        // SAFETY: NUL-terminated PTX text, read by the call only.
        let module = check!(unsafe { result::module::load_data(ptx.as_ptr() as *const c_void) })?;
        Self::find(module, name)
    }

    /// Loads a cubin (an ELF image for one architecture) and finds `name`
    /// in it. Refused when `cubin` is not an ELF image, which the driver
    /// would read past the end of.
    pub fn from_cubin(cubin: &[u8], name: &CStr) -> Result<LoadedKernel, CudaError> {
        if !cubin.starts_with(b"\x7fELF") {
            return Err(CudaError::refused(
                file!(),
                line!(),
                "LoadedKernel::from_cubin",
                "the image is not a cubin (no ELF header)",
            ));
        }
        // SAFETY: an ELF image, whose header gives the driver its length.
        let module = check!(unsafe { result::module::load_data(cubin.as_ptr() as *const c_void) })?;
        Self::find(module, name)
    }

    fn find(module: CUmodule, name: &CStr) -> Result<LoadedKernel, CudaError> {
        let mut function: CUfunction = std::ptr::null_mut();
        // SAFETY: a loaded module and a NUL-terminated name; writes one handle.
        let found =
            check!(unsafe { sys::cuModuleGetFunction(&mut function, module, name.as_ptr()) }.result());
        if let Err(e) = found {
            // SAFETY: loaded by the caller, unloaded once.
            let _ = unsafe { result::module::unload(module) };
            return Err(e);
        }
        Ok(LoadedKernel { module, function })
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

impl Drop for LoadedKernel {
    fn drop(&mut self) {
        // SAFETY: loaded once, unloaded once; a failure has no one to report to.
        let _ = unsafe { result::module::unload(self.module) };
    }
}

#[cfg(test)]
mod tests {
    use super::LoadedKernel;

    #[test]
    fn an_image_that_is_not_a_cubin_is_refused_before_the_driver_reads_it() {
        // Refused before any driver call, so no GPU is needed.
        let err = LoadedKernel::from_cubin(b"// PTX, not ELF", c"k")
            .err()
            .expect("refused");
        assert_eq!(err.call, "LoadedKernel::from_cubin");
        assert!(err.message.contains("no ELF header"), "{err}");
    }
}
