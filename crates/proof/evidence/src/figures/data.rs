//! What figure queries read: lesson runs' figures (through the lesson
//! registry, so a query names a lesson and a figure as the lesson's report
//! package names them), diagnostics runs' `LABEL: NUMBER` lines, and the
//! instrument's sessions.
//!
//! Not for: parsing queries ([`crate::figures::query`]) or documents ([`crate::figures::blocks`]).

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::figures::instrument::{self, Method, Session};
use crate::load;
use crate::runs::group;
use crate::transcript::{Body, Transcript};
use lesson_spec::median;

/// Where a number came from: a run (its commit and file) or an instrument
/// session (its name and, for one of several numbers, the item). Arithmetic
/// between lists pairs numbers with equal keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub session: String,
    pub item: String,
}

/// What the evidence cannot give a query, in words (the block's error
/// line shows it).
pub type DataError = String;

/// An evidence folder (a repository's `evidence/`), read when a query
/// first needs it.
pub struct Evidence {
    dir: PathBuf,
    transcripts: OnceCell<Result<Vec<Transcript>, DataError>>,
    sessions: OnceCell<Result<Vec<Session>, DataError>>,
    // Worked out once: a document may quote several of its counts.
    alarms: OnceCell<crate::changes::FalseAlarms>,
}

impl Evidence {
    pub fn new(dir: &Path) -> Self {
        Evidence {
            dir: dir.to_path_buf(),
            transcripts: OnceCell::new(),
            sessions: OnceCell::new(),
            alarms: OnceCell::new(),
        }
    }

    /// The runs, read as `evidence check` reads them; a figure is never
    /// made from evidence that fails the check.
    fn transcripts(&self) -> Result<&[Transcript], DataError> {
        self.transcripts
            .get_or_init(|| {
                let dir = &self.dir;
                let loaded = load::load(dir).map_err(|e| cli_exit::with_causes(&e))?;
                match loaded.problems.as_slice() {
                    [] => Ok(loaded.transcripts),
                    [first, ..] => Err(format!(
                        "the evidence has {} problem(s), which `evidence --evidence {} check` lists; the first: {first}",
                        loaded.problems.len(),
                        dir.display()
                    )),
                }
            })
            .as_deref()
            .map_err(Clone::clone)
    }

    fn sessions(&self) -> Result<&[Session], DataError> {
        self.sessions
            .get_or_init(|| instrument::sessions(&self.dir.join("instrument")))
            .as_deref()
            .map_err(Clone::clone)
    }

    /// The successful runs in evidence folder `folder` (a lesson's, or
    /// `diagnostics`) of the space-separated `groups`, of the commits
    /// starting with one of the space-separated prefixes in `commits` (all
    /// when none), less those of a prefix written `!PREFIX`, in time order.
    fn group_runs(&self, folder: &str, groups: &str, commits: &str) -> Result<Vec<&Transcript>, DataError> {
        if lessons::find(folder).is_none() && folder != lessons::DIAGNOSTICS {
            let known: Vec<&str> = lessons::LESSONS.iter().map(|l| l.name()).collect();
            return Err(format!(
                "no lesson is named `{folder}` (known: {})",
                known.join(", ")
            ));
        }
        let all = self.transcripts()?;
        let (excluded, included): (Vec<&str>, Vec<&str>) =
            commits.split_whitespace().partition(|p| p.starts_with('!'));
        let of = |t: &Transcript, p: &str| t.header.commit.starts_with(p.trim_start_matches('!'));
        let mut runs: Vec<&Transcript> = groups
            .split_whitespace()
            .flat_map(|g| group(all, folder, g))
            .filter(|t| included.is_empty() || included.iter().any(|p| of(t, p)))
            .filter(|t| !excluded.iter().any(|p| of(t, p)))
            .collect();
        runs.sort_by(|a, b| a.file.cmp(&b.file));
        if runs.is_empty() {
            return Err(format!(
                "no successful {folder} runs in groups `{groups}` of commits `{commits}`"
            ));
        }
        Ok(runs)
    }

