//! The registry's one reading: which lessons a manifest's dependency lines
//! name. The crate's build script includes this file too (`#[path]`), so
//! the list compiled in and the list xtask reads from a checkout
//! come from the same lines.

/// The lessons the registry manifest `text` names, in its order: every
/// dependency line `<lesson>-report = ...`.
pub fn report_packages(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.split_once('='))
        .map(|(name, _)| name.trim())
        .filter(|name| !name.contains(['.', ' ', '"', '#', '[']))
        .filter_map(|name| name.strip_suffix("-report"))
        .filter(|lesson| !lesson.is_empty())
        .map(str::to_string)
        .collect()
}
