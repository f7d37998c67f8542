//! What changed between a GPU's latest session and the one before it:
//! each figure a claim or a cause reads labelled SAME, FASTER, SLOWER (or,
//! for a figure that is neither a time nor a rate, HIGHER or LOWER) or
//! UNSURE, and each claim whose verdict flipped; beside each, what differed
//! between the two sessions' headers.
//!
//! The label is robust-stats' rule, the one the instrument compares two
//! runs of a kernel with: each session's values (one per run, each run its
//! own process) give a median and its distribution-free 95% interval, and
//! the difference's interval against a band of +-1% of the earlier median
//! decides ([`robust_stats::compare`]). A session with fewer than
//! [`MIN_VALUES`] values of a figure gives UNSURE: up to ten values, the
//! interval of the median is their whole range, which holds the median
//! with probability 1 - 2/2^n; with five, 93.75%, so two sessions'
//! intervals hold together only 87.5% of the time, short of the 90% the
//! rule reads them as; with six, 93.75%.
//! Medians one printed step apart are UNSURE as well ([`label`]): a
//! figure printed to three decimals that reads 0.004 ms in one session and
//! 0.005 in the next may be one time rounded two ways.
//!
//! "Latest and previous" is per figure: the GPU's two latest sessions that
//! recorded it, as a session may record only some lessons.
//!
//! How often the rule calls identical code faster or slower is measured,
//! not assumed ([`false_alarms`]): on every pair of sessions of one machine
//! and one commit (A/A), and on each session's runs split in two, the
//! 1st, 3rd, 5th ... run against the 2nd, 4th, 6th ... (the same commit on
//! the same machine, in the same hour).
//!
//! Not for: grouping runs into sessions ([`crate::sessions`]) or reading
//! figures ([`crate::history`]).

use std::collections::{BTreeMap, HashMap};

use robust_stats::compare::{compare, Comparison, Label, Median, DEFAULT_BAND};
use robust_stats::stats::summarize;
use serde::Serialize;

use crate::check::Table;
use crate::history::{Direction, Point, Series};
use crate::sessions::Session;
use crate::verdicts::{Column, Kind, Tally};

/// The fewest values a session needs of a figure for a label other than
/// UNSURE.
pub const MIN_VALUES: usize = 6;

/// A figure's change from one session to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
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
    pub fn name(self) -> &'static str {
        match self {
            Change::Same => "SAME",
            Change::Faster => "FASTER",
            Change::Slower => "SLOWER",
            Change::Higher => "HIGHER",
            Change::Lower => "LOWER",
            Change::Unsure => "UNSURE",
        }
    }

    /// Whether it says the figure moved beyond its noise.
    pub fn moved(self) -> bool {
        !matches!(self, Change::Same | Change::Unsure)
    }

    /// robust-stats' label (which reads its numbers as times: SLOWER is
    /// larger) said of a figure pointing `direction`.
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

/// Two sets of values labelled: the change, and robust-stats' comparison
/// behind it (none where either set has fewer than [`MIN_VALUES`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Compared {
    pub change: Change,
    pub comparison: Option<Comparison>,
}

/// The median and its 95% interval of `values`.
fn median_of(values: &[f64]) -> Option<Median> {
    let s = summarize(values)?;
    Some(Median {
        ms: s.median,
        ci: s.median_ci,
    })
}

/// `after` against `before`, as a figure pointing `direction`.
pub fn label(before: &[f64], after: &[f64], direction: Direction) -> Compared {
    if before.len() < MIN_VALUES || after.len() < MIN_VALUES {
        return Compared {
            change: Change::Unsure,
            comparison: None,
        };
    }
    let (Some(a), Some(b)) = (median_of(before), median_of(after)) else {
        return Compared {
            change: Change::Unsure,
            comparison: None,
        };
    };
    let comparison = compare(a, b, DEFAULT_BAND);
    // A program prints its figures to a fixed number of decimals: medians
    // one printed step apart (0.004 and 0.005 ms) may be the same time
    // rounded either way, so such a move is no change, whatever the
    // intervals say.
    let step = printed_step(before.iter().chain(after));
    let change = match Change::of(comparison.label, direction) {
        moved if moved.moved() && (b.ms - a.ms).abs() <= step * (1.0 + 1e-9) => Change::Unsure,
        change => change,
    };
    Compared {
        change,
        comparison: Some(comparison),
    }
}

