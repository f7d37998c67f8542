//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

/// Every number the report prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub gpu: String,
    pub bandwidth: Vec<BandwidthRow>,
    pub async_pageable: AsyncRow,
    pub async_pinned: AsyncRow,
    pub resident_ms: f64,
    pub resident_gb_s: f64,
    pub zero_copy_ms: f64,
    pub zero_copy_gb_s: f64,
    pub zero_copy_ratio: f64,
}

/// One size of Part 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandwidthRow {
    pub mib: u64,
    pub pageable_ms: f64,
    pub pageable_gb_s: f64,
    pub pinned_ms: f64,
    pub pinned_gb_s: f64,
    pub ratio: f64,
}

/// One source of Part 2.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AsyncRow {
    pub call_ms: f64,
    pub completion_ms: f64,
    pub call_percent: f64,
}
