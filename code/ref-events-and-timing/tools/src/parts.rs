//! The numbers of each part, as both programs measure and print them, with
//! the few quantities the claims derive from them. The Rust twin fills these
//! (its `src/stats.rs` summarises the samples); the parser reads them back.

use serde::Serialize;

/// Part 1: a host clock around a launch, alone and with a sync.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part1 {
    pub reps: u32,
    pub rows: Vec<LaunchRow>,
}

/// One kernel duration of Part 1, medians.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaunchRow {
    pub kernel_ms: f64,
    pub launch_us: f64,
    pub sync_us: f64,
}

/// Part 2: one kernel timed by events (queued back to back, and with a sync
/// after each pair) and by a host clock plus sync.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part2 {
    pub kernel_ms: f64,
    pub reps: u32,
    pub events: Spread,
    pub events_sync: Spread,
    pub host: Spread,
}

/// The median and interquartile range of one way of timing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spread {
    pub median_ms: f64,
    pub iqr_ms: f64,
}

impl Spread {
    /// IQR over median, in percent.
    pub fn percent(&self) -> f64 {
        100.0 * self.iqr_ms / self.median_ms
    }
}

/// Part 3: waits on one long kernel through a spinning and a blocking event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part3 {
    pub kernel_ms: f64,
    pub reps: u32,
    pub spin: Wait,
    pub blocking: Wait,
}

/// One kind of wait, medians.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Wait {
    pub wait_ms: f64,
    pub cpu_ms: f64,
    /// The host's wait less the kernel's event time. The wait starts before
    /// the start event is recorded, so it also holds those calls.
    pub latency_us: f64,
    /// The wait from the moment every call had returned, less the kernel's
    /// event time (the `after calls us` column). The event interval holds
    /// part of the submission, so this is lower than the wake-up by that
    /// part. None in transcripts from before the column existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_calls_us: Option<f64>,
}

impl Wait {
    /// CPU time as a share of the wait, in percent.
    pub fn cpu_share(&self) -> f64 {
        100.0 * self.cpu_ms / self.wait_ms
    }
}

impl Part3 {
    /// How much later the blocking wait wakes than the spinning one, in us.
    pub fn blocking_later_us(&self) -> f64 {
        self.blocking.latency_us - self.spin.latency_us
    }
}

/// Part 4: the cost of timing and DisableTiming events, medians.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part4 {
    pub rounds: u32,
    pub ops: u32,
    pub chain: u32,
    pub host_timing_us: f64,
    pub host_disabled_us: f64,
    pub chain_none_us: f64,
    pub chain_timing_us: f64,
    pub chain_disabled_us: f64,
}

/// Part 5: a producer and its consumer on two streams.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part5 {
    pub producer_ms: f64,
    pub reps: u32,
    /// Median host time to issue the snippet's seven calls (five stream
    /// operations and two launch error checks).
    pub issue_ms: f64,
    /// Smallest time from the producer's end to the consumer's start.
    pub gap_ms: f64,
}

/// Part 6: the interval around one kernel in three situations, medians.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part6 {
    pub kernel_ms: f64,
    pub reps: u32,
    pub queued: Case,
    pub delayed: Case,
    pub competing: Case,
}

/// One situation of Part 6: the extra work or delay, and the interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    pub extra_ms: f64,
    pub interval_ms: f64,
}

/// Part 7: launches after an idle period, each timed alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part7 {
    pub cycles: u64,
    pub idle_ms: f64,
    pub idle_mhz: u32,
    pub launches: Vec<Launch>,
}

/// One launch of Part 7 and the SM clock read after it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Launch {
    /// The event interval around the launch.
    pub ms: f64,
    pub mhz: u32,
    /// The kernel's own duration on the device's global timer, and the
    /// launch call's host time. None in transcripts from before the
    /// columns existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside: Option<Inside>,
}

/// What Part 7 reads beside a launch's event interval: how long the kernel
/// itself ran, and how long the host's launch call took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Inside {
    pub kernel_ms: f64,
    pub call_us: f64,
}

/// Part 7's "first few" launches, and the last ones taken as steady state.
pub const FIRST_LAUNCHES: usize = 3;
pub const STEADY_LAUNCHES: usize = 10;

impl Part7 {
    /// The mean of the first launches.
    pub fn first_mean_ms(&self) -> f64 {
        self.first(|l| l.ms)
    }

    /// The median of the last launches, or NaN for none.
    pub fn steady_ms(&self) -> f64 {
        self.steady(|l| l.ms)
    }

