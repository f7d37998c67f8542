//! What changed in each GPU's latest session: each figure it recorded
//! against a baseline, the same figure in the last [`WINDOW`] earlier
//! sessions that recorded it (as PyTorch's HUD and conbench's lookback
//! window do), labelled by robust-stats' rule, with the runs a session
//! needs to decide it; the claims whose verdict flipped; the rule's false
//! alarms on A/A comparisons. The reasons: evidence/README.md, "What changed".

use std::collections::{BTreeMap, BTreeSet, HashMap};

use robust_stats::compare::{compare_across, process_spread, Comparison, Label, Median, DEFAULT_BAND};
use robust_stats::stats::{quantile, summarize};
use serde::Serialize;

use crate::history::{Direction, Point, Series};
use crate::sessions::Session;
use crate::verdicts::{Column, Kind, PerSession, Tally};

/// The fewest values a side needs for a label other than UNSURE.
pub const MIN_VALUES: usize = 6;
/// How many earlier sessions of a figure make its baseline.
pub const WINDOW: usize = 5;
/// The most runs [`runs_needed`] tries.
pub const MOST_RUNS: usize = 64;

/// A figure's change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Change {
    Same,
    Faster,
    Slower,
    /// Up, for a figure that is neither a time nor a rate.
    Higher,
    Lower,
    Unsure,
}

impl Change {
    /// `SAME`, `FASTER`, ... as the summary writes it.
    pub fn name(self) -> String {
        format!("{self:?}").to_uppercase()
    }

    /// `moved`, `same` or `undecided`.
    pub fn group(self) -> &'static str {
        match self {
            Change::Same => "same",
            Change::Unsure => "undecided",
            _ => "moved",
        }
    }

    pub fn moved(self) -> bool {
        self.group() == "moved"
    }

    /// robust-stats' label (which reads its numbers as times) said of a
    /// figure pointing `direction`.
    fn of(label: Label, direction: Direction) -> Change {
        match (label, direction) {
            (Label::Same, _) => Change::Same,
            (Label::Unsure, _) => Change::Unsure,
            (Label::Slower, Direction::Time) | (Label::Faster, Direction::Rate) => Change::Slower,
            (Label::Faster, Direction::Time) | (Label::Slower, Direction::Rate) => Change::Faster,
            (Label::Slower, Direction::Neither) => Change::Higher,
            (Label::Faster, Direction::Neither) => Change::Lower,
        }
    }
}

/// Two sets of values labelled, and robust-stats' comparison behind it
/// (none where either set has fewer than [`MIN_VALUES`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Compared {
    pub change: Change,
    pub comparison: Option<Comparison>,
}

/// `after` against `before`, as a figure pointing `direction`, the
/// interval widened by `process_sd` ([`compare_across`]).
pub fn label(before: &[f64], after: &[f64], direction: Direction, process_sd: f64) -> Compared {
    let median = |v: &[f64]| {
        let s = summarize(v).filter(|_| v.len() >= MIN_VALUES)?;
        Some(Median {
            ms: s.median,
            ci: s.median_ci,
        })
    };
    let comparison = median(before)
        .zip(median(after))
        .map(|(a, b)| compare_across(a, b, DEFAULT_BAND, process_sd));
    // Medians one printed step apart may be one value rounded two ways
    // (worked out only for a move: it formats every value).
    let within_a_step = |diff: f64| diff.abs() <= printed_step(before.iter().chain(after)) * (1.0 + 1e-9);
    let change = comparison.map_or(Change::Unsure, |k| match Change::of(k.label, direction) {
        moved if moved.moved() && within_a_step(k.diff_ms) => Change::Unsure,
        change => change,
    });
    Compared { change, comparison }
}

/// One unit of the last decimal the most precise value shows (`0.004` and
/// `0.0125` give 0.0001). A report holds its times as `f32`, as the `.cu`
/// does, so a value that is an `f32` is written as one (0.004 read into an
/// `f32` is 0.004000000189989805 as an `f64`).
fn printed_step<'a>(values: impl Iterator<Item = &'a f64>) -> f64 {
    let shortest = |v: f64| match f64::from(v as f32) == v {
        true => (v as f32).to_string(),
        false => v.to_string(),
    };
    let decimals = values
        .map(|&v| shortest(v).split_once('.').map_or(0, |(_, d)| d.len()))
        .max()
        .unwrap_or(0);
    10f64.powi(-(decimals.min(300) as i32))
}

