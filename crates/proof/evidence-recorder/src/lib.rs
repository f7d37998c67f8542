//! Recording on the GPU machine: [`record`] runs a lesson program (or a
//! checker around it) under timeout(1) and writes its transcript; [`cli`] holds the subcommands a GPU session runs
//! (`record`, `check`, `lessons`, `recipe`, `build-alone`), which both the
//! `evidence` binary and this crate's `evidence-recorder` take.
//!
//! Not for: reading or judging the evidence (`evidence-model`), or how a
//! lesson is built alone (`lesson-registry`'s `build_alone`, which
//! `build-alone` runs). This crate and what it depends on link no HTML or
//! plotting crate, so the recorder that travels to the GPU machine carries
//! none.

pub mod cli;
pub mod record;
