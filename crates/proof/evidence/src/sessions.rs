//! Recording sessions: the runs one recording made on one machine, read
//! from the headers the recorder wrote.
//!
//! The rule ([`of`]): two runs are of one session when their headers give
//! the same GPU, driver, host line and commit (its first seven digits), and
//! the later one started at most [`GAP`] after the session's latest run
//! before it. The toolkit is not part of the rule: one `ci/gpu-session.sh`
//! call records programs built with the machine's nvcc and with CUDA 13.5.
//!
//! Why 30 minutes: in the committed evidence the longest pause between two
//! runs of one session is 70 s (and the two sessions of fa0f7b6, recorded
//! apart as an A/A pair, are 32 minutes apart), and a run's date is when it started, so a
//! sanitizer run or a phase of minutes leaves a gap as long as itself; a
//! machine that records again the same commit half an hour later is a
//! second session (an A/A pair, [`crate::changes`]).
//!
//! Not for: judging the runs ([`crate::check`]) or comparing sessions
//! ([`crate::changes`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

use crate::runs::gpu_word;
use crate::transcript::toolkit;
use crate::transcript::{self, Transcript};

/// The longest pause between two runs of one session, in minutes.
pub const GAP_MINUTES: i64 = 30;

/// The longest pause between two runs of one session.
pub const GAP: time::Duration = time::Duration::minutes(GAP_MINUTES);

/// One recording session on one machine.
#[derive(Debug, Clone)]
pub struct Session<'a> {
    /// `<start without colons>-<GPU word>`, as a transcript's name begins:
    /// `2026-12-01T213005Z-h200`; `-2`, `-3` ... after it for a second
    /// machine of that GPU starting in the same second.
    pub id: String,
    /// The GPU's name, without its compute capability.
    pub gpu: String,
    pub driver: String,
    pub host: String,
    /// As the headers give it, the longest form where they differ.
    pub commit: String,
    /// Every toolkit the session's programs were built with (`CUDA 13.0`).
    pub toolkits: BTreeSet<String>,
    /// The first and last run's `# date:`.
    pub start: String,
    pub end: String,
    /// In the order they started (then by file name).
    pub runs: Vec<&'a Transcript>,
}

impl Session<'_> {
    /// The commit's first seven digits, as tables show it.
    pub fn short_commit(&self) -> &str {
        self.commit.get(..7).unwrap_or(&self.commit)
    }

    /// The toolkits as one text: `CUDA 13.0, CUDA 13.5`.
    pub fn toolkit_list(&self) -> String {
        self.toolkits.iter().cloned().collect::<Vec<_>>().join(", ")
    }

    /// How many runs of each evidence folder (a lesson, `diagnostics`, ...).
    pub fn folders(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for t in &self.runs {
            *out.entry(t.header.lesson.as_str()).or_default() += 1;
        }
        out
    }

    /// Seconds from the first run's start to the last one's.
    pub fn span_seconds(&self) -> i64 {
        match (transcript::date(&self.start), transcript::date(&self.end)) {
            (Some(a), Some(b)) => (b - a).whole_seconds(),
            _ => 0,
        }
    }
}

/// What makes two runs one machine's: GPU, driver, host and commit.
type Machine<'a> = (&'a str, &'a str, &'a str, &'a str);

fn machine(t: &Transcript) -> Machine<'_> {
    let h = &t.header;
    (
        h.gpu.as_str(),
        h.driver.as_str(),
        h.host.as_str(),
        h.commit.get(..7).unwrap_or(&h.commit),
    )
}

/// Every session of `all`, in the order they started (then by id). A run
/// whose date is not one `evidence record` writes (which `load` refuses
/// before this is called) is in no session.
pub fn of(all: &[Transcript]) -> Vec<Session<'_>> {
    let mut dated: Vec<(time::PrimitiveDateTime, &Transcript)> = all
        .iter()
        .filter_map(|t| Some((transcript::date(&t.header.date)?, t)))
        .collect();
    dated.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.file.cmp(&b.1.file)));
    let mut sessions: Vec<Session> = Vec::new();
    // Each machine's open session: its index and its latest run's start.
    let mut open: HashMap<Machine, (usize, time::PrimitiveDateTime)> = HashMap::new();
    for (date, t) in dated {
        let key = machine(t);
        match open.get_mut(&key) {
            Some((index, last)) if date - *last <= GAP => {
                *last = date;
                let s = &mut sessions[*index];
                s.end = t.header.date.clone();
                s.toolkits.insert(toolkit(&t.header.nvcc));
                if t.header.commit.len() > s.commit.len() {
                    s.commit = t.header.commit.clone();
                }
                s.runs.push(t);
            }
            _ => {
                open.insert(key, (sessions.len(), date));
                sessions.push(Session {
                    id: String::new(),
                    gpu: t.header.gpu_name().to_string(),
                    driver: t.header.driver.clone(),
                    host: t.header.host.clone(),
                    commit: t.header.commit.clone(),
                    toolkits: BTreeSet::from([toolkit(&t.header.nvcc)]),
                    start: t.header.date.clone(),
                    end: t.header.date.clone(),
                    runs: vec![t],
                });
            }
        }
    }
    let mut taken: HashMap<String, usize> = HashMap::new();
    for s in &mut sessions {
        let base = format!("{}-{}", s.start.replace(':', ""), gpu_word(&s.gpu));
        let n = taken.entry(base.clone()).or_default();
        *n += 1;
        s.id = match *n {
            1 => base,
            n => format!("{base}-{n}"),
        };
    }
    sessions
}