/// The fewest runs (from [`MIN_VALUES`] to [`MOST_RUNS`]) a session needs
/// for an unchanged figure to read SAME against `baseline`: its values
/// taken at evenly spaced quantiles of the baseline's. `None` where no
/// number of runs does: the baseline's own interval, or its sessions'
/// spread, is wider than the band.
pub fn runs_needed(baseline: &[f64], process_sd: f64) -> Option<usize> {
    let mut sorted = baseline.to_vec();
    sorted.sort_by(f64::total_cmp);
    (MIN_VALUES..=MOST_RUNS).find(|&n| {
        let session: Vec<f64> = (0..n)
            .map(|i| quantile(&sorted, (i as f64 + 0.5) / n as f64))
            .collect();
        label(baseline, &session, Direction::Time, process_sd).change == Change::Same
    })
}

/// One figure of a GPU's latest session against its baseline.
#[derive(Debug, Clone)]
pub struct FigureChange<'h, 's, 'a> {
    pub series: &'h Series<'s, 'a>,
    /// The up to [`WINDOW`] sessions before the latest that recorded it.
    pub baseline: &'h [Point<'s, 'a>],
    pub latest: &'h Point<'s, 'a>,
    pub compared: Compared,
    /// How far the baseline's sessions' medians lie apart (a relative
    /// standard deviation; 0 for one session).
    pub session_sd: f64,
    pub runs_needed: Option<usize>,
}

impl<'s, 'a> FigureChange<'_, 's, 'a> {
    /// The last session of the baseline.
    pub fn before(&self) -> &'s Session<'a> {
        self.baseline[self.baseline.len() - 1].session
    }
}

/// Each GPU's latest session that ran a lesson's program or a lesson's
/// diagnostics, what the claims and figures read: a later session of other
/// runs alone (a tool's, the machine's facts) has nothing to compare and
/// does not hide the one before it.
fn newest<'s>(sessions: &'s [Session<'_>]) -> HashMap<&'s str, &'s str> {
    let read = |folder: &str| folder == "diagnostics" || lessons::LESSONS.iter().any(|l| l.name() == folder);
    sessions
        .iter()
        .filter(|s| s.runs.iter().any(|t| read(&t.header.lesson)))
        .map(|s| (s.gpu.as_str(), s.id.as_str()))
        .collect()
}

/// Every figure its GPU's latest session recorded and an earlier one did
/// too, against its baseline.
pub fn latest<'h, 's, 'a>(
    history: &'h [Series<'s, 'a>],
    sessions: &[Session],
) -> Vec<FigureChange<'h, 's, 'a>> {
    let newest = newest(sessions);
    let is_newest = |s: &Series, p: &Point| newest.get(s.gpu.as_str()) == Some(&p.session.id.as_str());
    history
        .iter()
        .filter(|s| s.points.len() > 1 && is_newest(s, &s.points[s.points.len() - 1]))
        .map(|s| against_baseline(s, s.points.len() - 1))
        .collect()
}

/// Point `i` of `series` (not its first) against the up to [`WINDOW`]
/// points before it.
fn against_baseline<'h, 's, 'a>(series: &'h Series<'s, 'a>, i: usize) -> FigureChange<'h, 's, 'a> {
    let (baseline, latest) = (&series.points[i.saturating_sub(WINDOW)..i], &series.points[i]);
    let medians: Vec<f64> = baseline
        .iter()
        .filter_map(|p| lesson_spec::median(p.values.clone()))
        .collect();
    let sd = process_spread(&medians).unwrap_or(0.0);
    let pooled: Vec<f64> = baseline.iter().flat_map(|p| p.values.clone()).collect();
    FigureChange {
        series,
        baseline,
        latest,
        compared: label(&pooled, &latest.values, series.direction(), sd),
        session_sd: sd,
        runs_needed: runs_needed(&pooled, sd),
    }
}

