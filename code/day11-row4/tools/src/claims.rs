//! What Day 11's page says about its numbers, as checks. The thresholds are
//! issue 25's, fixed before anything was measured.
//!
//! A run under Nsight Compute (its report has [`Report::ncu`]) times its
//! profiled launches with the profiler in the way, so only the claim about
//! ncu's own counters applies to it; the timing claims apply to plain runs.

use lesson_spec::{every, judged, yes_no, Claim, Outcome, Run};

use crate::report::Report;

/// Row 4's rate is at least 75% of the float4 copy kernel's.
const NEAR_COPY: f64 = 0.75;
/// float4 loads lift vectorAdd by at least 3% of the copy kernel's rate.
const VECTOR_GAIN: f64 = 0.03;
/// Flushing the L2 moves full-n row 4 by less than 2%.
const COLD_CHANGE: f64 = 0.02;
/// DRAM bytes per element: 12, within 3%.
const BYTES: f64 = 12.0;
const BYTES_OFF: f64 = 0.03;

/// Every sweep row's rate the run has (row4.cu's kSweep, whatever a learner
/// made it). A claim over the rows inside the L2, or past it, picks them by
/// the row's "in L2" column, which the GPU's L2 size sets (the H200's
/// 60 MiB holds the first seven), so it names every row.
const EVERY_SWEEP_RATE: &str = "sweep n=*, GB/s";

/// `check` on a plain run; not applicable under Nsight Compute.
fn timed(run: &Run<Report>, check: impl FnOnce(&Report) -> Outcome) -> Outcome {
    if run.report.ncu.is_some() {
        Outcome::NotApplicable
    } else {
        check(run.report)
    }
}

