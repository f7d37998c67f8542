//! Robust statistics of a set of samples, and the confidence interval of
//! their median. Pure arithmetic, tested without a GPU.

use serde::Serialize;

/// What a set of samples says. Times are in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub n: usize,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    pub mean: f64,
    /// Sample standard deviation (n - 1).
    pub stddev: f64,
    /// stddev / mean, as nvbench reports noise.
    pub rel_noise: f64,
    pub iqr: f64,
    /// A distribution-free 95% confidence interval for the median, from
    /// order statistics (the binomial(n, 1/2) ranks around n/2).
    pub median_ci: (f64, f64),
    /// Half the interval's width over the median: the sampler's stopping
    /// measure.
    pub median_ci_rel_half_width: f64,
}

/// The `p`-quantile of sorted data by linear interpolation (R's type 7).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The 1-based ranks (j, k) with P(X_(j) <= median <= X_(k)) >= 95%, by the
/// normal approximation to binomial(n, 1/2); the whole range for tiny n.
pub fn median_ci_ranks(n: usize) -> (usize, usize) {
    // j = floor(n/2 - 0.98 sqrt(n)), k = ceil(1 + n/2 + 0.98 sqrt(n)),
    // clamped to the sample.
    let half = 0.98 * (n as f64).sqrt();
    let j = ((n as f64) / 2.0 - half).floor().max(1.0) as usize;
    let k = (1.0 + (n as f64) / 2.0 + half).ceil() as usize;
    (j.min(n), k.clamp(j.min(n), n))
}

/// Summarises `samples`; `None` for no samples.
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let mean = s.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let stddev = var.sqrt();
    let (j, k) = median_ci_ranks(n);
    let median = quantile(&s, 0.5);
    let ci = (s[j - 1], s[k - 1]);
    let (q1, q3) = (quantile(&s, 0.25), quantile(&s, 0.75));
    Some(Summary {
        n,
        min: s[0],
        q1,
        median,
        q3,
        max: s[n - 1],
        mean,
        stddev,
        rel_noise: if mean > 0.0 { stddev / mean } else { 0.0 },
        iqr: q3 - q1,
        median_ci: ci,
        median_ci_rel_half_width: if median > 0.0 {
            (ci.1 - ci.0) / 2.0 / median
        } else {
            f64::INFINITY
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_samples_give_known_statistics() {
        let s = summarize(&[4.0, 1.0, 3.0, 2.0, 5.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max, s.mean), (5, 1.0, 3.0, 5.0, 3.0));
        assert_eq!((s.q1, s.q3, s.iqr), (2.0, 4.0, 2.0));
        assert!((s.stddev - 2.5f64.sqrt()).abs() < 1e-12);
        assert!((s.rel_noise - 2.5f64.sqrt() / 3.0).abs() < 1e-12);
    }

    #[test]
    fn an_even_count_takes_the_middle_two() {
        let s = summarize(&[1.0, 2.0, 3.0, 10.0]).unwrap();
        assert_eq!(s.median, 2.5);
    }

    #[test]
    fn identical_samples_have_no_noise_and_a_point_interval() {
        let s = summarize(&[0.061; 50]).unwrap();
        // The mean of fifty 0.061s is 0.061 only to rounding.
        assert!(s.stddev < 1e-15, "{}", s.stddev);
        assert_eq!((s.iqr, s.median_ci), (0.0, (0.061, 0.061)));
        assert_eq!(s.median_ci_rel_half_width, 0.0);
    }

    #[test]
    fn the_median_interval_ranks_cover_95_percent() {
        // Exact binomial coverage of the ranks, checked for a range of n.
        for n in [10usize, 25, 100, 400] {
            let (j, k) = median_ci_ranks(n);
            let mut coverage = 0.0;
            // P(j <= B <= k - 1), B ~ binomial(n, 1/2): the median lies in
            // [X_(j), X_(k)] exactly when j..k brackets it.
            let mut c = 1.0f64; // C(n, 0)
            for i in 0..n {
                if i >= j && i < k {
                    coverage += c;
                }
                c = c * (n - i) as f64 / (i + 1) as f64;
            }
            coverage /= 2f64.powi(n as i32);
            assert!(coverage >= 0.95, "n = {n}: ranks {j}..{k} cover {coverage}");
            assert!(j < n / 2 && k > n / 2, "n = {n}: {j}..{k}");
        }
        assert_eq!(median_ci_ranks(1), (1, 1));
    }

    #[test]
    fn the_interval_narrows_as_samples_grow() {
        let noisy =
            |n: usize| -> Vec<f64> { (0..n).map(|i| 1.0 + ((i * 7919) % 101) as f64 / 1000.0).collect() };
        let a = summarize(&noisy(20)).unwrap().median_ci_rel_half_width;
        let b = summarize(&noisy(2000)).unwrap().median_ci_rel_half_width;
        assert!(b < a / 3.0, "{a} then {b}");
    }

    #[test]
    fn no_samples_no_summary() {
        assert_eq!(summarize(&[]), None);
    }
}
