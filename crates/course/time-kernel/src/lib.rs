//! The Rust twin of the course's `timeKernel`: event timing that warms up the
//! launch it times.
//!
//! On a given stream: run the launch `warmups` times (3 by default) and
//! synchronise, so every kernel it launches has paid its lazy module load;
//! record a start event; run the launch `runs` times (10 by default); record a
//! stop event; synchronise on it; check the last launch error; return the
//! timing. [`Timing::mean_ms`] is the course's number, the elapsed time
//! divided by `runs`, in `f32` as the C++ computes it.
//!
//! With [`KernelTimer::per_launch`] an event also goes between launches, so a
//! caller gets one duration per launch for its own statistics. It is off by
//! default because those extra records sit inside the timed region, which the
//! course's helper does not have.
//!
//! Not for: measurements that go into bug reports or compare modes
//! (adaptive sampling, statistics, cold-cache, graph and CUPTI timing, clock
//! checks: the `instrument` crate); host clocks (`host-clock`).

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaStream};

/// The course's constants: `kWarmupRuns` and `kTimedRuns`.
pub const DEFAULT_WARMUPS: u32 = 3;
pub const DEFAULT_RUNS: u32 = 10;

/// What one call of [`KernelTimer::time`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// Milliseconds from the start event to the stop event.
    pub total_ms: f32,
    pub runs: u32,
    pub warmups: u32,
    /// One duration per timed launch, when [`KernelTimer::per_launch`] asked
    /// for them; empty otherwise.
    pub per_launch_ms: Vec<f32>,
}

impl Timing {
    /// Mean milliseconds per launch, `total / runs` in `f32` like the C++.
    pub fn mean_ms(&self) -> f32 {
        self.total_ms / self.runs as f32
    }
}

/// A timer configuration that cannot time anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A mean of zero runs would be a division by zero.
    #[error("a kernel timing needs at least one timed run")]
    ZeroRuns,
}

/// How to time: warm-ups, timed runs, and whether to keep per-launch times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelTimer {
    warmups: u32,
    runs: u32,
    per_launch: bool,
}

impl Default for KernelTimer {
    /// The course's helper: 3 warm-ups, 10 timed runs, one event pair.
    fn default() -> Self {
        KernelTimer {
            warmups: DEFAULT_WARMUPS,
            runs: DEFAULT_RUNS,
            per_launch: false,
        }
    }
}

impl KernelTimer {
    pub fn new(warmups: u32, runs: u32) -> Result<Self, ConfigError> {
        if runs == 0 {
            return Err(ConfigError::ZeroRuns);
        }
        Ok(KernelTimer {
            warmups,
            runs,
            per_launch: false,
        })
    }

    /// Also record an event between launches and return each launch's time.
    pub fn per_launch(mut self, yes: bool) -> Self {
        self.per_launch = yes;
        self
    }

    pub fn warmups(&self) -> u32 {
        self.warmups
    }

    pub fn runs(&self) -> u32 {
        self.runs
    }

    /// Times `launch` on `stream`. `launch` must put its work on that stream
    /// (the legacy default stream also works for a blocking stream's events).
    pub fn time<F>(&self, stream: &Arc<CudaStream>, mut launch: F) -> Result<Timing, CudaError>
    where
        F: FnMut() -> Result<(), CudaError>,
    {
        let ctx = stream.context();
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let events: Vec<CudaEvent> = (0..self.event_count())
            .map(|_| check!(ctx.new_event(timing)))
            .collect::<Result<_, _>>()?;
        let (start, stop) = (&events[0], &events[events.len() - 1]);

        // Warm up this launch, not just the first kernel in the program: lazy
        // module loading makes each kernel's first launch pay its own load.
        for _ in 0..self.warmups {
            launch()?;
        }
        check!(ctx.synchronize())?;
        check!(runtime::last_error())?;

        check!(start.record(stream))?;
        for i in 0..self.runs as usize {
            launch()?;
            if self.per_launch && i + 1 < self.runs as usize {
                check!(events[i + 1].record(stream))?;
            }
        }
        check!(stop.record(stream))?;
        check!(stop.synchronize())?;
        check!(runtime::last_error())?;

        let total_ms = check!(start.elapsed_ms(stop))?;
        let per_launch_ms = if self.per_launch {
            let mut marks = Vec::with_capacity(events.len());
            for event in &events {
                marks.push(check!(start.elapsed_ms(event))?);
            }
            differences(&marks)
        } else {
            Vec::new()
        };
        Ok(Timing {
            total_ms,
            runs: self.runs,
            warmups: self.warmups,
            per_launch_ms,
        })
    }

    /// Start and stop, plus one between each pair of launches when asked.
    fn event_count(&self) -> usize {
        if self.per_launch {
            self.runs as usize + 1
        } else {
            2
        }
    }
}

/// Durations between consecutive marks: n marks give n - 1 durations.
fn differences(marks: &[f32]) -> Vec<f32> {
    marks.windows(2).map(|w| w[1] - w[0]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_courses_three_and_ten() {
        let t = KernelTimer::default();
        assert_eq!((t.warmups(), t.runs()), (3, 10));
        assert_eq!(t.event_count(), 2);
    }

    #[test]
    fn zero_runs_is_an_error_not_a_division_by_zero() {
        assert_eq!(KernelTimer::new(3, 0), Err(ConfigError::ZeroRuns));
        assert!(
            KernelTimer::new(0, 1).is_ok(),
            "zero warm-ups is allowed: the cold row needs it"
        );
    }

    #[test]
    fn per_launch_needs_one_event_per_boundary() {
        let t = KernelTimer::new(3, 10).unwrap().per_launch(true);
        assert_eq!(t.event_count(), 11);
        let t = KernelTimer::new(0, 1).unwrap().per_launch(true);
        assert_eq!(t.event_count(), 2);
    }

    #[test]
    fn mean_is_total_over_runs_in_f32() {
        let t = Timing {
            total_ms: 0.577,
            runs: 10,
            warmups: 3,
            per_launch_ms: vec![],
        };
        assert_eq!(t.mean_ms(), 0.577f32 / 10.0f32);
    }

    #[test]
    fn per_launch_durations_are_differences_of_marks_and_sum_to_total() {
        let marks = [0.0f32, 0.5, 1.25, 1.5];
        let d = differences(&marks);
        assert_eq!(d, [0.5, 0.75, 0.25]);
        assert_eq!(d.iter().sum::<f32>(), 1.5);
    }
}