/// The smallest step the values were printed in: one unit of the last
/// decimal the most precise of them shows (`0.004` and `0.0125` give
/// 0.0001). A figure is read from text, so its shortest form is how it
/// was printed; a lesson's report holds its times as `f32`, as the `.cu`
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

/// What differed between two sessions' headers, in words: `commit d21747b
/// to 3819bed`, `driver ...`, `toolkit ...`, `host ...`. Empty when the
/// headers agree.
pub fn differences(before: &Session, after: &Session) -> Vec<String> {
    let mut out = Vec::new();
    if before.short_commit() != after.short_commit() {
        out.push(format!(
            "commit {} to {}",
            before.short_commit(),
            after.short_commit()
        ));
    }
    if before.driver != after.driver {
        out.push(format!("driver {} to {}", before.driver, after.driver));
    }
    if before.toolkits != after.toolkits {
        out.push(format!(
            "toolkit {} to {}",
            before.toolkit_list(),
            after.toolkit_list()
        ));
    }
    if before.host != after.host {
        out.push(format!("host {} to {}", before.host, after.host));
    }
    out
}

/// One figure's latest session against its previous one.
#[derive(Debug, Clone)]
pub struct FigureChange<'h, 's, 'a> {
    pub series: &'h Series<'s, 'a>,
    pub before: &'h Point<'s, 'a>,
    pub after: &'h Point<'s, 'a>,
    pub compared: Compared,
}

/// Every figure recorded in at least two sessions of its GPU: its latest
/// session against the one before.
pub fn latest<'h, 's, 'a>(history: &'h [Series<'s, 'a>]) -> Vec<FigureChange<'h, 's, 'a>> {
    history
        .iter()
        .filter_map(|series| {
            let [.., before, after] = series.points.as_slice() else {
                return None;
            };
            Some(FigureChange {
                series,
                before,
                after,
                compared: label(&before.values, &after.values, series.direction()),
            })
        })
        .collect()
}

/// How often the rule says "moved" of identical code (A/A), counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Alarms {
    /// Figures compared with enough values on both sides.
    pub compared: usize,
    /// Of those, labelled FASTER, SLOWER, HIGHER or LOWER.
    pub alarms: usize,
    /// Of those, labelled UNSURE.
    pub unsure: usize,
}

impl Alarms {
    fn count(&mut self, c: Compared) {
        if c.comparison.is_none() {
            return;
        }
        self.compared += 1;
        self.alarms += usize::from(c.change.moved());
        self.unsure += usize::from(c.change == Change::Unsure);
    }

    /// alarms / compared, or `None` when nothing was compared.
    pub fn rate(&self) -> Option<f64> {
        (self.compared > 0).then(|| self.alarms as f64 / self.compared as f64)
    }

    /// `3 of 120 (2.5%)`, or `none compared`.
    pub fn words(&self) -> String {
        match self.rate() {
            Some(r) => format!("{} of {} ({:.1}%)", self.alarms, self.compared, r * 100.0),
            None => "none compared".into(),
        }
    }
}

/// The false alarms measured on A/A comparisons of the evidence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FalseAlarms {
    /// Pairs of consecutive sessions of one machine and one commit.
    pub same_commit_pairs: usize,
    /// Their figures, compared.
    pub same_commit: Alarms,
    /// Each session's figures with at least twice [`MIN_VALUES`] values,
    /// odd runs against even ones.
    pub split_half: Alarms,
}

/// Whether two sessions ran one commit on one machine.
fn same_commit_and_machine(a: &Session, b: &Session) -> bool {
    a.short_commit() == b.short_commit() && a.gpu == b.gpu && a.driver == b.driver && a.host == b.host
}

