//! The Rust twin of the course's `timeKernel`: event timing that warms up the
//! launch it times.
//!
//! On a given stream: run the launch `warmups` times (the `.cu`'s
//! `kWarmupRuns`) and synchronise, so every kernel it launches has paid its
//! lazy module load; record a start event; run the launch `runs` times
//! (`kTimedRuns`); record a stop event; synchronise on it; check the last
//! launch error; return the timing. [`Timing::mean_ms`] is the course's
//! number, the elapsed time divided by `runs`, in `f32` as the C++ computes it.
//!
//! Not for: measurements that go into bug reports or compare modes
//! (per-launch samples, statistics, cold-cache, graph and CUPTI timing, clock
//! checks: the `instrument` crate); host clocks (`host-clock`).

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::CudaStream;

/// What one call of [`KernelTimer::time`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// Milliseconds from the start event to the stop event.
    pub total_ms: f32,
    pub runs: u32,
    pub warmups: u32,
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

/// How to time: warm-ups and timed runs, the `.cu`'s constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelTimer {
    warmups: u32,
    runs: u32,
}

impl KernelTimer {
    pub fn new(warmups: u32, runs: u32) -> Result<Self, ConfigError> {
        if runs == 0 {
            return Err(ConfigError::ZeroRuns);
        }
        Ok(KernelTimer { warmups, runs })
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
        let (start, stop) = (check!(ctx.new_event(timing))?, check!(ctx.new_event(timing))?);

        // Warm up this launch, not just the first kernel in the program: lazy
        // module loading makes each kernel's first launch pay its own load.
        for _ in 0..self.warmups {
            launch()?;
        }
        check!(ctx.synchronize())?;
        check!(runtime::last_error())?;

        check!(start.record(stream))?;
        for _ in 0..self.runs {
            launch()?;
        }
        check!(stop.record(stream))?;
        check!(stop.synchronize())?;
        check!(runtime::last_error())?;

        Ok(Timing {
            total_ms: check!(start.elapsed_ms(&stop))?,
            runs: self.runs,
            warmups: self.warmups,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_runs_is_an_error_not_a_division_by_zero() {
        assert_eq!(KernelTimer::new(3, 0), Err(ConfigError::ZeroRuns));
        assert!(
            KernelTimer::new(0, 1).is_ok(),
            "zero warm-ups is allowed: the cold row needs it"
        );
    }

    #[test]
    fn mean_is_total_over_runs_in_f32() {
        let t = Timing {
            total_ms: 0.577,
            runs: 10,
            warmups: 3,
        };
        assert_eq!(t.mean_ms(), 0.577f32 / 10.0f32);
    }
}
