//! Each figure a claim or a cause reads, per GPU, over that GPU's
//! recording sessions ([`crate::sessions`]): every value each session's
//! runs recorded, session by session, for the lesson pages' history charts
//! and for what changed ([`crate::changes`]).
//!
//! A figure is one label of one run name (`h200-cxx`, `h200-d10-why`) in
//! one evidence folder: the C++ and Rust programs, or a variant such as
//! `-eager`, measure different things, so each is its own line.
//!
//! Not for: judging a figure (claims and causes do that over every run)
//! or drawing it (`site-build`'s `plot`).

use std::collections::BTreeMap;

use lesson_spec::Lesson;

use crate::runs::{in_group, run_name};
use crate::sessions::Session;
use crate::transcript::{Body, Transcript};
use crate::{judge, why};

/// One figure: the lesson whose page shows it, and where its values are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Figure {
    /// The lesson whose claim or cause reads it.
    pub lesson: &'static str,
    /// The evidence folder of the runs: the lesson's, or `diagnostics`.
    pub folder: String,
    /// The runs' name, GPU word first (`h200-cxx`).
    pub run: String,
    pub label: String,
}

/// Which way a figure's unit points, read from its label's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A time (`, ms`, `, us`, `, s`): lower is faster.
    Time,
    /// A rate (`GB/s`, any `/s`): higher is faster.
    Rate,
    /// Anything else (a share, a ratio, a count): it moves up or down.
    Neither,
}

impl Direction {
    pub fn of(label: &str) -> Direction {
        let unit = label.rsplit(", ").next().unwrap_or(label).trim();
        match unit {
            "ms" | "us" | "s" | "ns" => Direction::Time,
            u if u.ends_with("/s") => Direction::Rate,
            _ => Direction::Neither,
        }
    }
}

/// One session's values of a figure, in the order its runs started.
#[derive(Debug, Clone)]
pub struct Point<'s, 'a> {
    pub session: &'s Session<'a>,
    pub values: Vec<f64>,
}

/// A figure on one GPU over the sessions that recorded it, oldest first.
#[derive(Debug, Clone)]
pub struct Series<'s, 'a> {
    pub figure: Figure,
    pub gpu: String,
    pub points: Vec<Point<'s, 'a>>,
}

impl Series<'_, '_> {
    pub fn direction(&self) -> Direction {
        Direction::of(&self.figure.label)
    }
}

/// What a run's lesson reads of it: the claim figures' patterns of its own
/// lesson, and every cause (of any lesson) whose runs it is among.
struct Readers {
    claims: BTreeMap<&'static str, Vec<&'static str>>,
    causes: Vec<(&'static str, &'static lesson_spec::Source)>,
}

impl Readers {
    fn of(lessons: &[&'static dyn Lesson]) -> Readers {
        let claims = lessons
            .iter()
            .map(|l| {
                let patterns = judge::all(*l)
                    .iter()
                    .flat_map(|c| c.figures.iter().copied())
                    .collect();
                (l.name(), patterns)
            })
            .collect();
        let causes = lessons
            .iter()
            .flat_map(|l| {
                l.whys()
                    .iter()
                    .flat_map(move |w| w.figures.iter().map(move |s| (l.name(), s)))
            })
            .collect();
        Readers { claims, causes }
    }

    /// Every (figure, value) that a claim or cause reads in `t`.
    fn read(&self, t: &Transcript) -> Vec<(Figure, f64)> {
        if t.header.exit_code != 0 || t.under_sanitizer() {
            return Vec::new();
        }
        let run = run_name(&t.file);
        let figure = |lesson: &'static str, label: &str| Figure {
            lesson,
            folder: t.header.lesson.clone(),
            run: run.to_string(),
            label: label.to_string(),
        };
        let mut out = Vec::new();
        if let (Body::Report(_), Some((lesson, patterns))) =
            (&t.body, self.claims.get_key_value(t.header.lesson.as_str()))
        {
            for (label, value) in &t.figures {
                if patterns.iter().any(|p| lesson_spec::figure_matches(p, label)) {
                    out.push((figure(lesson, label), *value));
                }
            }
        }
        for (lesson, source) in &self.causes {
            let named = source.runs.split_whitespace().any(|name| in_group(&t.file, name));
            if source.folder == t.header.lesson && named {
                for value in why::values_in(t, source.label) {
                    let f = figure(lesson, source.label);
                    if !out.contains(&(f.clone(), value)) {
                        out.push((f, value));
                    }
                }
            }
        }
        out
    }
}

/// Every figure a claim or cause reads, on each GPU, over `sessions`
/// (oldest first, as [`crate::sessions::of`] gives them); by lesson, GPU,
/// then folder, run and label.
pub fn of<'s, 'a>(sessions: &'s [Session<'a>]) -> Vec<Series<'s, 'a>> {
    let readers = Readers::of(lessons::LESSONS);
    let mut series: BTreeMap<(&'static str, String, Figure), Vec<Point<'s, 'a>>> = BTreeMap::new();
    for session in sessions {
        for t in &session.runs {
            for (figure, value) in readers.read(t) {
                let points = series
                    .entry((figure.lesson, session.gpu.clone(), figure))
                    .or_default();
                match points.last_mut() {
                    Some(p) if std::ptr::eq(p.session, session) => p.values.push(value),
                    _ => points.push(Point {
                        session,
                        values: vec![value],
                    }),
                }
            }
        }
    }
    series
        .into_iter()
        .map(|((_, gpu, figure), points)| Series { figure, gpu, points })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Direction;

    #[test]
    fn a_figure_s_unit_says_which_way_is_faster() {
        assert_eq!(Direction::of("row 4 after warm-up, ms"), Direction::Time);
        assert_eq!(Direction::of("spin wake-up, us"), Direction::Time);
        assert_eq!(Direction::of("1 MiB pinned, GB/s"), Direction::Rate);
        assert_eq!(Direction::of("events spread, %"), Direction::Neither);
        assert_eq!(Direction::of("zero-copy / resident"), Direction::Neither);
    }
}
