//! Part 5 read as the allocator's behaviour: the distance between
//! consecutive addresses, the step most calls take, the calls where the
//! address jumps instead, and whether the slow calls are those.

use crate::report::MallocRun;

/// A call this many times the run's median is a slow one.
pub const SLOW_OVER_MEDIAN: f64 = 5.0;

/// The median of `v` (the mean of the middle two for an even count), or NaN
/// for none.
fn median(v: &[f64]) -> f64 {
    lesson_spec::median(v.to_vec()).unwrap_or(f64::NAN)
}

impl MallocRun {
    /// Each call's distance in bytes from the address before it (the first
    /// call's from Part 3's array).
    pub fn steps(&self) -> Vec<i64> {
        let mut previous = self.before;
        self.calls
            .iter()
            .map(|c| {
                let step = c.address.wrapping_sub(previous) as i64;
                previous = c.address;
                step
            })
            .collect()
    }

    /// The step most calls take (the smallest of equally common ones), or
    /// None for no calls.
    pub fn common_step(&self) -> Option<i64> {
        let mut counted = std::collections::BTreeMap::new();
        for s in self.steps() {
            *counted.entry(s).or_insert(0) += 1;
        }
        let most = counted
            .into_iter()
            .max_by_key(|&(v, n)| (n, std::cmp::Reverse(v)));
        most.map(|(v, _)| v)
    }

    /// The indexes (from 0) of the calls whose address does not follow the
    /// one before by the common step.
    pub fn jumps(&self) -> Vec<usize> {
        let common = self.common_step();
        self.steps()
            .iter()
            .enumerate()
            .filter(|&(_, s)| Some(*s) != common)
            .map(|(i, _)| i)
            .collect()
    }

    /// The median of the calls' times.
    pub fn median_ms(&self) -> f64 {
        median(&self.calls.iter().map(|c| c.ms).collect::<Vec<_>>())
    }

    /// The indexes of the calls over SLOW_OVER_MEDIAN times the median.
    pub fn slow(&self) -> Vec<usize> {
        let limit = SLOW_OVER_MEDIAN * self.median_ms();
        (0..self.calls.len())
            .filter(|&i| self.calls[i].ms > limit)
            .collect()
    }

    /// The median time of the calls at a jump (`at_jumps`) or of the others.
    pub fn median_ms_where(&self, at_jumps: bool) -> f64 {
        let jumps = self.jumps();
        let picked: Vec<f64> = (0..self.calls.len())
            .filter(|i| jumps.contains(i) == at_jumps)
            .map(|i| self.calls[i].ms)
            .collect();
        median(&picked)
    }

    /// The median number of calls from one jump to the next, or NaN with
    /// fewer than two jumps.
    pub fn calls_between_jumps(&self) -> f64 {
        let jumps = self.jumps();
        let gaps: Vec<f64> = jumps.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
        median(&gaps)
    }

    /// Part 5's figures, for `evidence compare` and the figure blocks.
    pub fn figures(&self) -> Vec<(String, f64)> {
        let (slow, jumps) = (self.slow(), self.jumps());
        let largest = self.calls.iter().map(|c| c.ms).fold(f64::NAN, f64::max);
        let slow_at_jumps = slow.iter().filter(|i| jumps.contains(i)).count();
        [
            ("malloc run, median, ms", self.median_ms()),
            ("malloc run, largest, ms", largest),
            (
                "malloc run, common step, bytes",
                self.common_step().map_or(f64::NAN, |s| s as f64),
            ),
            ("malloc run, address jumps", jumps.len() as f64),
            ("malloc run, calls between jumps", self.calls_between_jumps()),
            ("malloc run, at a jump, median ms", self.median_ms_where(true)),
            ("malloc run, elsewhere, median ms", self.median_ms_where(false)),
            ("malloc run, slow calls", slow.len() as f64),
            ("malloc run, slow calls at a jump", slow_at_jumps as f64),
        ]
        .map(|(name, v)| (name.to_string(), v))
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RunCall;

    /// Calls of 40960 bytes' step, with a new 2 MiB block (a jump, and a
    /// slow call) every `every` calls.
    fn run(count: usize, every: usize) -> MallocRun {
        let base = 0x7f00_0000_0000u64;
        let mut address = base;
        let calls = (0..count)
            .map(|i| {
                let jump = i % every == 0;
                address += if jump { 2 << 20 } else { 40960 };
                RunCall {
                    ms: if jump { 0.1 } else { 0.005 },
                    address,
                }
            })
            .collect();
        MallocRun {
            bytes: 40000,
            part2_first: base,
            before: base,
            calls,
        }
    }

    #[test]
    fn jumps_are_the_steps_that_are_not_the_common_one() {
        let r = run(120, 50);
        assert_eq!(r.common_step(), Some(40960));
        assert_eq!(r.jumps(), [0, 50, 100]);
        assert_eq!(r.calls_between_jumps(), 50.0);
        assert_eq!(r.slow(), [0, 50, 100]);
        assert_eq!(r.median_ms_where(true), 0.1);
        assert_eq!(r.median_ms_where(false), 0.005);
    }

    #[test]
    fn the_figures_count_slow_calls_at_jumps() {
        let mut r = run(120, 50);
        // A slow call that is not at a jump: the allocator is not the cause.
        r.calls[10].ms = 0.2;
        let f = r.figures();
        let get = |name: &str| f.iter().find(|x| x.0 == name).map(|x| x.1).unwrap();
        assert_eq!(get("malloc run, slow calls"), 4.0);
        assert_eq!(get("malloc run, slow calls at a jump"), 3.0);
        assert_eq!(get("malloc run, address jumps"), 3.0);
        assert_eq!(get("malloc run, largest, ms"), 0.2);
        assert_eq!(get("malloc run, common step, bytes"), 40960.0);
    }

    #[test]
    fn a_run_with_one_jump_has_no_spacing() {
        let r = run(40, 50);
        assert_eq!(r.jumps(), [0]);
        assert!(r.calls_between_jumps().is_nan());
    }
}
