//! A measurement: the instrument's settings ([`Instrument`]) and what one
//! mode measured ([`Measurement`]).

use std::sync::Arc;

use cuda_check::check;
use cuda_objects::{BlockingStream, DriverVersion, EventPair};
use cudarc::driver::CudaContext;
use robust_stats::stats::Summary;
use serde::Serialize;

use crate::clocks::ClockMonitor;
use crate::error::Error;
use crate::mode::{Launch, Mode};
use crate::modes::setup::{timed_ms, Setup};
use crate::modes::{Early, Sampler, Targets};
use crate::reject::{MemoryFloor, Rejection};
use crate::samples::{Sample, SampleLog};
use crate::sampling::{warm_up_launches, Budget, Stop, Warmup};

/// What one mode measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    pub mode: Mode,
    pub launches_per_sample: usize,
    pub warmup: Warmup,
    pub budget: Budget,
    pub samples: Vec<Sample>,
    /// Statistics of the samples that were not dropped.
    pub summary: Summary,
    pub stop: Stop,
    pub dropped: usize,
    /// Samples rejected as impossible, and the rule that rejected them.
    pub rejected: usize,
    pub rejection: Rejection,
    /// Of the rejected, those faster than the memory allows, and that floor
    /// in ms per launch in this mode (`None` where the caller declared no
    /// traffic).
    pub below_floor: usize,
    pub floor_ms: Option<f64>,
    /// More samples were impossible than the rule allows: the summary is
    /// not a measurement of the kernel, and the table prints no median.
    pub too_many_rejected: bool,
    /// GPU time spent: warm-up, timed samples and cache flushes, in ms.
    pub gpu_ms_spent: f64,
    /// Why the samples carry no clock readings, if they carry none.
    pub clocks_unavailable: Option<String>,
}

/// The first launch of a kernel in the process: one number, never a sample
/// (it happens once per process and no sampling can repeat it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FirstLaunch {
    pub ms: f64,
}

/// Settings for [`Instrument::measure`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Instrument {
    pub warmup: Warmup,
    pub budget: Budget,
    /// The GPU time a hot sample should last, which sets how many launches
    /// it batches; at least 1 and at most 1000 launches.
    pub target_sample_ms: f64,
    /// The same for a graph: longer, because each replay has a fixed start-up
    /// cost that only a long graph spreads thin.
    pub target_graph_ms: f64,
    /// Leave out samples taken while the card was throttling.
    pub drop_throttled: bool,
    /// Which samples are impossible, and how many a mode may reject.
    pub rejection: Rejection,
    /// The launch's declared traffic against the memory's peak: samples
    /// faster than that are rejected too. `None` for a kernel whose traffic
    /// the caller does not declare.
    pub memory_floor: Option<MemoryFloor>,
}

impl Default for Instrument {
    fn default() -> Self {
        Instrument {
            warmup: Warmup::Millis(50.0),
            budget: Budget::default(),
            target_sample_ms: 0.5,
            target_graph_ms: 5.0,
            drop_throttled: true,
            rejection: Rejection::default(),
            memory_floor: None,
        }
    }
}

/// A hot median of five short samples after one warm-up launch: enough to
/// tell a 10 us kernel from a 10 ms one, which is all
/// [`crate::recommend::recommend`] needs.
pub fn pilot(ctx: &Arc<CudaContext>, launch: &mut impl Launch) -> Result<f64, Error> {
    let quick = Instrument {
        warmup: Warmup::Count(1),
        budget: Budget {
            min_samples: 5,
            max_samples: 5,
            max_gpu_ms: f64::INFINITY,
            noise_target: 1e-9,
        },
        ..Instrument::default()
    };
    Ok(quick.measure(ctx, Mode::Hot, launch)?.summary.median)
}

impl Measurement {
    /// The median and its interval; none where too many samples were rejected.
    pub fn median(&self) -> Option<robust_stats::compare::Median> {
        (!self.too_many_rejected).then_some(robust_stats::compare::Median {
            ms: self.summary.median,
            ci: self.summary.median_ci,
        })
    }

