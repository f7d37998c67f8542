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

mod lesson;
mod toolkit;

pub use lesson::{ArchsError, Lesson, ARCHS_VAR, DEFAULT_ARCHS, NO_MAIN_DEFINE};
pub use toolkit::{locate, Found, LocateError, Toolkit, NVCC_VAR, PROVISION_COMMAND};

/// Prints `error: <message>` and ends the build script with exit code 1.
///
/// Cargo shows a build script's stderr under its own heading, so one plain line
/// reads better there than a panic's message and backtrace hint.
pub fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// Links the static CUDA runtime into the crate being built, for crates that
/// call cudart themselves without compiling a `.cu` (such as `cuda-check`).
pub fn link_cudart_static() {
    let toolkit = Toolkit::from_build_env().unwrap_or_else(|e| fail(&e.to_string()));
    toolkit.emit_link_cudart_static();
}
