//! What Day 30's page says about its numbers, as checks. Each was written
//! before the lesson's first run on a GPU, with a margin that follows from
//! the physics the README gives, not from a measurement.

use lesson_spec::{every, judged, yes_no, Claim, Outcome};

use crate::{KernelBlock, Report};

/// Whether every kernel's predicted and measured crossover of variant `v`
/// agree: both never (with no margin: there is no n to compare), or both an n
/// within `factor` of each other.
fn crossover_check(report: &Report, v: usize, factor: f64) -> Outcome {
    if report.kernels.is_empty() {
        return yes_no(false, "no kernel", || "no kernel".into());
    }
    every(report.kernels.iter().map(|k| {
        let (predicted, measured) = (k.crossovers[v].predicted, k.crossovers[v].measured);
        let why = || {
            let (p, m) = (crate::crossover_text(predicted), crate::crossover_text(measured));
            format!("{}: predicted {p}, measured {m}", k.name)
        };
        match (predicted, measured) {
            // The prediction is the model's: only the measured n moves.
            (Some(p), Some(m)) => judged(&[m], |x| p <= x[0] * factor && x[0] <= p * factor, why),
            (p, m) => yes_no(p.is_none() && m.is_none(), "a crossover, or none", why),
        }
    }))
}

/// Every kernel's largest row: its cell `column` measured and modelled.
fn large_n_times(report: &Report, column: usize) -> Vec<(&KernelBlock, (f64, f64))> {
    report
        .kernels
        .iter()
        .filter_map(|k| {
            let row = k.sizes.iter().max_by_key(|r| r.n)?;
            let c = row.cells[column];
            Some((k, (c.measured_us, c.model_us)))
        })
        .collect()
}

fn ratio_check(report: &Report, column: usize, lo: f64, hi: f64) -> Outcome {
    let times = large_n_times(report, column);
    if times.is_empty() {
        return yes_no(false, "no kernel", || "no kernel has a size row".into());
    }
    every(times.into_iter().map(|(k, (measured, model))| {
        // The model's time is a number the model gives: only the measured one moves.
        judged(
            &[measured],
            |m| (lo..=hi).contains(&(m[0] / model)),
            || format!("{}: measured {:.2}x the model", k.name, measured / model),
        )
    }))
}

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "d30-crossover-alone-within-4x",
        statement: "kernel alone, the model's crossover is within a factor of 4 of the measured one for every \
                    kernel, or both are never",
        figures: &["* kernel alone: predicted crossover, n", "* kernel alone: measured crossover, n"],
        plant: |r| {
            for k in &mut r.kernels {
                k.crossovers[0].measured = k.crossovers[0].predicted.map(|p| p * 10.0);
            }
        },
        check: |run, _| crossover_check(run.report, 0, 4.0),
    },
    Claim {
        id: "d30-crossover-pinned-agrees",
        statement: "with copies from pinned memory, the model's verdict (the GPU wins from some n, or never) agrees \
                    with the measurement for every kernel, and where both give an n, within a factor of 4",
        figures: &["* pinned copies: predicted crossover, n", "* pinned copies: measured crossover, n"],
        plant: |r| {
            for k in &mut r.kernels {
                k.crossovers[1].measured = match k.crossovers[1].predicted {
                    Some(_) => None,
                    None => Some(1024.0),
                };
            }
        },
        check: |run, _| crossover_check(run.report, 1, 4.0),
    },
    Claim {
        id: "d30-kernel-time-large-n",
        statement: "at the sweep's largest n the kernel alone takes between 0.85 and 2 times the model's time, for \
                    every kernel (the model takes the larger of memory and arithmetic; their sum is at most twice it)",
        figures: &["* kernel, us", "* kernel model, us"],
        plant: |r| {
            for k in &mut r.kernels {
                for row in &mut k.sizes {
                    row.cells[1].measured_us = 3.0 * row.cells[1].model_us;
                }
            }
        },
        check: |run, _| ratio_check(run.report, 1, 0.85, 2.0),
    },
    Claim {
        id: "d30-cpu-time-large-n",
        statement: "at the sweep's largest n the CPU takes between 0.5 and 2 times the model's time, for every kernel",
        figures: &["* CPU, us", "* CPU model, us"],
        plant: |r| {
            for k in &mut r.kernels {
                for row in &mut k.sizes {
                    row.cells[0].measured_us = 3.0 * row.cells[0].model_us;
                }
            }
        },
        check: |run, _| ratio_check(run.report, 0, 0.5, 2.0),
    },
    Claim {
        id: "d30-intense-wins-with-copies",
        statement: "with copies from pinned memory the degree-64 polynomial, the most arithmetic per byte, wins from \
                    some n of the sweep, as measured",
        figures: &["poly64 pinned copies: measured crossover, n"],
        plant: |r| {
            for k in &mut r.kernels {
                k.crossovers[1].measured = None;
            }
        },
        check: |run, _| {
            let n = run.report.kernel("poly64").and_then(|k| k.crossovers[1].measured);
            // No margin: the sweep finds a crossover or it does not.
            yes_no(n.is_some(), "a crossover, or none", || {
                "poly64 with pinned copies never wins in the sweep".into()
            })
        },
    },
];
