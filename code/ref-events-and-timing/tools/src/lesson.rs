//! The [`LessonReport`] impl: the figures, charts and recording recipe.

use lesson_spec::{Chart, LessonReport, NoReference, Recipe, Series};

use crate::parse::parse;
use crate::report::Report;
use crate::{claims, parts, why};

impl LessonReport for Report {
    lesson_spec::lesson_items!(lesson: "ref-events-and-timing", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
    const FIGURES: &'static [lesson_spec::Figure] = crate::figures::FIGURES;
    type Reference = NoReference;

    fn recipe() -> Recipe {
        Recipe {
            nvcc: "nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o events events.cu",
            runs: 5,
            variants: &[],
            reference: None,
            // racecheck and synccheck as well: Part 5 hands data from one
            // stream's kernel to another's through an event alone.
            sanitizers: &["memcheck", "racecheck", "synccheck"],
        }
    }

    fn figures(&self) -> Vec<(String, f64)> {
        let mut f = Vec::new();
        for r in &self.launch.rows {
            f.push((
                format!("{} ms kernel, launch alone, us", r.kernel_ms),
                r.launch_us,
            ));
            f.push((format!("{} ms kernel, launch + sync, us", r.kernel_ms), r.sync_us));
        }
        let (s, w, d, b) = (&self.spread, &self.wait, &self.disable_timing, &self.boost);
        let (x, i) = (&self.cross_stream, &self.interval);
        let mut named = vec![
            ("events median, ms", s.events.median_ms),
            ("events spread, %", s.events.percent()),
            ("events+sync median, ms", s.events_sync.median_ms),
            ("events+sync spread, %", s.events_sync.percent()),
            ("host+sync median, ms", s.host.median_ms),
            ("host+sync spread, %", s.host.percent()),
            ("spin wait CPU share, %", w.spin.cpu_share()),
            ("blocking wait CPU share, %", w.blocking.cpu_share()),
            ("spin wake-up, us", w.spin.latency_us),
            ("blocking wake-up, us", w.blocking.latency_us),
            ("record + wait, timing event, us", d.host_timing_us),
            ("record + wait, DisableTiming, us", d.host_disabled_us),
            ("chain link, no events, us", d.chain_none_us),
            ("chain link, timing events, us", d.chain_timing_us),
            ("chain link, DisableTiming, us", d.chain_disabled_us),
            ("cross-stream calls, ms", x.issue_ms),
            ("producer end to consumer start, ms", x.gap_ms),
            ("interval, queued ahead, ms", i.queued.interval_ms),
            ("interval, host delay, ms", i.delayed.interval_ms),
            ("interval, competing stream, ms", i.competing.interval_ms),
            ("first launches after idle, ms", b.first_mean_ms()),
            ("steady launches, ms", b.steady_ms()),
            ("SM clock, first launches, MHz", b.first_mhz()),
            ("SM clock, steady launches, MHz", b.steady_mhz()),
            ("page pattern, ms", self.pattern.page_ms),
            ("timeKernel, ms", self.pattern.time_kernel_ms),
            ("launch 1 after idle, ms", b.launch(1).map_or(f64::NAN, |l| l.ms)),
            ("launches 2 and 3 after idle, ms", b.first_but_one_mean_ms()),
        ];
        // Columns newer programs print: the wait measured from the moment
        // every call had returned, less the kernel's event time, and Part 7's
        // kernel and launch call times. The first is a lower bound of the
        // wake-up, not a duration: the event interval holds part of the
        // launch's submission, so it is negative when the wake-up is shorter
        // than that part. Its unit says `(signed)`, which tells the evidence
        // checker that a value below zero is no impossible time.
        if let (Some(spin), Some(blocking)) = (w.spin.after_calls_us, w.blocking.after_calls_us) {
            named.push(("spin wait after the calls less the kernel, us (signed)", spin));
            named.push((
                "blocking wait after the calls less the kernel, us (signed)",
                blocking,
            ));
        }
        if let Some(first) = b.launch(1).and_then(|l| l.inside).filter(|_| b.has_inside()) {
            named.extend([
                ("launch 1 after idle, kernel ms", first.kernel_ms),
                ("steady launches, kernel ms", b.steady_inside(|i| i.kernel_ms)),
                ("launch 1 after idle, launch call us", first.call_us),
                ("steady launches, launch call us", b.steady_inside(|i| i.call_us)),
            ]);
        }
        f.extend(named.into_iter().map(|(name, v)| (name.to_string(), v)));
        f
    }

    fn charts(program: &str, runs: &[&Self], _references: &[&NoReference]) -> Vec<Chart> {
        let xs = |r: &Report| (1..=r.boost.launches.len()).map(|i| i as f64).collect();
        let at = |pick: fn(&parts::Launch) -> Option<f64>| {
            move |r: &Report, x: f64| r.boost.launches.get((x as usize).wrapping_sub(1)).and_then(pick)
        };
        let chart = |what: &str, y_label: &str, series: Vec<Series>| Chart {
            stem: format!("ref-events-and-timing-boost-{what}-{program}"),
            title: format!("Events and timing, part 7: launches after idle ({program})"),
            x_label: "launch after the idle period".into(),
            y_label: y_label.into(),
            x_log: false,
            y_log: false,
            series,
            marks: Vec::new(),
        };
        let mut time = vec![Series::over("event time", runs, xs, at(|l| Some(l.ms)))];
        if runs.iter().any(|r| r.boost.has_inside()) {
            let kernel = at(|l| l.inside.map(|i| i.kernel_ms));
            time.push(Series::over("the kernel's own time", runs, xs, kernel));
        }
        let clock = Series::over("NVML SM clock", runs, xs, at(|l| Some(f64::from(l.mhz))));
        vec![
            chart("time", "time per launch (ms)", time),
            chart("clock", "SM clock after the launch (MHz)", vec![clock]),
        ]
    }
}
