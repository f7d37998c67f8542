//! Every sample a measurement took ([`Sample`]), and whether the statistics
//! use it: one taken while the card was throttling is logged but left out
//! when asked, one no launch can take ([`crate::reject`]) is never kept.

use robust_stats::stats::{summarize, Summary};
use serde::Serialize;

use crate::clocks::ClockReading;
use crate::reject::Rejection;

/// One sample: milliseconds per launch, and the card's state after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sample {
    pub ms: f64,
    pub clocks: Option<ClockReading>,
    /// Left out of the statistics because the card was throttling.
    pub dropped: bool,
    /// Left out of the statistics because no launch can take this long
    /// ([`crate::reject`]).
    pub rejected: bool,
    /// Rejected because it is faster than the kernel's declared traffic can
    /// cross the memory ([`crate::reject::MemoryFloor`]); counted among the rejected too.
    pub below_floor: bool,
}

impl Sample {
    /// Whether the statistics use it: neither dropped nor rejected.
    pub(crate) fn is_kept(&self) -> bool {
        !self.dropped && !self.rejected
    }
}

/// Every sample a measurement took.
#[derive(Default)]
pub(crate) struct SampleLog {
    pub(crate) samples: Vec<Sample>,
}

impl SampleLog {
    /// Records one round's samples with the clock reading taken after it,
    /// marking the dropped (throttled, with `drop_throttled`) and rejected.
    pub(crate) fn record(
        &mut self,
        taken: Vec<f64>,
        clocks: Option<ClockReading>,
        drop_throttled: bool,
        rejection: (&Rejection, usize, Option<f64>),
    ) {
        let dropped = drop_throttled && clocks.as_ref().is_some_and(|c| c.throttled);
        let (rejection, launches, floor_ms) = rejection;
        for ms in taken {
            let below_floor = floor_ms.is_some_and(|floor| ms < floor);
            self.samples.push(Sample {
                ms,
                clocks: clocks.clone(),
                dropped,
                rejected: below_floor || rejection.is_impossible(ms, launches),
                below_floor,
            });
        }
    }

    /// The values of the samples the statistics use ([`Sample::is_kept`]).
    pub(crate) fn kept(&self) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|s| s.is_kept())
            .map(|s| s.ms)
            .collect()
    }

    pub(crate) fn dropped(&self) -> usize {
        self.samples.iter().filter(|s| s.dropped).count()
    }

    pub(crate) fn rejected(&self) -> usize {
        self.samples.iter().filter(|s| s.rejected).count()
    }

    pub(crate) fn below_floor(&self) -> usize {
        self.samples.iter().filter(|s| s.below_floor).count()
    }

    /// The statistics of the kept samples, or of the rejected where every
    /// sample was (marked too many); `None` when every sample throttled.
    pub(crate) fn summary(&self) -> Option<Summary> {
        summarize(&self.kept()).or_else(|| {
            let all: Vec<f64> = self.samples.iter().filter(|s| s.rejected).map(|s| s.ms).collect();
            summarize(&all)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::{Mode, Traffic};
    use crate::reject::MemoryFloor;

    fn reading(throttled: bool) -> Option<ClockReading> {
        Some(ClockReading {
            sm_mhz: 1980,
            memory_mhz: 3201,
            reasons: Vec::new(),
            throttled,
        })
    }

    #[test]
    fn a_throttled_round_is_logged_but_not_kept_when_asked() {
        let mut log = SampleLog::default();
        let r = Rejection::default();
        log.record(vec![1.0], reading(false), true, (&r, 1, None));
        log.record(vec![2.0, 3.0], reading(true), true, (&r, 1, None));
        log.record(vec![4.0], None, true, (&r, 1, None));
        assert_eq!(log.kept(), [1.0, 4.0], "no reading is no evidence of throttling");
        assert_eq!(log.samples.len(), 4);
        assert_eq!(log.dropped(), 2);
        assert!(log.samples[1].dropped && log.samples[1].clocks == reading(true));
    }

    #[test]
    fn without_drop_throttled_every_sample_is_kept() {
        let mut log = SampleLog::default();
        log.record(
            vec![2.0, 3.0],
            reading(true),
            false,
            (&Rejection::default(), 1, None),
        );
        assert_eq!(log.kept(), [2.0, 3.0]);
        assert_eq!(log.dropped(), 0);
    }

    #[test]
    fn an_impossible_sample_is_logged_counted_and_never_kept() {
        let mut log = SampleLog::default();
        // The isolated-mode sample json-1b45835-a/stats-5.json kept.
        log.record(
            vec![0.057, -0.1318, 0.058],
            None,
            true,
            (&Rejection::default(), 1, None),
        );
        log.record(vec![0.0], reading(true), true, (&Rejection::default(), 1, None));
        assert_eq!(log.kept(), [0.057, 0.058]);
        assert_eq!((log.samples.len(), log.rejected(), log.dropped()), (4, 2, 1));
        assert!(log.samples[1].rejected && !log.samples[1].dropped);
        assert_eq!(
            log.summary().map(|s| s.median),
            Some(0.0575),
            "the median of the kept two"
        );
    }

    #[test]
    fn a_sample_faster_than_the_memory_allows_is_rejected_counted_and_never_kept() {
        // Day 9's vectorAdd in isolated mode on the H200, with the sample
        // issue 36 found among its real ones: 0.01850 ms is 10.9 TB/s.
        let floor = MemoryFloor {
            traffic: Traffic {
                bytes_read: 134_222_616,
                bytes_written: 67_111_308,
            },
            l2_bytes: 60 << 20,
            peak_gb_s: 4916.7,
        };
        let floor_ms = Some(floor.ms(Mode::Isolated));
        let mut log = SampleLog::default();
        let r = Rejection::default();
        log.record(vec![0.05776, 0.01850, 0.05781], None, true, (&r, 1, floor_ms));
        log.record(vec![0.05779], reading(true), true, (&r, 1, floor_ms));
        assert_eq!(
            log.kept(),
            [0.05776, 0.05781],
            "the planted sample and the throttled one are out"
        );
        assert_eq!((log.rejected(), log.below_floor(), log.dropped()), (1, 1, 1));
        assert!(log.samples[1].rejected && log.samples[1].below_floor);
        assert!(!log.samples[0].below_floor && !log.samples[3].below_floor);
        let s = log.summary().unwrap();
        assert_eq!((s.n, s.min), (2, 0.05776), "the minimum is a real sample");
        // Without a declared floor the same sample would have been kept.
        let mut blind = SampleLog::default();
        blind.record(vec![0.05776, 0.01850], None, true, (&r, 1, None));
        assert_eq!(blind.kept(), [0.05776, 0.01850]);
    }

    #[test]
    fn a_mode_that_rejects_everything_still_summarises_what_it_took() {
        let mut log = SampleLog::default();
        log.record(vec![-0.001, 0.0001], None, true, (&Rejection::default(), 1, None));
        assert!(log.kept().is_empty());
        let s = log.summary().expect("the rejected samples, for the record");
        assert_eq!((s.n, s.min, s.max), (2, -0.001, 0.0001));
        assert!(Rejection::default().too_many(log.rejected(), log.samples.len()));
    }
}
