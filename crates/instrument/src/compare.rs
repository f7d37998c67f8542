//! Two runs of the same kernel, labelled SAME, FASTER, SLOWER or UNSURE
//! from the 95% confidence intervals of their medians. Pure logic, tested
//! without a GPU.
//!
//! The difference B - A has the interval [lo_B - hi_A, hi_B - lo_A]: where
//! each median lies in its own interval (95% each, independent processes),
//! the difference lies in this one, so it covers at least 90%. A difference
//! the interval places wholly beyond a band of +-`band` of A's median is
//! FASTER or SLOWER; one it places wholly inside the band is SAME; anything
//! else is UNSURE. The band is there because two processes running the same
//! code differ by more than either interval says: each interval is the
//! noise within one process, and a new process brings a new context, new
//! allocations and a new clock ramp. A comparison that ignores that calls
//! identical code faster or slower (nvbench's issues #124, #184, #316,
//! #415); the band says how large a change must be before it is called one.
//!
//! Not for: reading the files the runs are in (instrument-suite's
//! `compare`), or the statistics of one run ([`crate::stats`]).

use serde::{Deserialize, Serialize};

/// The verdict on B against A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Label {
    Same,
    Faster,
    Slower,
    Unsure,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Same => "SAME",
            Label::Faster => "FASTER",
            Label::Slower => "SLOWER",
            Label::Unsure => "UNSURE",
        }
    }
}

/// A run's median and its 95% interval, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Median {
    pub ms: f64,
    pub ci: (f64, f64),
}

/// B against A: the difference of medians, its interval, and the label.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Comparison {
    pub diff_ms: f64,
    pub diff_ci_ms: (f64, f64),
    /// The difference and its interval as fractions of A's median.
    pub rel: f64,
    pub rel_ci: (f64, f64),
    pub label: Label,
}

/// The default band: differences within 1% of A's median are SAME. Wider
/// than the 0.25% noise target's difference interval (about +-0.5%), and
/// than the spread of medians between processes the instrument has shown
/// on the H200 (evidence/instrument/README.md); narrow enough that a 2%
/// change, less the interval, is still outside it.
pub const DEFAULT_BAND: f64 = 0.01;

/// Compares `b` with `a` within a band of +-`band` (a fraction of A's
/// median).
pub fn compare(a: Median, b: Median, band: f64) -> Comparison {
    let diff_ms = b.ms - a.ms;
    let diff_ci_ms = (b.ci.0 - a.ci.1, b.ci.1 - a.ci.0);
    let rel_ci = (diff_ci_ms.0 / a.ms, diff_ci_ms.1 / a.ms);
    let label = match () {
        // A median that is not a positive time compares with nothing.
        _ if !(a.ms > 0.0 && b.ms.is_finite()) => Label::Unsure,
        _ if rel_ci.0 > band => Label::Slower,
        _ if rel_ci.1 < -band => Label::Faster,
        _ if rel_ci.0 >= -band && rel_ci.1 <= band => Label::Same,
        _ => Label::Unsure,
    };
    Comparison {
        diff_ms,
        diff_ci_ms,
        rel: diff_ms / a.ms,
        rel_ci,
        label,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summarize;

    /// `n` samples around `centre`, spread evenly over +-`spread` of it,
    /// in an order that is not sorted (as samples arrive).
    fn samples(centre: f64, spread: f64, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let u = ((i * 37) % n) as f64 / (n - 1) as f64; // 0..=1, shuffled
                centre * (1.0 + spread * (2.0 * u - 1.0))
            })
            .collect()
    }

    fn median_of(s: &[f64]) -> Median {
        let s = summarize(s).unwrap();
        Median {
            ms: s.median,
            ci: s.median_ci,
        }
    }

    #[test]
    fn identical_distributions_are_the_same() {
        let a = median_of(&samples(0.057, 0.01, 400));
        let b = median_of(&samples(0.057, 0.01, 400));
        let c = compare(a, b, DEFAULT_BAND);
        assert_eq!(c.label, Label::Same, "{c:?}");
        assert_eq!(c.diff_ms, 0.0);
        assert!(c.diff_ci_ms.0 < 0.0 && c.diff_ci_ms.1 > 0.0, "{c:?}");
    }

    #[test]
    fn a_two_percent_shift_with_a_tight_spread_is_slower_and_back_faster() {
        let a = median_of(&samples(0.057, 0.01, 400));
        let b = median_of(&samples(0.057 * 1.02, 0.01, 400));
        let c = compare(a, b, DEFAULT_BAND);
        assert_eq!(c.label, Label::Slower, "{c:?}");
        assert!((c.rel - 0.02).abs() < 1e-9, "{}", c.rel);
        assert!(c.rel_ci.0 > 0.01 && c.rel_ci.1 < 0.03, "{c:?}");
        assert_eq!(compare(b, a, DEFAULT_BAND).label, Label::Faster);
    }

    #[test]
    fn a_wide_overlapping_spread_is_unsure() {
        let a = median_of(&samples(0.057, 0.3, 40));
        let b = median_of(&samples(0.057 * 1.02, 0.3, 40));
        let c = compare(a, b, DEFAULT_BAND);
        assert_eq!(c.label, Label::Unsure, "{c:?}");
        assert!(
            c.rel_ci.0 < 0.0 && c.rel_ci.1 > 0.0,
            "the intervals overlap: {c:?}"
        );
    }

    #[test]
    fn a_shift_inside_the_band_with_tight_spreads_is_the_same() {
        let a = median_of(&samples(0.057, 0.002, 400));
        let b = median_of(&samples(0.057 * 1.004, 0.002, 400));
        let c = compare(a, b, DEFAULT_BAND);
        assert_eq!(c.label, Label::Same, "0.4% is within the 1% band: {c:?}");
        assert_eq!(compare(a, b, 0.001).label, Label::Slower, "but not within 0.1%");
    }

    #[test]
    fn no_positive_median_is_unsure() {
        let ok = Median {
            ms: 0.057,
            ci: (0.056, 0.058),
        };
        let bad = Median {
            ms: -0.001,
            ci: (-0.002, 0.0),
        };
        assert_eq!(compare(bad, ok, DEFAULT_BAND).label, Label::Unsure);
        let nan = Median {
            ms: f64::NAN,
            ci: (f64::NAN, f64::NAN),
        };
        assert_eq!(compare(ok, nan, DEFAULT_BAND).label, Label::Unsure);
    }
}
