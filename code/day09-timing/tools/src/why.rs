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
        rival: "row 1 is the program's own host work (loading, allocating, copying, checking), the first call only a \
                part of it",
        rival_figure: "none the check reads predicts otherwise: the share restates the figure; the first call timed against \
                cuInit alone and cuDevicePrimaryCtxRetain alone would say what in it is the context",
        tells_rival_apart: false,
        planted: &[50.0, 1000.0],
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
        rival: "the launch call runs the kernel before it returns, and reads short only because the kernel is short",
        rival_figure: "row 2 around the launch would read at least row 4, the kernel's own time, instead of under 20 us",
        tells_rival_apart: true,
        planted: &[0.065, 0.066, 0.060],
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
        rival: "the first launch pays first-use costs other than loading the kernel (the launch path's, the \
                memory's), which EAGER loading leaves in place",
        rival_figure: "under EAGER row 3's excess over row 4 would stay near the lazy run's; the check reads that, but not \
                vectorScale's first launch under EAGER, which would stay above its warm time if its excess is no \
                load",
        tells_rival_apart: false,
        planted: &[0.20, 0.06, 0.15, 0.06, 0.10, 0.05],
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
        rival: "row 4 holds more than the kernel: the events' and the launch's own cost",
        rival_figure: "row 4 would sit more than 5% above Nsight Compute's back-to-back duration of the same kernel",
        tells_rival_apart: true,
        planted: &[0.070, 0.060, 0.055],
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
        rival: "pageable copies are slow because the driver pins each page for the copy, not because it copies \
                through a staging buffer",
        rival_figure: "none the check reads: both make the pageable round trip slow; a pageable copy of memory registered \
                beforehand (cudaHostRegister), or the call's CPU time in a memcpy, would tell them apart",
        tells_rival_apart: false,
        planted: &[1.0, 0.5],
        check: |m| verdict(m[0] >= 4.0 * m[1], || format!("{:.2} against {:.2} ms", m[0], m[1])),
    },
    Why {
        id: "d09-why-first-launch-beyond-load",
        cause: "a cold row is the kernel's load plus other first-launch work: under CUDA_MODULE_LOADING=EAGER, \
                which loads every kernel up front, vectorScale's first launch still takes at least 1.3 times its \
                warm time, and EAGER takes at least 0.03 ms off it, its kernel's own load",
        figures: &[
            runs(LESSON, "cxx-eager rust-eager", "vectorScale first launch, ms"),
            runs(LESSON, "cxx-eager rust-eager", "vectorScale after warm-up, ms"),
            report(LESSON, "vectorScale first launch, ms"),
        ],
        rival: "vectorScale's cold row is its kernel's load and nothing else",
        rival_figure: "under EAGER vectorScale's first launch would take its warm time",
        tells_rival_apart: true,
        planted: &[0.053, 0.052, 0.150],
        check: |m| {
            verdict(m[0] >= 1.3 * m[1] && m[2] - m[0] >= 0.03, || {
                format!(
                    "EAGER first launch {:.3} ms against {:.3} warm; lazy first launch {:.3} ms",
                    m[0], m[1], m[2]
                )
            })
        },
    },
];
