//! What Day 9's lesson page says about its numbers, as checks.
//!
//! Timing claims are about plain runs: the EAGER variant moves the module
//! loads on purpose, and has claims of its own.

use lesson_spec::{every, judged, median, Claim, Outcome, Run};

use crate::report::Report;

const EAGER: &str = "CUDA_MODULE_LOADING=EAGER";

/// `check` on a plain (lazily loading) run; not applicable to EAGER runs.
fn lazy(run: &Run<Report>, check: impl FnOnce(&Report) -> Outcome) -> Outcome {
    if run.has_env(EAGER) {
        Outcome::NotApplicable
    } else {
        check(run.report)
    }
}

/// `check` on an EAGER run, with the median of `pick` over the plain peers;
/// not applicable without either.
fn eager_against_lazy(
    run: &Run<Report>,
    peers: &[Run<Report>],
    pick: fn(&Report) -> f64,
    check: impl FnOnce(&Report, f64) -> Outcome,
) -> Outcome {
    if !run.has_env(EAGER) {
        return Outcome::NotApplicable;
    }
    let lazy = peers.iter().filter(|p| !p.has_env(EAGER)).map(|p| pick(p.report));
    match median(lazy.collect()) {
        Some(m) => check(run.report, m),
        None => Outcome::NotApplicable,
    }
}

// The labels of figures several claims read, as `figures` gives them.
const ROW1: &str = "row 1 whole process, ms";
const ROW2_SYNC: &str = "row 2 plus a sync, ms";
const ROW3: &str = "row 3 first launch, ms";
const ROW4: &str = "row 4 after warm-up, ms";
const ROW5: &str = "row 5 round trip, ms";
const SCALE_COLD: &str = "vectorScale first launch, ms";
const SCALE_WARM: &str = "vectorScale after warm-up, ms";

fn first_launch_excess(r: &Report) -> f64 {
    f64::from(r.cold_ms - r.warm_ms)
}

