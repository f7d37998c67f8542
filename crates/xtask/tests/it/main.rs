//! The xtask crate's integration tests, one binary (each file was a binary
//! of its own: seven links of the same dependencies for one crate).

mod architecture;
mod ci_scripts;
mod cli;
mod export;
mod new_lesson;
mod repository;
mod support;
mod workflows;
