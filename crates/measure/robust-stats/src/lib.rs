//! Robust statistics of samples, and two sets of them compared.
//!
//! [`stats`] summarises a set of samples (quartiles, noise, and a
//! distribution-free 95% interval for the median); [`compare`] labels B
//! against A SAME, FASTER, SLOWER or UNSURE from those intervals. The
//! instrument labels two runs of a kernel with them (its `compare` is this
//! crate's), and `evidence` labels a figure between two recording sessions
//! with the same rule, so that one rule, tested once, says what changed.
//!
//! Not for: taking samples (the instrument does, on a GPU) or reading the
//! files they are kept in. Nothing here links CUDA.

pub mod compare;
pub mod stats;
