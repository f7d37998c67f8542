//! Timing a loaded kernel with the instrument as it is: the process's
//! calibration, a short hot pilot, the mode `recommend` picks (or the one
//! asked for), and [`Instrument::measure`]; and A/B, two kernels measured in
//! turns, A, B, A, B, on the same buffers, each side's turns pooled and the
//! two medians labelled by the instrument's `compare`.
//!
//! Not for: loading the kernel (`module`) or printing (`bug_report`).

use std::ffi::c_void;
use std::sync::Arc;

use anyhow::Context;
use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, DeviceFacts};
use cudarc::driver::{CudaContext, CudaStream};
use instrument::calibrate::Calibration;
use instrument::compare::{compare, Comparison, Median, DEFAULT_BAND};
use instrument::measure::{pilot, Instrument, Measurement};
use instrument::recommend::{recommend, NEAR_LAUNCH_FLOOR_MS};
use instrument::reject::{MemoryFloor, Rejection};
use instrument::sampling::{Budget, Warmup};
use instrument::{has_programmatic_launch, Mode, Traffic};

use crate::args::{ArgSpec, Dim3};
use crate::module::Kernel;

/// A kernel's launch shape.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: u32,
}

/// The arguments, made on the device: each buffer allocated and filled, and
/// the bytes of every parameter (a scalar's value, a buffer's address).
pub struct Workload {
    _buffers: Vec<DeviceBuffer<u8>>,
    params: Vec<Vec<u8>>,
}

impl Workload {
    pub fn new(ctx: &Arc<CudaContext>, args: &[ArgSpec]) -> Result<Workload, CudaError> {
        check!(ctx.bind_to_thread())?;
        let mut buffers = Vec::new();
        let mut params = Vec::new();
        for arg in args {
            let bytes = arg.initial_bytes();
            match arg.buffer_bytes() {
                Some(len) => {
                    let mut buffer = check!(DeviceBuffer::<u8>::alloc(ctx, len))?;
                    check!(buffer.copy_from_host(&bytes))?;
                    params.push(buffer.device_ptr().to_le_bytes().to_vec());
                    buffers.push(buffer);
                }
                None => params.push(bytes),
            }
        }
        Ok(Workload {
            _buffers: buffers,
            params,
        })
    }

    /// Queues one launch of `kernel` on these arguments.
    pub fn launch(&mut self, kernel: &Kernel, shape: Shape, stream: &CudaStream) -> Result<(), CudaError> {
        let mut ptrs: Vec<*mut c_void> = self
            .params
            .iter_mut()
            .map(|p| p.as_mut_ptr() as *mut c_void)
            .collect();
        // SAFETY: the arguments were held against the kernel's parameters
        // before this workload was made (or the driver could not tell, which
        // the report says), and the buffers live as long as the workload.
        unsafe { kernel.launch(shape.grid, shape.block, shape.shared, &mut ptrs, stream) }
    }
}

/// What every measurement of one process shares.
pub struct Session {
    pub ctx: Arc<CudaContext>,
    pub facts: DeviceFacts,
    pub calibration: Calibration,
    pub programmatic: bool,
    pub budget_ms: f64,
}

/// How the mode was chosen, for the report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Choice {
    pub mode: Mode,
    pub pilot_ms: Option<f64>,
    pub why: String,
}

impl Session {
    /// Calibrates on `ctx`'s device.
    pub fn new(ctx: Arc<CudaContext>, facts: DeviceFacts, budget_ms: f64) -> anyhow::Result<Session> {
        let programmatic = has_programmatic_launch(facts.compute_capability)
            && instrument::driver::runs(Mode::GraphPdl, facts.driver);
        let calibration = instrument::calibrate::calibrate(&ctx).context("calibrating")?;
        Ok(Session {
            ctx,
            facts,
            calibration,
            programmatic,
            budget_ms,
        })
    }

    fn instrument(&self, budget_ms: f64, warmup: Warmup, traffic: Option<Traffic>) -> Instrument {
        Instrument {
            warmup,
            budget: Budget {
                max_gpu_ms: budget_ms,
                ..Budget::default()
            },
            rejection: Rejection {
                floor_ms: self.calibration.event_resolution_ms,
                ..Rejection::default()
            },
            // A sample faster than the declared bytes can cross the memory
            // is rejected, as one below the timer's tick is.
            memory_floor: traffic.map(|traffic| MemoryFloor {
                traffic,
                l2_bytes: self.facts.l2_bytes,
                peak_gb_s: self.calibration.ceiling_gb_s(),
            }),
            ..Instrument::default()
        }
    }

