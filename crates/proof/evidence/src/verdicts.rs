//! Each claim's verdict on each GPU and toolkit, counted over the runs it
//! applies to: what the index's cells and the lesson pages' claim tables
//! say.

use std::collections::{BTreeMap, BTreeSet};

use crate::check::{Cell, Table};
use crate::transcript::{self, Transcript};

/// A column of the verdict tables: the GPU a run found and the CUDA
/// toolkit that built the program.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column {
    pub gpu: String,
    pub toolkit: String,
}

impl Column {
    pub fn of(t: &Transcript) -> Column {
        Column {
            gpu: t.header.gpu_name().to_string(),
            toolkit: transcript::toolkit(&t.header.nvcc),
        }
    }

    pub fn label(&self) -> String {
        format!("{} · {}", self.gpu, self.toolkit)
    }
}

/// How one claim came out over the runs of one column.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub holds: usize,
    /// Failures the lesson's expected-failure list explains.
    pub known: usize,
    pub fails: usize,
    /// The list's reasons for the known failures, each once.
    pub reasons: BTreeSet<String>,
    /// What each failure measured, in the order of the runs.
    pub failures: Vec<Failure>,
    /// The least margin of the runs ([`lesson_spec::Margin::least`]).
    pub least: Option<lesson_spec::Margin>,
}

/// One run's failure of a claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub file: String,
    pub why: String,
    /// Whether the lesson's expected-failure list explains it.
    pub known: bool,
}

/// The verdict's kind, for a cell's look: never shown alone, always with
/// [`Tally::words`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Holds,
    Known,
    Fails,
    NotChecked,
}

impl Kind {
    /// The kind of one run's cell: a claim that does not apply to a run
    /// was not checked on it.
    pub fn of(cell: &Cell) -> Kind {
        match cell {
            Cell::Holds(_) => Kind::Holds,
            Cell::ExpectedToFail(..) => Kind::Known,
            Cell::Fails(..) => Kind::Fails,
            Cell::NotApplicable => Kind::NotChecked,
        }
    }
}

impl Tally {
    /// Counts one run's cell (the run recorded in `file`).
    pub fn add(&mut self, file: &str, cell: &Cell) {
        let failure = |why: &str, known| Failure {
            file: file.to_string(),
            why: why.to_string(),
            known,
        };
        if let Some(m) = cell.margin() {
            self.least = Some(self.least.map_or(m, |least| least.least(m)));
        }
        match cell {
            Cell::Holds(_) => self.holds += 1,
            Cell::NotApplicable => {}
            Cell::Fails(why, _) => {
                self.fails += 1;
                self.failures.push(failure(why, false));
            }
            Cell::ExpectedToFail(why, reason, _) => {
                self.known += 1;
                self.failures.push(failure(why, true));
                // The list's reasons come with their figure blocks
                // already written out as text.
                self.reasons.insert(reason.clone());
            }
        }
    }

    /// The claim's state over these runs (a session's): holds where every
    /// run held, fails where every run failed (known or not), undecided
    /// where they differ; `None` where it applied to none.
    pub fn state(&self) -> Option<lesson_spec::State> {
        lesson_spec::State::of_runs(self.holds, self.known + self.fails)
    }

    /// A decided state's margin: the least of its runs'; none where
    /// undecided (the runs disagree, so no threshold sits outside them).
    pub fn margin(&self) -> Option<lesson_spec::Margin> {
        self.least
            .filter(|_| self.state() != Some(lesson_spec::State::Undecided))
    }

    /// The state over a session's runs with its margin, as `evidence
    /// check` and the site say it: `holds, margin 12.0%`, `fails, no margin:
    /// a count of errors`, `undecided`; empty where it applied to none.
    pub fn state_words(&self) -> String {
        match (self.state(), self.margin()) {
            (Some(state), Some(m)) => format!("{}, {}", state.word(), m.words()),
            (Some(state), None) => state.word().into(),
            (None, _) => String::new(),
        }
    }

    /// The runs the claim applies to.
    pub fn runs(&self) -> usize {
        self.holds + self.known + self.fails
    }

