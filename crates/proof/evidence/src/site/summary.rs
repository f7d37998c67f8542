//! `summary.json`: the site's verdicts and figures as one JSON document,
//! for tools (the workflow, a dashboard) that would otherwise scrape HTML.
//! Its shape is documented in evidence/README.md ("The summary for tools");
//! `format` names the version of that shape, and a change of shape changes
//! it.
//!
//! - `sessions`: every recording session, oldest first.
//! - `claims`: each lesson's claims, each with its re-run command and its
//!   verdict per GPU and toolkit, overall and per session.
//! - `causes`: each lesson's causes with their rivals, and per GPU the
//!   state (holds, fails, undecided), its word ("fits" where the figures
//!   cannot tell the rival apart), the margin and the figures' intervals.
//! - `figures`: each figure a claim or a cause reads, per GPU, with each
//!   session's median, range and count, and the latest session's change.
//! - `false_alarms`: the rule's A/A false alarms on this evidence.

use serde::Serialize;

use crate::changes::{Change, FalseAlarms};
use crate::history::Direction;
use crate::site::context::Evidence;
use crate::site::error::SiteError;
use crate::site::layout::session_page;
use crate::site::repro;
use crate::verdicts::{self, Kind, Tally};

/// Where the summary is, from the site's root.
pub const SUMMARY: &str = "summary.json";

/// The shape's name and version.
pub const FORMAT: &str = "evidence-summary/2";

#[derive(Serialize)]
struct Summary {
    format: &'static str,
    sessions: Vec<SessionEntry>,
    claims: Vec<ClaimEntry>,
    causes: Vec<CauseEntry>,
    figures: Vec<FigureEntry>,
    false_alarms: FalseAlarms,
}

#[derive(Serialize)]
struct SessionEntry {
    id: String,
    gpu: String,
    driver: String,
    host: String,
    commit: String,
    toolkits: Vec<String>,
    start: String,
    end: String,
    runs: usize,
    page: String,
}

#[derive(Serialize)]
struct ClaimEntry {
    lesson: String,
    id: &'static str,
    statement: &'static str,
    rerun: String,
    verdicts: Vec<VerdictEntry>,
}

#[derive(Serialize)]
struct CauseEntry {
    lesson: &'static str,
    id: &'static str,
    cause: &'static str,
    rival: &'static str,
    rival_figure: &'static str,
    tells_rival_apart: bool,
    gpus: Vec<CauseOnGpu>,
}

#[derive(Serialize)]
struct CauseOnGpu {
    gpu: String,
    /// `holds`, `fails` or `undecided`; absent where a figure is missing.
    state: Option<lesson_spec::State>,
    /// As `evidence check` says it: `fits (rival not ruled out)` for a
    /// holding cause whose figures cannot tell its rival apart.
    word: &'static str,
    /// How far the intervals may widen, as a share, before the state
    /// changes (at most 1); absent where undecided.
    margin: Option<f64>,
    figures: Vec<CauseFigure>,
}

#[derive(Serialize)]
struct CauseFigure {
    label: &'static str,
    folder: &'static str,
    runs: &'static str,
    commit: String,
    n: usize,
    median: Option<f64>,
    /// The median's 95% interval.
    interval: Option<(f64, f64)>,
}

fn causes(ev: &Evidence) -> Vec<CauseEntry> {
    let mut out = Vec::new();
    for (lesson, _) in &ev.tables {
        let table = crate::why::table(*lesson, ev.transcripts);
        for row in table.rows {
            let gpus = row
                .gpus
                .iter()
                .map(|on| CauseOnGpu {
                    gpu: on.gpu.clone(),
                    state: on.state,
                    word: crate::why::word(row.why, on),
                    margin: on.margin,
                    figures: on
                        .figures
                        .iter()
                        .map(|f| CauseFigure {
                            label: f.source.label,
                            folder: f.source.folder,
                            runs: f.source.runs,
                            commit: f.commit.clone(),
                            n: f.values.len(),
                            median: f.median(),
                            interval: f.interval(),
                        })
                        .collect(),
                })
                .collect();
            out.push(CauseEntry {
                lesson: lesson.name(),
                id: row.why.id,
                cause: row.why.cause,
                rival: row.why.rival,
                rival_figure: row.why.rival_figure,
                tells_rival_apart: row.why.tells_rival_apart,
                gpus,
            });
        }
    }
    out
}

#[derive(Serialize)]
struct Counts {
    /// `holds`, `known failure`, `fails` or `not checked`: the worst.
    verdict: &'static str,
    /// Over a session: `holds` (every run held), `fails` (every run
    /// failed), `undecided` (they differ); absent where none applied.
    state: Option<lesson_spec::State>,
    holds: usize,
    known_failures: usize,
    fails: usize,
}

impl Counts {
    fn of(t: &Tally) -> Counts {
        Counts {
            verdict: match t.kind() {
                Kind::Holds => "holds",
                Kind::Known => "known failure",
                Kind::Fails => "fails",
                Kind::NotChecked => "not checked",
            },
            state: t.state(),
            holds: t.holds,
            known_failures: t.known,
            fails: t.fails,
        }
    }
}

