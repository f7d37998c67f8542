//! What a report says about the device and driver it ran on, asked once.
//!
//! Not for: measured figures (the instrument's calibration).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::{result, CudaContext};

/// The CUDA version the installed driver supports, as `cuDriverGetVersion`
/// gives it (13000 for 13.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverVersion(pub i32);

impl DriverVersion {
    pub fn query() -> Result<DriverVersion, CudaError> {
        let mut version = 0;
        // SAFETY: writes one int.
        check!(unsafe { sys::cuDriverGetVersion(&mut version) }.result())?;
        Ok(DriverVersion(version))
    }
}

impl std::fmt::Display for DriverVersion {
    /// `major.minor`, as `nvidia-smi` prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0 / 1000, (self.0 % 1000) / 10)
    }
}

/// The device's name, compute capability and L2 size, and the driver's
/// CUDA version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceFacts {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub l2_bytes: u64,
    pub driver: DriverVersion,
}

impl DeviceFacts {
    pub fn query(ctx: &Arc<CudaContext>) -> Result<DeviceFacts, CudaError> {
        Ok(DeviceFacts {
            name: check!(ctx.name())?,
            compute_capability: check!(ctx.compute_capability())?,
            l2_bytes: check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE))? as u64,
            driver: DriverVersion::query()?,
        })
    }
}

/// Free device memory in bytes on the context's device (`cudaMemGetInfo`).
pub fn free_memory(ctx: &Arc<CudaContext>) -> Result<usize, CudaError> {
    check!(ctx.bind_to_thread())?;
    let (free, _total) = check!(result::mem_get_info())?;
    Ok(free)
}

#[cfg(test)]
mod tests {
    use super::DriverVersion;

    #[test]
    fn a_driver_version_prints_as_major_dot_minor() {
        for (version, printed) in [(13000, "13.0"), (12090, "12.9"), (13010, "13.1")] {
            assert_eq!(DriverVersion(version).to_string(), printed);
        }
    }
}