    /// The worst of what happened: an unexplained failure outweighs a
    /// known one, which outweighs holding.
    pub fn kind(&self) -> Kind {
        match (self.runs(), self.fails, self.known) {
            (0, _, _) => Kind::NotChecked,
            (_, 1.., _) => Kind::Fails,
            (_, _, 1..) => Kind::Known,
            _ => Kind::Holds,
        }
    }

    /// The verdict in words with its counts, the worst first: `holds
    /// 24/24`, `known failure 24/24`, `known failure 1/24, holds 23/24`,
    /// `fails 2/30, holds 28/30`, `not checked`.
    pub fn words(&self) -> String {
        let n = self.runs();
        if n == 0 {
            return "not checked".into();
        }
        let parts: Vec<String> = [
            (self.fails, "fails"),
            (self.known, "known failure"),
            (self.holds, "holds"),
        ]
        .into_iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, word)| format!("{word} {count}/{n}"))
        .collect();
        parts.join(", ")
    }
}

/// One lesson's verdicts: claim id, then column, then the tally; a claim
/// with no applicable run in a column has an empty tally there.
pub type Verdicts = BTreeMap<&'static str, BTreeMap<Column, Tally>>;

/// Counts every cell of `table` by claim and column. `columns` are every
/// column found in the evidence, so that a claim never checked in one says
/// so.
pub fn tally(table: &Table, columns: &BTreeSet<Column>) -> Verdicts {
    let mut out: Verdicts = BTreeMap::new();
    for claim in &table.claims {
        let per = out.entry(claim.id).or_default();
        for column in columns {
            per.entry(column.clone()).or_default();
        }
    }
    for row in &table.rows {
        let column = Column::of(row.transcript);
        for (id, cell) in &row.cells {
            let t = out.entry(id).or_default().entry(column.clone()).or_default();
            t.add(&row.transcript.file, cell);
        }
    }
    out
}

/// Per column, the runs of a lesson that exited non-zero, and all its runs:
/// a run that fails prints no report, so no claim judges it, and a verdict
/// over the others must not hide it.
pub fn exits(table: &Table, columns: &BTreeSet<Column>) -> BTreeMap<Column, (usize, usize)> {
    let mut out: BTreeMap<Column, (usize, usize)> = columns.iter().map(|c| (c.clone(), (0, 0))).collect();
    for row in &table.rows {
        let counts = out.entry(Column::of(row.transcript)).or_default();
        counts.0 += usize::from(row.transcript.header.exit_code != 0);
        counts.1 += 1;
    }
    out
}

/// Each claim's verdict in each session, per column: claim, column, then
/// the session's index in `sessions` and its tally.
pub type PerSession = BTreeMap<(&'static str, Column), BTreeMap<usize, Tally>>;

/// Counts `table`'s cells by claim, column and session.
pub fn per_session(table: &Table, sessions: &[crate::sessions::Session]) -> PerSession {
    let session_of: std::collections::HashMap<&str, usize> = sessions
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.runs.iter().map(move |t| (t.file.as_str(), i)))
        .collect();
    let mut out = PerSession::new();
    for row in &table.rows {
        let Some(&index) = session_of.get(row.transcript.file.as_str()) else {
            continue;
        };
        for (id, cell) in &row.cells {
            out.entry((id, Column::of(row.transcript)))
                .or_default()
                .entry(index)
                .or_default()
                .add(&row.transcript.file, cell);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_is_words_with_counts_worst_first() {
        let t = |holds, known, fails| Tally {
            holds,
            known,
            fails,
            ..Tally::default()
        };
        assert_eq!(t(24, 0, 0).words(), "holds 24/24");
        assert_eq!(t(0, 24, 0).words(), "known failure 24/24");
        assert_eq!(t(23, 1, 0).words(), "known failure 1/24, holds 23/24");
        assert_eq!(t(28, 0, 2).words(), "fails 2/30, holds 28/30");
        assert_eq!(t(0, 0, 0).words(), "not checked");
        assert_eq!(t(23, 1, 0).kind(), Kind::Known);
        assert_eq!(t(28, 1, 1).kind(), Kind::Fails);
        assert_eq!(t(0, 0, 0).kind(), Kind::NotChecked);
    }
}
