//! A lesson as the shared tools see it: any [`LessonReport`] behind the one
//! [`Lesson`] trait, its report type erased, so the tools hold one list of
//! lessons.
//!
//! Not for: what a report package implements (that is [`LessonReport`]).

use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;

use crate::chart::Chart;
use crate::claims::{ClaimInfo, Outcome, Run};
use crate::figure_blocks::Figure;
use crate::lines::{numbered_output, Lines, ParseFailure};
use crate::recipe::Recipe;
use crate::report::{LessonReport, ReferenceOutput};
use crate::why::Why;

/// A parsed program output of some lesson, its type erased.
pub trait Parsed: Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn to_json(&self) -> serde_json::Value;
    fn figures(&self) -> Vec<(String, f64)>;
}

/// A report or a reference tool's output, with what lists its figures.
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
    /// The figures of the run the lesson's page prints
    /// ([`LessonReport::page`]), with whose run it is.
    fn page_figures(&self) -> Option<(&'static str, Vec<(String, f64)>)>;
    /// Checks claim `id` on `run` against `peers`; not applicable to
    /// another lesson's reports or an unknown id.
    fn check(&self, id: &str, run: Run<'_, dyn Parsed>, peers: &[Run<'_, dyn Parsed>]) -> Outcome;
    /// As [`Lesson::check`], every report changed by the claim's plant
    /// first ([`crate::claims::planted`]).
    fn check_planted(&self, id: &str, run: Run<'_, dyn Parsed>, peers: &[Run<'_, dyn Parsed>]) -> Outcome;
    fn expected_failures(&self) -> &'static str;
    /// The figures the lesson's documents name ([`LessonReport::FIGURES`]).
    fn document_figures(&self) -> &'static [Figure];
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

    fn check_planted(&self, id: &str, run: Run<'_, dyn Parsed>, peers: &[Run<'_, dyn Parsed>]) -> Outcome {
        let (Some(claim), Some(run)) = (R::claims().iter().find(|c| c.id == id), downcast::<R>(run)) else {
            return Outcome::NotApplicable;
        };
        let peers: Vec<Run<'_, R>> = peers.iter().filter_map(|p| downcast::<R>(*p)).collect();
        crate::claims::planted(claim, &run, &peers)
    }

    fn expected_failures(&self) -> &'static str {
        R::expected_failures()
    }

    fn document_figures(&self) -> &'static [Figure] {
        R::FIGURES
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
