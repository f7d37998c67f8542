//! The report itself: [`Report`] and the types it is made of, with the
//! methods that read nothing else.

use serde::Serialize;

use crate::ncu::Ncu;

/// Bytes per element: vectorAdd reads two floats and writes one; a copy
/// reads one and writes one.
pub const ADD_BYTES_PER_ELEMENT: f64 = 12.0;
pub const COPY_BYTES_PER_ELEMENT: f64 = 8.0;

/// row4.cu's `gbS`: GB/s (10^9 bytes/s) for `bytes_per_element` over `n`
/// elements in `ms`.
pub fn gb_s(bytes_per_element: f64, n: usize, ms: f32) -> f64 {
    bytes_per_element * n as f64 / (f64::from(ms) * 1.0e6)
}

/// Every number the report prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `NVIDIA H200 (compute capability 9.0)`, as the first line gives it.
    pub gpu: String,
    pub elems: usize,
    pub threads_per_block: u32,
    pub l2_mib: f64,
    pub runs: u32,
    pub warmups: u32,
    /// None where the device reports no memory clock or bus width.
    pub peak: Option<Peak>,
    /// Row 4, timed with timeKernel.
    pub row4: Rate,
    pub memcpy: Rate,
    pub copy: Rate,
    /// vectorAdd with float4 loads and stores.
    pub add4: Rate,
    pub sweep: Vec<SweepRow>,
    pub flush_mib: f64,
    /// Full n, one event pair per launch, no flush: the cold row's control.
    pub each: Rate,
    /// Full n, one event pair per launch, the L2 flushed before each.
    pub cold: Rate,
    /// Nsight Compute's counters, when the run was profiled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ncu: Option<Ncu>,
}

/// The memory's theoretical peak and what it is computed from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    pub memory_clock_mhz: u32,
    pub bus_width_bits: u32,
    pub gb_s: f64,
}

/// A measurement's mean time and rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub ms: f64,
    pub gb_s: f64,
}

/// One size of row 4 against n.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    pub n: usize,
    pub arrays_mib: f64,
    /// Whether the three arrays fit in the L2.
    pub in_l2: bool,
    pub ms: f64,
    pub gb_s: f64,
}

impl Report {
    /// The GPU's name without its compute capability, as expected-failure
    /// lists spell it.
    pub fn gpu_name(&self) -> &str {
        self.gpu
            .rsplit_once(" (compute capability ")
            .map_or(self.gpu.as_str(), |(name, _)| name)
    }

    /// Every measurement on buffers larger than the L2, by name: the ones
    /// the memory's peak bounds.
    pub fn dram_sized(&self) -> Vec<(String, f64)> {
        let full_n = [
            ("row 4", self.row4),
            ("cudaMemcpy", self.memcpy),
            ("copy kernel", self.copy),
            ("float4 vectorAdd", self.add4),
            ("per-launch row 4", self.each),
            ("cold-L2 row 4", self.cold),
        ];
        let past_l2 = self.sweep.iter().filter(|s| !s.in_l2);
        (full_n.map(|(what, r)| (what.to_string(), r.gb_s)).into_iter())
            .chain(past_l2.map(|s| (format!("sweep n = {}", s.n), s.gb_s)))
            .collect()
    }

    /// row4.cu's last check: the first measurement on buffers larger than
    /// the L2 whose rate exceeds the theoretical peak, in its words. A
    /// rate above the peak is a measurement error.
    pub fn peak_failure(&self) -> Option<String> {
        let peak = self.peak.as_ref()?.gb_s;
        let (what, r) = self.dram_sized().into_iter().find(|&(_, r)| r > peak)?;
        let what = if what.starts_with("sweep") {
            "a sweep row past the L2"
        } else {
            &what
        };
        Some(format!(
            "measurement error: {what} at {r:.1} GB/s exceeds the theoretical peak of {peak:.1} GB/s"
        ))
    }
}
