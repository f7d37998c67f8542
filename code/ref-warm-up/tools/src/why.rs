//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs and variants and the diagnostics its `why` phase records
//! (`gpu-phases/why-pool.cu`).

use lesson_spec::why::{lines, report, runs};
use lesson_spec::{verdict, Why};

const LESSON: &str = "ref-warm-up";

pub static WHYS: &[Why] = &[
    Why {
        id: "wu-why-context",
        cause: "the first call pays for the context, whichever call it is: it takes at least 100 times the first \
                cudaMalloc made after it, and under a second",
        figures: &[
            report(LESSON, "first call (set-device), ms"),
            report(LESSON, "cudaMalloc 40000 B first, ms"),
        ],
        rival: "the first call is slow because of that call's own work, not the context any first call creates",
        rival_figure: "the first call with another call first would differ from set-device's; the check reads set-device's \
                alone",
        tells_rival_apart: false,
        planted: &[0.5, 0.01],
        check: |m| {
            verdict(m[0] >= 100.0 * m[1] && m[0] < 1000.0, || {
                format!("{:.1} ms against {:.4} ms", m[0], m[1])
            })
        },
    },
    Why {
        id: "wu-why-pool",
        cause: "small allocations are carved from 2 MiB blocks by the driver's allocator, not a pool of the \
                runtime: cuMemAlloc called directly gives the same step between addresses as cudaMalloc, the same \
                number of jumps, a first address at the start of a 2 MiB block, and a call at a jump at least 5 \
                times as slow as the others",
        figures: &[
            lines("wu-why-pool-driver", "cuMemAlloc common step, bytes").exact(),
            lines("wu-why-pool-runtime", "cudaMalloc common step, bytes").exact(),
            lines("wu-why-pool-driver", "cuMemAlloc jumps").exact(),
            lines("wu-why-pool-runtime", "cudaMalloc jumps").exact(),
            lines("wu-why-pool-driver", "cuMemAlloc first address within its 2 MiB block, bytes").exact(),
            lines("wu-why-pool-driver", "cuMemAlloc median call at a jump, ms"),
            lines("wu-why-pool-driver", "cuMemAlloc median call elsewhere, ms"),
        ],
        rival: "the runtime keeps a pool of its own that carves small allocations",
        rival_figure: "cuMemAlloc called directly would step between addresses differently from cudaMalloc",
        tells_rival_apart: true,
        planted: &[512.0, 256.0, 3.0, 5.0, 0.0, 1.0, 0.1],
        check: |m| {
            verdict(m[0] == m[1] && m[2] == m[3] && m[4] == 0.0 && m[5] >= 5.0 * m[6], || {
                format!(
                    "steps {} and {} bytes, jumps {} and {}, first address {} into its block, {:.4} against {:.4} ms",
                    m[0], m[1], m[2], m[3], m[4], m[5], m[6]
                )
            })
        },
    },
    Why {
        id: "wu-why-lazy-load",
        cause: "the first launch pays the module's and the kernel's lazy load: with an empty kernel of the same \
                module launched first, the simple kernel's first call costs less than half what it costs in a \
                plain run, and under CUDA_MODULE_LOADING=EAGER less than half too",
        figures: &[
            report(LESSON, "simple 4 threads host #0, ms"),
            runs(LESSON, "cxx-first-launch rust-first-launch", "simple 4 threads host #0, ms"),
            runs(LESSON, "cxx-eager rust-eager", "simple 4 threads host #0, ms"),
        ],
        rival: "the first launch pays first-use costs of the context or the stream, not the module's and kernel's \
                load",
        rival_figure: "under EAGER, which loads the module with the context, the first call would cost as much as in a \
                plain run",
        tells_rival_apart: true,
        planted: &[1.0, 0.3, 0.9],
        check: |m| {
            verdict(m[1] < m[0] / 2.0 && m[2] < m[0] / 2.0, || {
                format!("{:.3} ms plain, {:.3} after another launch, {:.3} eager", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "wu-why-no-sync",
        cause: "without a synchronise a host clock around a launch reads the launch call, not the kernel: every \
                call of the loop without one reads less than the kernel's own time, as events around it with a \
                synchronise measure it",
        figures: &[
            report(LESSON, "without sync, host #1, ms"),
            report(LESSON, "without sync, host #2, ms"),
            report(LESSON, "without sync, host #3, ms"),
            report(LESSON, "with sync, events #1, ms"),
        ],
        rival: "without a synchronise the host clock still holds the kernel's run, the launch waiting for it",
        rival_figure: "every call without a synchronise would read at least the kernel's own time, as events around it with \
                a synchronise measure it",
        tells_rival_apart: true,
        planted: &[0.012, 0.011, 0.011, 0.0107],
        check: |m| {
            verdict(m[..3].iter().all(|v| *v < m[3]), || {
                format!("{:.4}, {:.4} and {:.4} ms against {:.4}", m[0], m[1], m[2], m[3])
            })
        },
    },
];
