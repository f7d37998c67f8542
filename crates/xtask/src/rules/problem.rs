//! What the rules report: each problem one line, `path:line:col: message`,
//! with as much of the place as the rule that found it knows.
//!
//! Not for: what a problem means (each rule's own module words it).

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem a rule found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}{message}", place = Place(path.as_deref(), *line, *col))]
pub struct Problem {
    /// The file or folder it is in; none for a problem that names its own
    /// place (another layer's error, in that error's words) or has none.
    pub path: Option<PathBuf>,
    /// The 1-based line in `path`, where the rule knows it.
    pub line: Option<usize>,
    /// The 1-based column on `line`, where the rule knows it.
    pub col: Option<usize>,
    pub message: String,
}

impl Problem {
    /// A problem on a line of a file.
    pub fn at(path: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Problem {
        Problem {
            path: Some(path.into()),
            line: Some(line),
            col: None,
            message: message.into(),
        }
    }

    /// A problem with a file (or folder) as a whole.
    pub fn in_file(path: impl Into<PathBuf>, message: impl Into<String>) -> Problem {
        Problem {
            path: Some(path.into()),
            line: None,
            col: None,
            message: message.into(),
        }
    }

    /// A problem whose words say where it is, or that is in no one file.
    pub fn general(message: impl Into<String>) -> Problem {
        Problem {
            path: None,
            line: None,
            col: None,
            message: message.into(),
        }
    }

    /// An error of a layer below the rules (the registry, a build), which
    /// names its own place: its words and its causes', as one line.
    pub fn from_error(e: &dyn std::error::Error) -> Problem {
        Problem::general(cli_exit::with_causes(e))
    }
}

/// `path:line:col: `, with the parts there are; nothing without a path.
struct Place<'a>(Option<&'a Path>, Option<usize>, Option<usize>);

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Place(Some(path), line, col) = self else {
            return Ok(());
        };
        write!(f, "{}", path.display())?;
        for n in [line, col].into_iter().flatten() {
            write!(f, ":{n}")?;
        }
        write!(f, ": ")
    }
}

/// Every problem one reading found (a file's snippet markers, an
/// allow-list's lines), as one error: each problem, `; ` between them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines(.0))]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// `Ok(ok)` when there are none, else these problems as the error.
    pub fn or_ok<T>(problems: Vec<Problem>, ok: T) -> Result<T, Problems> {
        match problems.is_empty() {
            true => Ok(ok),
            false => Err(Problems(problems)),
        }
    }
}

fn lines(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_prints_the_place_it_has_then_its_message() {
        let mut p = Problem::at("code/x/x.cu", 3, "what");
        assert_eq!(p.to_string(), "code/x/x.cu:3: what");
        p.col = Some(7);
        assert_eq!(p.to_string(), "code/x/x.cu:3:7: what");
        assert_eq!(
            Problem::in_file("ci/list.txt", "what").to_string(),
            "ci/list.txt: what"
        );
        assert_eq!(Problem::general("no place: what").to_string(), "no place: what");
    }

    #[test]
    fn problems_are_one_error_with_each_problem_in_turn() {
        let all = Problems(vec![Problem::at("a", 1, "x"), Problem::in_file("b", "y")]);
        assert_eq!(all.to_string(), "a:1: x; b: y");
        assert_eq!(Problems::or_ok(Vec::new(), 5), Ok(5));
        assert_eq!(Problems::or_ok(all.0.clone(), 5), Err(all));
    }
}
