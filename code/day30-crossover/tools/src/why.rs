//! The causes Day 30's README gives, as checks (`lesson_spec::why`): each is
//! judged per GPU on the medians of its figures, names its rival, and fails on
//! planted figures where the rival is true.

use lesson_spec::why::report;
use lesson_spec::{verdict, Why};

const LESSON: &str = "day30-crossover";

pub static WHYS: &[Why] = &[
    Why {
        id: "d30-why-floor-at-small-n",
        cause: "at small n the GPU's time is the launch floor, not the kernel's work: SAXPY alone takes within 1.5 \
                times the empty kernel's floor at 1 Ki elements and still at 64 Ki",
        figures: &[
            report(LESSON, "launch floor, us"),
            report(LESSON, "saxpy at 1024: kernel, us"),
            report(LESSON, "saxpy at 65536: kernel, us"),
        ],
        rival: "the GPU is slow per element at small n (too few threads to fill it), so its time there is the \
                kernel's work",
        rival_figure: "the time at 64 Ki (64 times the elements) would be well over the time at 1 Ki",
        tells_rival_apart: true,
        planted: &[4.0, 4.5, 30.0],
        check: |m| {
            verdict(m[1] <= 1.5 * m[0] && m[2] <= 1.5 * m[0], || {
                format!("floor {:.2} us, 1 Ki {:.2} us, 64 Ki {:.2} us", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "d30-why-cpu-cache",
        cause: "the CPU does better per element at small n because the arrays sit in its caches: SAXPY's CPU time \
                per element at 1 Ki (12 KiB) is at most 0.8 of its time per element at 16 Mi (192 MiB)",
        figures: &[
            report(LESSON, "saxpy at 1024: CPU, us"),
            report(LESSON, "saxpy at 16777216: CPU, us"),
        ],
        rival: "the CPU's loop, not its memory, sets its pace at every size, so its time per element is the same",
        rival_figure: "the time per element at 1 Ki would equal the time per element at 16 Mi",
        tells_rival_apart: true,
        planted: &[1.0, 16384.0],
        check: |m| {
            let (small, large) = (m[0] / 1024.0, m[1] / 16_777_216.0);
            verdict(small <= 0.8 * large, || {
                format!("{:.3} ns per element at 1 Ki, {:.3} at 16 Mi", small * 1e3, large * 1e3)
            })
        },
    },
    Why {
        id: "d30-why-copies-set-the-time",
        cause: "with copies, SAXPY's GPU time at 16 Mi is the copies': within 20% of the kernel plus its bytes at the \
                fitted pinned rates (8 bytes in, 4 out per element), with the kernel under 5% of it",
        figures: &[
            report(LESSON, "saxpy at 16777216: pinned, us"),
            report(LESSON, "saxpy at 16777216: kernel, us"),
            report(LESSON, "H2D pinned, GB/s"),
            report(LESSON, "D2H pinned, GB/s"),
        ],
        rival: "the kernel or the launch sets the time with copies, and the link carries the bytes faster than the \
                fitted rates say",
        rival_figure: "the kernel alone would be a large share of the time with copies, or the time would fall short of \
                the bytes at the fitted rates",
        tells_rival_apart: true,
        planted: &[1500.0, 1000.0, 50.0, 50.0],
        check: |m| {
            let n = 16_777_216.0;
            let copies_us = n * 8.0 / (m[2] * 1e3) + n * 4.0 / (m[3] * 1e3);
            let ratio = m[0] / (copies_us + m[1]);
            verdict((0.8..=1.2).contains(&ratio) && m[1] < 0.05 * m[0], || {
                format!("{:.0} us against {:.0} us of copies and {:.0} us of kernel", m[0], copies_us, m[1])
            })
        },
    },
    Why {
        id: "d30-why-pageable-per-byte",
        cause: "SAXPY with pageable copies is never predicted to win because of the link's cost per byte, not its \
                fixed costs: its 8 bytes in and 4 out per element at the pageable rates take longer than 12 bytes at \
                the CPU's bandwidth",
        figures: &[
            report(LESSON, "H2D pageable, GB/s"),
            report(LESSON, "D2H pageable, GB/s"),
            report(LESSON, "CPU bandwidth, GB/s"),
        ],
        rival: "pageable copies cost per byte less than the CPU's loop, and it is their fixed cost per call that \
                keeps the GPU behind within the sweep",
        rival_figure: "the pageable per-element cost would be below the CPU's 12 bytes at its bandwidth",
        tells_rival_apart: true,
        planted: &[30.0, 30.0, 10.0],
        check: |m| {
            let (gpu_ns, cpu_ns) = (8.0 / m[0] + 4.0 / m[1], 12.0 / m[2]);
            verdict(gpu_ns >= cpu_ns, || {
                format!("{gpu_ns:.3} ns per element over the link, {cpu_ns:.3} ns on the CPU")
            })
        },
    },
];
