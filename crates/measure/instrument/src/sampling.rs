//! When to stop sampling: a noise target, a sample budget and a GPU-time
//! budget, with a minimum sample count. Pure logic, tested without a GPU.

use serde::Serialize;

use robust_stats::stats::summarize;

/// How much to warm up before sampling.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Warmup {
    /// This many untimed launches (the course's helper uses 3).
    Count(u32),
    /// Untimed launches until this much GPU time has passed, at least one.
    Millis(f64),
}

/// The limits sampling runs within.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Budget {
    pub min_samples: usize,
    pub max_samples: usize,
    /// GPU time the timed samples may use, in ms.
    pub max_gpu_ms: f64,
    /// Stop once the median's 95% interval is within this fraction of it
    /// (0.005 is 0.5%).
    pub noise_target: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            min_samples: 20,
            max_samples: 2000,
            max_gpu_ms: 2000.0,
            // 0.25%: five processes whose medians are each known to within
            // +-0.25% land within about 0.3% of each other, under the 0.5%
            // a bug report can quote as reproducible. The noisiest mode
            // (isolated, about 2% per sample) reaches it in a few hundred
            // samples, well inside the GPU-time budget.
            noise_target: 0.0025,
        }
    }
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Stop {
    /// The median's interval met the noise target.
    NoiseTarget,
    /// The sample budget ran out first.
    SampleBudget,
    /// The GPU-time budget ran out first.
    TimeBudget,
}

impl Budget {
    /// Whether to stop after `samples` (the valid ones) and `gpu_ms` of
    /// timed GPU work; `None` means take another sample.
    pub fn decide(&self, samples: &[f64], gpu_ms: f64) -> Option<Stop> {
        if samples.len() >= self.min_samples {
            if let Some(s) = summarize(samples) {
                if s.median_ci_rel_half_width <= self.noise_target {
                    return Some(Stop::NoiseTarget);
                }
            }
        }
        if samples.len() >= self.max_samples {
            return Some(Stop::SampleBudget);
        }
        if gpu_ms >= self.max_gpu_ms {
            return Some(Stop::TimeBudget);
        }
        None
    }

    /// The stopping rule after each round of sampling: [`Budget::decide`] on
    /// the `kept` samples, and the sample budget also counted over all
    /// `taken`, kept or dropped, so a card that keeps throttling cannot keep
    /// the instrument sampling.
    pub fn stop_after(&self, kept: &[f64], taken: usize, gpu_ms: f64) -> Option<Stop> {
        self.decide(kept, gpu_ms)
            .or_else(|| (taken >= self.max_samples).then_some(Stop::SampleBudget))
    }

    /// A budget that cannot sample is a caller's mistake, said in one line.
    pub fn validate(&self) -> Result<(), BudgetError> {
        if self.max_samples == 0 || self.min_samples > self.max_samples {
            return Err(BudgetError::Samples {
                min: self.min_samples,
                max: self.max_samples,
            });
        }
        // Written so that NaN, which compares false, is rejected too.
        let positive = |x: f64| x > 0.0;
        if !positive(self.noise_target) || !positive(self.max_gpu_ms) {
            return Err(BudgetError::NotPositive);
        }
        Ok(())
    }
}

/// A command line's positive, finite number (a budget, a scale, a band).
pub fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a positive number")),
    }
}

/// A [`Budget`] no sampling can keep.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    #[error("sample budget: min {min} and max {max} samples cannot be met")]
    Samples { min: usize, max: usize },
    #[error("noise target and GPU-time budget must be positive")]
    NotPositive,
}

/// What the warm-up took: its last launch, and all of its launches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WarmedUp {
    pub(crate) last_ms: f64,
    pub(crate) spent_ms: f64,
}

/// Runs the warm-up's launches through `time_one` (one timed launch, in
/// ms), at least one whatever `warmup` says; apart from the GPU, so the
/// accounting can be checked with made-up times.
pub(crate) fn warm_up_launches<E>(
    warmup: Warmup,
    mut time_one: impl FnMut() -> Result<f64, E>,
) -> Result<WarmedUp, E> {
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

    fn budget() -> Budget {
        Budget {
            min_samples: 5,
            max_samples: 50,
            max_gpu_ms: 100.0,
            noise_target: 0.01,
        }
    }

    #[test]
    fn steady_samples_stop_on_the_noise_target_once_there_are_enough() {
        let b = budget();
        assert_eq!(b.decide(&[1.0; 4], 4.0), None, "below the minimum count");
        assert_eq!(b.decide(&[1.0; 5], 5.0), Some(Stop::NoiseTarget));
    }

    #[test]
    fn noisy_samples_run_into_the_sample_budget() {
        let noisy: Vec<f64> = (0..50).map(|i| if i % 2 == 0 { 1.0 } else { 2.0 }).collect();
        assert_eq!(budget().decide(&noisy[..49], 49.0), None);
        assert_eq!(budget().decide(&noisy, 50.0), Some(Stop::SampleBudget));
    }

    #[test]
    fn slow_samples_run_into_the_time_budget() {
        let noisy = [10.0, 20.0, 10.0, 20.0, 10.0, 20.0, 10.0, 20.0, 10.0, 20.0];
        assert_eq!(budget().decide(&noisy, 150.0), Some(Stop::TimeBudget));
    }

    #[test]
    fn dropped_samples_count_against_the_sample_budget() {
        let b = budget();
        assert_eq!(b.stop_after(&[1.0; 3], 49, 10.0), None);
        assert_eq!(b.stop_after(&[1.0; 3], 50, 10.0), Some(Stop::SampleBudget));
        assert_eq!(
            b.stop_after(&[1.0; 5], 50, 10.0),
            Some(Stop::NoiseTarget),
            "the noise target first"
        );
        assert_eq!(b.stop_after(&[], 10, 100.0), Some(Stop::TimeBudget));
    }

    #[test]
    fn impossible_budgets_are_errors() {
        let mut b = budget();
        b.min_samples = 60;
        assert!(b.validate().is_err());
        let mut b = budget();
        b.noise_target = 0.0;
        assert!(b.validate().is_err());
        assert!(budget().validate().is_ok());
    }

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