/// `check` with the peak, on a plain run; not applicable without a peak.
fn with_peak(run: &Run<Report>, check: impl FnOnce(&Report, f64) -> Outcome) -> Outcome {
    timed(run, |r| match &r.peak {
        Some(p) => check(r, p.gb_s),
        None => Outcome::NotApplicable,
    })
}

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "d11-row4-near-copy-ceiling",
        statement: "at full n, vectorAdd's effective rate is at least 75% of the float4 copy kernel's",
        figures: &["row 4, GB/s", "copy kernel float4, GB/s"],
        plant: |r| r.row4.gb_s = r.copy.gb_s / 2.0,
        check: |run, _| {
            timed(run, |r| {
                judged(&[r.row4.gb_s, r.copy.gb_s], |m| m[0] >= NEAR_COPY * m[1], || {
                    format!(
                        "row 4 {} GB/s is {:.1}% of the copy kernel's {} GB/s",
                        r.row4.gb_s,
                        100.0 * r.row4.gb_s / r.copy.gb_s,
                        r.copy.gb_s
                    )
                })
            })
        },
    },
    Claim {
        id: "d11-below-theoretical-peak",
        statement: "no measurement on buffers larger than the L2 exceeds the theoretical peak",
        figures: &[
            "theoretical peak, GB/s",
            "row 4, GB/s",
            "cudaMemcpy device to device, GB/s",
            "copy kernel float4, GB/s",
            "vectorAdd float4, GB/s",
            "per-launch events no flush, GB/s",
            "per-launch events L2 flushed, GB/s",
            EVERY_SWEEP_RATE,
        ],
        plant: |r| r.row4.gb_s = 1.1 * r.peak.as_ref().map_or(0.0, |p| p.gb_s),
        check: |run, _| {
            with_peak(run, |r, peak| {
                every(r.dram_sized().into_iter().map(|(what, gb_s)| {
                    judged(&[gb_s, peak], |m| m[0] <= m[1], || {
                        format!("above the peak of {peak} GB/s: {what} {gb_s} GB/s")
                    })
                }))
            })
        },
    },
    Claim {
        id: "d11-vector-loads-help",
        statement: "float4 loads bring vectorAdd at least 3% (of the copy kernel's rate) closer to the copy kernel",
        figures: &["vectorAdd float4, GB/s", "row 4, GB/s", "copy kernel float4, GB/s"],
        plant: |r| r.add4.gb_s = r.row4.gb_s,
        check: |run, _| {
            timed(run, |r| {
                let gain = (r.add4.gb_s - r.row4.gb_s) / r.copy.gb_s;
                let figures = [r.add4.gb_s, r.row4.gb_s, r.copy.gb_s];
                judged(&figures, |m| m[0] - m[1] >= VECTOR_GAIN * m[2], || {
                    format!(
                        "float4 vectorAdd {} GB/s, row 4 {} GB/s: {:.1}% of the copy kernel's {} GB/s",
                        r.add4.gb_s,
                        r.row4.gb_s,
                        100.0 * gain,
                        r.copy.gb_s
                    )
                })
            })
        },
    },
    Claim {
        id: "d11-small-n-measures-the-cache",
        statement: "at every n whose three arrays fit in the L2, the effective rate exceeds the DRAM peak",
        figures: &["theoretical peak, GB/s", EVERY_SWEEP_RATE],
        plant: |r| {
            let peak = r.peak.as_ref().map_or(0.0, |p| p.gb_s);
            r.sweep.iter_mut().filter(|s| s.in_l2).for_each(|s| s.gb_s = peak / 2.0);
        },
        check: |run, _| {
            with_peak(run, |r, peak| {
                let inside: Vec<_> = r.sweep.iter().filter(|s| s.in_l2).collect();
                if inside.is_empty() {
                    return yes_no(false, "a row missing", || "no sweep size fits in the L2".into());
                }
                every(inside.iter().map(|s| {
                    judged(&[s.gb_s, peak], |m| m[0] > m[1], || {
                        format!("at or below the peak of {peak} GB/s inside the L2: n = {}: {} GB/s", s.n, s.gb_s)
                    })
                }))
            })
        },
    },
    Claim {
        id: "d11-cold-cache-at-full-n",
        statement: "flushing the L2 before each launch changes full-n row 4 by less than 2%",
        figures: &["per-launch events L2 flushed, ms", "row 4, ms"],
        plant: |r| r.cold.ms = 1.1 * r.row4.ms,
        check: |run, _| {
            timed(run, |r| {
                let change = r.cold.ms / r.row4.ms - 1.0;
                judged(&[r.cold.ms, r.row4.ms], |m| (m[0] / m[1] - 1.0).abs() < COLD_CHANGE, || {
                    format!(
                        "L2 flushed {} ms against row 4 {} ms: {:+.1}% (per-launch events without the flush {} ms)",
                        r.cold.ms,
                        r.row4.ms,
                        100.0 * change,
                        r.each.ms
                    )
                })
            })
        },
    },
    Claim {
        id: "d11-bytes-are-twelve",
        statement: "Nsight Compute's DRAM bytes read plus written per element are within 3% of 12, at every profiled launch",
        figures: &[
            "ncu DRAM bytes per element, smallest",
            "ncu DRAM bytes per element, largest",
        ],
        plant: |r| {
            if let Some(ncu) = &mut r.ncu {
                ncu.launches.iter_mut().for_each(|l| l.read_bytes *= 2.0);
            }
        },
        check: |run, _| {
            let r = run.report;
            let Some(ncu) = &r.ncu else {
                return Outcome::NotApplicable;
            };
            every(ncu.launches.iter().map(|l| {
                let bytes = l.bytes_per_element(r.elems);
                judged(&[bytes], |m| (m[0] - BYTES).abs() <= BYTES_OFF * BYTES, || {
                    format!(
                        "DRAM bytes per element off 12 by 3% or more: launch {}: {bytes:.3} (read {:.3}, written {:.3})",
                        l.id,
                        l.read_bytes / r.elems as f64,
                        l.write_bytes / r.elems as f64
                    )
                })
            }))
        },
    },
];
