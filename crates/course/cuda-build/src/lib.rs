//! Build-script support shared by every lesson crate (and by `cuda-check`).
//!
//! A lesson's `build.rs` is a few lines: [`Lesson::new`] with the `.cu` file and
//! its C header, then [`Lesson::build`]. That one call finds the CUDA toolkit
//! ([`toolkit`]), compiles the `.cu` with nvcc through `cc` with the lesson's own
//! `main` left out, links the static CUDA runtime and writes Rust bindings for
//! the header with `bindgen`.
//!
//! This crate runs at build time only. It is not for anything a lesson does at
//! run time, and it never touches a GPU.

mod fail;
// What a build script runs; tools that only locate nvcc build without it
// (the `lesson-build` feature, on by default).
#[cfg(feature = "lesson-build")]
mod lesson;
mod toolkit;

pub use fail::fail;
#[cfg(feature = "lesson-build")]
pub use lesson::{ArchsError, Lesson, DEFAULT_ARCHS, NO_MAIN_DEFINE};

/// The variable that overrides the GPU architectures, as compute capabilities
/// separated by commas or semicolons (`LESSON_CUDA_ARCHS=90`).
pub const ARCHS_VAR: &str = "LESSON_CUDA_ARCHS";
pub use toolkit::{link_cudart_static, locate, LocateError, Toolkit, NVCC_VAR, PROVISION_COMMAND};
