//! What every lesson tells the shared tools about itself.
//!
//! A lesson directory holds a small pure-Rust package (`code/<lesson>/report`)
//! with its report type, which implements [`LessonReport`]: how the report
//! prints and parses, the page's claims and the figures each reads, the
//! page's own run where it prints one, the causes its README gives as
//! checks ([`why`]), the charts and the recording recipe.
//! The Rust twin renders its report with it; `evidence` parses transcripts,
//! checks claims, compares and plots with it; the recording scripts read its
//! recipe. The shared tools see a lesson through [`Lesson`], which
//! [`Entry`] makes from any [`LessonReport`], so they hold one list of lessons
//! and no lesson's name or numbers.
//!
//! What every report package would otherwise write alike in its impl is
//! declared by [`lesson_items!`]. A parser's failure names its line
//! ([`ParseFailure`]).
//!
//! Not for: CUDA (nothing here links it, so the tools build without nvcc),
//! reading transcript headers (that is `evidence`'s), or holding a lesson
//! to this contract in its tests (`lesson-testkit`'s `conformance_tests!`,
//! a dev-dependency).

pub mod chart;
pub mod claims;
pub mod figure_blocks;
pub mod lines;
pub mod nvcc_line;
pub mod on_this_gpu;
pub mod recipe;
pub mod why;

use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;

pub use chart::{Chart, Mark, Series};
pub use claims::{figure_matches, median, verdict, Claim, ClaimInfo, ExpectedFailures, Outcome, Run};
pub use lines::{ms_at_end, number, numbered_output, quoted, Cursor, Finite, Lines, ParseFailure};
pub use on_this_gpu::{claims_block, ClaimsBlock, ClaimsBlockError};
pub use recipe::{Recipe, Reference, Variant};
pub use why::{Source, Why};

/// A lesson's report: what its programs print, as numbers.
pub trait LessonReport: Debug + serde::Serialize + Send + Sync + Sized + 'static {
    /// The lesson's directory under `code/`, and its package and binary name.
    const LESSON: &'static str;
    /// What the lesson's reference tool prints, or [`NoReference`].
    type Reference: ReferenceOutput;

    /// Reads the report from a program's output. Errors name the line.
    fn parse(body: &Lines<'_>) -> Result<Self, ParseFailure>;
    /// The lesson page's claims.
    fn claims() -> &'static [Claim<Self>];
    /// The causes the lesson's README gives, as checks ([`why`]).
    fn whys() -> &'static [Why];
    /// The lesson's expected-failure list (`expected-failures.txt` in its
    /// directory), as text.
    fn expected_failures() -> &'static str;
    /// How the lesson is recorded.
    fn recipe() -> Recipe;
    /// Every number, labelled as the report labels it, in print order: what
    /// `evidence compare` sets side by side.
    fn figures(&self) -> Vec<(String, f64)>;
    /// The lesson's charts of one program's runs (`program` is `cxx` or
    /// `rust`), with the reference tool's runs beside them.
    fn charts(program: &str, runs: &[&Self], references: &[&Self::Reference]) -> Vec<Chart>;
    /// The run the lesson's own page prints, where it prints a whole output
    /// of the program that [`LessonReport::parse`] reads: the page's
    /// figures, to set beside the measured ones. `None` by default. The
    /// conformance tests parse it.
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

/// The items of a report package's [`LessonReport`] impl that every lesson
/// writes alike, declared: its name, its parser, its claims and its
/// `expected-failures.txt` (in the lesson directory, beside `report/`),
/// and its causes' checks ([`why`]).
///
/// ```ignore
/// impl LessonReport for Report {
///     lesson_spec::lesson_items!(lesson: "day09-timing", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
///     type Reference = NoReference;
///     fn recipe() -> Recipe { ... }
///     // figures, charts
/// }
/// ```
#[macro_export]
macro_rules! lesson_items {
    (lesson: $lesson:literal, parse: $parse:path, claims: $claims:path, whys: $whys:path $(,)?) => {
        const LESSON: &'static str = $lesson;

        fn parse(body: &$crate::Lines<'_>) -> Result<Self, $crate::ParseFailure> {
            $parse(body)
        }

        fn claims() -> &'static [$crate::Claim<Self>] {
            $claims
        }

        fn whys() -> &'static [$crate::Why] {
            $whys
        }

        fn expected_failures() -> &'static str {
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../expected-failures.txt"
            ))
        }
    };
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

/// A parsed program output of some lesson, its type erased.
pub trait Parsed: Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn to_json(&self) -> serde_json::Value;
    fn figures(&self) -> Vec<(String, f64)>;
}

/// A report or a reference tool's output behind [`Parsed`], with the
/// function that lists its figures.
struct Erased<T> {
    value: T,
    figures: fn(&T) -> Vec<(String, f64)>,
}

