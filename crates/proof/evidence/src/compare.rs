//! `evidence compare`: two runs, or two groups of runs by their medians,
//! side by side, row by row, with the ratio B / A and the difference B - A.
//! The difference matters where a value is a few units of the last printed
//! digit (a cell of a few microseconds printed in ms to three places): there
//! a ratio moves by a quarter when one run rounds the other way, and the
//! difference shows it is one unit.

use std::fmt::Write;

use crate::transcript::Transcript;
use lesson_spec::median;

/// Whether a run's commit starts with one of the comma-separated prefixes;
/// an empty list takes every run.
pub fn of_commits(commit: &str, prefixes: &str) -> bool {
    prefixes.is_empty()
        || prefixes
            .split(',')
            .any(|p| !p.is_empty() && commit.starts_with(p))
}

/// Medians of each field over a group, in the first transcript's order.
pub fn medians(group: &[&Transcript]) -> Vec<(String, f64)> {
    let Some(first) = group.first() else {
        return Vec::new();
    };
    // Each run's first value of each label, looked up by label: a year of
    // runs makes scanning them again for every label the site's slowest part.
    let firsts: Vec<std::collections::HashMap<&str, f64>> = group
        .iter()
        .map(|t| {
            let mut m = std::collections::HashMap::new();
            for (label, v) in &t.figures {
                m.entry(label.as_str()).or_insert(*v);
            }
            m
        })
        .collect();
    first
        .figures
        .iter()
        .filter_map(|(label, _)| {
            let values: Vec<f64> = firsts
                .iter()
                .filter_map(|m| m.get(label.as_str()).copied())
                .collect();
            median(values).map(|m| (label.clone(), m))
        })
        .collect()
}

/// Each figure's median in either group, in the first group's order, then
/// any the second alone prints: none is left out for lack of a partner.
pub fn side_by_side(a: &[&Transcript], b: &[&Transcript]) -> Vec<(String, Option<f64>, Option<f64>)> {
    let (ma, mb) = (medians(a), medians(b));
    let find = |m: &[(String, f64)], label: &str| m.iter().find(|(l, _)| l == label).map(|(_, v)| *v);
    let mut labels: Vec<&String> = ma.iter().map(|(l, _)| l).collect();
    labels.extend(
        mb.iter()
            .map(|(l, _)| l)
            .filter(|l| !ma.iter().any(|(m, _)| m == *l)),
    );
    labels
        .into_iter()
        .map(|l| (l.clone(), find(&ma, l), find(&mb, l)))
        .collect()
}

/// The side-by-side table of two groups (a group may be one transcript):
/// the figures both print.
pub fn render(name_a: &str, a: &[&Transcript], name_b: &str, b: &[&Transcript]) -> String {
    let mut out = String::new();
    let head_a = format!("{name_a} (n={})", a.len());
    let head_b = format!("{name_b} (n={})", b.len());
    let _ = writeln!(
        out,
        "{:<34} {:>22} {:>22} {:>8} {:>9}",
        "median of", head_a, head_b, "B / A", "B - A"
    );
    for (label, va, vb) in side_by_side(a, b) {
        let (Some(va), Some(vb)) = (va, vb) else { continue };
        let ratio = if va == 0.0 { f64::NAN } else { vb / va };
        let diff = vb - va;
        let _ = writeln!(out, "{label:<34} {va:>22.3} {vb:>22.3} {ratio:>8.3} {diff:>+9.4}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::of_commits;

    #[test]
    fn runs_are_picked_by_any_of_the_commit_prefixes() {
        let c = "2e867d87e796a2393c93634a72ab264b5ffa66be";
        assert!(of_commits(c, ""), "no prefixes: every run");
        assert!(of_commits(c, "2e867d8"));
        assert!(of_commits(c, "d06f36e,2e867d8"));
        assert!(!of_commits(c, "d06f36e,da732cd"));
        assert!(!of_commits(c, ","), "empty prefixes match nothing");
    }
}
