//! A lesson's causes as checks: each sentence of a README that says *why* a
//! number comes out as it does names a [`Why`], declared beside the page's
//! claims, which `evidence check` and the site judge per GPU.
//!
//! A cause usually needs several kinds of run (the lesson's own, a
//! diagnostic program's, a profiler's), so a [`Why`] names each figure with
//! where it is recorded ([`Source`]). It is judged on each figure's median
//! and that median's 95% interval ([`judge`]). A cause that fails on some
//! GPU is a finding about that GPU, not an error of the evidence. A cause
//! names its rival, the other explanation a reader would give of the same
//! numbers, and carries figures on which its check must fail
//! ([`Why::planted`]), so a check that cannot fail is caught.
//!
//! Not for: reading transcripts (`evidence` gathers the figures), or
//! holding the README to its checks (`testkit::why_named`).

use crate::claims::{Outcome, State};

/// Where one figure of a cause is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// The evidence folder: a lesson's name, or `diagnostics`.
    pub folder: &'static str,
    /// The runs' names after the GPU's word, space-separated: `cxx rust`
    /// for `<time>-h200-cxx.txt` and `<time>-h200-rust.txt`.
    pub runs: &'static str,
    /// The figure: a label of the lesson's report (as its `figures` gives
    /// it), or, for a run no lesson parses, the text before `: NUMBER` on
    /// its lines (every such line of a run counts).
    pub label: &'static str,
    /// A figure read exactly, not measured with noise: a count, an API's
    /// answer, a clock NVML reports in whole steps. [`margin`] does not
    /// widen it, so a check of `one kernel queued` gets the margin of its
    /// measured figures, not 0.
    pub exact: bool,
}

impl Source {
    /// This figure, read exactly.
    pub const fn exact(self) -> Source {
        Source { exact: true, ..self }
    }
}

/// A figure of a lesson's own C++ and Rust runs.
pub const fn report(folder: &'static str, label: &'static str) -> Source {
    runs(folder, "cxx rust", label)
}

/// A figure of a lesson's runs of one name (`ncu`, `cxx-eager`).
pub const fn runs(folder: &'static str, runs: &'static str, label: &'static str) -> Source {
    Source {
        folder,
        runs,
        label,
        exact: false,
    }
}

/// A `LABEL: NUMBER` line of the diagnostics runs named `runs`.
pub const fn lines(runs_named: &'static str, label: &'static str) -> Source {
    runs("diagnostics", runs_named, label)
}

/// The verdict from a value of each figure, in [`Why::figures`]' order
/// (a median, or a corner of the medians' intervals, [`judge`]).
pub type WhyCheck = fn(&[f64]) -> Outcome;

/// One cause a lesson's README gives, as a check.
#[derive(Debug)]
pub struct Why {
    /// `<lesson prefix>-why-<name>`: the README names it in backticks.
    pub id: &'static str,
    /// The cause in one sentence, with the threshold the check reads it as.
    pub cause: &'static str,
    /// Every figure the check reads; none may be missing on a GPU it judges.
    pub figures: &'static [Source],
    pub check: WhyCheck,
    /// The rival cause, in one sentence.
    pub rival: &'static str,
    /// Which figure would come out differently were the rival true, and
    /// how; where no figure the check reads would, the measurement that
    /// would tell them apart.
    pub rival_figure: &'static str,
    /// Whether the figures the check reads tell the cause from its rival;
    /// where not, a check that holds reads "fits" ([`Why::word`]).
    pub tells_rival_apart: bool,
    /// Medians, in [`Why::figures`]' order, of a GPU where the rival is
    /// true or the effect absent: the check must fail on them.
    pub planted: &'static [f64],
}

impl Why {
    /// The state in words, as `evidence check` and the site print it.
    pub fn word(&self, state: State) -> &'static str {
        match state {
            State::Holds if !self.tells_rival_apart => "fits (rival not ruled out)",
            state => state.word(),
        }
    }
}

/// A check's state on figures known only to an interval each: the check
/// at every corner of the box they span (each figure at its low or its
/// high end) and at its centre, holds if it holds at all of them, fails if
/// it fails at all, undecided otherwise. A figure known exactly has a
/// zero-width interval.
pub fn judge(check: impl Fn(&[f64]) -> bool, intervals: &[(f64, f64)]) -> State {
    let k = intervals.len().min(16);
    let (mut held, mut failed) = (false, false);
    let mut corner = vec![0.0; intervals.len()];
    for bits in 0u32..(1 << k) {
        for (i, (lo, hi)) in intervals.iter().enumerate() {
            corner[i] = if i < k && bits & (1 << i) != 0 { *hi } else { *lo };
        }
        if check(&corner) {
            held = true;
        } else {
            failed = true;
        }
        if held && failed {
            return State::Undecided;
        }
    }
    // The box's centre too: a check that holds in a band (`|a - b| <= 5% of
    // b`) may fail at every corner of a box the band runs through.
    let centre: Vec<f64> = intervals.iter().map(|(lo, hi)| (lo + hi) / 2.0).collect();
    match (held, check(&centre)) {
        (true, true) => State::Holds,
        (false, false) => State::Fails,
        _ => State::Undecided,
    }
}

