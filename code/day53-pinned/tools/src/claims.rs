//! What Day 53's lesson page says about its numbers, as checks.

use lesson_spec::{every, judged, Claim};

use crate::report::Report;

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "d53-pinned-faster",
        statement: "pinned copies are faster than pageable ones at every size",
        // Every size the run has (pinned.cu's kSweepMib, as a learner may edit it).
        figures: &["* MiB pageable, GB/s", "* MiB pinned, GB/s"],
        plant: |r| {
            r.bandwidth
                .iter_mut()
                .for_each(|b| b.pinned_gb_s = b.pageable_gb_s)
        },
        check: |run, _| {
            every(run.report.bandwidth.iter().map(|b| {
                judged(
                    &[b.pinned_gb_s, b.pageable_gb_s],
                    |m| m[0] > m[1],
                    || {
                        format!(
                            "at {} MiB: pinned {} GB/s, pageable {} GB/s",
                            b.mib, b.pinned_gb_s, b.pageable_gb_s
                        )
                    },
                )
            }))
        },
    },
    Claim {
        id: "d53-pinned-async-returns",
        statement: "the pinned cudaMemcpyAsync call is a small fraction (under 10%) of its completion",
        figures: &["async pinned call, % of completion"],
        plant: |r| r.async_pinned.call_percent = 100.0,
        check: |run, _| {
            let percent = run.report.async_pinned.call_percent;
            judged(
                &[percent],
                |m| m[0] < 10.0,
                || format!("call is {percent}% of completion"),
            )
        },
    },
    Claim {
        id: "d53-pageable-async-blocks",
        statement: "the pageable cudaMemcpyAsync call is most (over half) of its completion",
        figures: &["async pageable call, % of completion"],
        plant: |r| r.async_pageable.call_percent = 1.0,
        check: |run, _| {
            let percent = run.report.async_pageable.call_percent;
            judged(
                &[percent],
                |m| m[0] > 50.0,
                || format!("call is {percent}% of completion"),
            )
        },
    },
    Claim {
        id: "d53-zero-copy-slower",
        statement: "zero-copy is several (3 or more) times slower than device-resident",
        figures: &["zero-copy / resident"],
        plant: |r| r.zero_copy_ratio = 1.0,
        check: |run, _| {
            let ratio = run.report.zero_copy_ratio;
            judged(&[ratio], |m| m[0] >= 3.0, || format!("zero-copy costs {ratio}x"))
        },
    },
];
