//! `evidence check`: every transcript read as a record ([`load`]),
//! then every claim against every run, as a table, and per recording
//! session with its margin; a claim or cause that holds in one session and
//! fails in another of the same commit is a problem ([`flips_at_one_commit`]).
//! [`run`] is what the command and CI's test both call.

use std::fmt::Write;
use std::path::Path;

use lesson_spec::{ClaimInfo, ExpectedFailures, Lesson, Margin, Outcome};

use crate::load::{self, LoadError};
use crate::problem::Problem;
use crate::transcript::Transcript;
use crate::verdicts::Tally;
use crate::{judge, why};

/// What the check found: each lesson's table as text, each lesson's causes
/// as measured ([`crate::why`]), and every problem,
/// one line each (a file that is no record, a copy,
/// a bad expected-failure list, a claim that fails unexpected).
pub struct Checked {
    pub tables: Vec<String>,
    /// Each lesson's "why, as measured" table, as text.
    pub whys: Vec<String>,
    /// The closing note: claims and causes by state, their margins, and
    /// the flips at one commit.
    pub closing: String,
    pub problems: Vec<Problem>,
}

/// The whole check of the evidence under `dir`: all of it, whatever fails.
pub fn run(dir: &Path) -> Result<Checked, LoadError> {
    let loaded = load::load(dir)?;
    let mut problems = loaded.problems;
    let mut tables = Vec::new();
    let sessions = crate::sessions::of(&loaded.transcripts);
    let (mut claims, mut causes, mut flips) = (States::default(), States::default(), 0);
    for (lesson, t) in lessons::LESSONS
        .iter()
        .zip(every_lesson(&loaded.transcripts, &mut problems))
    {
        if t.rows.is_empty() {
            continue;
        }
        tables.push(render(&t) + &by_session(&t, &sessions));
        problems.extend(t.unexpected_failures());
        let expected = judge::expected(*lesson).unwrap_or_default();
        let found = [
            flips_at_one_commit(&t, &sessions, &expected),
            why::flips_at_one_commit(lesson.name(), lesson.whys(), &sessions, &expected),
        ]
        .concat();
        flips += found.len();
        problems.extend(found);
        for by in crate::verdicts::per_session(&t, &sessions).values() {
            if let Some(latest) = by.values().rfind(|t| t.state().is_some()) {
                claims.add(latest.state(), latest.margin());
            }
        }
    }
    // A cause that fails on a GPU is a finding, and a folder of one
    // session's runs may hold no cause's figures at all: neither is a
    // problem of the evidence (the repository's own evidence is held to
    // judging every cause by a test, `every_cause_is_judged`).
    let whys = lessons::LESSONS.iter().map(|lesson| {
        let table = why::table(*lesson, &loaded.transcripts);
        for on in table.rows.iter().flat_map(|r| &r.gpus) {
            causes.add(on.state, on.margin.map(Margin::Share));
        }
        why::render(&table)
    });
    let whys = whys.collect();
    let closing = format!(
        "claims, each in its latest session per GPU and toolkit: {}\ncauses, per GPU: {}\n\
         claims and causes that hold in one session and fail in another of the same commit: {flips}\n",
        claims.words(),
        causes.words()
    );
    Ok(Checked {
        tables,
        whys,
        closing,
        problems,
    })
}

/// Claims' or causes' states counted, with their margins.
#[derive(Default)]
struct States {
    count: std::collections::BTreeMap<lesson_spec::State, usize>,
    margins: Vec<Margin>,
}

impl States {
    fn add(&mut self, state: Option<lesson_spec::State>, margin: Option<Margin>) {
        if let Some(state) = state {
            *self.count.entry(state).or_default() += 1;
            self.margins.extend(margin);
        }
    }

    /// `40 holds, 12 fails, 9 undecided; margins 0.0% to 100.0%, 6 with no
    /// margin (a yes/no claim)`.
    fn words(&self) -> String {
        use lesson_spec::State;
        let n = |s| self.count.get(&s).copied().unwrap_or(0);
        let none = self
            .margins
            .iter()
            .filter(|m| matches!(m, Margin::None(_)))
            .count();
        format!(
            "{} holds, {} fails, {} undecided{}{}",
            n(State::Holds),
            n(State::Fails),
            n(State::Undecided),
            share_range(&self.margins),
            match none {
                0 => String::new(),
                n => format!(", {n} with no margin (a yes/no claim)"),
            }
        )
    }
}

/// `; margins 0.4% to 12.0%`, the least and largest share of `margins`;
/// empty where none is a share.
fn share_range(margins: &[Margin]) -> String {
    let shares = margins.iter().filter_map(|m| match m {
        Margin::Share(s) => Some(*s),
        Margin::None(_) => None,
    });
    match shares.fold(None, |r: Option<(f64, f64)>, s| {
        Some(r.map_or((s, s), |(lo, hi)| (lo.min(s), hi.max(s))))
    }) {
        Some((lo, hi)) => format!("; margins {:.1}% to {:.1}%", lo * 100.0, hi * 100.0),
        None => String::new(),
    }
}