/// How far a decided state sits from its threshold: the least share by
/// which every interval may widen on both sides (each end moved by that
/// share of its value, or of the largest value where it is 0) before the
/// state changes, up to 1 (100%). `None` for an undecided state. The
/// intervals `exact` marks (a figure read exactly, [`Source::exact`]) are
/// not widened; `exact` may be shorter than `intervals`.
pub fn margin(check: impl Fn(&[f64]) -> bool, intervals: &[(f64, f64)], exact: &[bool]) -> Option<f64> {
    let state = judge(&check, intervals);
    if state == State::Undecided {
        return None;
    }
    let scale = intervals
        .iter()
        .map(|(lo, hi)| lo.abs().max(hi.abs()))
        .fold(0.0, f64::max);
    let widened = |share: f64| -> Vec<(f64, f64)> {
        intervals
            .iter()
            .enumerate()
            .map(|(i, &(lo, hi))| {
                if exact.get(i) == Some(&true) {
                    return (lo, hi);
                }
                let unit = |v: f64| if v == 0.0 { scale } else { v.abs() };
                (lo - share * unit(lo), hi + share * unit(hi))
            })
            .collect()
    };
    // Widened in steps, the first that changes the state bracketing the
    // margin: a check that holds in a band (`|a - b| <= 5% of b`) changes
    // as a corner crosses into the band, and back once every corner has
    // passed it, so the first change is the margin, not the last.
    const STEPS: u32 = 128;
    let changes = |share: f64| judge(&check, &widened(share)) != state;
    let Some(step) = (1..=STEPS).find(|&i| changes(f64::from(i) / f64::from(STEPS))) else {
        return Some(1.0);
    };
    let (mut keeps, mut loses) = (
        f64::from(step - 1) / f64::from(STEPS),
        f64::from(step) / f64::from(STEPS),
    );
    for _ in 0..24 {
        let mid = (keeps + loses) / 2.0;
        if judge(&check, &widened(mid)) == state {
            keeps = mid;
        } else {
            loses = mid;
        }
    }
    Some(keeps)
}

/// Whether `why`'s check holds on `figures`.
pub fn holds(why: &Why, figures: &[f64]) -> bool {
    matches!((why.check)(figures), Outcome::Holds(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn below(m: &[f64]) -> bool {
        m[0] < m[1]
    }

    #[test]
    fn a_check_holds_fails_or_is_undecided_over_its_figures_intervals() {
        assert_eq!(judge(below, &[(1.0, 2.0), (3.0, 4.0)]), State::Holds);
        assert_eq!(judge(below, &[(5.0, 6.0), (3.0, 4.0)]), State::Fails);
        assert_eq!(judge(below, &[(1.0, 3.5), (3.0, 4.0)]), State::Undecided);
        // A band the box runs through, every corner outside it.
        let band = |m: &[f64]| (m[0] - m[1]).abs() <= 0.1;
        assert_eq!(judge(band, &[(0.0, 2.0), (0.9, 1.1)]), State::Undecided);
        // A figure known exactly is a point.
        assert_eq!(judge(below, &[(2.0, 2.0), (3.0, 3.0)]), State::Holds);
    }

    #[test]
    fn the_margin_is_how_far_the_intervals_widen_before_the_state_changes() {
        // 1 and 3 meet at 2 once each moves by half of 1 and a third of 3:
        // 1 + s = 3 - 3s at s = 0.5.
        let m = margin(below, &[(1.0, 1.0), (3.0, 3.0)], &[]).unwrap();
        assert!((m - 0.5).abs() < 1e-6, "{m}");
        assert_eq!(margin(below, &[(1.0, 3.5), (3.0, 4.0)], &[]), None);
        // 1 + s < 10 (1 - s) up to s = 9/11.
        let m = margin(|m: &[f64]| m[0] < 10.0 * m[1], &[(1.0, 1.0), (1.0, 1.0)], &[]).unwrap();
        assert!((m - 9.0 / 11.0).abs() < 1e-6, "{m}");
        // A band: 0.07 against 0.061 fails `within 5%` until 0.07 falls
        // and 0.061 rises to meet it, 0.07 (1 - s) = 1.05 x 0.061 (1 + s),
        // though every corner has passed the band again at 50%.
        let band = |m: &[f64]| (m[0] - m[1]).abs() <= 0.05 * m[1];
        let m = margin(band, &[(0.07, 0.07), (0.061, 0.061)], &[]).unwrap();
        let want = (0.07 - 1.05 * 0.061) / (0.07 + 1.05 * 0.061);
        assert!((m - want).abs() < 1e-6, "{m} against {want}");
        // A state no widening up to 100% changes.
        assert_eq!(margin(|m: &[f64]| m[0] > -5.0, &[(1.0, 1.0)], &[]), Some(1.0));
    }

    #[test]
    fn a_figure_read_exactly_is_not_widened() {
        // `one kernel queued ahead, and 1 us under half of 4 us`: widening
        // the count moves it off 1 at once, so the margin would read 0.
        let check = |m: &[f64]| m[0] == 1.0 && m[1] < 0.5 * m[2];
        let figures = [(1.0, 1.0), (1.0, 1.0), (4.0, 4.0)];
        assert_eq!(margin(check, &figures, &[]), Some(0.0));
        // Read exactly, the count stays; 1 + s < 2 (1 - s) up to s = 1/3.
        let m = margin(check, &figures, &[true]).unwrap();
        assert!((m - 1.0 / 3.0).abs() < 1e-6, "{m}");
    }
}
