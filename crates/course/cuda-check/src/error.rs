//! The two errors a CUDA check can end in.

/// A CUDA call that failed, with where it was made and what CUDA said,
/// printed as the course's `CUDA error <file>:<line>: <call>: <message>`,
/// with CUDA's error name after the message so it can be searched for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("CUDA error {file}:{line}: {call}: {message} ({name})")]
pub struct CudaError {
    pub file: &'static str,
    pub line: u32,
    /// The call's source text, as `stringify!` gives it.
    pub call: &'static str,
    /// CUDA's name for the error, e.g. `cudaErrorMemoryAllocation`.
    pub name: String,
    /// CUDA's message, e.g. `out of memory`.
    pub message: String,
}

impl CudaError {
    pub fn new(file: &'static str, line: u32, call: &'static str, name: String, message: String) -> Self {
        CudaError {
            file,
            line,
            call,
            name,
            message,
        }
    }

    /// A call a wrapper refused before CUDA saw it, reported with CUDA's
    /// invalid-value name and a message that says what was wrong.
    pub fn refused(file: &'static str, line: u32, call: &'static str, message: impl Into<String>) -> Self {
        CudaError::new(file, line, call, "cudaErrorInvalidValue".into(), message.into())
    }
}

/// libcuda could not be loaded: no NVIDIA driver on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "no CUDA driver found (libcuda.so.1 could not be loaded); \
     this program needs an NVIDIA GPU and driver"
)]
pub struct NoDriver;
