//! blocks.cu's `Row`, `timeRepeats` and `printTable`'s decisions: the
//! timings of one configuration become a mean, a spread and a rate
//! ([`Measured::from_timings`]), and a table's rows are set against its best
//! ([`print_table`]). The report package prints the result in blocks.cu's
//! layout.

use day10_block_sizes_report::{Noise, Row, Table};

/// blocks.cu's `Row`: one configuration as the twin measured it, before it
/// is set against the best.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub threads: u32,
    pub blocks_per_sm: u32,
    /// 0 to 1.
    pub occupancy: f64,
    pub mean_ms: f64,
    /// max/min - 1.
    pub spread: f64,
    pub rate: f64,
}

impl Measured {
    /// blocks.cu's timeRepeats and rate: the mean of `timings` (summed in
    /// order as doubles), their spread, and `work_per_element` x `elems`
    /// over the mean, per 10^6 ms (GB/s for bytes, GFLOP/s for flops).
    pub fn from_timings(
        threads: u32,
        blocks_per_sm: u32,
        occupancy: f64,
        timings_ms: &[f32],
        work_per_element: f64,
        elems: usize,
    ) -> Self {
        let values: Vec<f64> = timings_ms.iter().map(|&t| f64::from(t)).collect();
        let mean_ms = values.iter().sum::<f64>() / values.len() as f64;
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Measured {
            threads,
            blocks_per_sm,
            occupancy,
            mean_ms,
            spread: hi / lo - 1.0,
            rate: work_per_element * elems as f64 / (mean_ms * 1.0e6),
        }
    }
}

/// blocks.cu's printTable decisions: the best is the first lowest mean of
/// `rows`; a row is within noise when its difference from the best is
/// smaller than the larger of the two spreads. The suggestion is never
/// "best", even when it is one of the rows' block size.
pub fn print_table(rows: &[Measured], suggested: &Measured) -> Table {
    let mut best = 0;
    for (i, r) in rows.iter().enumerate() {
        if r.mean_ms < rows[best].mean_ms {
            best = i;
        }
    }
    let b = &rows[best];
    let row = |r: &Measured, is_best: bool| {
        let diff = r.mean_ms / b.mean_ms - 1.0;
        let noise = r.spread.max(b.spread);
        Row {
            threads: r.threads,
            blocks_per_sm: r.blocks_per_sm,
            occupancy_pct: 100.0 * r.occupancy,
            mean_ms: r.mean_ms,
            spread_pct: 100.0 * r.spread,
            rate: r.rate,
            vs_best_pct: 100.0 * diff,
            noise: if is_best {
                Noise::Best
            } else if diff < noise {
                Noise::Within
            } else {
                Noise::Outside
            },
        }
    };
    Table {
        rows: rows.iter().enumerate().map(|(i, r)| row(r, i == best)).collect(),
        suggested: row(suggested, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_noise_is_a_difference_below_the_larger_spread() {
        let m = |threads, mean_ms, spread| Measured {
            threads,
            blocks_per_sm: 1,
            occupancy: 1.0,
            mean_ms,
            spread,
            rate: 1.0,
        };
        let t = print_table(
            &[
                m(32, 1.10, 0.01),
                m(64, 1.00, 0.02),
                m(96, 1.019, 0.001),
                m(128, 1.021, 0.001),
            ],
            &m(64, 1.00, 0.0),
        );
        let noise: Vec<Noise> = t.rows.iter().map(|r| r.noise).collect();
        // 96 is 1.9% above, under the best's own 2% spread; 128 is 2.1% above.
        assert_eq!(
            noise,
            [Noise::Outside, Noise::Best, Noise::Within, Noise::Outside]
        );
        // The suggestion is never the best, even at the best's own time.
        assert_eq!(t.suggested.noise, Noise::Within);
        assert_eq!(t.suggested.vs_best_pct, 0.0);
    }

    #[test]
    fn mean_spread_and_rate_are_blocks_cus() {
        let m = Measured::from_timings(256, 8, 1.0, &[2.0, 1.0, 1.5, 1.25, 1.25], 12.0, 1_000_000);
        assert_eq!(m.mean_ms, 1.4);
        assert_eq!(m.spread, 1.0);
        assert_eq!(m.rate, 12.0 * 1.0e6 / 1.4e6);
    }
}