    /// The mode asked for, or the one [`recommend`] picks from a hot pilot.
    pub fn choose(
        &self,
        asked: Option<Mode>,
        traffic: Option<Traffic>,
        launch: &mut impl instrument::Launch,
    ) -> anyhow::Result<Choice> {
        if let Some(mode) = asked {
            return Ok(Choice {
                mode,
                pilot_ms: None,
                why: "asked for with --mode".into(),
            });
        }
        let pilot_ms = pilot(&self.ctx, launch).context("the pilot")?;
        let mode = recommend(
            pilot_ms,
            traffic.map(|t| t.total()),
            self.facts.l2_bytes,
            self.programmatic,
        );
        Ok(Choice {
            mode,
            pilot_ms: Some(pilot_ms),
            why: why(mode, pilot_ms, self.programmatic),
        })
    }

    /// One kernel in `mode`, in one measurement.
    pub fn measure(
        &self,
        mode: Mode,
        traffic: Option<Traffic>,
        launch: &mut impl instrument::Launch,
    ) -> Result<Measurement, instrument::Error> {
        self.instrument(self.budget_ms, Warmup::Millis(50.0), traffic)
            .measure(&self.ctx, mode, launch)
    }

    /// A against B in `rounds` turns each, A first in every round, each turn
    /// a measurement of its own with a share of the budget; each side's
    /// turns pooled.
    pub fn ab(
        &self,
        mode: Mode,
        rounds: usize,
        traffic: Option<Traffic>,
        a: &mut impl instrument::Launch,
        b: &mut impl instrument::Launch,
    ) -> anyhow::Result<AbResult> {
        let share = self.budget_ms / rounds as f64;
        let (mut parts_a, mut parts_b) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let warmup = if round == 0 {
                Warmup::Millis(25.0)
            } else {
                Warmup::Count(3)
            };
            let turn = self.instrument(share, warmup, traffic);
            parts_a.push(turn.measure(&self.ctx, mode, a).context("measuring A")?);
            parts_b.push(turn.measure(&self.ctx, mode, b).context("measuring B")?);
        }
        let budget = Budget {
            max_gpu_ms: self.budget_ms,
            ..Budget::default()
        };
        let pool =
            |parts| Measurement::pooled(parts, budget).context("every sample was dropped as throttled");
        let (a, b) = (pool(parts_a)?, pool(parts_b)?);
        let comparison = match (median(&a), median(&b)) {
            (Some(ma), Some(mb)) => Some(compare(ma, mb, DEFAULT_BAND)),
            _ => None,
        };
        Ok(AbResult { a, b, comparison })
    }
}

/// A measurement's median and interval; none where it rejected too many.
pub fn median(m: &Measurement) -> Option<Median> {
    (!m.too_many_rejected).then_some(Median {
        ms: m.summary.median,
        ci: m.summary.median_ci,
    })
}

/// Two kernels measured in turns, and B's label against A.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AbResult {
    pub a: Measurement,
    pub b: Measurement,
    pub comparison: Option<Comparison>,
}

/// Why [`recommend`] picked `mode`, in the words of its rule.
pub fn why(mode: Mode, pilot_ms: f64, programmatic: bool) -> String {
    match mode {
        Mode::Graph if pilot_ms < NEAR_LAUNCH_FLOOR_MS => format!(
            "near the launch floor (pilot {pilot_ms:.5} ms, under {NEAR_LAUNCH_FLOOR_MS} ms): a sample is a replayed \
             graph of many launches, well above the timer's tick, with no host in the gaps"
        ),
        Mode::Isolated => "one launch alone on a clean L2, no launch gap in the sample: the conditions of Nsight \
             Compute's gpu__time_duration (this GPU has programmatic launch)"
            .into(),
        Mode::ColdCache => "the declared bytes fit in the L2, so a hot loop would time the cache: one launch per \
             sample after an L2 flush"
            .into(),
        Mode::Graph => format!(
            "under 1 ms without programmatic launch{}: graph replay takes the host out of the gaps",
            if programmatic { "" } else { " on this GPU" }
        ),
        _ => "a long kernel without programmatic launch: back-to-back launches, whose gaps are a small share".into(),
    }
}

/// What the figure in `mode` is beside Nsight Compute's gpu__time_duration.
pub fn beside_ncu(mode: Mode) -> &'static str {
    match mode {
        Mode::Isolated => {
            "the same conditions as ncu's gpu__time_duration with --clock-control none \
             (within 0.4% of it on the instrument's suite from 50 us up, evidence/instrument/)"
        }
        Mode::Graph | Mode::GraphPdl => {
            "a launch's share of a replayed batch: near the launch floor ncu's \
             single-launch span also holds a launch's set-up and drain, so ncu reads higher"
        }
        Mode::ColdCache => {
            "one launch after an L2 flush, between two events: ncu's span of the same launch \
             leaves out the event records, so ncu reads a little lower"
        }
        Mode::Hot => {
            "back-to-back on a warm L2: for data that fits in the L2, shorter than ncu's \
             (which flushes the caches before each launch)"
        }
        Mode::Serial => "each launch's set-up, run and drain, the span ncu times for one launch",
        Mode::Cupti => {
            "CUPTI's kernel records, the numbers Nsight Systems shows; tracing adds work around \
             each kernel"
        }
    }
}
