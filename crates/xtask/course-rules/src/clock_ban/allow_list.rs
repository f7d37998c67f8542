//! The allow-list: each file that may read a host clock, and exactly which
//! findings it may have (`ci/host-clock-allow.txt` for the shared files, a
//! lesson's own `host-clock-allow.txt` for its files).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::finding::Finding;
use crate::problem::{Problem, Problems};

/// The allow-list: for each file, the findings (by `what`) it may have.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AllowList {
    pub entries: BTreeMap<PathBuf, BTreeSet<String>>,
}

impl AllowList {
    /// Parses lines of `path: what[, what...]: why` (`#` starts a comment
    /// line) from the list at `source`, whose paths are relative to `base`:
    /// the repository root for `ci/host-clock-allow.txt`, the lesson's
    /// directory for a lesson's own `host-clock-allow.txt`.
    pub fn parse(text: &str, source: &Path, base: &Path) -> Result<AllowList, Problems> {
        let mut list = AllowList::default();
        list.add(text, source, base)?;
        Ok(list)
    }

    /// Adds the entries of another list (see [`AllowList::parse`]), reporting
    /// every malformed line, not the first.
    pub fn add(&mut self, text: &str, source: &Path, base: &Path) -> Result<(), Problems> {
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |message: &str| Problem::at(source, n + 1, message);
            let mut parts = line.splitn(3, ": ");
            let (Some(path), Some(whats), Some(why)) = (parts.next(), parts.next(), parts.next()) else {
                problems.push(at("expected `path: clock[, clock]: why`"));
                continue;
            };
            if why.trim().is_empty() {
                problems.push(at("give the reason"));
                continue;
            }
            let whats = whats
                .split(',')
                .map(|w| w.trim().to_string())
                .filter(|w| !w.is_empty());
            self.entries.insert(base.join(path.trim()), whats.collect());
        }
        Problems::or_ok(problems, ())
    }

    /// Whether `finding` is sanctioned for its file.
    pub fn allows(&self, finding: &Finding) -> bool {
        self.entries
            .get(&finding.path)
            .is_some_and(|whats| whats.contains(&finding.what))
    }
}
