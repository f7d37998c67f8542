//! How a lesson is recorded on a GPU machine: the C++ program's nvcc line,
//! the variants run beside the plain runs, the reference tool, the
//! sanitizers. The recording scripts read this (`evidence recipe LESSON`)
//! instead of naming any lesson themselves.

use std::fmt::Write;

/// A lesson's recording recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recipe {
    /// The lesson's one nvcc line, run in a copy of the lesson directory
    /// alone. Its README and the .cu's header comment give the same line (the
    /// lesson's tests check that).
    pub nvcc: &'static str,
    /// Plain runs of each program (C++ and Rust, alternated) per session.
    pub runs: u32,
    /// Runs recorded beside the plain ones under another environment.
    pub variants: &'static [Variant],
    /// A reference tool recorded once per plain pair, if the lesson has one.
    pub reference: Option<Reference>,
    /// compute-sanitizer tools run over both programs.
    pub sanitizers: &'static [&'static str],
}

/// Runs under another environment or with other arguments, named
/// `<gpu>-<program>-<name>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub name: &'static str,
    /// `VAR=value` words.
    pub env: &'static [&'static str],
    /// Arguments given to both programs (the lesson's own flags).
    pub args: &'static [&'static str],
    pub runs: u32,
}

/// An outside tool that measures what the lesson measures, recorded as
/// `<gpu>-<name>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    pub name: &'static str,
    /// The command, run from the lesson's directory.
    pub command: &'static [&'static str],
}

impl Recipe {
    /// The binary the nvcc line writes (its `-o` argument).
    pub fn binary(&self) -> Option<&'static str> {
        crate::nvcc_line::build_output(self.nvcc)
    }

    /// The recipe as `key value` lines, for shell scripts to read:
    /// `nvcc`, `binary`, `runs`, then one `variant NAME RUNS [VAR=value...]
    /// [-- ARG...]` line per variant, `reference NAME COMMAND...` and one `sanitizer
    /// TOOL` line per tool.
    pub fn to_lines(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "nvcc {}", self.nvcc);
        let _ = writeln!(out, "binary {}", self.binary().unwrap_or(""));
        let _ = writeln!(out, "runs {}", self.runs);
        for v in self.variants {
            let mut words = vec![v.name.to_string(), v.runs.to_string()];
            words.extend(v.env.iter().map(|e| e.to_string()));
            if !v.args.is_empty() {
                words.push("--".to_string());
                words.extend(v.args.iter().map(|a| a.to_string()));
            }
            let _ = writeln!(out, "variant {}", words.join(" "));
        }
        if let Some(r) = &self.reference {
            let _ = writeln!(out, "reference {} {}", r.name, r.command.join(" "));
        }
        for s in self.sanitizers {
            let _ = writeln!(out, "sanitizer {s}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECIPE: Recipe = Recipe {
        nvcc: "nvcc -O3 -arch=sm_90 -o prog prog.cu",
        runs: 5,
        variants: &[
            Variant {
                name: "eager",
                env: &["CUDA_MODULE_LOADING=EAGER"],
                args: &[],
                runs: 1,
            },
            Variant {
                name: "first-malloc",
                env: &[],
                args: &["--first", "malloc"],
                runs: 3,
            },
        ],
        reference: Some(Reference {
            name: "tool-reference",
            command: &["python3", "reference/tool.py"],
        }),
        sanitizers: &["memcheck", "racecheck"],
    };

    #[test]
    fn the_binary_is_the_nvcc_lines_output() {
        assert_eq!(RECIPE.binary(), Some("prog"));
        let no_output = Recipe {
            nvcc: "nvcc prog.cu",
            ..RECIPE
        };
        assert_eq!(no_output.binary(), None);
    }

    #[test]
    fn scripts_read_one_key_per_line() {
        assert_eq!(
            RECIPE.to_lines(),
            "nvcc nvcc -O3 -arch=sm_90 -o prog prog.cu\n\
             binary prog\n\
             runs 5\n\
             variant eager 1 CUDA_MODULE_LOADING=EAGER\n\
             variant first-malloc 3 -- --first malloc\n\
             reference tool-reference python3 reference/tool.py\n\
             sanitizer memcheck\n\
             sanitizer racecheck\n"
        );
    }
}
