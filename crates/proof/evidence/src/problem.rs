//! A problem with one file of the evidence (or a list beside it), at a
//! line of it or in the file as a whole: what `evidence check` reports, one
//! line each.
//!
//! Not for: errors that stop a command before any file is read (each
//! module's own error type says those).

/// Something wrong with one file: a transcript that cannot be read as
/// one, a bad line of a lesson's expected-failure list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", line_shown(self))]
pub struct Problem {
    /// The file, as the line names it.
    pub path: String,
    /// 1-based; 0 when the problem is the file's as a whole (or it could
    /// not be read at all).
    pub line: usize,
    pub message: String,
}

impl Problem {
    /// A problem at `line` of `path`.
    pub fn at(path: impl Into<String>, line: usize, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            line,
            message: message.into(),
        }
    }

    /// A problem of the file as a whole.
    pub fn of_file(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem::at(path, 0, message)
    }
}

/// A path as an error line names it: as it is, or quoted with its escapes
/// where it holds a line break or another control character, so that one
/// problem stays one line.
pub fn shown(path: &std::path::Path) -> String {
    let plain = path.display().to_string();
    match plain.chars().any(char::is_control) {
        true => format!("{plain:?}"),
        false => plain,
    }
}

/// `FILE:LINE: message`, or `FILE: message` where there is no line to name;
/// a name with a line break in it is [`shown`] escaped, so that it cannot
/// end the line and start a forged one.
fn line_shown(p: &Problem) -> String {
    let path = match p.path.chars().any(char::is_control) {
        true => format!("{:?}", p.path),
        false => p.path.clone(),
    };
    match p.line {
        0 => format!("{path}: {}", p.message),
        line => format!("{path}:{line}: {}", p.message),
    }
}

#[cfg(test)]
mod tests {
    use super::Problem;

    #[test]
    fn a_problem_names_its_line_and_no_line_when_it_is_the_whole_file_s() {
        assert_eq!(Problem::at("e/l/x.txt", 3, "m").to_string(), "e/l/x.txt:3: m");
        assert_eq!(Problem::of_file("e/l/x.txt", "m").to_string(), "e/l/x.txt: m");
        // A line break in a name is shown, not printed.
        assert_eq!(
            Problem::at("e/a\nb/x.txt", 1, "m").to_string(),
            r#""e/a\nb/x.txt":1: m"#
        );
    }
}
