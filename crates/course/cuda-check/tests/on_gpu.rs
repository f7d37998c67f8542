//! On a machine with an NVIDIA driver: the checks describe failures with the
//! driver's own text. Run with `cargo test -- --ignored` there;
//! ci/gpu-session.sh runs these on the GPU machine.

use cuda_check::check;
use cudarc::driver::sys::cudaError_enum;
use cudarc::driver::DriverError;

#[test]
#[ignore = "needs an NVIDIA driver"]
fn a_driver_failure_carries_the_drivers_own_message() {
    cuda_check::require_driver().expect("this test needs an NVIDIA driver");
    let failed: Result<(), DriverError> = Err(DriverError(cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY));
    let err = check!(failed).unwrap_err();
    assert_eq!(err.name, "CUDA_ERROR_OUT_OF_MEMORY");
    assert_eq!(err.message, "out of memory", "{err}");
}
