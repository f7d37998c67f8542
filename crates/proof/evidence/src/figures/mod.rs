//! Figures the evidence writes: the documents' figure blocks ([`blocks`]),
//! each naming a figure a lesson defines beside its claims (the evidence
//! documents' own in [`tables`]), a query ([`query`]) over what the evidence
//! holds ([`data`]), the instrument's proof among it ([`instrument`]).

pub mod blocks;
pub mod data;
pub mod instrument;
pub mod query;
pub mod tables;
