//! `--claims`: after the course's report, the page's claims checked on the
//! numbers just printed, on the learner's own GPU.
//!
//! The report is checked as printed ([`Printed`] keeps it), through the
//! lesson's own parser and claims ([`lesson_spec::claims_block`]), so a
//! learner and `evidence check` apply one definition. Not for: deciding the
//! exit code. A claim that does not hold on some GPU is a finding about that
//! GPU, not a failure of the program, which exits 0 having measured well.

use std::fmt::Display;

use lesson_spec::LessonReport;

/// `--claims`, flattened into a lesson's `Args`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::Args)]
pub struct ClaimsArg {
    /// After the report, check each claim of the lesson's page against the
    /// numbers just measured and print whether it holds, with the numbers;
    /// a failure the lesson knows on this GPU is marked with its reason
    #[arg(long)]
    pub claims: bool,
}

/// Standard output as the lesson prints it, kept for `--claims`.
#[derive(Debug, Default)]
pub struct Printed {
    text: String,
}

impl Printed {
    /// Prints `line` and a newline, and keeps them.
    pub fn line(&mut self, line: impl Display) {
        let line = line.to_string();
        println!("{line}");
        self.text.push_str(&line);
        self.text.push('\n');
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Prints the claims block for `R` when `--claims` was given: `printed` is
/// the whole report as printed, `gpu_name` the device's name as the
/// expected-failure list spells it (`NVIDIA H200`).
pub fn print_claims<R: LessonReport>(arg: ClaimsArg, printed: &str, gpu_name: &str) -> anyhow::Result<()> {
    if !arg.claims {
        return Ok(());
    }
    let block = lesson_spec::claims_block::<R>(printed, gpu_name, &cuda_environment())
        .map_err(|e| anyhow::anyhow!("--claims: cannot read the report just printed: {e}"))?;
    print!("{}", block.text);
    Ok(())
}

/// The CUDA variables of this process as `VAR=value` words, the way a
/// transcript header records its environment: claims about a variant (such
/// as `CUDA_MODULE_LOADING=EAGER`) apply when it was set.
fn cuda_environment() -> String {
    let mut words: Vec<String> = std::env::vars()
        .filter(|(k, _)| k.starts_with("CUDA_"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    words.sort();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Args {
        #[command(flatten)]
        claims: ClaimsArg,
    }

    #[test]
    fn claims_is_off_unless_asked_for() {
        assert!(!Args::try_parse_from(["lesson"]).unwrap().claims.claims);
        assert!(
            Args::try_parse_from(["lesson", "--claims"])
                .unwrap()
                .claims
                .claims
        );
    }

    #[test]
    fn printed_keeps_every_line_it_prints() {
        let mut out = Printed::default();
        out.line("first");
        out.line(format_args!("second {}", 2));
        assert_eq!(out.text(), "first\nsecond 2\n");
    }
}
