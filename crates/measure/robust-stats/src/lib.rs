//! Robust statistics of samples ([`stats`]: the median and a
//! distribution-free 95% interval for it) and B labelled against A SAME,
//! FASTER, SLOWER or UNSURE ([`compare`]): one rule, shared by the
//! instrument and `evidence`. Pure arithmetic; nothing here links CUDA.

pub mod compare;
pub mod stats;
