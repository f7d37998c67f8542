//! The contract a lesson's report package implements: [`LessonReport`] for
//! what its programs print, [`ReferenceOutput`] for its reference tool's.
//!
//! Not for: the shared tools' view of a lesson, its type erased (that is
//! [`crate::Lesson`]).

use std::fmt::Debug;

use crate::chart::Chart;
use crate::claims::Claim;
use crate::figure_blocks::Figure;
use crate::lines::{Lines, ParseFailure};
use crate::recipe::Recipe;
use crate::why::Why;

/// A lesson's report: what its programs print, as numbers.
pub trait LessonReport: Clone + Debug + serde::Serialize + Send + Sync + Sized + 'static {
    /// The lesson's directory under `code/`, and its package and binary name.
    const LESSON: &'static str;
    /// What the lesson's reference tool prints, or [`NoReference`].
    type Reference: ReferenceOutput;

    /// Reads the report from a program's output. Errors name the line.
    fn parse(body: &Lines<'_>) -> Result<Self, ParseFailure>;
    /// The lesson page's claims.
    fn claims() -> &'static [Claim<Self>];
    /// The causes the lesson's README gives, as checks ([`why`](crate::why)).
    fn whys() -> &'static [Why];
    /// The figures the lesson's documents name (`<!-- figure NAME -->`).
    const FIGURES: &'static [Figure] = &[];

    /// The lesson's `expected-failures.txt`, as text.
    fn expected_failures() -> &'static str;
    /// How the lesson is recorded.
    fn recipe() -> Recipe;
    /// Every number, labelled as the report labels it, in print order: what
    /// `evidence compare` sets side by side.
    fn figures(&self) -> Vec<(String, f64)>;
    /// The lesson's charts of one program's runs (`program` is `cxx` or
    /// `rust`), with the reference tool's runs beside them.
    fn charts(program: &str, runs: &[&Self], references: &[&Self::Reference]) -> Vec<Chart>;
    /// The whole program output the lesson's own page prints, if it prints
    /// one: its figures are set beside the measured ones.
    fn page() -> Option<PageRun> {
        None
    }
}

/// A program output printed on a lesson's page, word for word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRun {
    /// Whose run it is, as a reader is told: "the lesson page's Tesla T4 run".
    pub source: &'static str,
    /// The output as the page prints it.
    pub transcript: &'static str,
}

/// What a reference tool recorded beside a lesson prints.
pub trait ReferenceOutput: Debug + serde::Serialize + Send + Sync + Sized + 'static {
    fn parse(body: &Lines<'_>) -> Result<Self, ParseFailure>;
    fn figures(&self) -> Vec<(String, f64)>;
}

/// The reference of a lesson that has none; it never parses.
#[derive(Debug, serde::Serialize)]
pub enum NoReference {}

impl ReferenceOutput for NoReference {
    fn parse(body: &Lines<'_>) -> Result<Self, ParseFailure> {
        Err(ParseFailure::at(
            body.first().map_or(1, |l| l.0),
            "this lesson records no reference tool",
        ))
    }

    fn figures(&self) -> Vec<(String, f64)> {
        match *self {}
    }
}
