//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs (plain and `CUDA_MODULE_LOADING=EAGER`), Day 11's runs under Nsight
//! Compute (the same kernel at the same n) and the `staging` phase's
//! diagnostics.

use lesson_spec::why::{lines, report, runs};
use lesson_spec::{verdict, Why};

const LESSON: &str = "day09-timing";

pub static WHYS: &[Why] = &[
    Why {
        id: "d09-why-context",
        cause: "row 1 is mostly not the program's arithmetic: the first CUDA call, which creates the context, is at \
                least a sixth of the whole process",
        figures: &[
            report(LESSON, "context (first CUDA call), ms"),
            report(LESSON, "row 1 whole process, ms"),
        ],
        check: |m| verdict(m[0] >= m[1] / 6.0, || format!("{:.0} of {:.0} ms", m[0], m[1])),
    },
    Why {
        id: "d09-why-queue",
        cause: "a launch returns once the work is queued: a host clock around it reads under 20 us, and with a \
                synchronise the same clock lands within 1.5 times row 4",
        figures: &[
            report(LESSON, "row 2 around the launch, ms"),
            report(LESSON, "row 2 plus a sync, ms"),
            report(LESSON, "row 4 after warm-up, ms"),
        ],
        check: |m| {
            verdict(m[0] < 0.020 && m[1] >= m[2] && m[1] <= 1.5 * m[2], || {
                format!("{:.4} ms alone, {:.4} with the sync, row 4 {:.4}", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "d09-why-lazy-load",
        cause: "row 3 pays a lazy load: its first launch is at least 0.1 ms over row 4, and under \
                CUDA_MODULE_LOADING=EAGER, which loads every kernel with the context, less than half as much; \
                vectorScale, loaded with the module, still pays its own kernel's load (at least 0.05 ms)",
        figures: &[
            report(LESSON, "row 3 first launch, ms"),
            report(LESSON, "row 4 after warm-up, ms"),
            runs(LESSON, "cxx-eager rust-eager", "row 3 first launch, ms"),
            runs(LESSON, "cxx-eager rust-eager", "row 4 after warm-up, ms"),
            report(LESSON, "vectorScale first launch, ms"),
            report(LESSON, "vectorScale after warm-up, ms"),
        ],
        check: |m| {
            let (lazy, eager, scale) = (m[0] - m[1], m[2] - m[3], m[4] - m[5]);
            verdict(lazy >= 0.1 && eager < lazy / 2.0 && scale >= 0.05, || {
                format!("lazy +{lazy:.3} ms, eager +{eager:.3} ms, vectorScale +{scale:.3} ms")
            })
        },
    },
    Why {
        id: "d09-why-row4-kernel",
        cause: "row 4 is the kernel, to within what Day 11 takes apart: it is within 5% over Nsight Compute's \
                duration of the same kernel launched back to back (--cache-control none), and above ncu's with a \
                clean L2",
        figures: &[
            report(LESSON, "row 4 after warm-up, ms"),
            runs("day11-row4", "cxx-ncu-cache-control-none", "ncu duration, ms, median"),
            runs("day11-row4", "cxx-ncu", "ncu duration, ms, median"),
        ],
        check: |m| {
            verdict(m[0] >= m[1] && m[0] <= 1.05 * m[1] && m[0] > m[2], || {
                format!("row 4 {:.4} ms, ncu {:.4} back to back and {:.4} flushed", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "d09-why-pageable-staging",
        cause: "row 5 is slow because pageable copies are staged through the driver's pinned buffer on the CPU, \
                not because of the bus: from pinned buffers the same round trip is at least 4 times faster",
        figures: &[
            lines("round-trip-pinned", "row 5 pageable, ms"),
            lines("round-trip-pinned", "row 5 pinned, ms"),
        ],
        check: |m| verdict(m[0] >= 4.0 * m[1], || format!("{:.2} against {:.2} ms", m[0], m[1])),
    },
];
