//! The post's claims about its numbers, and the lesson's own about today's,
//! as checks. Each statement gives the threshold the check reads it as.
//!
//! The post's claims (`wu-post-*`) are checked on every run as the post made
//! them; where today's GPU disagrees, expected-failures.txt says why. Two
//! claims compare groups of runs (`wu-eager-*`, `wu-gpus-*`): they apply
//! only to a run whose peers include the other group, and say so otherwise.

use lesson_spec::{judged, median, Claim, Outcome, Run};

use crate::report::{over_percent, Report};

/// The first call's figure, labelled by the call the run made first (its
/// `--first`; plain runs', cudaSetDevice, is `set-device`).
const FIRST_CALLS: &[&str] = &[
    "first call (set-device), ms",
    "first call (malloc), ms",
    "first call (launch), ms",
];
/// The simple kernel's first launch at the post's 4 threads.
const SIMPLE_FIRST: &str = "simple 4 threads host #0, ms";

/// Part 3's calls #0 and #1 for `kernel` at the post's 4 threads, judged
/// by `holds` on the percent #0 is over #1, if the first call of the run
/// was not itself a launch (which would have loaded the module the post's
/// first launch paid for).
fn post_first_launch(r: &Report, kernel: &str, holds: fn(f64) -> bool) -> Outcome {
    let calls = r.kernel(kernel, 4).filter(|_| r.first.name != "launch");
    let Some(k) = calls else {
        return Outcome::NotApplicable;
    };
    let figures = [k.host_ms[0], k.host_ms[1]];
    judged(
        &figures,
        |m| holds(over_percent(m)),
        || format!("#0 over #1: {:.1}%", over_percent(&figures)),
    )
}