    /// Launch `n` (from 1) after the idle period, if there is one.
    pub fn launch(&self, n: usize) -> Option<&Launch> {
        self.launches.get(n.checked_sub(1)?)
    }

    /// The mean event interval of the first launches after the first.
    pub fn first_but_one_mean_ms(&self) -> f64 {
        let rest = self.launches.get(1..FIRST_LAUNCHES).unwrap_or(&[]);
        rest.iter().map(|l| l.ms).sum::<f64>() / rest.len() as f64
    }

    /// Whether every launch carries the kernel's own duration and the
    /// launch call's time (the columns newer programs print).
    pub fn has_inside(&self) -> bool {
        !self.launches.is_empty() && self.launches.iter().all(|l| l.inside.is_some())
    }

    /// The median over the last launches of what `pick` reads inside each,
    /// or NaN where a launch lacks it.
    pub fn steady_inside(&self, pick: fn(&Inside) -> f64) -> f64 {
        self.steady(|l| l.inside.as_ref().map_or(f64::NAN, pick))
    }

    /// The mean SM clock over the first launches.
    pub fn first_mhz(&self) -> f64 {
        self.first(|l| f64::from(l.mhz))
    }

    /// The median SM clock over the last launches, or NaN for none.
    pub fn steady_mhz(&self) -> f64 {
        self.steady(|l| f64::from(l.mhz))
    }

    /// What `pick` reads, summed over the first launches and divided by
    /// FIRST_LAUNCHES (however many the run has).
    fn first(&self, pick: impl Fn(&Launch) -> f64) -> f64 {
        let first = &self.launches[..FIRST_LAUNCHES.min(self.launches.len())];
        first.iter().map(|l| pick(l) / FIRST_LAUNCHES as f64).sum()
    }

    fn steady(&self, pick: impl Fn(&Launch) -> f64) -> f64 {
        let from = self.launches.len().saturating_sub(STEADY_LAUNCHES);
        let last: Vec<f64> = self.launches[from..].iter().map(pick).collect();
        lesson_spec::median(last).unwrap_or(f64::NAN)
    }
}

/// Part 8: the page's pattern and timeKernel on one kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part8 {
    pub cycles: u64,
    pub page_ms: f64,
    pub time_kernel_ms: f64,
}

impl Part8 {
    pub fn ratio(&self) -> f64 {
        self.time_kernel_ms / self.page_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_percent_is_iqr_over_median() {
        let s = Spread {
            median_ms: 3.0,
            iqr_ms: 2.0,
        };
        assert!((s.percent() - 66.666_666).abs() < 1e-4);
    }

    #[test]
    fn part7_first_and_steady() {
        let launches = (1..=20)
            .map(|i| Launch {
                ms: if i <= 3 { 2.0 } else { 1.0 + i as f64 / 1000.0 },
                mhz: if i <= 3 { 1000 + i } else { 1980 },
                inside: Some(Inside {
                    kernel_ms: 0.9,
                    call_us: if i == 1 { 40.0 } else { f64::from(i) },
                }),
            })
            .collect();
        let p = Part7 {
            cycles: 1,
            idle_ms: 1.0,
            idle_mhz: 1,
            launches,
        };
        assert_eq!(p.first_mean_ms(), 2.0);
        // Launches 11 to 20: 1.011 .. 1.020, median 1.0155.
        assert!((p.steady_ms() - 1.0155).abs() < 1e-12);
        assert_eq!((p.first_mhz(), p.steady_mhz()), (1002.0, 1980.0));
        assert_eq!(p.first_but_one_mean_ms(), 2.0);
        assert_eq!(p.launch(1).map(|l| l.mhz), Some(1001));
        assert_eq!(p.launch(0), None);
        assert!(p.has_inside());
        // Launch call times 11 to 20: median 15.5.
        assert_eq!(p.steady_inside(|i| i.call_us), 15.5);
        assert_eq!(p.steady_inside(|i| i.kernel_ms), 0.9);
    }

    #[test]
    fn part7_without_inside_columns_says_so() {
        let p = Part7 {
            cycles: 1,
            idle_ms: 1.0,
            idle_mhz: 1,
            launches: vec![
                Launch {
                    ms: 1.0,
                    mhz: 1,
                    inside: None,
                };
                20
            ],
        };
        assert!(!p.has_inside());
        assert!(p.steady_inside(|i| i.kernel_ms).is_nan());
    }
}
