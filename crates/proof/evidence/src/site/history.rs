//! Each lesson's figures over the sessions: a chart per figure and GPU, a
//! line per run name (the C++ and Rust programs, a variant), each session a
//! point at its median inside a band from its lowest to its highest value,
//! drawn by [`crate::site::plot`] like the lesson's own charts.

use std::collections::BTreeMap;

use lesson_spec::Lesson;

use crate::history::Series;
use crate::runs::gpu_word;
use crate::site::context::{Evidence, SiteChart};
use crate::site::error::SiteError;
use crate::site::plot::{self, PALETTE};
use crate::transcript;

/// One chart: a figure (its folder and label) on one GPU.
type ChartKey<'h> = (&'h str, &'h str, &'h str);

/// The history charts of `lesson`: every figure recorded in at least two
/// sessions of one GPU, a line for each of its run names (at most as many
/// as the palette has colours, those of the most sessions first).
pub fn charts(ev: &Evidence, lesson: &dyn Lesson) -> Result<Vec<SiteChart>, SiteError> {
    let mut grouped: BTreeMap<ChartKey, Vec<&Series>> = BTreeMap::new();
    for s in ev.history.iter().filter(|s| s.figure.lesson == lesson.name()) {
        grouped
            .entry((&s.figure.folder, &s.figure.label, &s.gpu))
            .or_default()
            .push(s);
    }
    let mut out = Vec::new();
    for (n, ((folder, label, gpu), mut lines)) in grouped.into_iter().enumerate() {
        lines.retain(|s| s.points.len() >= 2);
        if lines.is_empty() {
            continue;
        }
        lines.sort_by_key(|s| std::cmp::Reverse(s.points.len()));
        lines.truncate(PALETTE.len());
        let first = lines
            .iter()
            .flat_map(|s| &s.points)
            .filter_map(|p| transcript::date(&p.session.start))
            .min();
        let Some(first) = first else { continue };
        let days = |start: &str| transcript::date(start).map(|d| (d - first).as_seconds_f64() / 86_400.0);
        let chart = lesson_spec::Chart {
            stem: String::new(),
            title: label.to_string(),
            x_label: format!("days since {}", first.date()),
            y_label: label.rsplit(", ").next().unwrap_or(label).to_string(),
            x_log: false,
            y_log: false,
            series: lines
                .iter()
                .map(|s| lesson_spec::Series {
                    name: s.figure.run.clone(),
                    points: s
                        .points
                        .iter()
                        .filter_map(|p| Some((days(&p.session.start)?, p.values.clone())))
                        .collect(),
                })
                .collect(),
            marks: Vec::new(),
        };
        let subtitle = format!("{gpu}, {folder}: a point per session at its median, band lowest to highest");
        out.push(SiteChart {
            path: format!(
                "plots/history/{}-{:02}-{}.svg",
                lesson.name(),
                n + 1,
                gpu_word(gpu)
            ),
            title: label.to_string(),
            gpu: gpu.to_string(),
            svg: plot::svg(&chart, &subtitle)?,
        });
    }
    Ok(out)
}
