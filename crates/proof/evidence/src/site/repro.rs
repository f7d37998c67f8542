//! The command that re-runs a claim on a learner's own GPU, which every
//! verdict cell gives: the lesson's README run line with `--claims`
//! (`ci/lesson.sh LESSON --claims`, which checks every claim of the page
//! on that run), under the environment and with the arguments of the
//! recipe's variant where the claim judges only a variant's runs
//! (`CUDA_MODULE_LOADING=EAGER ...`); for the shared sanitizer claim, the
//! Rust twin built and run under each compute-sanitizer tool the recipe
//! names, as `ci/gpu-session.sh checks` runs it.

use std::collections::BTreeMap;

use lesson_spec::{Lesson, Variant};

use crate::check::{Cell, Table};
use crate::judge::SANITIZER_CLEAN;
use crate::runs::run_name;
use crate::transcript::Program;

/// Each claim of `table`'s lesson and its command.
pub fn commands(lesson: &dyn Lesson, table: &Table) -> BTreeMap<&'static str, String> {
    table
        .claims
        .iter()
        .map(|claim| (claim.id, command(lesson, claim.id, table)))
        .collect()
}

fn command(lesson: &dyn Lesson, claim: &str, table: &Table) -> String {
    let name = lesson.name();
    let recipe = lesson.recipe();
    if claim == SANITIZER_CLEAN.id {
        let tools: Vec<String> = recipe
            .sanitizers
            .iter()
            .map(|tool| format!("compute-sanitizer --tool {tool} target/release/{name}"))
            .collect();
        return format!("cargo build --release -p {name} && {}", tools.join(" && "));
    }
    let variant = only_variant(claim, table, recipe.variants);
    let mut words: Vec<String> = variant
        .map(|v| v.env.iter().map(|e| e.to_string()).collect())
        .unwrap_or_default();
    words.push(format!("ci/lesson.sh {name} --claims"));
    if let Some(v) = variant {
        words.extend(v.args.iter().map(|a| a.to_string()));
    }
    words.join(" ")
}

/// The variant whose runs alone the claim judged, if it judged no plain run.
fn only_variant<'v>(claim: &str, table: &Table, variants: &'v [Variant]) -> Option<&'v Variant> {
    let of_run = |run: &str| {
        variants.iter().find(|v| {
            Program::TWINS
                .iter()
                .any(|p| run.ends_with(&format!("-{}-{}", p.word(), v.name)))
        })
    };
    let mut found = None;
    for row in &table.rows {
        let applied = row
            .cells
            .iter()
            .any(|(id, cell)| *id == claim && *cell != Cell::NotApplicable);
        if applied {
            match of_run(run_name(&row.transcript.file)) {
                None => return None,
                Some(v) => found = found.or(Some(v)),
            }
        }
    }
    found
}
