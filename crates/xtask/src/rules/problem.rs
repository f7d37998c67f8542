//! What the rules report: each problem one line, `path:line: message`, with
//! as much of the place as the rule that found it knows; and a file read as
//! the rules read it, where one that cannot be read is a problem of its own.
//!
//! Not for: what a problem means (each rule's own module words it).

use std::fmt::Display;
use std::path::Path;

/// One problem a rule found, as the line it prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Problem(pub String);

impl Problem {
    /// A problem on a line of a file.
    pub fn at(path: impl AsRef<Path>, line: usize, message: impl Display) -> Problem {
        Problem(format!("{}:{line}: {message}", path.as_ref().display()))
    }

    /// A problem with a file (or folder) as a whole.
    pub fn in_file(path: impl AsRef<Path>, message: impl Display) -> Problem {
        Problem(format!("{}: {message}", path.as_ref().display()))
    }

    /// An error of a layer below the rules (the registry, a build), which
    /// names its own place: its words and its causes', as one line.
    pub fn from_error(e: &dyn std::error::Error) -> Problem {
        Problem(cli_exit::with_causes(e))
    }
}

/// Reads a file as text; a file that is not UTF-8 is read with replacement
/// characters rather than skipped, so a banned clock cannot hide in one.
pub fn read_text(path: &Path) -> Result<String, Problem> {
    let bytes = std::fs::read(path).map_err(|e| Problem::in_file(path, cli_exit::with_causes(&e)))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Every problem one reading found (a file's snippet markers), as one
/// error: each problem, `; ` between them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(Problem::to_string).collect::<Vec<_>>().join("; "))]
pub struct Problems(pub Vec<Problem>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_prints_the_place_it_has_then_its_message() {
        let p = Problem::at("code/x/x.cu", 3, "what");
        assert_eq!(p.to_string(), "code/x/x.cu:3: what");
        assert_eq!(
            Problem::in_file("ci/list.txt", "what").to_string(),
            "ci/list.txt: what"
        );
    }

    #[test]
    fn problems_are_one_error_with_each_problem_in_turn() {
        let all = Problems(vec![Problem::at("a", 1, "x"), Problem::in_file("b", "y")]);
        assert_eq!(all.to_string(), "a:1: x; b: y");
    }
}
