//! Samples no kernel can produce, and when a mode has too many of them.
//!
//! A sample is a time the instrument computed: a difference of two event
//! readings, or of two replays in the isolated mode. Noise can push such a
//! difference below zero, or below what the event timer can resolve; no
//! launch takes that long, so the sample is rejected, counted and reported,
//! never folded into a median. A mode that rejects more than a small share
//! of its samples is not measuring the kernel, and says so instead of
//! printing a median. Pure logic, tested without a GPU.
//!
//! Not for: samples left out because the card was throttling
//! ([`crate::measure`]), which are real times taken in the wrong conditions.

use serde::{Deserialize, Serialize};

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
        // NaN is no comparison, so it is impossible too.
        let span = ms * launches.max(1) as f64;
        !matches!(
            span.partial_cmp(&self.floor_ms),
            Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
        )
    }

    /// Whether `rejected` of `taken` samples is more than a mode may reject.
    pub fn too_many(&self, rejected: usize, taken: usize) -> bool {
        taken > 0 && rejected as f64 > self.max_fraction * taken as f64
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