/// The median of `value` over the peers `keep` picks, or `None` if it
/// picks none.
fn median_of(
    peers: &[Run<Report>],
    keep: impl Fn(&Report) -> bool,
    value: impl Fn(&Report) -> f64,
) -> Option<f64> {
    median(
        peers
            .iter()
            .map(|p| p.report)
            .filter(|p| keep(p))
            .map(value)
            .collect(),
    )
}

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "wu-post-first-call-seconds",
        statement: "the first CUDA call of a program costs about 3.5 s (taken as over 1 s)",
        figures: FIRST_CALLS,
        plant: |r| r.first.ms = 500.0,
        check: |run, _| {
            let ms = run.report.first.ms;
            judged(&[ms], |m| m[0] > 1000.0, || format!("first call ({}) took {ms} ms", run.report.first.name))
        },
    },
    Claim {
        id: "wu-post-first-call-whichever",
        statement: "the first call costs the same whichever call it is (taken as within a factor 2 \
                    of the median of runs whose first call was another; needs runs of two --first variants)",
        figures: FIRST_CALLS,
        plant: |r| {
            // Each first call ten times the next: no two within a factor 2.
            r.first.ms *= match r.first.name.as_str() {
                "set-device" => 1.0,
                "malloc" => 10.0,
                _ => 100.0,
            };
        },
        check: |run, peers| {
            let r = run.report;
            let others = median_of(
                peers,
                |p| p.first.name != r.first.name && p.eager() == r.eager() && p.visible_gpus == r.visible_gpus,
                |p| p.first.ms,
            );
            let Some(others) = others else {
                return Outcome::NotApplicable;
            };
            let within = |m: &[f64]| (0.5..=2.0).contains(&(m[0] / m[1]));
            judged(&[r.first.ms, others], within, || {
                format!(
                    "first call ({}) {} ms against {others} ms for the other first calls",
                    r.first.name, r.first.ms
                )
            })
        },
    },
    Claim {
        id: "wu-post-first-malloc-8x",
        statement: "the first cudaMalloc costs about 8 times the second (taken as 4 times or more; \
                    not for runs whose first call was a cudaMalloc)",
        figures: &["cudaMalloc 40000 B first, ms", "cudaMalloc 40000 B second, ms"],
        plant: |r| r.mallocs.iter_mut().for_each(|m| m.first_ms = m.second_ms),
        check: |run, _| {
            let r = run.report;
            match r.mallocs.first() {
                Some(m) if r.first.name != "malloc" => {
                    let ratio = m.first_ms / m.second_ms;
                    judged(&[m.first_ms, m.second_ms], |x| x[0] >= 4.0 * x[1], || {
                        format!("first {} ms, second {} ms: {ratio:.2}x", m.first_ms, m.second_ms)
                    })
                }
                _ => Outcome::NotApplicable,
            }
        },
    },
    Claim {
        id: "wu-post-simple-first-launch-68",
        statement: "the simple kernel's first launch costs 68% more than its second (taken as 30 to 150% more)",
        figures: &[SIMPLE_FIRST, "simple 4 threads host #1, ms"],
        plant: |r| {
            let simple = r.kernels.iter_mut().filter(|k| k.kernel == "simple");
            simple.for_each(|k| k.host_ms[0] = k.host_ms[1]);
        },
        check: |run, _| post_first_launch(run.report, "simple", |p| (30.0..=150.0).contains(&p)),
    },
    Claim {
        id: "wu-post-complex-first-launch-small",
        statement: "the 1000-step kernel's first launch costs only 1.8% more than its second (taken as under 10%)",
        figures: &["complex 4 threads host #0, ms", "complex 4 threads host #1, ms"],
        plant: |r| {
            let complex = r.kernels.iter_mut().filter(|k| k.kernel == "complex");
            complex.for_each(|k| k.host_ms[0] = 1.5 * k.host_ms[1]);
        },
        check: |run, _| post_first_launch(run.report, "complex", |p| p < 10.0),
    },
    Claim {
        id: "wu-post-no-sync-reads-launch",
        statement: "without a synchronise, a host clock around a launch reads 0.002 to 0.021 ms \
                    (taken as every call at most 0.021 ms)",
        figures: &[
            "without sync, host #0, ms",
            "without sync, host #1, ms",
            "without sync, host #2, ms",
            "without sync, host #3, ms",
        ],
        plant: |r| r.no_sync_host_ms = [0.05; crate::report::CALLS],
        check: |run, _| {
            let ms = run.report.no_sync_host_ms;
            judged(&ms, |m| m.iter().all(|&v| v <= 0.021), || format!("the four calls read {ms:?} ms"))
        },
    },
    Claim {
        id: "wu-eager-warms-first-launch",
        statement: "under CUDA_MODULE_LOADING=EAGER the simple kernel's first launch costs less than \
                    under lazy loading (an EAGER run against the median of lazy runs with the same first call)",
        figures: &[SIMPLE_FIRST],
        plant: |r| {
            let simple = r.kernels.iter_mut().filter(|k| k.kernel == "simple");
            simple.for_each(|k| k.host_ms[0] = 1.0);
        },
        check: |run, peers| {
            let r = run.report;
            let first_launch = |p: &Report| p.kernel("simple", 4).map_or(f64::NAN, |k| k.host_ms[0]);
            if !r.eager() {
                return Outcome::NotApplicable;
            }
            let lazy = median_of(
                peers,
                |p| !p.eager() && p.first.name == r.first.name && p.visible_gpus == r.visible_gpus,
                first_launch,
            );
            let Some(lazy) = lazy else {
                return Outcome::NotApplicable;
            };
            let eager = first_launch(r);
            judged(&[eager, lazy], |m| m[0] < m[1], || format!("EAGER {eager} ms, lazy median {lazy} ms"))
        },
    },
    Claim {
        id: "wu-gpus-first-call-per-gpu",
        statement: "the first call pays for every GPU the process can see (a run seeing 2 or more GPUs \
                    takes over 1.5 times the median of runs limited to one by CUDA_VISIBLE_DEVICES, same first call; \
                    needs both groups, recorded by gpu-phases/two-gpus.sh)",
        figures: FIRST_CALLS,
        plant: |r| r.first.ms = 300.0,
        check: |run, peers| {
            let r = run.report;
            if r.visible_gpus < 2 {
                return Outcome::NotApplicable;
            }
            let one = median_of(
                peers,
                |p| {
                    p.visible_gpus == 1
                        && p.visible_devices.is_some()
                        && p.first.name == r.first.name
                        && p.eager() == r.eager()
                },
                |p| p.first.ms,
            );
            let Some(one) = one else {
                return Outcome::NotApplicable;
            };
            judged(&[r.first.ms, one], |m| m[0] > 1.5 * m[1], || {
                format!(
                    "{} GPUs: {} ms; one GPU (CUDA_VISIBLE_DEVICES): median {one} ms",
                    r.visible_gpus, r.first.ms
                )
            })
        },
    },
];
