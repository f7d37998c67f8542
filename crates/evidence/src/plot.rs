//! SVG charts of the lessons' evidence: each lesson says what to draw
//! (`lesson_spec::Chart`), this draws it. Plain SVG, no dependencies.

use std::fmt::Write;

use lesson_spec::median;

use crate::transcript::Transcript;

pub struct Series {
    pub name: String,
    pub color: &'static str,
    pub points: Vec<(f64, f64)>,
}

pub struct Chart {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub series: Vec<Series>,
    /// A horizontal reference line: value and label.
    pub reference: Option<(f64, String)>,
}

const W: f64 = 720.0;
const H: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 60.0;

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
            Axis {
                lo: 10f64.powf(lo.log10().floor()),
                hi: 10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0)),
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

    /// 0..1 along the axis.
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (self.lo.log10().round() as i32, self.hi.log10().round() as i32);
            (a..=b).map(|e| 10f64.powi(e)).collect()
        } else {
            let step = nice_step(self.hi / 6.0);
            (0..)
                .map(|i| i as f64 * step)
                .take_while(|v| *v <= self.hi)
                .collect()
        }
    }
}

fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}

fn label(v: f64) -> String {
    if v >= 1e3 || (v > 0.0 && v < 1e-2) {
        let e = v.log10().round() as i32;
        format!("1e{e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The chart as an SVG document.
pub fn svg(chart: &Chart) -> String {
    let xs = Axis::fit(
        chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)),
        chart.x_log,
    );
    let ys = Axis::fit(
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .chain(chart.reference.iter().map(|r| r.0)),
        chart.y_log,
    );
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let px = |x: f64| LEFT + xs.frac(x) * pw;
    let py = |y: f64| TOP + (1.0 - ys.frac(y)) * ph;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(o, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        o,
        r#"<text x="{LEFT}" y="24" font-size="16" font-weight="bold">{}</text>"#,
        esc(&chart.title)
    );
    let _ = writeln!(
        o,
        r##"<text x="{LEFT}" y="42" fill="#555">{}</text>"##,
        esc(&chart.subtitle)
    );
    for t in xs.ticks() {
        let x = px(t);
        let _ = writeln!(
            o,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP + ph,
            TOP + ph + 16.0,
            label(t)
        );
    }
    for t in ys.ticks() {
        let y = py(t);
        let _ = writeln!(
            o,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            y + 4.0,
            label(t)
        );
    }
    let _ = writeln!(
        o,
        r##"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    let _ = writeln!(
        o,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + pw / 2.0,
        H - 18.0,
        esc(&chart.x_label)
    );
    let _ = writeln!(
        o,
        r#"<text transform="translate(20 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + ph / 2.0,
        esc(&chart.y_label)
    );
    if let Some((value, text)) = &chart.reference {
        let y = py(*value);
        let _ = writeln!(
            o,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#999" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" fill="#555">{}</text>"##,
            LEFT + pw,
            LEFT + 6.0,
            y - 6.0,
            esc(text)
        );
    }
    for (i, s) in chart.series.iter().enumerate() {
        let points: Vec<String> = s
            .points
            .iter()
            .map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y)))
            .collect();
        let _ = writeln!(
            o,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            points.join(" "),
            s.color
        );
        for (x, y) in &s.points {
            let _ = writeln!(
                o,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}"/>"#,
                px(*x),
                py(*y),
                s.color
            );
        }
        let ly = TOP + 10.0 + 22.0 * i as f64;
        let lx = LEFT + pw + 16.0;
        let _ = writeln!(
            o,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{}" stroke-width="3"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 22.0,
            s.color,
            lx + 28.0,
            ly + 4.0,
            esc(&s.name)
        );
    }
    o.push_str("</svg>\n");
    o
}

const PALETTE: [&str; 4] = ["#d95f02", "#1b9e77", "#7570b3", "#e7298a"];

/// A lesson's chart drawn as medians per x, under `subtitle`.
pub fn from_spec(spec: &lesson_spec::Chart, subtitle: String) -> Chart {
    Chart {
        title: spec.title.clone(),
        subtitle,
        x_label: spec.x_label.clone(),
        y_label: spec.y_label.clone(),
        x_log: spec.x_log,
        y_log: spec.y_log,
        series: spec
            .series
            .iter()
            .zip(PALETTE.iter().cycle())
            .map(|(s, color)| Series {
                name: s.name.clone(),
                color,
                points: s
                    .points
                    .iter()
                    .filter_map(|(x, values)| median(values.clone()).map(|m| (*x, m)))
                    .collect(),
            })
            .collect(),
        reference: spec.marks.first().map(|m| (m.value, m.label.clone())),
    }
}

/// The GPU, the number of runs and the first date of a group.
pub fn describe(group: &[&Transcript]) -> String {
    let gpu = group
        .first()
        .map(|t| t.header.gpu_name().to_string())
        .unwrap_or_default();
    let dates: Vec<&str> = group
        .iter()
        .map(|t| t.header.date.get(..10).unwrap_or(""))
        .collect();
    let date = dates.iter().min().copied().unwrap_or("");
    format!("{gpu}, median of {} run(s), recorded {date}", group.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_cover_whole_decades_and_place_points_inside() {
        let a = Axis::fit([0.002, 11.3].into_iter(), true);
        assert_eq!((a.lo, a.hi), (0.001, 100.0));
        assert!(a.frac(0.002) > 0.0 && a.frac(11.3) < 1.0);
        assert_eq!(a.ticks().len(), 6);
    }

    #[test]
    fn linear_axes_start_at_zero_with_round_ticks() {
        let a = Axis::fit([6.6, 55.2].into_iter(), false);
        assert_eq!(a.lo, 0.0);
        assert!(a.hi > 55.2);
        assert_eq!(a.ticks(), [0.0, 20.0, 40.0, 60.0]);
    }

    #[test]
    fn the_svg_has_every_series_and_the_reference_line() {
        let chart = Chart {
            title: "T <1>".into(),
            subtitle: "s".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_log: true,
            y_log: false,
            series: vec![Series {
                name: "pinned".into(),
                color: "#000",
                points: vec![(1.0, 30.0), (256.0, 55.0)],
            }],
            reference: Some((54.7, "ref".into())),
        };
        let s = svg(&chart);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("T &lt;1&gt;"));
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains("stroke-dasharray") && s.contains(">ref<"));
    }
}
