//! What every lesson's tests hold it to, written once and declared in each
//! lesson by a macro: [`cli_tests!`](crate::cli_tests) and
//! [`gpu_tests!`](crate::gpu_tests) for its binary ([`cli`], [`full_disk`]),
//! [`conformance_tests!`](crate::conformance_tests) for its report package
//! against the lesson's README, `.cu`, twin and evidence ([`conformance`]).
//! Behind the `testkit` feature, which lessons turn on in their
//! dev-dependencies only, so none of it is in a lesson binary or the tools.
//!
//! Not for: a lesson's own numbers (its report package's own tests).

pub mod cli;
pub mod conformance;
mod cu_formats;
pub mod full_disk;
mod twin_order;
pub mod why_named;
