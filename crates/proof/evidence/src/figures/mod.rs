//! Figures the evidence writes: the documents' figure blocks ([`blocks`]),
//! each naming a figure that a lesson defines beside its claims (the
//! evidence documents' own in [`figures`]), a query ([`query`]) over what
//! the evidence holds ([`data`]); and the instrument's proof tabled against
//! ncu and the peer tools ([`instrument`]).
//!
//! Not for: reading or judging runs (`evidence-model`), or the site
//! (`site-build`).

pub mod blocks;
pub mod data;
pub mod instrument;
pub mod query;
pub mod tables;
