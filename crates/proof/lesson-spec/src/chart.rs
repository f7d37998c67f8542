//! What a lesson's charts show, as data: series of values per x over every
//! run, and horizontal marks. `evidence plot` draws them (the median as a
//! line, the spread as a band); a lesson only says what to draw.

/// One chart of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The file name without extension, `<lesson>-<what>-<program>`.
    pub stem: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
}

/// A line: at each x, the value from every run.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, Vec<f64>)>,
}

/// A horizontal reference line with its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub value: f64,
    pub label: String,
}

impl Series {
    /// A series from reports: `xs` picks the x values from the first report,
    /// `value` a report's value at one x (`None` where it has none).
    pub fn over<R>(
        name: &str,
        reports: &[&R],
        xs: impl Fn(&R) -> Vec<f64>,
        value: impl Fn(&R, f64) -> Option<f64>,
    ) -> Series {
        let points = reports
            .first()
            .map(|first| xs(first))
            .unwrap_or_default()
            .into_iter()
            .map(|x| (x, reports.iter().filter_map(|r| value(r, x)).collect()))
            .collect();
        Series {
            name: name.to_string(),
            points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_gathers_every_runs_value_at_each_x() {
        let a = vec![(1.0, 10.0), (2.0, 20.0)];
        let b = vec![(1.0, 12.0), (2.0, 18.0)];
        let s = Series::over(
            "s",
            &[&a, &b],
            |r| r.iter().map(|p| p.0).collect(),
            |r, x| r.iter().find(|p| p.0 == x).map(|p| p.1),
        );
        assert_eq!(s.points, [(1.0, vec![10.0, 12.0]), (2.0, vec![20.0, 18.0])]);
    }
}
