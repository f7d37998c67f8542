//! A lesson's one nvcc line: the line its README gives, which the `.cu`'s
//! header comment (`// Build: nvcc ...`) gives too. Read here once, for
//! course-rules' check of every lesson directory and for each report
//! package's check that its recipe records that same line.

/// Why a lesson does not have one documented nvcc line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NvccLineError {
    #[error("its README gives no `nvcc ...` build line")]
    NoReadmeLine,
    #[error("its .cu's header comment has no `Build: nvcc ...` line")]
    NoHeaderLine,
    #[error("the README builds with `{readme}` but the .cu's header says `{header}`")]
    Disagree { readme: String, header: String },
    #[error("the README builds with `{line}` and also with `{other}`; a lesson has one nvcc line")]
    Repeated { line: String, other: String },
}

/// The file an nvcc line writes: the word after its `-o`.
pub fn build_output(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == "-o")?;
    words.next()
}

/// The first line of `readme` that is an nvcc command (`nvcc ...`), trimmed.
pub fn readme_nvcc_line(readme: &str) -> Option<&str> {
    readme.lines().map(str::trim).find(|l| l.starts_with("nvcc "))
}

/// The nvcc line in the header comment of `cu` (`// Build: nvcc ...`): the
/// comment lines the file starts with, not a `Build:` further down.
pub fn header_nvcc_line(cu: &str) -> Option<&str> {
    cu.lines()
        .take_while(|l| l.starts_with("//") || l.trim().is_empty())
        .find_map(|l| l.trim_start_matches('/').trim().strip_prefix("Build:"))
        .map(str::trim)
}

/// The lesson's nvcc line: the README's and the header's must exist and
/// agree, and any repetition of it in the README (where it shows an
/// exported copy being built) must be the same line.
pub fn documented_nvcc_line<'a>(readme: &'a str, cu: &str) -> Result<&'a str, NvccLineError> {
    let line = readme_nvcc_line(readme).ok_or(NvccLineError::NoReadmeLine)?;
    let header = header_nvcc_line(cu).ok_or(NvccLineError::NoHeaderLine)?;
    if line != header {
        return Err(NvccLineError::Disagree {
            readme: line.to_string(),
            header: header.to_string(),
        });
    }
    let other = readme
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("nvcc -") && *l != line);
    match other {
        Some(other) => Err(NvccLineError::Repeated {
            line: line.to_string(),
            other: other.to_string(),
        }),
        None => Ok(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CU: &str = "// SPDX-License-Identifier: MIT\n// Build: nvcc -O3 -o prog prog.cu\n\nint main() {}\n";

    #[test]
    fn the_readme_and_the_header_give_one_line() {
        let readme = "# Prog\n\n```\nnvcc -O3 -o prog prog.cu\n./prog\n```\n  nvcc -O3 -o prog prog.cu\n";
        assert_eq!(documented_nvcc_line(readme, CU), Ok("nvcc -O3 -o prog prog.cu"));
    }

    #[test]
    fn each_way_of_not_having_one_line_is_named() {
        assert_eq!(
            documented_nvcc_line("no line", CU),
            Err(NvccLineError::NoReadmeLine)
        );
        // A `Build:` below the header comment is not the header's.
        let late = "// prog\nint x;\n// Build: nvcc -O3 -o prog prog.cu\n";
        assert_eq!(
            documented_nvcc_line("nvcc -O3 -o prog prog.cu", late),
            Err(NvccLineError::NoHeaderLine)
        );
        assert_eq!(
            documented_nvcc_line("nvcc -O2 -o prog prog.cu", CU),
            Err(NvccLineError::Disagree {
                readme: "nvcc -O2 -o prog prog.cu".into(),
                header: "nvcc -O3 -o prog prog.cu".into(),
            })
        );
        let twice = "nvcc -O3 -o prog prog.cu\nnvcc -G -o prog prog.cu\n";
        let err = documented_nvcc_line(twice, CU).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the README builds with `nvcc -O3 -o prog prog.cu` and also with `nvcc -G -o prog prog.cu`; a lesson has one nvcc line"
        );
    }
}