/// Counts the rule's false alarms on every A/A comparison `history` holds.
pub fn false_alarms(history: &[Series]) -> FalseAlarms {
    let mut out = FalseAlarms::default();
    let mut pairs = std::collections::BTreeSet::new();
    for series in history {
        let direction = series.direction();
        for pair in series.points.windows(2) {
            if same_commit_and_machine(pair[0].session, pair[1].session) {
                pairs.insert((pair[0].session.id.clone(), pair[1].session.id.clone()));
                out.same_commit
                    .count(label(&pair[0].values, &pair[1].values, direction));
            }
        }
        for point in &series.points {
            if point.values.len() >= 2 * MIN_VALUES {
                let half = |parity: usize| -> Vec<f64> {
                    point.values.iter().skip(parity).step_by(2).copied().collect()
                };
                out.split_half.count(label(&half(0), &half(1), direction));
            }
        }
    }
    out.same_commit_pairs = pairs.len();
    out
}

/// A claim whose verdict on a GPU and toolkit differs between the latest
/// session that checked it there and the one before.
#[derive(Debug, Clone)]
pub struct Flip<'s, 'a> {
    pub lesson: String,
    pub claim: &'static str,
    pub column: Column,
    pub before: (&'s Session<'a>, Tally),
    pub after: (&'s Session<'a>, Tally),
}

/// Each claim's verdict in each session, per column: claim, column, then
/// the session's index in `sessions` and its tally.
pub type PerSession = BTreeMap<(&'static str, Column), BTreeMap<usize, Tally>>;

/// Counts `table`'s cells by claim, column and session.
pub fn per_session(table: &Table, sessions: &[Session]) -> PerSession {
    let session_of: HashMap<&str, usize> = sessions
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.runs.iter().map(move |t| (t.file.as_str(), i)))
        .collect();
    let mut out = PerSession::new();
    for row in &table.rows {
        let Some(&index) = session_of.get(row.transcript.file.as_str()) else {
            continue;
        };
        let column = Column::of(row.transcript);
        for (id, cell) in &row.cells {
            out.entry((id, column.clone()))
                .or_default()
                .entry(index)
                .or_default()
                .add(&row.transcript.file, cell);
        }
    }
    out
}

