//! What rule 1 finds, and how each language's scanner reports it: a
//! [`Finding`], printed with the rule's reason.

use std::path::PathBuf;

use crate::problem::Problem;

pub(super) const WHY: &str = "host clocks time the queueing of GPU work, not the work; time kernels with \
                   events (CUDA-CODE-STYLE.md rule 1, \"No host clocks\"; exceptions go in \
                   the lesson's host-clock-allow.txt)";

/// One host clock found in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    /// The canonical name of what was found, as the allow-list spells it:
    /// `clock_gettime`, `<ctime>`, `std::chrono`, `std::time::Instant`, ...
    pub what: String,
    /// How it appeared, when that differs from `what` (a rename, a glob).
    pub detail: Option<String>,
}

/// A finding as the rules report it: `path:line:col: what (detail): why`.
impl From<Finding> for Problem {
    fn from(finding: Finding) -> Problem {
        let message = match &finding.detail {
            Some(detail) => format!("{} ({detail}): {WHY}", finding.what),
            None => format!("{}: {WHY}", finding.what),
        };
        Problem {
            path: Some(finding.path),
            line: Some(finding.line),
            col: Some(finding.col),
            message,
        }
    }
}

/// How a scanner reports one finding: line, column, what was found, and how
/// it appeared where that differs.
pub(super) type Add<'a> = dyn FnMut(usize, usize, &str, Option<String>) + 'a;
