//! Recording on the GPU machine: [`record`] runs a lesson program (or a
//! checker around it) and writes its transcript and JSON twin, watching the
//! program to its end.
//!
//! Not for: reading or judging the evidence (`evidence-model`), or building
//! a lesson alone (`lesson-registry`'s `build_alone`, which `evidence
//! build-alone` runs). This crate and what it depends on link no HTML or
//! plotting crate, so the recorder that travels to the GPU machine carries
//! none.

pub mod record;