    /// `figure` of each run, keyed by commit and file.
    pub fn runs(
        &self,
        lesson: &str,
        groups: &str,
        figure: &str,
        commits: &str,
    ) -> Result<Vec<(Key, f64)>, DataError> {
        let runs = self.group_runs(lesson, groups, commits)?;
        let value = |t: &Transcript| t.figures.iter().find(|(l, _)| l == figure).map(|(_, v)| *v);
        let out: Vec<(Key, f64)> = runs.iter().filter_map(|t| Some((key(t), value(t)?))).collect();
        if out.is_empty() {
            // No run has it: the first run's figures say what a run has.
            let names: Vec<&str> = runs[0].figures.iter().map(|(l, _)| l.as_str()).collect();
            return Err(format!(
                "no {lesson} run has a figure `{figure}` (it has: {})",
                names.join("; ")
            ));
        }
        Ok(out)
    }

    /// The number after `LABEL:` on each line of each successful run of the
    /// groups in `diagnostics/` (whose output no lesson parses), keyed by
    /// commit, file and the line's occurrence in its file, so that the
    /// values of two labels one process printed pair up in arithmetic: the
    /// first `A:` with the first `B:`, the second with the second.
    pub fn lines(&self, groups: &str, label: &str) -> Result<Vec<(Key, f64)>, DataError> {
        let runs = self.group_runs(lessons::DIAGNOSTICS, groups, "")?;
        let mut out = Vec::new();
        for t in &runs {
            let Body::Unparsed { lines } = &t.body else {
                continue;
            };
            let values = lines
                .iter()
                .filter_map(|line| line.strip_prefix(label)?.strip_prefix(':'));
            for (n, after) in values.enumerate() {
                let word = after.split_whitespace().next().unwrap_or("");
                let value = word
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        format!(
                            "{}: `{label}:` is followed by {word:?}, not a finite number",
                            t.file
                        )
                    })?;
                out.push((
                    session_key(&t.header.commit, &format!("{} #{}", t.file, n + 1)),
                    value,
                ));
            }
        }
        if out.is_empty() {
            let files: Vec<&str> = runs.iter().map(|t| t.file.as_str()).collect();
            return Err(format!(
                "no line `{label}: NUMBER` in the {} run(s) of groups `{groups}`: {}",
                lessons::DIAGNOSTICS,
                files.join(", ")
            ));
        }
        Ok(out)
    }

    /// The distinct UTC dates of the runs: `2026-11-29`, or `A and B`, or `A to B`.
    pub fn days(&self, lesson: &str, groups: &str) -> Result<String, DataError> {
        let mut days: Vec<&str> = self
            .group_runs(lesson, groups, "")?
            .iter()
            .map(|t| t.header.date.get(..10).unwrap_or(&t.header.date))
            .collect();
        days.dedup();
        Ok(match days.as_slice() {
            [one] => one.to_string(),
            [a, b] => format!("{a} and {b}"),
            _ => format!("{} to {}", days[0], days[days.len() - 1]),
        })
    }

    /// A count of "what changed"'s false alarms on this evidence's A/A
    /// comparisons ([`crate::changes::false_alarms`]): `kind` is
    /// `same_commit` or `split_half`, `stat` is `compared`, `alarms` or
    /// `unsure`, or, for `same_commit`, `pairs` (of sessions).
    pub fn false_alarms(&self, kind: &str, stat: &str) -> Result<f64, DataError> {
        let transcripts = self.transcripts()?;
        let alarms = *self.alarms.get_or_init(|| {
            let sessions = crate::sessions::of(transcripts);
            crate::changes::false_alarms(&crate::history::of(&sessions))
        });
        let unknown = || {
            format!(
                "no false-alarm count `{kind}` `{stat}` (same_commit or split_half; compared, alarms or unsure; or same_commit pairs)"
            )
        };
        let counts = match kind {
            "same_commit" if stat == "pairs" => return Ok(alarms.same_commit_pairs as f64),
            "same_commit" => alarms.same_commit,
            "split_half" => alarms.split_half,
            _ => return Err(unknown()),
        };
        let n = match stat {
            "compared" => counts.compared,
            "alarms" => counts.alarms,
            "unsure" => counts.unsure,
            _ => return Err(unknown()),
        };
        Ok(n as f64)
    }

    /// The sessions a query names: `*` for all, or their names.
    fn pick_sessions(&self, names: &str) -> Result<Vec<&Session>, DataError> {
        let all = self.sessions()?;
        if names.trim() == "*" {
            return Ok(all.iter().collect());
        }
        names
            .split_whitespace()
            .map(|n| {
                all.iter().find(|s| s.name == n).ok_or_else(|| {
                    let known: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
                    format!("no instrument session `{n}` (known: {})", known.join(", "))
                })
            })
            .collect()
    }

    /// `stat` of `method` in each session, keyed by session (and by the
    /// row's label where a method has several, as triton's two).
    pub fn instrument(&self, sessions: &str, method: &str, stat: &str) -> Result<Vec<(Key, f64)>, DataError> {
        let mut out = Vec::new();
        for s in self.pick_sessions(sessions)? {
            let named = |m: &&Method| m.name == method || (method == "recommended" && m.recommended);
            let rows: Vec<&Method> = s.methods.iter().filter(named).collect();
            for m in &rows {
                let value = match stat {
                    "median" => Some(m.median_ms),
                    "vs_ncu" => Some(m.vs_ncu),
                    "spread" => m.spread,
                    "gpu_ms" => m.gpu_ms,
                    _ => return Err(format!("no statistic `{stat}` (median, vs_ncu, spread, gpu_ms)")),
                };
                let item = if rows.len() > 1 { m.label.as_str() } else { "" };
                out.extend(value.map(|v| (session_key(&s.name, item), v)));
            }
        }
        if out.is_empty() {
            return Err(format!(
                "no session of `{sessions}` has a `{stat}` of method `{method}`"
            ));
        }
        Ok(out)
    }

    /// Every process's copy ceiling in the sessions, GB/s.
    pub fn copy_ceilings(&self, sessions: &str) -> Result<Vec<(Key, f64)>, DataError> {
        let mut out = Vec::new();
        for s in self.pick_sessions(sessions)? {
            for (i, c) in s.copy_ceilings_gb_s.iter().enumerate() {
                out.push((session_key(&s.name, &format!("process {}", i + 1)), *c));
            }
        }
        Ok(out)
    }

    pub fn recommended(&self, session: &str) -> Result<String, DataError> {
        let s = self.pick_sessions(session)?;
        s.first()
            .and_then(|s| s.recommended())
            .ok_or_else(|| format!("session `{session}` recommended no mode"))
    }

    pub fn table(&self, session: &str) -> Result<String, DataError> {
        let s = self.pick_sessions(session)?;
        Ok(s.iter()
            .map(|s| s.render())
            .collect::<String>()
            .trim_end()
            .to_string())
    }
}

fn session_key(session: &str, item: &str) -> Key {
    Key {
        session: session.to_string(),
        item: item.to_string(),
    }
}

fn key(t: &Transcript) -> Key {
    session_key(&t.header.commit, &t.file)
}

/// The median of each commit's numbers, keyed by commit, in the order the
/// commits first appear.
pub fn per_commit(list: &[(Key, f64)]) -> Vec<(Key, f64)> {
    let mut commits: Vec<(&str, Vec<f64>)> = Vec::new();
    for (k, v) in list {
        match commits.iter_mut().find(|(c, _)| *c == k.session) {
            Some((_, values)) => values.push(*v),
            None => commits.push((&k.session, vec![*v])),
        }
    }
    let medians = commits
        .into_iter()
        .map(|(c, values)| Some((session_key(c, ""), median(values)?)));
    medians.flatten().collect()
}
