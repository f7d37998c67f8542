//! The sampling loop every mode shares: the warm-up, then rounds of samples
//! until [`Budget::stop_after`] says stop, each logged with the clocks read
//! after it.

use cuda_check::CudaError;

use crate::clocks::ClockMonitor;
use crate::error::Error;
use crate::mode::Launch;
use crate::modes::setup::{timed_ms, Setup};
use crate::modes::Sampler;
use crate::reject::Rejection;
use crate::samples::SampleLog;
use crate::sampling::{Budget, Stop, Warmup};

/// What the rounds keep to: when to stop, and which samples to leave out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    pub(crate) budget: Budget,
    /// Leave out samples taken while the card was throttling.
    pub(crate) drop_throttled: bool,
    pub(crate) rejection: Rejection,
    /// The memory's floor in ms per launch in this mode, if declared.
    pub(crate) floor_ms: Option<f64>,
}

/// Untimed launches as `warmup` asks, each timed all the same: returns the
/// last one's time, which sizes the batches. Their GPU time is added to
/// `gpu_ms`.
pub(crate) fn warm_up(
    warmup: Warmup,
    setup: &mut Setup<'_, impl Launch>,
    gpu_ms: &mut f64,
) -> Result<f64, CudaError> {
    let (stream, events, launch) = (setup.stream, setup.events, &mut *setup.launch);
    let warm = warm_up_launches(warmup, || timed_ms(events, stream, || launch(stream)))?;
    *gpu_ms += warm.spent_ms;
    Ok(warm.last_ms)
}

/// Takes rounds of samples with `sampler`, reading the clocks after each,
/// until `rules`' budget says stop. GPU time spent is added to `gpu_ms`.
pub(crate) fn sample(
    sampler: &mut Sampler,
    setup: &mut Setup<'_, impl Launch>,
    monitor: &ClockMonitor,
    rules: Rules,
    gpu_ms: &mut f64,
) -> Result<(SampleLog, Stop), Error> {
    let mut log = SampleLog::default();
    loop {
        let taken = sampler.take(setup, gpu_ms)?;
        let launches = sampler.launches_per_sample();
        log.record(
            taken,
            monitor.read(),
            rules.drop_throttled,
            (&rules.rejection, launches, rules.floor_ms),
        );
        if let Some(stop) = rules.budget.stop_after(&log.kept(), log.samples.len(), *gpu_ms) {
            return Ok((log, stop));
        }
    }
}

/// What the warm-up took: its last launch, and all of its launches.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WarmedUp {
    last_ms: f64,
    spent_ms: f64,
}

/// Runs the warm-up's launches through `time_one` (one timed launch, in
/// ms), at least one whatever `warmup` says; apart from the GPU, so the
/// accounting can be checked with made-up times.
fn warm_up_launches<E>(warmup: Warmup, mut time_one: impl FnMut() -> Result<f64, E>) -> Result<WarmedUp, E> {
    let mut one = time_one()?;
    let mut spent_ms = one;
    match warmup {
        Warmup::Count(n) => {
            for _ in 1..n {
                one = time_one()?;
                spent_ms += one;
            }
        }
        Warmup::Millis(limit) => {
            while spent_ms < limit {
                one = time_one()?;
                spent_ms += one;
            }
        }
    }
    Ok(WarmedUp {
        last_ms: one,
        spent_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warm-up over made-up launch times 1, 2, 3, ... ms: returns what it
    /// reported and how many launches it made.
    fn warm_up_over_counting(warmup: Warmup) -> (WarmedUp, u32) {
        let mut launches = 0;
        let warm = warm_up_launches(warmup, || {
            launches += 1;
            Ok::<f64, ()>(f64::from(launches))
        })
        .unwrap();
        (warm, launches)
    }

    #[test]
    fn a_warm_up_spends_each_of_its_launches_once_and_makes_at_least_one() {
        // Launches of 1, 2, 3 ms: three by count, and three by time, where
        // 1 + 2 + 3 = 6 ms is the first sum to reach the 5 ms limit.
        for (warmup, launches, last_ms, spent_ms) in [
            (Warmup::Count(3), 3, 3.0, 1.0 + 2.0 + 3.0),
            (Warmup::Millis(5.0), 3, 3.0, 1.0 + 2.0 + 3.0),
            (Warmup::Count(0), 1, 1.0, 1.0),
            (Warmup::Millis(0.0), 1, 1.0, 1.0),
        ] {
            let (warm, made) = warm_up_over_counting(warmup);
            assert_eq!(
                (made, warm),
                (launches, WarmedUp { last_ms, spent_ms }),
                "{warmup:?}"
            );
        }
    }
}