/// Every lesson's table over `transcripts`, in the registry's order; a
/// lesson whose expected-failure list does not parse is judged with an
/// empty list (every failure unexpected), and each bad line of the list is
/// added to `problems`.
pub fn every_lesson<'a>(transcripts: &'a [Transcript], problems: &mut Vec<Problem>) -> Vec<Table<'a>> {
    lessons::LESSONS
        .iter()
        .map(|lesson| {
            let expected = judge::expected(*lesson).unwrap_or_else(|errors| {
                problems.extend(errors);
                Default::default()
            });
            table(*lesson, transcripts, &expected)
        })
        .collect()
}

/// One transcript's results, claim by claim.
pub struct Row<'a> {
    pub transcript: &'a Transcript,
    pub cells: Vec<(&'static str, Cell)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Holds(Margin),
    Fails(String, Margin),
    /// What happened, the expected-failure list's reason, and the margin.
    ExpectedToFail(String, String, Margin),
    NotApplicable,
}

impl Cell {
    /// The margin, where it holds or fails.
    pub fn margin(&self) -> Option<Margin> {
        match self {
            Cell::Holds(m) | Cell::Fails(_, m) | Cell::ExpectedToFail(_, _, m) => Some(*m),
            Cell::NotApplicable => None,
        }
    }

    /// The verdict in a word or two, as pages say it.
    pub fn word(&self) -> &'static str {
        match self {
            Cell::Holds(_) => "holds",
            Cell::Fails(..) => "fails",
            Cell::ExpectedToFail(..) => "known failure",
            Cell::NotApplicable => "not applicable",
        }
    }
}

/// The table and whether anything failed that was not expected to.
pub struct Table<'a> {
    pub lesson: String,
    pub claims: Vec<ClaimInfo>,
    pub rows: Vec<Row<'a>>,
}

impl Table<'_> {
    pub fn unexpected_failures(&self) -> Vec<Problem> {
        let failures = self.rows.iter().flat_map(|row| {
            row.cells.iter().filter_map(|(id, cell)| match cell {
                Cell::Fails(why, _) => Some(Problem::of_file(
                    &row.transcript.file,
                    format!("{id} fails: {why}"),
                )),
                _ => None,
            })
        });
        failures.collect()
    }
}

/// Evaluates the claims of `lesson` over its transcripts.
pub fn table<'a>(
    lesson: &dyn Lesson,
    transcripts: &'a [Transcript],
    expected: &ExpectedFailures,
) -> Table<'a> {
    let claims = judge::all(lesson);
    let peers = judge::Peers::of(transcripts);
    let rows = transcripts
        .iter()
        .filter(|t| t.header.lesson == lesson.name())
        .map(|t| {
            let peers = peers.of_run(t);
            let cells = claims
                .iter()
                .map(|c| {
                    let cell = match judge::check_among(lesson, c.id, t, peers) {
                        Outcome::Holds(m) => Cell::Holds(m),
                        Outcome::NotApplicable => Cell::NotApplicable,
                        Outcome::Fails(why, m) => {
                            match expected.reason(c.id, t.header.gpu_name(), &t.header.commit) {
                                Some(reason) => Cell::ExpectedToFail(why, reason.to_string(), m),
                                None => Cell::Fails(why, m),
                            }
                        }
                    };
                    (c.id, cell)
                })
                .collect();
            Row { transcript: t, cells }
        })
        .collect();
    Table {
        lesson: lesson.name().to_string(),
        claims,
        rows,
    }
}

/// The table as text: a legend of claims, one line per transcript, then
/// what failed and why, each part a function of its own below.
pub fn render(table: &Table) -> String {
    legend(table) + &grid(table) + &failure_notes(table) + &failed_runs(table)
}

/// `C1`, `C2`, ...: the claims the grid's columns stand for.
fn legend(table: &Table) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: claims", table.lesson);
    for (i, c) in table.claims.iter().enumerate() {
        let _ = writeln!(out, "  C{:<2} {:<32} {}", i + 1, c.id, c.statement);
    }
    out
}

/// One line per transcript: its name, its exit status and a mark per claim.
fn grid(table: &Table) -> String {
    let mut out = String::new();
    let name_width = table
        .rows
        .iter()
        .map(|r| short_name(&r.transcript.file).len())
        .max()
        .unwrap_or(10);
    let _ = write!(out, "\n{:<name_width$}  exit", "transcript");
    for i in 0..table.claims.len() {
        let _ = write!(out, " {:>5}", format!("C{}", i + 1));
    }
    out.push('\n');
    for row in &table.rows {
        let _ = write!(
            out,
            "{:<name_width$}  {:>4}",
            short_name(&row.transcript.file),
            row.transcript.header.exit_code
        );
        for (_, cell) in &row.cells {
            let mark = match cell {
                Cell::Holds(_) => "ok",
                Cell::Fails(..) => "FAIL",
                Cell::ExpectedToFail(..) => "xfail",
                Cell::NotApplicable => "-",
            };
            let _ = write!(out, " {mark:>5}");
        }
        out.push('\n');
    }
    out
}