/// What differed between two sessions' headers, in words: `commit d21747b
/// to 3819bed`, `driver ...`, `toolkit ...`, `host ...`.
pub fn differences(before: &Session, after: &Session) -> Vec<String> {
    let (b, a) = (before, after);
    [
        ("commit", b.short_commit().into(), a.short_commit().into()),
        ("driver", b.driver.clone(), a.driver.clone()),
        ("toolkit", b.toolkit_list(), a.toolkit_list()),
        ("host", b.host.clone(), a.host.clone()),
    ]
    .into_iter()
    .filter(|(_, b, a)| b != a)
    .map(|(what, b, a): (_, String, String)| format!("{what} {b} to {a}"))
    .collect()
}

/// What differed between two sessions, as one text.
pub fn differed(before: &Session, after: &Session) -> String {
    match differences(before, after) {
        d if d.is_empty() => "nothing: the same commit, driver, toolkit and host".into(),
        d => d.join("; "),
    }
}

/// Each GPU's sessions, oldest first, GPUs by name.
pub fn by_gpu<'s, 'a>(sessions: &'s [Session<'a>]) -> BTreeMap<&'s str, Vec<&'s Session<'a>>> {
    let mut out: BTreeMap<&str, Vec<&Session>> = BTreeMap::new();
    for s in sessions {
        out.entry(s.gpu.as_str()).or_default().push(s);
    }
    out
}

/// How far back from its GPU's latest session a session counts as recent,
/// in days: a recent session's runs each have a page on the site.
pub const RECENT_DAYS: i64 = 28;

/// Whether each of `sessions` began within [`RECENT_DAYS`] of its GPU's
/// latest session (a session whose date cannot be read counts as recent).
pub fn recent(sessions: &[Session]) -> Vec<bool> {
    let window = time::Duration::days(RECENT_DAYS);
    let mut latest: HashMap<&str, time::PrimitiveDateTime> = HashMap::new();
    for s in sessions {
        if let Some(start) = transcript::date(&s.start) {
            let l = latest.entry(s.gpu.as_str()).or_insert(start);
            *l = (*l).max(start);
        }
    }
    sessions
        .iter()
        .map(
            |s| match (latest.get(s.gpu.as_str()), transcript::date(&s.start)) {
                (Some(&latest), Some(start)) => latest - start <= window,
                _ => true,
            },
        )
        .collect()
}

/// The sessions as `evidence sessions` prints them: a header line, then
/// one line each, oldest first.
pub fn render(sessions: &[Session]) -> String {
    let width = |least: usize, of: fn(&Session) -> String| {
        sessions.iter().map(|s| of(s).len()).fold(least, usize::max)
    };
    let id = width(7, |s| s.id.clone());
    let gpu = width(3, |s| s.gpu.clone());
    let driver = width(6, |s| s.driver.clone());
    let toolkit = width(7, |s| s.toolkit_list());
    let mut out = format!(
        "{:<id$}  {:<gpu$}  {:<driver$}  {:<toolkit$}  {:<7}  {:>4}  {:>8}  folders\n",
        "session", "GPU", "driver", "toolkit", "commit", "runs", "span, s"
    );
    for s in sessions {
        let folders: Vec<String> = s.folders().iter().map(|(f, n)| format!("{f} {n}")).collect();
        let _ = writeln!(
            out,
            "{:<id$}  {:<gpu$}  {:<driver$}  {:<toolkit$}  {:<7}  {:>4}  {:>8}  {}",
            s.id,
            s.gpu,
            s.driver,
            s.toolkit_list(),
            s.short_commit(),
            s.runs.len(),
            s.span_seconds(),
            folders.join(", ")
        );
    }
    out
}
