//! Samples no kernel can produce, and when a mode has too many of them. A
//! sample is a difference of event readings (or of two replays); noise can
//! push it below zero or below the timer's resolution, or below the time the
//! declared traffic needs at the memory's peak ([`MemoryFloor`]). Such a
//! sample is rejected and counted, never folded into a median, and a mode
//! that rejects more than a small share says so instead of printing one.

use serde::{Deserialize, Serialize};

use crate::mode::{Mode, Traffic};

/// The CUDA event timer's resolution as CUDA's documentation gives it
/// (`cudaEventElapsedTime`: "around 0.5 microseconds"), in ms: the floor
/// used where the process has not measured its own ([`crate::calibrate`]).
pub const DOCUMENTED_EVENT_RESOLUTION_MS: f64 = 0.0005;

/// Which samples are impossible, and how many a mode may reject.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    /// A sample below this many ms is rejected: the event timer's resolution.
    pub floor_ms: f64,
    /// The share of samples a mode may reject and still report a median.
    pub max_fraction: f64,
}

impl Default for Rejection {
    fn default() -> Self {
        Rejection {
            floor_ms: DOCUMENTED_EVENT_RESOLUTION_MS,
            // One in a hundred: a rare negative difference in a noisy run is
            // dropped; more than that means the mode does not resolve this
            // kernel, and a median of the rest would be biased upward.
            max_fraction: 0.01,
        }
    }
}

impl Rejection {
    /// Whether a sample of `ms` per launch, over `launches` launches timed
    /// together, is no time they can take: negative, a timed span below the
    /// timer's resolution, or not a number. The resolution bounds the span
    /// the events measured, not its share per launch.
    pub fn is_impossible(&self, ms: f64, launches: usize) -> bool {
        let span = ms * launches.max(1) as f64;
        span.is_nan() || span < self.floor_ms
    }

    /// Whether `rejected` of `taken` samples is more than a mode may reject.
    pub fn too_many(&self, rejected: usize, taken: usize) -> bool {
        taken > 0 && rejected as f64 > self.max_fraction * taken as f64
    }
}

/// The time no launch can beat: the bytes that must cross the DRAM bus at
/// the memory's peak. Cold-cache and isolated start on an L2 holding none of
/// the kernel's data, so every byte read comes from DRAM (written bytes up
/// to the L2's size may stay in it, dirty); the other modes may also find up
/// to the L2's size of their reads left by the launch before. A floor, not
/// an estimate (Day 9's vectorAdd reaches about 85% of the H200's peak): a
/// sample under it is an artefact of the timing, never a fast kernel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MemoryFloor {
    /// What one launch reads and writes, as its caller declares it.
    pub traffic: Traffic,
    pub l2_bytes: u64,
    /// The rate no traffic can exceed, in GB/s
    /// ([`crate::calibrate::Calibration::ceiling_gb_s`]).
    pub peak_gb_s: f64,
}

impl MemoryFloor {
    /// The bytes that must cross the DRAM bus in one launch in `mode`.
    pub fn dram_bytes(&self, mode: Mode) -> u64 {
        let Traffic {
            bytes_read,
            bytes_written,
        } = self.traffic;
        match mode {
            Mode::ColdCache | Mode::Isolated => bytes_read + bytes_written.saturating_sub(self.l2_bytes),
            Mode::Hot | Mode::Graph | Mode::GraphPdl | Mode::Serial | Mode::Cupti => {
                (bytes_read + bytes_written).saturating_sub(2 * self.l2_bytes)
            }
        }
    }

    /// The floor in ms per launch in `mode`; 0 where no peak is known.
    pub fn ms(&self, mode: Mode) -> f64 {
        if self.peak_gb_s > 0.0 && self.peak_gb_s.is_finite() {
            self.dram_bytes(mode) as f64 / (self.peak_gb_s * 1e9) * 1e3
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_tiny_and_nan_samples_are_impossible() {
        let r = Rejection::default();
        // The sample json-1b45835-a/stats-5.json kept.
        assert!(r.is_impossible(-0.1318, 1));
        assert!(r.is_impossible(0.0, 1));
        assert!(r.is_impossible(0.0004, 1), "below the documented 0.5 us");
        assert!(r.is_impossible(f64::NAN, 1));
        assert!(!r.is_impossible(0.0005, 1), "the floor itself is a possible time");
        assert!(!r.is_impossible(0.057, 1));
    }

    #[test]
    fn a_batch_is_held_to_the_resolution_as_a_whole() {
        let r = Rejection::default();
        assert!(
            !r.is_impossible(0.0001, 1000),
            "0.1 us a launch over 100 us timed"
        );
        assert!(r.is_impossible(0.0001, 4), "0.4 us timed in all");
        assert!(r.is_impossible(-0.0001, 1000));
        assert!(r.is_impossible(0.0001, 0), "no launches count as one");
    }

    /// Day 9's vectorAdd on the H200: 134,222,616 B read and 67,111,308 B
    /// written a launch, a 60 MiB L2 and the attributes' 4916.7 GB/s peak.
    fn vector_add_on_h200() -> MemoryFloor {
        MemoryFloor {
            traffic: Traffic {
                bytes_read: 134_222_616,
                bytes_written: 67_111_308,
            },
            l2_bytes: 60 << 20,
            peak_gb_s: 4916.7,
        }
    }

    #[test]
    fn the_memory_floor_counts_what_the_l2_cannot_hold_for_the_launch() {
        let f = vector_add_on_h200();
        // Cold: every read, and the 4,196,748 B of writes beyond the L2.
        assert_eq!(
            f.dram_bytes(Mode::Isolated),
            134_222_616 + 67_111_308 - (60 << 20)
        );
        assert_eq!(f.dram_bytes(Mode::ColdCache), f.dram_bytes(Mode::Isolated));
        // Hot: all of it less two L2s (reads found there, writes left there).
        assert_eq!(f.dram_bytes(Mode::Graph), 201_333_924 - 2 * (60 << 20));
        let cold = f.ms(Mode::Isolated);
        assert!((cold - 0.02815).abs() < 1e-5, "{cold}");
        // The L2-resident vector add has no floor in a hot mode.
        let l2 = MemoryFloor {
            traffic: Traffic {
                bytes_read: 524_288,
                bytes_written: 262_144,
            },
            ..f
        };
        assert_eq!(l2.ms(Mode::Graph), 0.0);
        assert!(l2.ms(Mode::Isolated) > 0.0, "its reads still come from DRAM cold");
        let unknown = MemoryFloor { peak_gb_s: 0.0, ..f };
        assert_eq!(unknown.ms(Mode::Isolated), 0.0, "no peak, no floor");
    }

    #[test]
    fn the_sample_issue_36_reported_is_below_the_floor_and_the_median_is_not() {
        let f = vector_add_on_h200();
        // Day 9's isolated minimum: 10.9 TB/s, 2.2 times the peak.
        assert!(0.01850 < f.ms(Mode::Isolated));
        assert!(0.05776 >= f.ms(Mode::Isolated), "the median");
    }

    #[test]
    fn more_than_one_in_a_hundred_is_too_many() {
        let r = Rejection::default();
        assert!(!r.too_many(0, 0));
        assert!(!r.too_many(1, 100), "one in a hundred is allowed");
        assert!(r.too_many(2, 100));
        assert!(r.too_many(1, 20), "one in twenty is not");
        assert!(r.too_many(5, 5));
    }
}