#[derive(Serialize)]
struct VerdictEntry {
    gpu: String,
    toolkit: String,
    #[serde(flatten)]
    overall: Counts,
    sessions: Vec<SessionVerdict>,
}

#[derive(Serialize)]
struct SessionVerdict {
    session: String,
    #[serde(flatten)]
    counts: Counts,
}

#[derive(Serialize)]
struct FigureEntry {
    lesson: &'static str,
    folder: String,
    run: String,
    label: String,
    gpu: String,
    /// `time` (lower is faster), `rate` (higher is faster) or `neither`.
    direction: &'static str,
    sessions: Vec<FigurePoint>,
    /// Its GPU's latest session against its baseline, where it recorded
    /// the figure and an earlier session did too.
    latest_change: Option<ChangeEntry>,
}

#[derive(Serialize)]
struct FigurePoint {
    session: String,
    n: usize,
    median: f64,
    min: f64,
    max: f64,
}

#[derive(Serialize)]
struct ChangeEntry {
    /// The earlier sessions the latest is set against, oldest first.
    baseline: Vec<String>,
    latest: String,
    label: Change,
    /// (latest - baseline) / baseline, and its interval; absent when either
    /// side has too few values.
    rel: Option<f64>,
    rel_interval: Option<(f64, f64)>,
    /// The runs a session needs for this figure to be decided; absent where
    /// no number up to `MOST_RUNS` does.
    runs_needed: Option<usize>,
    differed: Vec<String>,
}

fn sessions(ev: &Evidence) -> Vec<SessionEntry> {
    ev.sessions
        .iter()
        .map(|s| SessionEntry {
            id: s.id.clone(),
            gpu: s.gpu.clone(),
            driver: s.driver.clone(),
            host: s.host.clone(),
            commit: s.commit.clone(),
            toolkits: s.toolkits.iter().cloned().collect(),
            start: s.start.clone(),
            end: s.end.clone(),
            runs: s.runs.len(),
            page: session_page(s),
        })
        .collect()
}

fn claims(ev: &Evidence) -> Vec<ClaimEntry> {
    let mut out = Vec::new();
    for ((lesson, table), per) in ev.tables.iter().zip(&ev.per_session) {
        let tallies = verdicts::tally(table, &ev.columns);
        let commands = repro::commands(*lesson, table);
        for claim in &table.claims {
            let verdicts = tallies[claim.id]
                .iter()
                .map(|(column, tally)| VerdictEntry {
                    gpu: column.gpu.clone(),
                    toolkit: column.toolkit.clone(),
                    overall: Counts::of(tally),
                    sessions: per
                        .get(&(claim.id, column.clone()))
                        .into_iter()
                        .flatten()
                        .filter(|(_, t)| t.runs() > 0)
                        .map(|(&i, t)| SessionVerdict {
                            session: ev.sessions[i].id.clone(),
                            counts: Counts::of(t),
                        })
                        .collect(),
                })
                .collect();
            out.push(ClaimEntry {
                lesson: lesson.name().to_string(),
                id: claim.id,
                statement: claim.statement,
                rerun: commands[claim.id].clone(),
                verdicts,
            });
        }
    }
    out
}

fn figures(ev: &Evidence) -> Vec<FigureEntry> {
    let latest = &ev.latest;
    ev.history
        .iter()
        .map(|series| {
            let change = latest.iter().find(|c| std::ptr::eq(c.series, series));
            FigureEntry {
                lesson: series.figure.lesson,
                folder: series.figure.folder.clone(),
                run: series.figure.run.clone(),
                label: series.figure.label.clone(),
                gpu: series.gpu.clone(),
                direction: match series.direction() {
                    Direction::Time => "time",
                    Direction::Rate => "rate",
                    Direction::Neither => "neither",
                },
                sessions: series
                    .points
                    .iter()
                    .map(|p| FigurePoint {
                        session: p.session.id.clone(),
                        n: p.values.len(),
                        median: lesson_spec::median(p.values.clone()).unwrap_or(f64::NAN),
                        min: p.values.iter().copied().fold(f64::INFINITY, f64::min),
                        max: p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    })
                    .collect(),
                latest_change: change.map(|c| ChangeEntry {
                    baseline: c.baseline.iter().map(|p| p.session.id.clone()).collect(),
                    latest: c.latest.session.id.clone(),
                    label: c.compared.change,
                    rel: c.compared.comparison.map(|k| k.rel),
                    rel_interval: c.compared.comparison.map(|k| k.rel_ci),
                    runs_needed: c.runs_needed,
                    differed: crate::sessions::differences(c.before(), c.latest.session),
                }),
            }
        })
        .collect()
}

/// The summary of the evidence, as JSON text.
pub fn json(ev: &Evidence) -> Result<String, SiteError> {
    let summary = Summary {
        format: FORMAT,
        sessions: sessions(ev),
        claims: claims(ev),
        causes: causes(ev),
        figures: figures(ev),
        false_alarms: ev.alarms,
    };
    // Compact: a year of sessions on four GPUs is megabytes of it, and
    // tools read it, not people (`jq .` prints it indented).
    let mut text = serde_json::to_string(&summary)?;
    text.push('\n');
    Ok(text)
}