/// A GPU's figures counted, and what their baselines say of the runs a
/// session needs: `435 figure(s) in the latest session: 0 moved, 0 same,
/// 435 undecided; runs a session needs to decide one: 6 for 70, ...`.
pub fn summary(changes: &[&FigureChange]) -> String {
    let n = |g| changes.iter().filter(|c| c.compared.change.group() == g).count();
    let mut needed: BTreeMap<usize, usize> = BTreeMap::new();
    for n in changes.iter().filter_map(|c| c.runs_needed) {
        *needed.entry(n).or_default() += 1;
    }
    let had: Vec<usize> = changes.iter().map(|c| c.latest.values.len()).collect();
    let words: Vec<String> = needed.iter().map(|(n, k)| format!("{n} for {k}")).collect();
    let never: Vec<f64> = changes
        .iter()
        .filter(|c| c.runs_needed.is_none())
        .map(|c| c.session_sd)
        .collect();
    let mut out = format!(
        "{} figure(s) in the latest session: {} moved, {} same, {} undecided; runs a session needs to decide one: \
         {} (the latest session had {} to {})",
        changes.len(),
        n("moved"),
        n("same"),
        n("undecided"),
        words.join(", "),
        had.iter().min().unwrap_or(&0),
        had.iter().max().unwrap_or(&0)
    );
    if let Some(median) = lesson_spec::median(never.clone()).map(|m| m * 100.0) {
        out += &format!(
            "; {} cannot be decided with up to {MOST_RUNS}: their baseline sessions' medians lie a median \
             {median:.1}% apart, against the ±1% band",
            never.len()
        );
    }
    out
}

/// How often the rule says "moved" of identical code (A/A): of the
/// figures `compared` (enough values on both sides), how many it called
/// moved (`alarms`) and UNSURE.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Alarms {
    pub compared: usize,
    pub alarms: usize,
    pub unsure: usize,
}

impl Alarms {
    fn count(&mut self, c: Compared) {
        if c.comparison.is_some() {
            self.compared += 1;
            self.alarms += usize::from(c.change.moved());
            self.unsure += usize::from(c.change == Change::Unsure);
        }
    }

    /// `3 of 120 (2.5%)`, or `none compared`.
    pub fn words(&self) -> String {
        let rate = self.alarms as f64 * 100.0 / self.compared.max(1) as f64;
        match self.compared {
            0 => "none compared".into(),
            n => format!("{} of {n} ({rate:.1}%)", self.alarms),
        }
    }
}

/// The false alarms measured on A/A comparisons of the evidence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FalseAlarms {
    /// Pairs of consecutive sessions of one machine and one commit.
    pub same_commit_pairs: usize,
    pub same_commit: Alarms,
    /// The second session of each such pair against its baseline, as
    /// [`latest`] labels a GPU's latest session.
    pub baseline: Alarms,
    /// Each session's figures with at least twice [`MIN_VALUES`] values,
    /// odd runs against even ones.
    pub split_half: Alarms,
}

/// Counts the rule's false alarms on every A/A comparison `history` holds.
pub fn false_alarms(history: &[Series]) -> FalseAlarms {
    let mut out = FalseAlarms::default();
    let mut pairs = BTreeSet::new();
    let machine = |s: &Session| format!("{} {} {} {}", s.short_commit(), s.gpu, s.driver, s.host);
    for series in history {
        let direction = series.direction();
        for (i, (a, b)) in series.points.iter().zip(&series.points[1..]).enumerate() {
            if machine(a.session) == machine(b.session) {
                pairs.insert((a.session.id.clone(), b.session.id.clone()));
                out.same_commit.count(label(&a.values, &b.values, direction, 0.0));
                out.baseline.count(against_baseline(series, i + 1).compared);
            }
        }
        for point in series.points.iter().filter(|p| p.values.len() >= 2 * MIN_VALUES) {
            let half =
                |parity| -> Vec<f64> { point.values.iter().skip(parity).step_by(2).copied().collect() };
            out.split_half.count(label(&half(0), &half(1), direction, 0.0));
        }
    }
    out.same_commit_pairs = pairs.len();
    out
}

/// A claim whose verdict on a GPU and toolkit in that GPU's latest session
/// differs from the session before that checked it there.
#[derive(Debug, Clone)]
pub struct Flip<'s, 'a> {
    pub lesson: String,
    pub claim: &'static str,
    pub column: Column,
    pub before: (&'s Session<'a>, Tally),
    pub after: (&'s Session<'a>, Tally),
}

/// The claims of `lesson` whose verdict flipped in their GPU's latest
/// session, per column, from its verdicts by session
/// ([`crate::verdicts::per_session`]).
pub fn flips<'s, 'a>(lesson: &str, per: &PerSession, sessions: &'s [Session<'a>]) -> Vec<Flip<'s, 'a>> {
    let newest = newest(sessions);
    let mut out = Vec::new();
    for ((claim, column), by_session) in per {
        let checked: Vec<(&usize, &Tally)> = by_session.iter().filter(|(_, t)| t.runs() > 0).collect();
        let [.., (b, before), (a, after)] = checked.as_slice() else {
            continue;
        };
        let latest = newest.get(column.gpu.as_str()) == Some(&sessions[**a].id.as_str());
        if latest && before.kind() != after.kind() && before.kind() != Kind::NotChecked {
            out.push(Flip {
                lesson: lesson.to_string(),
                claim,
                column: column.clone(),
                before: (&sessions[**b], Tally::clone(before)),
                after: (&sessions[**a], Tally::clone(after)),
            });
        }
    }
    out
}

