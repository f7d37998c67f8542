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
mod lesson;
mod toolkit;

pub use fail::fail;
pub use lesson::{ArchsError, Lesson, ARCHS_VAR, DEFAULT_ARCHS, NO_MAIN_DEFINE};
pub use toolkit::{link_cudart_static, locate, LocateError, Toolkit, NVCC_VAR, PROVISION_COMMAND};