/// Each failing cell with what happened, then each expected failure's
/// reason once, as the lesson's list gives it.
fn failure_notes(table: &Table) -> String {
    let mut out = String::new();
    let mut notes: Vec<String> = Vec::new();
    let mut reasons: Vec<(&str, &str)> = Vec::new();
    for row in &table.rows {
        for (id, cell) in &row.cells {
            match cell {
                Cell::Fails(why, _) => {
                    notes.push(format!("FAIL  {} {id}: {why}", short_name(&row.transcript.file)))
                }
                Cell::ExpectedToFail(why, reason, _) => {
                    notes.push(format!("xfail {} {id}: {why}", short_name(&row.transcript.file)));
                    if !reasons.contains(&(id, reason.as_str())) {
                        reasons.push((id, reason.as_str()));
                    }
                }
                _ => {}
            }
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        for n in notes {
            let _ = writeln!(out, "{n}");
        }
    }
    if !reasons.is_empty() {
        let _ = writeln!(
            out,
            "\nwhy the expected failures are expected (code/{}/tools/expected-failures.txt):",
            table.lesson
        );
        // ExpectedFailures keeps a reason's figure blocks as their text.
        for (id, reason) in reasons {
            let _ = writeln!(out, "  {id}: {reason}");
        }
    }
    out
}

/// Each claim's state per recording session, on each GPU and toolkit: the
/// latest session's, and how many sessions read holds, fails and
/// undecided ([`crate::verdicts::Tally::state`]). A claim reads one run, so
/// a session decides it only where its runs agree.
pub fn by_session(table: &Table, sessions: &[crate::sessions::Session]) -> String {
    use lesson_spec::State;
    let per = crate::verdicts::per_session(table, sessions);
    let mut out = format!(
        "\n{}: claims per recording session (holds: every run held; fails: every run failed; undecided: they differ)\n",
        table.lesson
    );
    for ((claim, column), by) in &per {
        let states: Vec<(usize, State, usize)> = by
            .iter()
            .filter_map(|(i, t)| Some((*i, t.state()?, t.runs())))
            .collect();
        let Some((latest, _, runs)) = states.last() else {
            continue;
        };
        let count = |s: State| states.iter().filter(|(_, x, _)| *x == s).count();
        let range = share_range(&by.values().filter_map(Tally::margin).collect::<Vec<_>>());
        let _ = writeln!(
            out,
            "  {claim:<36} {}: latest {} {} ({runs} runs); sessions: {} holds, {} fails, {} undecided{range}",
            column.label(),
            sessions[*latest].id,
            by[latest].state_words(),
            count(State::Holds),
            count(State::Fails),
            count(State::Undecided)
        );
    }
    out
}

/// Each claim of `table` that holds in one recording session and fails in
/// another of the same commit, on one GPU and toolkit, unless the lesson's
/// expected-failure list names it for that GPU: the same code gave both
/// verdicts, so the claim's threshold sits inside the noise. A commit is
/// the one the headers write (evidence/README.md, "Known header errors":
/// 44 runs of dc9fb94 say ddfdc77, so their sessions count as ddfdc77's).
pub fn flips_at_one_commit(
    table: &Table,
    sessions: &[crate::sessions::Session],
    expected: &ExpectedFailures,
) -> Vec<Problem> {
    use lesson_spec::State;
    let mut out = Vec::new();
    for ((claim, column), by) in crate::verdicts::per_session(table, sessions) {
        let of = |state| by.iter().filter(move |(_, t)| t.state() == Some(state));
        let listed = |i: &usize| {
            expected
                .reason(claim, &column.gpu, &sessions[*i].commit)
                .is_some()
        };
        let flip = of(State::Holds)
            .filter(|(h, _)| !listed(h))
            .find_map(|(h, held)| {
                let commit = sessions[*h].short_commit();
                let (f, failed) = of(State::Fails).find(|(f, _)| sessions[**f].short_commit() == commit)?;
                Some((&sessions[*h], held, &sessions[*f], failed))
            });
        if let Some((h, held, f, failed)) = flip {
            let words = |t: &Tally| t.margin().map_or(String::new(), Margin::words);
            out.push(Problem::of_file(
                format!("code/{}/tools/src/claims.rs", table.lesson),
                format!(
                    "{claim} ({}) holds in session {} ({}) and fails in session {} ({}) of the same commit \
                     {}: its threshold sits inside the noise (restate the claim, or list it in \
                     expected-failures.txt)",
                    column.label(),
                    h.id,
                    words(held),
                    f.id,
                    words(failed),
                    h.short_commit()
                ),
            ));
        }
    }
    out
}

/// A line counting the runs that exited non-zero, which no claim judges.
fn failed_runs(table: &Table) -> String {
    let failed = table
        .rows
        .iter()
        .filter(|r| r.transcript.header.exit_code != 0)
        .count();
    match failed {
        0 => String::new(),
        n => format!("\n{n} recorded run(s) failed (non-zero exit); no claim applies to them.\n"),
    }
}

fn short_name(file: &str) -> &str {
    file.rsplit('/').next().unwrap_or(file).trim_end_matches(".txt")
}
