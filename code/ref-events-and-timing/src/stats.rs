//! events.cu's `quantile` and `median`, and the median and interquartile
//! range every part summarises its samples with, computed as the .cu
//! computes them so both programs print the same numbers.

use ref_events_and_timing_report::parts::Spread;

/// events.cu's `quantile`: the p-quantile of `samples` with linear
/// interpolation between order statistics (p = 0.5 is the median). `None`
/// for no samples.
pub fn quantile(samples: &[f64], p: f64) -> Option<f64> {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let last = v.len().checked_sub(1)?;
    let pos = p * last as f64;
    let lo = pos as usize;
    let hi = (lo + 1).min(last);
    Some(v[lo] + (pos - lo as f64) * (v[hi] - v[lo]))
}

/// events.cu's `median`: [`quantile`] at 0.5.
pub fn median(samples: &[f64]) -> Option<f64> {
    quantile(samples, 0.5)
}

/// The median and interquartile range of samples in milliseconds; `None`
/// for no samples.
pub fn spread(samples_ms: &[f64]) -> Option<Spread> {
    Some(Spread {
        median_ms: median(samples_ms)?,
        iqr_ms: quantile(samples_ms, 0.75)? - quantile(samples_ms, 0.25)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median(&v), Some(2.5));
        assert_eq!(quantile(&v, 0.25), Some(1.75));
        assert_eq!(quantile(&v, 0.75), Some(3.25));
        assert_eq!(quantile(&[7.0], 0.75), Some(7.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn spread_is_median_and_iqr() {
        let s = spread(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!((s.median_ms, s.iqr_ms), (3.0, 2.0));
    }
}