impl<T: Debug> Debug for Erased<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: Debug + serde::Serialize + Send + Sync + 'static> Parsed for Erased<T> {
    fn as_any(&self) -> &dyn Any {
        &self.value
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.value).unwrap_or(serde_json::Value::Null)
    }
    fn figures(&self) -> Vec<(String, f64)> {
        (self.figures)(&self.value)
    }
}

/// A lesson as the shared tools see it. Made by [`Entry`].
pub trait Lesson: Sync {
    fn name(&self) -> &'static str;
    fn recipe(&self) -> Recipe;
    /// Parses a program's output into the lesson's report.
    fn parse_report(&self, body: &Lines<'_>) -> Result<Box<dyn Parsed>, ParseFailure>;
    /// Parses the reference tool's output.
    fn parse_reference(&self, body: &Lines<'_>) -> Result<Box<dyn Parsed>, ParseFailure>;
    fn claims(&self) -> Vec<ClaimInfo>;
    /// The causes the lesson's README gives, as checks.
    fn whys(&self) -> &'static [Why];
    /// The figures of the run the lesson's page prints (see
    /// [`LessonReport::page`]), with whose run it is. `None` for a lesson
    /// whose page prints none, or one that does not parse, which the
    /// lesson's conformance tests rule out.
    fn page_figures(&self) -> Option<(&'static str, Vec<(String, f64)>)>;
    /// Checks claim `id` on `run` against `peers`. Reports of another
    /// lesson, or an unknown id, are not applicable.
    fn check(&self, id: &str, run: Run<'_, dyn Parsed>, peers: &[Run<'_, dyn Parsed>]) -> Outcome;
    fn expected_failures(&self) -> &'static str;
    /// The charts of one program's runs; outputs of another type are left out.
    fn charts(&self, program: &str, runs: &[&dyn Parsed], references: &[&dyn Parsed]) -> Vec<Chart>;
}

/// The [`Lesson`] of a report type: `&Entry::<Report>::NEW`.
pub struct Entry<R>(PhantomData<fn() -> R>);

impl<R> Entry<R> {
    pub const NEW: Self = Entry(PhantomData);
}

fn downcast<'a, R: 'static>(run: Run<'a, dyn Parsed>) -> Option<Run<'a, R>> {
    Some(Run {
        report: run.report.as_any().downcast_ref::<R>()?,
        environment: run.environment,
    })
}

impl<R: LessonReport> Lesson for Entry<R> {
    fn name(&self) -> &'static str {
        R::LESSON
    }

    fn recipe(&self) -> Recipe {
        R::recipe()
    }

    fn parse_report(&self, body: &Lines<'_>) -> Result<Box<dyn Parsed>, ParseFailure> {
        Ok(Box::new(Erased {
            value: R::parse(body)?,
            figures: R::figures,
        }))
    }

    fn parse_reference(&self, body: &Lines<'_>) -> Result<Box<dyn Parsed>, ParseFailure> {
        Ok(Box::new(Erased {
            value: R::Reference::parse(body)?,
            figures: R::Reference::figures,
        }))
    }

    fn claims(&self) -> Vec<ClaimInfo> {
        R::claims()
            .iter()
            .map(|c| ClaimInfo {
                id: c.id,
                statement: c.statement,
                figures: c.figures,
            })
            .collect()
    }

    fn whys(&self) -> &'static [Why] {
        R::whys()
    }

    fn page_figures(&self) -> Option<(&'static str, Vec<(String, f64)>)> {
        let page = R::page()?;
        let report = R::parse(&numbered_output(page.transcript)).ok()?;
        Some((page.source, report.figures()))
    }

    fn check(&self, id: &str, run: Run<'_, dyn Parsed>, peers: &[Run<'_, dyn Parsed>]) -> Outcome {
        let (Some(claim), Some(run)) = (R::claims().iter().find(|c| c.id == id), downcast::<R>(run)) else {
            return Outcome::NotApplicable;
        };
        let peers: Vec<Run<'_, R>> = peers.iter().filter_map(|p| downcast::<R>(*p)).collect();
        (claim.check)(&run, &peers)
    }

    fn expected_failures(&self) -> &'static str {
        R::expected_failures()
    }

    fn charts(&self, program: &str, runs: &[&dyn Parsed], references: &[&dyn Parsed]) -> Vec<Chart> {
        let runs: Vec<&R> = runs.iter().filter_map(|p| p.as_any().downcast_ref()).collect();
        let references: Vec<&R::Reference> = references
            .iter()
            .filter_map(|p| p.as_any().downcast_ref())
            .collect();
        if runs.is_empty() {
            return Vec::new();
        }
        R::charts(program, &runs, &references)
    }
}