    /// [`Measurement::pooled`] of parts of one mode, where a `None` can only
    /// mean every sample was dropped as throttled.
    pub fn pooled_or_throttled(parts: Vec<Measurement>, budget: Budget) -> Result<Measurement, Error> {
        let samples = parts.iter().map(|p| p.samples.len()).sum();
        Measurement::pooled(parts, budget).ok_or(Error::AllThrottled { samples })
    }

    /// One measurement of several of one kernel in one mode (on different
    /// allocations of its buffers, say): samples together, GPU time summed,
    /// the first part's settings, the last one's stop. `None` for no parts,
    /// parts of different modes, or every sample dropped.
    pub fn pooled(parts: Vec<Measurement>, budget: Budget) -> Option<Measurement> {
        let mut parts = parts.into_iter();
        let mut m = parts.next()?;
        for p in parts {
            if p.mode != m.mode {
                return None;
            }
            m.samples.extend(p.samples);
            m.gpu_ms_spent += p.gpu_ms_spent;
            m.stop = p.stop;
            m.clocks_unavailable = m.clocks_unavailable.or(p.clocks_unavailable);
        }
        let log = SampleLog { samples: m.samples };
        Some(Measurement {
            budget,
            summary: log.summary()?,
            dropped: log.dropped(),
            rejected: log.rejected(),
            below_floor: log.below_floor(),
            too_many_rejected: m.rejection.too_many(log.rejected(), log.samples.len()),
            samples: log.samples,
            ..m
        })
    }
}

