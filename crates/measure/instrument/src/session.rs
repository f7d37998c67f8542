//! What one process's measurements share: the device's facts, its
//! calibration, the mode asked for or the one [`recommend`] picks from a hot
//! pilot (and why, in the words of its rule), one kernel measured, and A/B:
//! two launches measured in turns, A, B, A, B, each side's turns pooled and
//! B labelled against A by [`compare`].
//!
//! Not for: what a caller launches, or how it prints the result.

use std::sync::Arc;

use cuda_objects::DeviceFacts;
use cudarc::driver::CudaContext;
use robust_stats::compare::{compare, Comparison, DEFAULT_BAND};
use serde::Serialize;

use crate::calibrate::{calibrate, Calibration};
use crate::measure::{pilot, Instrument, Measurement};
use crate::recommend::{recommend, NEAR_LAUNCH_FLOOR_MS};
use crate::reject::{MemoryFloor, Rejection};
use crate::sampling::{Budget, Warmup};
use crate::{has_programmatic_launch, Error, Launch, Mode, Traffic};

/// The device, its calibration, and the GPU time one measurement may use.
pub struct Session {
    pub ctx: Arc<CudaContext>,
    pub facts: DeviceFacts,
    pub calibration: Calibration,
    pub programmatic: bool,
    pub budget: Budget,
}

/// How the mode was chosen, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    pub mode: Mode,
    pub pilot_ms: Option<f64>,
    pub why: String,
}

/// Two launches measured in turns, and B's label against A.
#[derive(Debug, Clone, Serialize)]
pub struct AbResult {
    pub a: Measurement,
    pub b: Measurement,
    pub comparison: Option<Comparison>,
}

impl Session {
    /// Reads the driver's version first, before any graph is captured (it
    /// decides whether the programmatic modes run at all), then calibrates.
    pub fn new(ctx: &Arc<CudaContext>, budget: Budget) -> Result<Session, Error> {
        let facts = DeviceFacts::query(ctx)?;
        let programmatic = has_programmatic_launch(facts.compute_capability)
            && crate::driver::runs(Mode::GraphPdl, facts.driver);
        Ok(Session {
            ctx: ctx.clone(),
            facts,
            calibration: calibrate(ctx)?,
            programmatic,
            budget,
        })
    }

    /// Measures what the calibration leaves for after the samples (the
    /// empty launch, the wake-up, the copy ceiling; [`calibrate`] says why).
    /// Call it once the samples whose graphs should replay at the floor are
    /// taken; until then the ceiling is the memory's peak alone.
    pub fn after_samples(&mut self) -> Result<(), Error> {
        crate::calibrate::after_samples(&self.ctx, &mut self.calibration)
    }

    /// The instrument with this process's timer floor and, where the caller
    /// declares traffic, the memory's: a sample faster than the declared
    /// bytes can cross the memory is rejected, as one below the tick is.
    pub fn instrument(&self, budget: Budget, warmup: Warmup, traffic: Option<Traffic>) -> Instrument {
        Instrument {
            warmup,
            budget,
            rejection: Rejection {
                floor_ms: self.calibration.event_resolution_ms,
                ..Rejection::default()
            },
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
        launch: &mut impl Launch,
    ) -> Result<Choice, Error> {
        if let Some(mode) = asked {
            let why = "asked for with --mode".into();
            return Ok(Choice {
                mode,
                pilot_ms: None,
                why,
            });
        }
        let pilot_ms = pilot(&self.ctx, launch)?;
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

    /// One launch in `mode`, in one measurement.
    pub fn measure(
        &self,
        mode: Mode,
        traffic: Option<Traffic>,
        launch: &mut impl Launch,
    ) -> Result<Measurement, Error> {
        self.instrument(self.budget, Warmup::Millis(50.0), traffic)
            .measure(&self.ctx, mode, launch)
    }

    /// A against B in `rounds` turns each, A first in every round, each turn
    /// a measurement of its own with a share of the budget.
    pub fn ab(
        &self,
        mode: Mode,
        rounds: usize,
        traffic: Option<Traffic>,
        a: &mut impl Launch,
        b: &mut impl Launch,
    ) -> Result<AbResult, Error> {
        let share = Budget {
            max_gpu_ms: self.budget.max_gpu_ms / rounds as f64,
            ..self.budget
        };
        let (mut parts_a, mut parts_b) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let warmup = if round == 0 {
                Warmup::Millis(25.0)
            } else {
                Warmup::Count(3)
            };
            let turn = self.instrument(share, warmup, traffic);
            parts_a.push(turn.measure(&self.ctx, mode, a)?);
            parts_b.push(turn.measure(&self.ctx, mode, b)?);
        }
        let (a, b) = (
            Measurement::pooled_or_throttled(parts_a, self.budget)?,
            Measurement::pooled_or_throttled(parts_b, self.budget)?,
        );
        let comparison = match (a.median(), b.median()) {
            (Some(ma), Some(mb)) => Some(compare(ma, mb, DEFAULT_BAND)),
            _ => None,
        };
        Ok(AbResult { a, b, comparison })
    }
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
             (0.987 to 1.006 of it from 50 us up on kernel-timer's kernel set on the H200 at b092edc, \
             evidence/instrument/*-kernel-timer-session.txt), but for the SM clock: ncu's dips through \
             its launches (1,955 MHz through the set's row softmax against 1,980), so a kernel whose \
             time follows the clock can read faster here (crates/measure/kernel-timer/README.md)"
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
