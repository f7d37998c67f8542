//! `compare A.json B.json`: two suite runs, kernel by kernel, labelled by
//! [`instrument::compare`], as a table.
//!
//! Not for: the rule that labels them ([`instrument::compare`]).

use std::fmt::Write;
use std::path::Path;

use anyhow::Context;
use instrument::compare::{compare, Comparison, Label};

use crate::suite_report::{KernelView, SuiteView};

/// Reads a suite run's JSON.
pub fn read(path: &Path) -> anyhow::Result<SuiteView> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not an instrument-suite JSON", path.display()))
}

/// One row per kernel found in both runs, in A's order.
pub fn rows(a: &SuiteView, b: &SuiteView, band: f64) -> Vec<(String, Option<Comparison>, String)> {
    a.kernels
        .iter()
        .filter_map(|ka| {
            let kb = b.kernels.iter().find(|k| k.kernel == ka.kernel)?;
            let (comparison, note) = match (ka.median, kb.median) {
                (Some(ma), Some(mb)) => (Some(compare(ma, mb, band)), flag_note(ka, kb)),
                _ => (
                    None,
                    "a run has no median (too many impossible samples)".to_string(),
                ),
            };
            Some((ka.kernel.clone(), comparison, note))
        })
        .collect()
}

/// The flags either run carries, said beside the label.
fn flag_note(a: &KernelView, b: &KernelView) -> String {
    let said = |side: &str, k: &KernelView| -> Vec<String> {
        k.flags.iter().map(|f| format!("{side}: {}", f.text())).collect()
    };
    [said("A", a), said("B", b)].concat().join("; ")
}

/// The table of [`rows`].
pub fn table(rows: &[(String, Option<Comparison>, String)], band: f64) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<16} {:>7} {:>12} {:>10} {:>23}  notes (SAME within +-{:.2}% of A)",
        "kernel",
        "label",
        "B - A ms",
        "B/A - 1",
        "95% interval of B/A - 1",
        100.0 * band
    );
    for (kernel, c, note) in rows {
        match c {
            Some(c) => {
                let _ = writeln!(
                    o,
                    "{:<16} {:>7} {:>12.6} {:>9.3}% {:>23}  {}",
                    kernel,
                    c.label.name(),
                    c.diff_ms,
                    100.0 * c.rel,
                    format!("{:.3}% .. {:.3}%", 100.0 * c.rel_ci.0, 100.0 * c.rel_ci.1),
                    note
                );
            }
            None => {
                let _ = writeln!(o, "{:<16} {:>7} {note}", kernel, Label::Unsure.name());
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use instrument::compare::{Median, DEFAULT_BAND};

    /// A kernel's name and (median, interval low, interval high), if any.
    type Entry<'a> = (&'a str, Option<(f64, f64, f64)>);

    fn run(kernels: &[Entry<'_>]) -> SuiteView {
        SuiteView {
            kernels: kernels
                .iter()
                .map(|&(name, m)| KernelView {
                    kernel: name.to_string(),
                    median: m.map(|(ms, lo, hi)| Median { ms, ci: (lo, hi) }),
                    flags: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn kernels_in_both_runs_are_labelled_and_one_without_a_median_is_unsure() {
        let a = run(&[
            ("vector-add", Some((0.0570, 0.0569, 0.0571))),
            ("empty", None),
            ("only-in-a", Some((1.0, 1.0, 1.0))),
        ]);
        let b = run(&[
            ("empty", Some((0.002, 0.002, 0.002))),
            ("vector-add", Some((0.0582, 0.0581, 0.0583))),
        ]);
        let rows = rows(&a, &b, DEFAULT_BAND);
        assert_eq!(rows.len(), 2, "only kernels in both runs");
        assert_eq!(rows[0].0, "vector-add");
        assert_eq!(rows[0].1.map(|c| c.label), Some(Label::Slower));
        assert_eq!(rows[1].0, "empty");
        assert!(rows[1].1.is_none());
        let text = table(&rows, DEFAULT_BAND);
        assert!(text.contains("SLOWER") && text.contains("UNSURE"), "{text}");
    }

    #[test]
    fn a_file_that_is_not_a_suite_run_is_one_error_naming_it() {
        let path = std::env::temp_dir().join(format!("not-a-suite-{}.json", std::process::id()));
        std::fs::write(&path, "{\"kernel\": \"vectorAdd\"}").unwrap();
        let err = read(&path).unwrap_err();
        let _ = std::fs::remove_file(&path);
        assert!(
            format!("{err:#}").contains("is not an instrument-suite JSON"),
            "{err:#}"
        );
    }
}