impl Instrument {
    /// Measures `launch` in `mode` until the budget says stop.
    pub fn measure(
        &self,
        ctx: &Arc<CudaContext>,
        mode: Mode,
        launch: &mut impl Launch,
    ) -> Result<Measurement, Error> {
        self.budget.validate()?;
        // Before any graph is captured: an old driver lacks the calls the
        // programmatic modes make, and cudarc would panic at the first one.
        crate::driver::check(mode, DriverVersion::query()?)?;
        let owned = check!(BlockingStream::create(ctx))?;
        let stream = owned.stream();
        let events = EventPair::new(ctx)?;
        let monitor = ClockMonitor::new(&check!(ctx.uuid())?.bytes.map(|b| b as u8));
        let mut setup = Setup {
            ctx,
            stream,
            events: &events,
            launch,
        };
        // Before the warm-up, so the warm-up covers it (CUPTI's trace).
        let early = Early::start(mode, stream)?;
        let (events, launch) = (setup.events, &mut *setup.launch);
        let warm = warm_up_launches(self.warmup, || timed_ms(events, stream, || launch(stream)))?;
        let mut gpu_ms = warm.spent_ms;
        let targets = Targets {
            sample_ms: self.target_sample_ms,
            graph_ms: self.target_graph_ms,
            one_launch_ms: warm.last_ms,
        };
        let mut sampler = Sampler::prepare(mode, early, &targets, &mut setup, &mut gpu_ms)?;
        let floor_ms = self.memory_floor.map(|f| f.ms(mode));
        // Rounds of samples, each logged with the clocks read after it,
        // until the budget says stop.
        let mut log = SampleLog::default();
        let launches_per_sample = sampler.launches_per_sample();
        let stop = loop {
            let taken = sampler.take(&mut setup, &mut gpu_ms)?;
            let rejection = (&self.rejection, launches_per_sample, floor_ms);
            log.record(taken, monitor.read(), self.drop_throttled, rejection);
            if let Some(stop) = self.budget.stop_after(&log.kept(), log.samples.len(), gpu_ms) {
                break stop;
            }
        };
        drop(sampler);
        let Some(summary) = log.summary() else {
            return Err(Error::AllThrottled {
                samples: log.samples.len(),
            });
        };
        Ok(Measurement {
            mode,
            launches_per_sample,
            warmup: self.warmup,
            budget: self.budget,
            dropped: log.dropped(),
            rejected: log.rejected(),
            rejection: self.rejection,
            below_floor: log.below_floor(),
            floor_ms,
            too_many_rejected: self.rejection.too_many(log.rejected(), log.samples.len()),
            samples: log.samples,
            summary,
            stop,
            gpu_ms_spent: gpu_ms,
            clocks_unavailable: monitor.unavailable.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use robust_stats::stats::summarize;

    use super::*;

    #[test]
    fn pooled_parts_count_their_samples_below_the_floor() {
        let mut a = measurement(Mode::Isolated, &[(0.057, false, false)], 1.0, Stop::NoiseTarget);
        a.samples.push(Sample {
            ms: 0.0185,
            clocks: None,
            dropped: false,
            rejected: true,
            below_floor: true,
        });
        a.floor_ms = Some(0.028);
        let b = measurement(Mode::Isolated, &[(0.058, false, false)], 1.0, Stop::NoiseTarget);
        let p = Measurement::pooled(vec![a, b], Budget::default()).unwrap();
        assert_eq!((p.rejected, p.below_floor, p.floor_ms), (1, 1, Some(0.028)));
        assert_eq!(p.summary.n, 2);
    }

    fn measurement(mode: Mode, samples: &[(f64, bool, bool)], gpu_ms: f64, stop: Stop) -> Measurement {
        let samples: Vec<Sample> = samples
            .iter()
            .map(|&(ms, dropped, rejected)| Sample {
                ms,
                clocks: None,
                dropped,
                rejected,
                below_floor: false,
            })
            .collect();
        let kept: Vec<f64> = samples.iter().filter(|s| s.is_kept()).map(|s| s.ms).collect();
        Measurement {
            mode,
            launches_per_sample: 1,
            warmup: Warmup::Count(3),
            budget: Budget::default(),
            summary: summarize(&kept).unwrap(),
            stop,
            dropped: samples.iter().filter(|s| s.dropped).count(),
            rejected: samples.iter().filter(|s| s.rejected).count(),
            rejection: Rejection::default(),
            below_floor: 0,
            floor_ms: None,
            too_many_rejected: false,
            samples,
            gpu_ms_spent: gpu_ms,
            clocks_unavailable: None,
        }
    }

    #[test]
    fn pooled_parts_are_one_measurement_of_all_their_kept_samples() {
        let a = measurement(
            Mode::Isolated,
            &[(1.0, false, false), (1.1, false, false), (9.0, true, false)],
            10.0,
            Stop::NoiseTarget,
        );
        let b = measurement(
            Mode::Isolated,
            &[(1.2, false, false), (-0.5, false, true), (1.3, false, false)],
            20.0,
            Stop::TimeBudget,
        );
        let budget = Budget {
            max_gpu_ms: 30.0,
            ..Budget::default()
        };
        let p = Measurement::pooled(vec![a, b], budget).unwrap();
        assert_eq!(p.samples.len(), 6);
        assert_eq!(
            (p.summary.n, p.summary.median),
            (4, 1.15),
            "the median of 1.0, 1.1, 1.2 and 1.3"
        );
        assert_eq!((p.dropped, p.rejected), (1, 1));
        assert!(
            p.too_many_rejected,
            "one impossible sample in six is more than one in a hundred"
        );
        assert_eq!(p.gpu_ms_spent, 30.0);
        assert_eq!((p.stop, p.budget), (Stop::TimeBudget, budget));
    }

    #[test]
    fn parts_of_different_modes_or_none_do_not_pool() {
        let a = measurement(Mode::Isolated, &[(1.0, false, false)], 1.0, Stop::NoiseTarget);
        let b = measurement(Mode::Graph, &[(1.0, false, false)], 1.0, Stop::NoiseTarget);
        assert!(Measurement::pooled(vec![a, b], Budget::default()).is_none());
        assert!(Measurement::pooled(Vec::new(), Budget::default()).is_none());
    }
}
