//! What the pages are made from ([`Evidence`]): the runs that passed the
//! evidence's checks, each lesson's claims over them, the sessions and
//! their history, and which runs have a page of their own.
//!
//! Not for: writing pages (each page's module) or reading the evidence
//! folder (`load`, which [`crate::site::build`] calls).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::check::Table;
use crate::history::Series;
use crate::sessions::Session;
use crate::transcript::Transcript;
use crate::verdicts::Column;

/// What the pages are made from, worked out once for them all.
pub struct Evidence<'a> {
    pub dir: &'a Path,
    pub transcripts: &'a [Transcript],
    pub tables: Vec<(&'static dyn lesson_spec::Lesson, Table<'a>)>,
    /// Every GPU and toolkit any lesson's runs were recorded on: the
    /// columns of every lesson's verdicts.
    pub columns: BTreeSet<Column>,
    /// Each lesson's title, read from its README once.
    pub titles: BTreeMap<&'static str, String>,
    pub problems: &'a [String],
    /// The recording sessions, oldest first ([`crate::sessions::of`]).
    pub sessions: &'a [Session<'a>],
    /// Each run's session, by file: an index into `sessions`.
    pub session_of: HashMap<&'a str, usize>,
    /// Every figure a claim or a cause reads, per GPU over its sessions.
    pub history: &'a [Series<'a, 'a>],
    /// Whether each session began within [`PAGED_DAYS`] of its GPU's
    /// latest ([`crate::sessions::recent`]).
    pub recent: Vec<bool>,
    /// Each lesson's verdicts by claim, column and session, in the order of
    /// `tables`.
    pub per_session: Vec<crate::verdicts::PerSession>,
    /// Each figure of its GPU's latest session against its baseline, and
    /// the false alarms measured: worked out once, for the "what changed"
    /// page and `summary.json` both.
    pub latest: Vec<crate::changes::FigureChange<'a, 'a, 'a>>,
    pub alarms: crate::changes::FalseAlarms,
}

impl<'a> Evidence<'a> {
    /// The title of `lesson`: the first heading of its README, else its name.
    pub fn title<'s>(&'s self, lesson: &'s str) -> &'s str {
        self.titles.get(lesson).map_or(lesson, String::as_str)
    }

    /// Whether `t` has a page of its own: every run of a recent session
    /// has. A link to any other run goes to its session's page, which
    /// lists it with its verdicts.
    pub fn has_page(&self, t: &Transcript) -> bool {
        self.session_of
            .get(t.file.as_str())
            .is_some_and(|&i| self.recent[i])
    }

    /// The session `t` was recorded in.
    pub fn session(&self, t: &Transcript) -> Option<&'a Session<'a>> {
        self.session_of.get(t.file.as_str()).map(|&i| &self.sessions[i])
    }
}

/// How far back from its GPU's latest session a session's runs each keep
/// a page of their own, in days. A year of weekly sessions on four GPUs is
/// about 14,000 runs (tests/year.rs), and a page each would be most of the
/// site's time and bytes; older runs are listed, with their verdicts, on
/// their session's page, and their figures stay in the history charts.
pub const PAGED_DAYS: i64 = crate::sessions::RECENT_DAYS;

/// A chart on the site: where it is and what it shows.
pub struct SiteChart {
    pub path: String,
    pub title: String,
    pub gpu: String,
    pub svg: String,
}