/// The claims of `lesson` whose verdict flipped between the last two
/// sessions that checked them, per column, from its verdicts by session
/// ([`per_session`] over `sessions`).
pub fn flips<'s, 'a>(lesson: &str, per: &PerSession, sessions: &'s [Session<'a>]) -> Vec<Flip<'s, 'a>> {
    let mut out = Vec::new();
    for ((claim, column), by_session) in per {
        let checked: Vec<(&usize, &Tally)> = by_session.iter().filter(|(_, t)| t.runs() > 0).collect();
        let [.., (b, before), (a, after)] = checked.as_slice() else {
            continue;
        };
        if before.kind() != after.kind() && before.kind() != Kind::NotChecked {
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

/// What changed, as `evidence changes` prints it: per GPU, its last two
/// sessions, the flips, the figures that moved (the largest first) and a
/// count of the rest; then the false alarms.
pub fn render(sessions: &[Session], history: &[Series], flips: &[Flip]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let changes = latest(history);
    for (gpu, on_gpu) in crate::sessions::by_gpu(sessions) {
        let _ = writeln!(out, "{gpu}: {} session(s)", on_gpu.len());
        if let [.., before, after] = on_gpu.as_slice() {
            let differed = differences(before, after);
            let _ = writeln!(
                out,
                "  latest {} against {}: {}",
                after.id,
                before.id,
                if differed.is_empty() {
                    "the same headers".to_string()
                } else {
                    differed.join("; ")
                }
            );
        }
        for f in flips.iter().filter(|f| f.column.gpu == gpu) {
            let _ = writeln!(
                out,
                "  flipped  {} {} ({}): {} in {} to {} in {}",
                f.lesson,
                f.claim,
                f.column.toolkit,
                f.before.1.words(),
                f.before.0.id,
                f.after.1.words(),
                f.after.0.id
            );
        }
        let mine: Vec<&FigureChange> = changes.iter().filter(|c| c.series.gpu == gpu).collect();
        let mut moved: Vec<&&FigureChange> = mine.iter().filter(|c| c.compared.change.moved()).collect();
        let rel = |c: &FigureChange| c.compared.comparison.map_or(0.0, |k| k.rel.abs());
        moved.sort_by(|a, b| rel(b).total_cmp(&rel(a)));
        for c in &moved {
            let f = &c.series.figure;
            let Some(k) = c.compared.comparison else { continue };
            let _ = writeln!(
                out,
                "  {:<7} {}/{} {}: {:+.1}% ({:+.1}% to {:+.1}%), {} to {}",
                c.compared.change.name(),
                f.folder,
                f.run,
                f.label,
                k.rel * 100.0,
                k.rel_ci.0 * 100.0,
                k.rel_ci.1 * 100.0,
                c.before.session.id,
                c.after.session.id
            );
        }
        let mut counts: BTreeMap<Change, usize> = BTreeMap::new();
        for c in &mine {
            *counts.entry(c.compared.change).or_default() += 1;
        }
        let counted: Vec<String> = counts.iter().map(|(c, n)| format!("{n} {}", c.name())).collect();
        let _ = writeln!(
            out,
            "  {} figure(s) in two sessions: {}",
            mine.len(),
            counted.join(", ")
        );
    }
    let alarms = false_alarms(history);
    let _ = writeln!(
        out,
        "false alarms (A/A): {} pair(s) of sessions of one commit on one machine, their figures called moved: {}; \
         each session's runs split odd/even, called moved: {} ({} UNSURE)",
        alarms.same_commit_pairs,
        alarms.same_commit.words(),
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

    #[test]
    fn a_time_that_grows_is_slower_and_a_rate_that_grows_is_faster() {
        let (a, b) = (values(1.0, 0.002, 9), values(1.05, 0.002, 9));
        assert_eq!(label(&a, &b, Direction::Time).change, Change::Slower);
        assert_eq!(label(&b, &a, Direction::Time).change, Change::Faster);
        assert_eq!(label(&a, &b, Direction::Rate).change, Change::Faster);
        assert_eq!(label(&b, &a, Direction::Rate).change, Change::Slower);
        assert_eq!(label(&a, &b, Direction::Neither).change, Change::Higher);
        assert_eq!(label(&b, &a, Direction::Neither).change, Change::Lower);
    }

    #[test]
    fn the_same_values_are_the_same_and_overlapping_noise_is_unsure() {
        let a = values(1.0, 0.002, 9);
        assert_eq!(label(&a, &a, Direction::Time).change, Change::Same);
        let (wide_a, wide_b) = (values(1.0, 0.2, 9), values(1.03, 0.2, 9));
        assert_eq!(label(&wide_a, &wide_b, Direction::Time).change, Change::Unsure);
    }

    /// The H200's `sweep n=65536 kernel, ms`, printed to three decimals,
    /// read 0.004 in one session and 0.005 in the next: one printed step,
    /// which rounding alone can make, is no change however tight the
    /// intervals.
    #[test]
    fn medians_one_printed_step_apart_are_unsure() {
        let (a, b) = (vec![0.004; 15], vec![0.005; 40]);
        assert_eq!(label(&a, &b, Direction::Time).change, Change::Unsure);
        // Two steps apart is a change.
        let c = vec![0.006; 40];
        assert_eq!(label(&a, &c, Direction::Time).change, Change::Slower);
        assert_eq!(printed_step([0.004, 0.0125, 3.0].iter()), 0.0001);
        assert_eq!(printed_step([1.0, 63665.0].iter()), 1.0);
        // As the reports hold them: f32 times widened to f64.
        let f32s = |x: f32, n| vec![f64::from(x); n];
        assert_eq!(printed_step(f32s(0.004, 1).iter()), 0.001);
        assert_eq!(
            label(&f32s(0.004, 15), &f32s(0.005, 40), Direction::Time).change,
            Change::Unsure
        );
    }

    #[test]
    fn too_few_values_are_unsure_whatever_they_say() {
        let (a, b) = (values(1.0, 0.001, MIN_VALUES - 1), values(2.0, 0.001, 9));
        let c = label(&a, &b, Direction::Time);
        assert_eq!(c.change, Change::Unsure);
        assert!(c.comparison.is_none());
    }
}
