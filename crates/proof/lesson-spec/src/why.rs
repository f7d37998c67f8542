//! A lesson's causes as checks: each sentence of a README that says *why* a
//! number comes out as it does names a [`Why`], declared beside the page's
//! claims, which `evidence check` and the site judge per GPU on every
//! transcript that holds its figures.
//!
//! A claim reads one run; a cause usually needs several kinds of run (the
//! lesson's own, a diagnostic program's, a profiler's), so a [`Why`] names
//! each figure with where it is recorded ([`Source`]) and is judged on the
//! medians of each figure over one GPU's runs. A cause that fails on some
//! GPU is a finding about that GPU, shown with its figures; it is not an
//! error of the evidence.
//!
//! Not for: reading transcripts (`evidence` gathers the figures and calls
//! [`Why::check`]), or holding the README to its checks (every explanation
//! paragraph names one; `testkit::why_named`, in each lesson's
//! tests).

use crate::claims::Outcome;

/// Where one figure of a cause is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// The evidence folder: a lesson's name, or `diagnostics`.
    pub folder: &'static str,
    /// The runs' names after the GPU's word, space-separated: `cxx rust`
    /// for `<time>-h200-cxx.txt` and `<time>-h200-rust.txt`, `d10-why` for
    /// `<time>-h200-d10-why.txt`.
    pub runs: &'static str,
    /// The figure: a label of the lesson's report (as its `figures` gives
    /// it), or, for a run no lesson parses, the text before `: NUMBER` on
    /// its lines (every such line of a run counts).
    pub label: &'static str,
}

/// A figure of a lesson's own C++ and Rust runs.
pub const fn report(folder: &'static str, label: &'static str) -> Source {
    Source {
        folder,
        runs: "cxx rust",
        label,
    }
}

/// A figure of a lesson's runs of one name (`ncu`, `cxx-eager`).
pub const fn runs(folder: &'static str, runs: &'static str, label: &'static str) -> Source {
    Source { folder, runs, label }
}

/// A `LABEL: NUMBER` line of the diagnostics runs named `runs`.
pub const fn lines(runs: &'static str, label: &'static str) -> Source {
    Source {
        folder: "diagnostics",
        runs,
        label,
    }
}

/// The verdict on one GPU from the median of each figure, in
/// [`Why::figures`]' order.
pub type WhyCheck = fn(&[f64]) -> Outcome;

/// One cause a lesson's README gives, as a check.
#[derive(Debug)]
pub struct Why {
    /// `<lesson prefix>-why-<name>`: the README names it in backticks.
    pub id: &'static str,
    /// The cause in one sentence, with the threshold the check reads it as.
    pub cause: &'static str,
    /// Every figure the check reads; none may be missing on a GPU it judges.
    pub figures: &'static [Source],
    pub check: WhyCheck,
}