/// One GPU's part of what changed: its sessions, its flips, the figures
/// its latest session recorded and, of those, the moved ones, the largest
/// move first.
pub struct OnGpu<'c, 'h, 's, 'a> {
    pub gpu: &'s str,
    pub sessions: Vec<&'s Session<'a>>,
    pub flips: Vec<&'c Flip<'s, 'a>>,
    pub figures: Vec<&'c FigureChange<'h, 's, 'a>>,
    pub moved: Vec<&'c FigureChange<'h, 's, 'a>>,
}

/// Each GPU's part, GPUs by name.
pub fn by_gpu<'c, 'h, 's, 'a>(
    sessions: &'s [Session<'a>],
    changes: &'c [FigureChange<'h, 's, 'a>],
    flips: &'c [Flip<'s, 'a>],
) -> Vec<OnGpu<'c, 'h, 's, 'a>> {
    let rel = |c: &FigureChange| c.compared.comparison.map_or(0.0, |k| k.rel.abs());
    let newest = newest(sessions);
    crate::sessions::by_gpu(sessions)
        .into_iter()
        .map(|(gpu, mut sessions)| {
            let figures: Vec<&FigureChange> = changes.iter().filter(|c| c.series.gpu == gpu).collect();
            // Up to its latest session (`newest`): those after it have
            // nothing to compare.
            if let Some(i) = newest
                .get(gpu)
                .and_then(|id| sessions.iter().position(|s| s.id == *id))
            {
                sessions.truncate(i + 1);
            }
            let mut moved: Vec<&FigureChange> = figures
                .iter()
                .copied()
                .filter(|c| c.compared.change.moved())
                .collect();
            moved.sort_by(|a, b| rel(b).total_cmp(&rel(a)));
            let flips = flips.iter().filter(|f| f.column.gpu == gpu).collect();
            OnGpu {
                gpu,
                sessions,
                flips,
                figures,
                moved,
            }
        })
        .collect()
}

