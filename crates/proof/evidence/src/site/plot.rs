//! SVG charts of the lessons' sweeps, drawn from evidence with `plotters`
//! (its SVG backend only: no font files are read, text sizes are estimated).
//!
//! Each lesson says what to draw (`lesson_spec::Chart`: every run's value
//! at each x, and marks) and [`svg`] draws it: every point the median of
//! the runs, inside the band of their minimum to maximum; the history
//! charts are drawn the same way.
//!
//! Not for: choosing which runs to draw (the caller groups them) or
//! measuring anything.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::runs::gpu_word;
use crate::transcript::{Program, Transcript};

/// One x: the median of the runs and their range.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point {
    x: f64,
    median: f64,
    low: f64,
    high: f64,
}

impl Point {
    /// The median and the min-to-max range of `values`; None when empty.
    fn of(x: f64, values: &[f64]) -> Option<Point> {
        let s = robust_stats::stats::summarize(values)?;
        Some(Point {
            x,
            median: s.median,
            low: s.min,
            high: s.max,
        })
    }
}

/// A chart as drawn: its title and what it shows, under `subtitle`, each
/// series' points reduced to medians and ranges.
struct Chart<'c> {
    spec: &'c lesson_spec::Chart,
    subtitle: &'c str,
    series: Vec<(&'c str, RGBColor, Vec<Point>)>,
}

const SIZE: (u32, u32) = (760, 460);
const HEADING: u32 = 56;
const LEGEND: u32 = 210;
const GREY: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// The range an axis shows: whole decades on a log axis, from zero with
/// room above on a linear one.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    fn fit(values: impl Iterator<Item = f64>, log: bool) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (1.0, 10.0);
        }
        if log {
            let first = lo.log10().floor();
            Axis {
                lo: 10f64.powf(first),
                hi: 10f64.powf(hi.log10().ceil().max(first + 1.0)),
                log,
            }
        } else {
            Axis {
                lo: 0.0,
                hi: (hi * 1.15).max(1.0),
                log,
            }
        }
    }

    /// How many labels: one per decade on a log axis.
    fn labels(&self) -> usize {
        if self.log {
            (self.hi.log10() - self.lo.log10()).round() as usize + 1
        } else {
            7
        }
    }
}

/// A tick label, as short as it goes. A log axis's ticks are powers of
/// ten, the large and small ones written 1e3 and 1e-3; a linear axis's
/// ticks are written out (2000, not a second "1e3").
fn label(v: f64, log: bool) -> String {
    let decade = v.log10();
    let power_of_ten = v > 0.0 && (decade - decade.round()).abs() < 1e-9;
    if log && power_of_ten && !(1e-2..1e3).contains(&v) {
        format!("1e{}", decade.round() as i32)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        // Six decimals at most: a tick between 0 and 0.005 ms is 0.001.
        format!("{}", (v * 1e6).round() / 1e6)
    }
}

/// A chart plotters could not draw.
#[derive(Debug, thiserror::Error)]
#[error("drawing {title:?}")]
pub struct PlotError {
    pub title: String,
    #[source]
    pub source: Failure,
}

/// `spec` drawn as an SVG document under `subtitle`, the series in the
/// colours of [`PALETTE`] in turn.
pub fn svg(spec: &lesson_spec::Chart, subtitle: &str) -> Result<String, PlotError> {
    let series = spec.series.iter().zip(PALETTE.iter().cycle()).map(|(s, c)| {
        let points = s
            .points
            .iter()
            .filter_map(|(x, values)| Point::of(*x, values))
            .collect();
        (s.name.as_str(), *c, points)
    });
    let chart = Chart {
        spec,
        subtitle,
        series: series.collect(),
    };
    let mut out = String::new();
    draw(&chart, &mut out).map_err(|source| PlotError {
        title: spec.title.clone(),
        source,
    })?;
    Ok(out)
}

/// What plotters' SVG backend fails with (its writes are `io::Error`s).
pub type Failure = plotters::drawing::DrawingAreaErrorKind<std::io::Error>;

