//! The CUDA runtime's status type and the few runtime entry points that checks
//! need: error text, the last launch error, and binding the runtime to the
//! context cudarc made current.
//!
//! Lessons launch kernels through the runtime (`<<<>>>` in their `.cu`) while
//! the Rust side drives the driver API through cudarc; both work in the
//! device's primary context.

use std::ffi::{c_char, c_uint, c_void, CStr};

/// A `cudaError_t`: what every runtime call and every lesson launcher returns.
///
/// `repr(transparent)` over the C enum's `unsigned int`, so lesson bindings
/// use this type directly for `cudaError_t` (see `cuda-build`).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeStatus(pub c_uint);

extern "C" {
    fn cudaGetErrorName(error: RuntimeStatus) -> *const c_char;
    fn cudaGetErrorString(error: RuntimeStatus) -> *const c_char;
    fn cudaGetLastError() -> RuntimeStatus;
    fn cudaFree(ptr: *mut c_void) -> RuntimeStatus;
}

fn owned(text: *const c_char) -> String {
    if text.is_null() {
        return String::from("(no text)");
    }
    // SAFETY: cudart returns pointers to static, NUL-terminated strings.
    unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
}

impl RuntimeStatus {
    pub const SUCCESS: RuntimeStatus = RuntimeStatus(0);
    /// `cudaErrorInvalidValue`, also for calls a wrapper refuses before CUDA
    /// sees them (a length past the end of a buffer).
    pub const INVALID_VALUE: RuntimeStatus = RuntimeStatus(1);

    pub fn is_success(self) -> bool {
        self == Self::SUCCESS
    }

    /// CUDA's name for the status, e.g. `cudaErrorInvalidValue`.
    pub fn name(self) -> String {
        // SAFETY: a table lookup in cudart; any value is accepted.
        owned(unsafe { cudaGetErrorName(self) })
    }

    /// CUDA's message for the status, e.g. `invalid argument`.
    pub fn message(self) -> String {
        // SAFETY: as for `name`.
        owned(unsafe { cudaGetErrorString(self) })
    }
}

/// `cudaGetLastError()`: the error of the last launch, which it also clears.
///
/// A kernel launch returns before the kernel runs, so a fault inside it only
/// shows up here after a synchronisation; check this after every sync.
pub fn last_error() -> RuntimeStatus {
    // SAFETY: no arguments; reads and clears a thread-local status.
    unsafe { cudaGetLastError() }
}

/// Binds the runtime to the context that is current on this thread (the
/// primary context cudarc retained), with the classic `cudaFree(NULL)`.
///
/// Without it the runtime's own start-up would land inside the first thing a
/// lesson times, such as the first launch, instead of in the context line.
pub fn bind_to_current_context() -> RuntimeStatus {
    // SAFETY: freeing a null pointer is defined to do nothing.
    unsafe { cudaFree(std::ptr::null_mut()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_messages_come_from_cudart() {
        assert_eq!(RuntimeStatus(0).name(), "cudaSuccess");
        assert_eq!(RuntimeStatus(0).message(), "no error");
        assert_eq!(RuntimeStatus(1).name(), "cudaErrorInvalidValue");
        assert_eq!(RuntimeStatus(1).message(), "invalid argument");
    }

    #[test]
    fn an_unknown_code_still_gets_text() {
        let status = RuntimeStatus(987_654);
        assert!(!status.is_success());
        assert!(!status.name().is_empty());
        assert!(!status.message().is_empty());
    }

    /// The test below, run in a child process of this test binary with
    /// every device hidden: no GPU is usable there whether or not this
    /// machine has a driver, so the failure path runs on every machine.
    #[test]
    fn with_no_usable_device_runtime_calls_fail_with_a_status_that_says_why() {
        let child = "runtime::tests::binding_fails_cleanly_with_every_device_hidden";
        let exe = std::env::current_exe().expect("the test binary's own path");
        let out = std::process::Command::new(exe)
            .args(["--ignored", "--exact", child, "--test-threads=1"])
            .env("CUDA_VISIBLE_DEVICES", "")
            .output()
            .expect("the test binary runs as a child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(
            stdout.contains("1 passed"),
            "the child test did not run: {stdout}"
        );
    }

    #[test]
    #[ignore = "run in a child process with CUDA_VISIBLE_DEVICES empty, by the test above"]
    fn binding_fails_cleanly_with_every_device_hidden() {
        assert_eq!(
            std::env::var("CUDA_VISIBLE_DEVICES").as_deref(),
            Ok(""),
            "this test needs every device hidden"
        );
        let status = bind_to_current_context();
        assert!(
            !status.is_success(),
            "cudaFree(NULL) cannot succeed without a usable device"
        );
        // cudart names the missing driver or device rather than crashing.
        assert!(
            ["cudaErrorInsufficientDriver", "cudaErrorNoDevice"].contains(&status.name().as_str()),
            "{}",
            status.name()
        );
    }
}