/// What changed, as `evidence changes` prints it: per GPU, its latest
/// session, the flips, the figures that moved, the counts and the runs
/// needed; then the false alarms.
pub fn render(sessions: &[Session], history: &[Series], flips: &[Flip]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let changes = latest(history, sessions);
    for on in by_gpu(sessions, &changes, flips) {
        let _ = writeln!(out, "{}: {} session(s)", on.gpu, on.sessions.len());
        if let [.., before, after] = on.sessions.as_slice() {
            let (a, b, d) = (&after.id, &before.id, crate::sessions::differed(before, after));
            let _ = writeln!(
                out,
                "  latest {a}, each figure against its last {WINDOW} earlier sessions; {b} before it: {d}"
            );
        }
        for f in on.flips {
            let ((b, was), (a, is)) = (&f.before, &f.after);
            let (was, is, toolkit) = (was.words(), is.words(), &f.column.toolkit);
            let _ = writeln!(
                out,
                "  flipped  {} {} ({toolkit}): {was} in {} to {is} in {}",
                f.lesson, f.claim, b.id, a.id
            );
        }
        for c in on.moved {
            let (f, name, n) = (&c.series.figure, c.compared.change.name(), c.baseline.len());
            let k = c.compared.comparison.expect("a moved figure was compared");
            let (rel, lo, hi) = (k.rel * 100.0, k.rel_ci.0 * 100.0, k.rel_ci.1 * 100.0);
            let _ = writeln!(
                out,
                "  {name:<7} {}/{} {}: {rel:+.1}% ({lo:+.1}% to {hi:+.1}%) against {n} session(s) from {}",
                f.folder, f.run, f.label, c.baseline[0].session.id
            );
        }
        if !on.figures.is_empty() {
            let _ = writeln!(out, "  {}", summary(&on.figures));
        }
    }
    let alarms = false_alarms(history);
    let _ = writeln!(
        out,
        "false alarms (A/A): {} pair(s) of sessions of one commit on one machine, their figures called moved: {} \
         (the second against its baseline: {}); each session's runs split odd/even, called moved: {} ({} UNSURE)",
        alarms.same_commit_pairs,
        alarms.same_commit.words(),
        alarms.baseline.words(),
        alarms.split_half.words(),
        alarms.split_half.unsure
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` values around `centre`, spread evenly over +-`spread` of it.
    fn values(centre: f64, spread: f64, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| centre * (1.0 + spread * (2.0 * i as f64 / (n - 1) as f64 - 1.0)))
            .collect()
    }

    fn change(a: &[f64], b: &[f64], direction: Direction) -> Change {
        label(a, b, direction, 0.0).change
    }

    #[test]
    fn a_time_that_grows_is_slower_and_a_rate_that_grows_is_faster() {
        let (a, b) = (values(1.0, 0.002, 9), values(1.05, 0.002, 9));
        assert_eq!(change(&a, &b, Direction::Time), Change::Slower);
        assert_eq!(change(&b, &a, Direction::Time), Change::Faster);
        assert_eq!(change(&a, &b, Direction::Rate), Change::Faster);
        assert_eq!(change(&b, &a, Direction::Rate), Change::Slower);
        assert_eq!(change(&a, &b, Direction::Neither), Change::Higher);
        assert_eq!(change(&b, &a, Direction::Neither), Change::Lower);
    }

    #[test]
    fn the_same_values_are_the_same_and_overlapping_noise_is_unsure() {
        let a = values(1.0, 0.002, 9);
        assert_eq!(change(&a, &a, Direction::Time), Change::Same);
        let (wide_a, wide_b) = (values(1.0, 0.2, 9), values(1.03, 0.2, 9));
        assert_eq!(change(&wide_a, &wide_b, Direction::Time), Change::Unsure);
    }

    /// Sessions whose medians lie apart widen the interval: a 3% move that
    /// is SLOWER from the values alone is UNSURE against a baseline whose
    /// sessions differ by 2%.
    #[test]
    fn the_spread_between_baseline_sessions_widens_the_interval() {
        let (a, b) = (values(1.0, 0.002, 20), values(1.03, 0.002, 9));
        assert_eq!(change(&a, &b, Direction::Time), Change::Slower);
        assert_eq!(label(&a, &b, Direction::Time, 0.02).change, Change::Unsure);
    }

    /// The H200's `sweep n=65536 kernel, ms`, printed to three decimals,
    /// read 0.004 in one session and 0.005 in the next: one printed step,
    /// which rounding alone can make, is no change however tight the
    /// intervals.
    #[test]
    fn medians_one_printed_step_apart_are_unsure() {
        let (a, b) = (vec![0.004; 15], vec![0.005; 40]);
        assert_eq!(change(&a, &b, Direction::Time), Change::Unsure);
        // Two steps apart is a change.
        assert_eq!(change(&a, &[0.006; 40], Direction::Time), Change::Slower);
        assert_eq!(printed_step([0.004, 0.0125, 3.0].iter()), 0.0001);
        assert_eq!(printed_step([1.0, 63665.0].iter()), 1.0);
        // As the reports hold them: f32 times widened to f64.
        let f32s = |x: f32, n| vec![f64::from(x); n];
        assert_eq!(printed_step(f32s(0.004, 1).iter()), 0.001);
        assert_eq!(
            change(&f32s(0.004, 15), &f32s(0.005, 40), Direction::Time),
            Change::Unsure
        );
    }

    #[test]
    fn too_few_values_are_unsure_whatever_they_say() {
        let (a, b) = (values(1.0, 0.001, MIN_VALUES - 1), values(2.0, 0.001, 9));
        let c = label(&a, &b, Direction::Time, 0.0);
        assert_eq!(c.change, Change::Unsure);
        assert!(c.comparison.is_none());
    }

    /// A tight baseline is decided with the fewest runs; a noisier one
    /// needs more; one whose sessions lie 2% apart never is.
    #[test]
    fn the_runs_needed_grow_with_the_baseline_s_spread() {
        assert_eq!(runs_needed(&values(1.0, 0.001, 30), 0.0), Some(MIN_VALUES));
        let noisy = runs_needed(&values(1.0, 0.01, 30), 0.0).unwrap();
        assert!(noisy > MIN_VALUES && noisy <= MOST_RUNS, "{noisy}");
        assert_eq!(runs_needed(&values(1.0, 0.001, 30), 0.02), None);
        assert_eq!(runs_needed(&values(1.0, 0.001, MIN_VALUES - 1), 0.0), None);
    }
}