fn draw(chart: &Chart, out: &mut String) -> Result<(), Failure> {
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (heading, rest) = root.split_vertically(HEADING);
    heading.draw(&Text::new(
        chart.spec.title.clone(),
        (20, 10),
        ("sans-serif", 18).into_font().style(FontStyle::Bold),
    ))?;
    heading.draw(&Text::new(
        chart.subtitle.to_string(),
        (20, 34),
        ("sans-serif", 13).into_font().color(&GREY),
    ))?;
    let (plot, legend) = rest.split_horizontally(SIZE.0 - LEGEND);
    draw_plot(chart, &plot)?;
    draw_legend(chart, &legend)?;
    root.present()?;
    Ok(())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn draw_plot(chart: &Chart, area: &Area<'_>) -> Result<(), Failure> {
    let points = || chart.series.iter().flat_map(|s| &s.2);
    let xs = Axis::fit(points().map(|p| p.x), chart.spec.x_log);
    let levels = chart.spec.marks.iter().map(|r| r.value);
    let ys = Axis::fit(
        points().flat_map(|p| [p.low, p.high]).chain(levels),
        chart.spec.y_log,
    );
    let mut builder = ChartBuilder::on(area);
    builder.margin(12).x_label_area_size(44).y_label_area_size(64);
    // Log axes are drawn as linear axes of log10(value), so one code path
    // serves every combination; only the labels undo the logarithm.
    let to = |axis: Axis| move |v: f64| if axis.log { v.log10() } else { v };
    let from = |axis: Axis| move |v: f64| if axis.log { 10f64.powf(v) } else { v };
    let (tx, ty) = (to(xs), to(ys));
    let mut ctx = builder.build_cartesian_2d(tx(xs.lo)..tx(xs.hi), ty(ys.lo)..ty(ys.hi))?;
    ctx.configure_mesh()
        .x_labels(xs.labels())
        .y_labels(ys.labels())
        .x_label_formatter(&|v| label(from(xs)(*v), xs.log))
        .y_label_formatter(&|v| label(from(ys)(*v), ys.log))
        .x_desc(chart.spec.x_label.as_str())
        .y_desc(chart.spec.y_label.as_str())
        .light_line_style(WHITE)
        .draw()?;
    for reference in &chart.spec.marks {
        let ends = [xs.lo, xs.hi].map(|x| (tx(x), ty(reference.value)));
        ctx.draw_series(DashedLineSeries::new(ends, 6, 4, GREY.stroke_width(1)))?;
    }
    for (_, color, points) in &chart.series {
        draw_series(&mut ctx, *color, points, &tx, &ty)?;
    }
    Ok(())
}

type Context<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The band from the runs' minimum to maximum, then the medians on it.
fn draw_series(
    ctx: &mut Context<'_, '_>,
    color: RGBColor,
    points: &[Point],
    tx: &dyn Fn(f64) -> f64,
    ty: &dyn Fn(f64) -> f64,
) -> Result<(), Failure> {
    let upper = points.iter().map(|p| (tx(p.x), ty(p.high)));
    let lower = points.iter().rev().map(|p| (tx(p.x), ty(p.low)));
    let band: Vec<(f64, f64)> = upper.chain(lower).collect();
    ctx.draw_series(std::iter::once(Polygon::new(band, color.mix(0.2).filled())))?;
    let medians: Vec<(f64, f64)> = points.iter().map(|p| (tx(p.x), ty(p.median))).collect();
    ctx.draw_series(LineSeries::new(medians.clone(), color.stroke_width(2)))?;
    ctx.draw_series(medians.into_iter().map(|p| Circle::new(p, 3, color.filled())))?;
    Ok(())
}

/// Beside the plot: a swatch and a name per series, then each reference.
fn draw_legend(chart: &Chart, area: &Area<'_>) -> Result<(), Failure> {
    let font = ("sans-serif", 15).into_font();
    let mut y = 24;
    for (name, color, _) in &chart.series {
        area.draw(&Rectangle::new(
            [(4, y - 7), (30, y + 7)],
            color.mix(0.2).filled(),
        ))?;
        area.draw(&PathElement::new([(4, y), (30, y)], color.stroke_width(3)))?;
        area.draw(&Text::new(name.to_string(), (38, y - 7), font.clone()))?;
        y += 24;
    }
    for r in &chart.spec.marks {
        area.draw(&PathElement::new([(4, y), (30, y)], GREY.stroke_width(1)))?;
        for line in wrap(&r.label, 24) {
            area.draw(&Text::new(line, (38, y - 7), font.clone().color(&GREY)))?;
            y += 16;
        }
        y += 8;
    }
    Ok(())
}

/// Words into lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

// The lesson builders: which numbers of which lesson make which chart.

/// The GPU, the number of runs and the first date of a group.
pub fn describe(group: &[&Transcript]) -> String {
    let gpu = group
        .first()
        .map(|t| t.header.gpu_name().to_string())
        .unwrap_or_default();
    let date = group
        .iter()
        .map(|t| t.header.date.get(..10).unwrap_or(""))
        .min()
        .unwrap_or("");
    format!(
        "{gpu}, {} run(s) recorded from {date}: line the median, band min to max",
        group.len()
    )
}

/// The series colours, in order (colour-blind safe, from ColorBrewer's Dark2).
pub const PALETTE: [RGBColor; 4] = [
    RGBColor(0xd9, 0x5f, 0x02),
    RGBColor(0x1b, 0x9e, 0x77),
    RGBColor(0x75, 0x70, 0xb3),
    RGBColor(0xe7, 0x29, 0x8a),
];

/// One drawn chart of a lesson: its file stem, title and SVG.
pub struct Drawn {
    pub stem: String,
    pub title: String,
    pub svg: String,
}

/// Every chart of `lesson`: each program's plain runs (a variant such as
/// `-eager`, or a diagnostic name, measures something else), with the
/// lesson's reference runs beside them. With `gpu`, only that GPU's runs,
/// and the stems end in `-<gpu>` (see [`gpu_word`]).
pub fn lesson_charts(
    all: &[Transcript],
    lesson: &dyn lesson_spec::Lesson,
    gpu: Option<&str>,
) -> Result<Vec<Drawn>, PlotError> {
    let on_gpu = |t: &&Transcript| gpu.is_none_or(|g| t.header.gpu_name() == g);
    let reference = lesson.recipe().reference.map(|r| r.name);
    let references: Vec<&dyn lesson_spec::Parsed> = match reference {
        Some(name) => crate::runs::group(all, lesson.name(), name)
            .into_iter()
            .filter(on_gpu)
            .filter_map(|t| t.body.parsed())
            .collect(),
        None => Vec::new(),
    };
    let mut drawn = Vec::new();
    for program in Program::TWINS {
        let plain = format!("-{}.txt", program.word());
        let runs: Vec<&Transcript> = all
            .iter()
            .filter(|t| t.header.lesson == lesson.name() && t.header.exit_code == 0)
            .filter(|t| t.file.ends_with(&plain) && !t.under_sanitizer())
            .filter(on_gpu)
            .collect();
        let parsed: Vec<&dyn lesson_spec::Parsed> = runs.iter().filter_map(|t| t.body.parsed()).collect();
        for spec in lesson.charts(program.word(), &parsed, &references) {
            let stem = match gpu {
                Some(g) => format!("{}-{}", spec.stem, gpu_word(g)),
                None => spec.stem.clone(),
            };
            let svg = svg(&spec, &describe(&runs))?;
            drawn.push(Drawn {
                stem,
                title: spec.title.clone(),
                svg,
            });
        }
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_cover_whole_decades() {
        let a = Axis::fit([0.002, 11.3].into_iter(), true);
        assert_eq!((a.lo, a.hi), (0.001, 100.0));
        assert_eq!(a.labels(), 6);
    }

    #[test]
    fn linear_axes_start_at_zero_with_room_above() {
        let a = Axis::fit([6.6, 55.2].into_iter(), false);
        assert_eq!(a.lo, 0.0);
        assert!(a.hi > 55.2);
    }

    #[test]
    fn a_point_is_the_median_inside_the_range_of_the_runs() {
        let p = Point::of(4.0, &[3.0, 1.0, 10.0, 2.0]).unwrap();
        assert_eq!((p.x, p.median, p.low, p.high), (4.0, 2.5, 1.0, 10.0));
        assert_eq!(Point::of(1.0, &[]), None);
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(label(1e6, true), "1e6");
        assert_eq!(label(0.001, true), "1e-3");
        assert_eq!(label(100.0, true), "100");
        assert_eq!(label(20.0, false), "20");
        assert_eq!(label(0.1 + 0.2, false), "0.3");
        // A linear axis's ticks past 1000 are each their own number.
        assert_eq!(label(1000.0, false), "1000");
        assert_eq!(label(2000.0, false), "2000");
        assert_eq!(label(3000.0, false), "3000");
        assert_eq!(label(0.005, false), "0.005");
    }

    #[test]
    fn long_labels_wrap_at_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
    }

    fn chart(marks: Vec<lesson_spec::Mark>) -> lesson_spec::Chart {
        lesson_spec::Chart {
            stem: "t".into(),
            title: "T <1>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_log: true,
            y_log: true,
            series: vec![lesson_spec::Series {
                name: "pinned".into(),
                points: vec![(1.0, vec![30.0, 28.0, 33.0]), (256.0, vec![55.0, 54.0, 56.0])],
            }],
            marks,
        }
    }

    /// Whether the SVG shows `text` as one text element.
    fn shows(svg: &str, text: &str) -> bool {
        svg.contains(&format!(">\n{text}\n</text>"))
    }

    #[test]
    fn the_svg_has_each_series_band_points_and_reference() {
        let mark = lesson_spec::Mark {
            value: 54.7,
            label: "ref line".into(),
        };
        let s = svg(&chart(vec![mark]), "s").unwrap();
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"), "{s}");
        assert!(shows(&s, "T &lt;1&gt;"), "{s}");
        assert!(shows(&s, "pinned") && shows(&s, "ref line"), "{s}");
        assert_eq!(s.matches("<circle").count(), 2, "{s}");
        assert_eq!(s.matches("<polygon").count(), 1, "one band: {s}");
    }
}
