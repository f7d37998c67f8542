//! `summary.json`: the site's verdicts and figures as one JSON document,
//! for tools (the workflow, a dashboard) that would otherwise scrape HTML.
//! Its shape, field by field, is documented in evidence/README.md ("The
//! summary for tools"); `format` names the version of that shape, and a
//! change of shape changes it.

use lesson_spec::Margin;
use serde_json::{json, Value};

use crate::changes::FalseAlarms;
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

fn causes(ev: &Evidence) -> Vec<Value> {
    let mut out = Vec::new();
    for (lesson, _) in &ev.tables {
        for row in crate::why::table(*lesson, ev.transcripts).rows {
            let gpus: Vec<Value> = row
                .gpus
                .iter()
                .map(|on| {
                    let figures: Vec<Value> = on
                        .figures
                        .iter()
                        .map(|f| {
                            let (source, n) = (f.source, f.values.len());
                            json!({"label": source.label, "folder": source.folder, "runs": source.runs,
                                "commit": f.commit, "n": n, "median": f.median(), "interval": f.interval()})
                        })
                        .collect();
                    json!({"gpu": on.gpu, "state": on.state, "word": crate::why::word(row.why, on),
                        "margin": on.margin, "figures": figures})
                })
                .collect();
            let why = row.why;
            out.push(
                json!({"lesson": lesson.name(), "id": why.id, "cause": why.cause, "rival": why.rival,
                "rival_figure": why.rival_figure, "tells_rival_apart": why.tells_rival_apart, "gpus": gpus}),
            );
        }
    }
    out
}

/// A tally's verdict (the worst of its runs), its state over a session
/// (absent where none applied) with its margin, and its counts.
fn counts(t: &Tally, mut into: Value) -> Value {
    let verdict = match t.kind() {
        Kind::Holds => "holds",
        Kind::Known => "known failure",
        Kind::Fails => "fails",
        Kind::NotChecked => "not checked",
    };
    let (margin, no_margin) = match t.margin() {
        Some(Margin::Share(m)) => (Some(m), None),
        Some(Margin::None(why)) => (None, Some(why)),
        None => (None, None),
    };
    let counts = json!({"verdict": verdict, "state": t.state(), "margin": margin, "no_margin": no_margin,
        "holds": t.holds, "known_failures": t.known, "fails": t.fails});
    if let (Value::Object(into), Value::Object(counts)) = (&mut into, counts) {
        into.extend(counts);
    }
    into
}

fn sessions(ev: &Evidence) -> Vec<Value> {
    let entry = |s: &crate::sessions::Session| {
        json!({"id": s.id, "gpu": s.gpu, "driver": s.driver, "host": s.host, "commit": s.commit,
            "toolkits": s.toolkits, "start": s.start, "end": s.end, "runs": s.runs.len(), "page": session_page(s)})
    };
    ev.sessions.iter().map(entry).collect()
}

fn claims(ev: &Evidence) -> Vec<Value> {
    let mut out = Vec::new();
    for ((lesson, table), per) in ev.tables.iter().zip(&ev.per_session) {
        let tallies = verdicts::tally(table, &ev.columns);
        let commands = repro::commands(*lesson, table);
        for claim in &table.claims {
            let verdicts: Vec<Value> = tallies[claim.id]
                .iter()
                .map(|(column, tally)| {
                    let by_session = per.get(&(claim.id, column.clone())).into_iter().flatten();
                    let sessions: Vec<Value> = by_session
                        .filter(|(_, t)| t.runs() > 0)
                        .map(|(&i, t)| counts(t, json!({"session": ev.sessions[i].id})))
                        .collect();
                    let entry = json!({"gpu": column.gpu, "toolkit": column.toolkit, "sessions": sessions});
                    counts(tally, entry)
                })
                .collect();
            out.push(
                json!({"lesson": lesson.name(), "id": claim.id, "statement": claim.statement,
                "rerun": commands[claim.id], "verdicts": verdicts}),
            );
        }
    }
    out
}

fn figures(ev: &Evidence) -> Vec<Value> {
    let figure = |series: &crate::history::Series| {
        let points: Vec<Value> = series
            .points
            .iter()
            .map(|p| {
                let (min, max) = (
                    p.values.iter().copied().reduce(f64::min),
                    p.values.iter().copied().reduce(f64::max),
                );
                json!({"session": p.session.id, "n": p.values.len(),
                    "median": lesson_spec::median(p.values.clone()), "min": min, "max": max})
            })
            .collect();
        let change = ev
            .latest
            .iter()
            .find(|c| std::ptr::eq(c.series, series))
            .map(|c| {
                let k = c.compared.comparison;
                json!({"baseline": c.baseline.iter().map(|p| &p.session.id).collect::<Vec<_>>(),
                "latest": c.latest.session.id, "label": c.compared.change, "rel": k.map(|k| k.rel),
                "rel_interval": k.map(|k| k.rel_ci), "runs_needed": c.runs_needed,
                "differed": crate::sessions::differences(c.before(), c.latest.session)})
            });
        let direction = match series.direction() {
            Direction::Time => "time",
            Direction::Rate => "rate",
            Direction::Neither => "neither",
        };
        let f = &series.figure;
        json!({"lesson": f.lesson, "folder": f.folder, "run": f.run, "label": f.label, "gpu": series.gpu,
            "direction": direction, "sessions": points, "latest_change": change})
    };
    ev.history.iter().map(figure).collect()
}

/// The summary of the evidence, as JSON text.
pub fn json(ev: &Evidence) -> Result<String, SiteError> {
    let alarms: &FalseAlarms = &ev.alarms;
    let summary = json!({"format": FORMAT, "sessions": sessions(ev), "claims": claims(ev), "causes": causes(ev),
        "figures": figures(ev), "false_alarms": alarms});
    // Compact: a year of sessions on four GPUs is megabytes of it, and
    // tools read it, not people (`jq .` prints it indented).
    let mut text = serde_json::to_string(&summary)?;
    text.push('\n');
    Ok(text)
}
