//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

use crate::parts::{Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8};

/// Everything the program prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub gpu: String,
    pub launch: Part1,
    pub spread: Part2,
    pub wait: Part3,
    pub disable_timing: Part4,
    pub cross_stream: Part5,
    pub interval: Part6,
    pub boost: Part7,
    pub pattern: Part8,
}
