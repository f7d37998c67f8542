//! Rule 8, verbatim blocks: every lesson `.cu` carries the same copy.

use std::path::PathBuf;

use crate::rules::blocks::{parse, Block, Kind};
use crate::rules::problem::Problem;

/// The blocks CUDA-CODE-STYLE.md declares verbatim, and whether every lesson
/// must have one (the error macro) or only those that use it (timeKernel).
pub const DECLARED: [(&str, bool); 2] = [("cuda-check", true), ("time-kernel", false)];

/// Problems across the lesson sources given as (path, text): a required
/// block missing, or a copy that differs from the first lesson's.
pub fn check(sources: &[(PathBuf, String)]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut all: Vec<Block> = Vec::new();
    for (path, src) in sources {
        match parse(path, src, Kind::Verbatim) {
            Ok(blocks) => {
                for (name, required) in DECLARED {
                    if required && !blocks.iter().any(|b| b.name == name) {
                        problems.push(Problem::in_file(
                            path,
                            format!("has no `// verbatim: {name}` block"),
                        ));
                    }
                }
                for b in &blocks {
                    if !DECLARED.iter().any(|(name, _)| *name == b.name) {
                        problems.push(Problem::at(
                            &b.path,
                            b.line,
                            format!(
                                "verbatim block `{}` is not declared in CUDA-CODE-STYLE.md rule 8",
                                b.name
                            ),
                        ));
                    }
                }
                all.extend(blocks);
            }
            Err(e) => problems.extend(e.0),
        }
    }
    for (name, _) in DECLARED {
        let copies: Vec<&Block> = all.iter().filter(|b| b.name == name).collect();
        let Some(reference) = copies.first() else { continue };
        for copy in &copies[1..] {
            if let Some(problem) = first_difference(reference, copy) {
                problems.push(problem);
            }
        }
    }
    problems
}

/// Where `copy` first differs from `reference`, naming the lesson, the block
/// and the line in both files.
fn first_difference(reference: &Block, copy: &Block) -> Option<Problem> {
    let n = reference.lines.len().max(copy.lines.len());
    (0..n).find_map(|i| {
        let want = reference.lines.get(i);
        let got = copy.lines.get(i);
        (want != got).then(|| {
            Problem::at(
                &copy.path,
                copy.line + 1 + i,
                format!(
                    "verbatim block `{}` differs from {}:{}: has {:?}, expected {:?}",
                    copy.name,
                    reference.path.display(),
                    reference.line + 1 + i,
                    got.map_or("(end of block)", |s| s.as_str()),
                    want.map_or("(end of block)", |s| s.as_str()),
                ),
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MACRO: &str = "// verbatim: cuda-check\n#define CUDA_CHECK(x) x\n// end verbatim\n";

    fn src(path: &str, text: &str) -> (PathBuf, String) {
        (PathBuf::from(path), text.to_string())
    }

    #[test]
    fn identical_copies_pass() {
        assert!(check(&[src("a.cu", MACRO), src("b.cu", MACRO)]).is_empty());
    }

    #[test]
    fn drift_names_the_lesson_the_block_and_the_first_differing_line() {
        let drifted = MACRO.replace("x) x", "x) (x)");
        let p = check(&[
            src("code/a/a.cu", MACRO),
            src("code/b/b.cu", &format!("int i;\n{drifted}")),
        ]);
        assert_eq!(
            p,
            [Problem::at(
                "code/b/b.cu",
                3,
                "verbatim block `cuda-check` differs from code/a/a.cu:2: has \
                 \"#define CUDA_CHECK(x) (x)\", expected \"#define CUDA_CHECK(x) x\""
            )]
        );
    }

    #[test]
    fn a_lesson_without_the_error_macro_fails() {
        let p = check(&[src("a.cu", MACRO), src("b.cu", "int main() {}\n")]);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].to_string(), "b.cu: has no `// verbatim: cuda-check` block");
    }

    #[test]
    fn an_undeclared_block_fails() {
        let p = check(&[src(
            "a.cu",
            &format!("{MACRO}// verbatim: mine\nx\n// end verbatim\n"),
        )]);
        assert_eq!(
            p,
            [Problem::at(
                "a.cu",
                4,
                "verbatim block `mine` is not declared in CUDA-CODE-STYLE.md rule 8"
            )]
        );
    }
}