fn scale_excess(r: &Report) -> f64 {
    f64::from(r.scale_cold_ms - r.scale_warm_ms)
}

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "d9-regions-nest",
        statement: "row 1 >= row 5 >= row 4: each timed region contains the next",
        figures: &[ROW1, ROW5, ROW4],
        plant: |r| r.round_trip_ms = r.warm_ms / 2.0,
        check: |run, _| {
            let r = run.report;
            let figures = [r.whole_ms, f64::from(r.round_trip_ms), f64::from(r.warm_ms)];
            judged(
                &figures,
                |m| m[0] >= m[1] && m[1] >= m[2],
                || {
                    let (row1, row5, row4) = (r.whole_ms, r.round_trip_ms, r.warm_ms);
                    format!("row 1 {row1} ms, row 5 {row5} ms, row 4 {row4} ms")
                },
            )
        },
    },
    Claim {
        id: "d9-first-launch-cold",
        statement: "row 3 > row 4: the first launch pays the module load",
        figures: &[ROW3, ROW4],
        plant: |r| r.cold_ms = r.warm_ms,
        check: |run, _| {
            lazy(run, |r| {
                let figures = [f64::from(r.cold_ms), f64::from(r.warm_ms)];
                judged(
                    &figures,
                    |m| m[0] > m[1],
                    || format!("row 3 {} ms <= row 4 {} ms", r.cold_ms, r.warm_ms),
                )
            })
        },
    },
    Claim {
        id: "d9-second-kernel-cold",
        statement: "vectorScale cold > warm: a warm-up only warms what it launches",
        figures: &[SCALE_COLD, SCALE_WARM],
        plant: |r| r.scale_cold_ms = r.scale_warm_ms,
        check: |run, _| {
            lazy(run, |r| {
                let figures = [f64::from(r.scale_cold_ms), f64::from(r.scale_warm_ms)];
                judged(
                    &figures,
                    |m| m[0] > m[1],
                    || format!("cold {} ms <= warm {} ms", r.scale_cold_ms, r.scale_warm_ms),
                )
            })
        },
    },
    Claim {
        id: "d9-launch-is-queueing",
        statement: "the host clock around the launch alone is far (10x) below launch plus sync",
        figures: &["row 2 around the launch, ms", ROW2_SYNC],
        plant: |r| r.launch_only_ms = r.launch_plus_sync_ms,
        check: |run, _| {
            let (launch, sync) = (run.report.launch_only_ms, run.report.launch_plus_sync_ms);
            judged(
                &[launch, sync],
                |m| 10.0 * m[0] <= m[1],
                || format!("launch {launch} ms, with sync {sync} ms"),
            )
        },
    },
    Claim {
        id: "d9-sync-near-events",
        statement: "launch plus sync is within a few (5) percent of the warm event time",
        figures: &[ROW2_SYNC, ROW4],
        plant: |r| r.launch_plus_sync_ms = 1.2 * f64::from(r.warm_ms),
        check: |run, _| {
            lazy(run, |r| {
                let warm = f64::from(r.warm_ms);
                let off = (r.launch_plus_sync_ms - warm).abs() / warm;
                let near = |m: &[f64]| (m[0] - m[1]).abs() <= 0.05 * m[1];
                judged(&[r.launch_plus_sync_ms, warm], near, || {
                    format!(
                        "{} ms against {} ms, {:.0}% apart",
                        r.launch_plus_sync_ms,
                        r.warm_ms,
                        off * 100.0
                    )
                })
            })
        },
    },
    Claim {
        id: "d9-round-trip-contains-kernel",
        statement: "the round trip is at least the kernel at every size",
        // Every row the run has (timing.cu's kSweep, as a learner may edit it).
        figures: &["sweep n=* kernel, ms", "sweep n=* round trip, ms"],
        plant: |r| {
            r.sweep
                .iter_mut()
                .for_each(|s| s.round_trip_ms = s.kernel_ms / 2.0)
        },
        check: |run, _| {
            every(run.report.sweep.iter().map(|s| {
                let figures = [f64::from(s.round_trip_ms), f64::from(s.kernel_ms)];
                judged(
                    &figures,
                    |m| m[0] >= m[1],
                    || {
                        let (n, round_trip, kernel) = (s.n, s.round_trip_ms, s.kernel_ms);
                        format!("at n = {n}: round trip {round_trip} ms < kernel {kernel} ms")
                    },
                )
            }))
        },
    },
    Claim {
        id: "d9-cpu-wins-small",
        statement: "the CPU beats the kernel at n = 1024",
        figures: &["sweep n=1024 CPU, ms", "sweep n=1024 kernel, ms"],
        plant: |r| {
            r.sweep
                .iter_mut()
                .for_each(|s| s.cpu_ms = 2.0 * f64::from(s.kernel_ms))
        },
        check: |run, _| {
            lazy(run, |r| match r.sweep.iter().find(|s| s.n == 1024) {
                Some(s) => judged(
                    &[s.cpu_ms, f64::from(s.kernel_ms)],
                    |m| m[0] < m[1],
                    || format!("CPU {} ms, kernel {} ms", s.cpu_ms, s.kernel_ms),
                ),
                None => lesson_spec::yes_no(false, "a row missing", || "no n = 1024 row".into()),
            })
        },
    },
    Claim {
        id: "d9-kernel-wins-large",
        statement: "the kernel beats the CPU at the largest swept n",
        // The largest n is the run's (timing.cu's kSweep): every row is named.
        figures: &["sweep n=* kernel, ms", "sweep n=* CPU, ms"],
        plant: |r| {
            r.sweep
                .iter_mut()
                .for_each(|s| s.cpu_ms = f64::from(s.kernel_ms) / 2.0)
        },
        check: |run, _| {
            lazy(run, |r| match r.sweep.iter().max_by_key(|s| s.n) {
                Some(s) => judged(
                    &[f64::from(s.kernel_ms), s.cpu_ms],
                    |m| m[0] < m[1],
                    || format!("at n = {}: kernel {} ms, CPU {} ms", s.n, s.kernel_ms, s.cpu_ms),
                ),
                None => lesson_spec::yes_no(false, "a row missing", || "no sweep rows".into()),
            })
        },
    },
    Claim {
        id: "d9-process-dwarfs-kernel",
        statement: "row 1 / row 4 is in the hundreds or more",
        figures: &[ROW1, ROW4],
        plant: |r| r.whole_ms = 10.0 * f64::from(r.warm_ms),
        check: |run, _| {
            let figures = [run.report.whole_ms, f64::from(run.report.warm_ms)];
            judged(
                &figures,
                |m| m[0] >= 100.0 * m[1],
                || format!("row 1 / row 4 = {:.0}", figures[0] / figures[1]),
            )
        },
    },
    Claim {
        id: "d9-round-trip-loses-at-full-n",
        statement: "at full n the round trip is slower than the CPU",
        figures: &[ROW5, "CPU, full n, ms"],
        plant: |r| r.cpu_ms = 2.0 * f64::from(r.round_trip_ms),
        check: |run, _| {
            lazy(run, |r| {
                judged(
                    &[f64::from(r.round_trip_ms), r.cpu_ms],
                    |m| m[0] > m[1],
                    || format!("round trip {} ms, CPU {} ms", r.round_trip_ms, r.cpu_ms),
                )
            })
        },
    },
    Claim {
        id: "d9-eager-warms-first-launches",
        statement: "EAGER: row 3 and vectorScale's cold row fall towards their warm values",
        figures: &[ROW3, ROW4, SCALE_COLD, SCALE_WARM],
        plant: |r| {
            r.cold_ms = r.warm_ms + 1.0;
            r.scale_cold_ms = r.scale_warm_ms + 1.0;
        },
        check: |run, peers| {
            eager_against_lazy(run, peers, first_launch_excess, |r, gap| {
                eager_against_lazy(run, peers, scale_excess, |_, scale_gap| {
                    let (now, scale_now) = (first_launch_excess(r), scale_excess(r));
                    // "Towards": each excess over warm at least 40% below lazy's.
                    let towards = |m: &[f64]| m[0] < 0.6 * m[1] && m[2] < 0.6 * m[3];
                    judged(&[now, gap, scale_now, scale_gap], towards, || {
                        format!(
                            "first-launch excess {now:.3} ms (lazy median {gap:.3}), \
                             vectorScale's {scale_now:.3} ms (lazy median {scale_gap:.3})"
                        )
                    })
                })
            })
        },
    },
    Claim {
        id: "d9-eager-context-grows",
        statement: "EAGER: the load cost moves into the context line, which grows",
        figures: &["context (first CUDA call), ms"],
        plant: |r| r.context_ms = 300.0,
        check: |run, peers| {
            eager_against_lazy(
                run,
                peers,
                |r| r.context_ms,
                |r, lazy| {
                    judged(
                        &[r.context_ms, lazy],
                        |m| m[0] > m[1],
                        || format!("context {} ms, lazy median {lazy:.3} ms", r.context_ms),
                    )
                },
            )
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use lesson_spec::Margin;

    fn outcome(id: &str, run: &Run<Report>, peers: &[Run<Report>]) -> Outcome {
        let claim = CLAIMS.iter().find(|c| c.id == id).unwrap();
        (claim.check)(run, peers)
    }

    /// The lesson page's own run.
    fn page() -> Report {
        lesson_spec::testkit::conformance::assert_the_page_run_parses().unwrap()
    }

    #[test]
    fn the_pages_own_transcript_holds_its_claims() {
        let r = page();
        let run = Run {
            report: &r,
            environment: "",
        };
        for c in CLAIMS {
            let got = (c.check)(&run, &[run]);
            assert!(
                matches!(got, Outcome::Holds(_) | Outcome::NotApplicable),
                "{}: {got:?}",
                c.id
            );
        }
    }

    #[test]
    fn a_broken_claim_fails_with_its_numbers() {
        let mut r = page();
        r.cold_ms = r.warm_ms;
        let run = Run {
            report: &r,
            environment: "",
        };
        // Equal rows: the least move of either makes it hold.
        assert_eq!(
            outcome("d9-first-launch-cold", &run, &[]),
            Outcome::Fails("row 3 0.768 ms <= row 4 0.768 ms".into(), Margin::Share(0.0))
        );
        // 3 against 1 ms meet at 2 once each moves by half of itself.
        r.cold_ms = 3.0 * r.warm_ms;
        let run = Run {
            report: &r,
            environment: "",
        };
        let Some(Margin::Share(m)) = outcome("d9-first-launch-cold", &run, &[]).margin() else {
            panic!("no margin")
        };
        assert!((m - 0.5).abs() < 1e-6, "{m}");
    }

    #[test]
    fn eager_claims_compare_with_the_plain_peers_or_do_not_apply() {
        let lazy = page();
        let mut eager = page();
        eager.context_ms = lazy.context_ms + 1.0;
        eager.cold_ms = eager.warm_ms;
        eager.scale_cold_ms = eager.scale_warm_ms;
        let e = Run {
            report: &eager,
            environment: EAGER,
        };
        let l = Run {
            report: &lazy,
            environment: "",
        };
        assert!(matches!(
            outcome("d9-eager-context-grows", &e, &[e, l]),
            Outcome::Holds(_)
        ));
        assert!(matches!(
            outcome("d9-eager-warms-first-launches", &e, &[e, l]),
            Outcome::Holds(_)
        ));
        assert_eq!(
            outcome("d9-eager-context-grows", &e, &[e]),
            Outcome::NotApplicable
        );
        assert_eq!(
            outcome("d9-eager-context-grows", &l, &[e, l]),
            Outcome::NotApplicable
        );
        assert_eq!(outcome("d9-first-launch-cold", &e, &[e]), Outcome::NotApplicable);
    }
}
