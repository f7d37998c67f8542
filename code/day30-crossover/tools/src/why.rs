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
        id: "d30-why-dot-atomics",
        cause: "the dot product misses its model at 16 Mi because every block adds its sum into the one result: it \
                takes at least 1.5 times the model's time, while poly4, which moves the same 8 bytes per element and \
                adds into nothing, comes within 15% of its model",
        figures: &[
            report(LESSON, "dot at 16777216: kernel, us"),
            report(LESSON, "dot at 16777216: kernel model, us"),
            report(LESSON, "poly4 at 16777216: kernel, us"),
            report(LESSON, "poly4 at 16777216: kernel model, us"),
        ],
        rival: "the dot product is slow for its reduction inside each block (shared memory and eight barriers), not \
                for its 65,536 atomic adds into one address",
        rival_figure: "none the check reads: both slow the dot product alone; the same kernel writing each block's sum \
                to its own slot (no atomic) would tell",
        tells_rival_apart: false,
        planted: &[60.0, 58.0, 59.0, 58.0],
        check: |m| {
            let (dot, poly4) = (m[0] / m[1], m[2] / m[3]);
            verdict(dot >= 1.5 && (poly4 - 1.0).abs() <= 0.15, || {
                format!("dot {dot:.2}x its model, poly4 {poly4:.2}x")
            })
        },
    },
    Why {
        id: "d30-why-poly64-overlap",
        cause: "poly64's kernel at 16 Mi takes more than the model's larger term (by over 15%) but no more than the \
                floor plus both terms, memory and arithmetic, because its two terms are close and overlap only in part",
        figures: &[
            report(LESSON, "poly64 at 16777216: kernel, us"),
            report(LESSON, "poly64 at 16777216: kernel model, us"),
            report(LESSON, "launch floor, us"),
            report(LESSON, "GPU bandwidth, GB/s"),
            report(LESSON, "GPU op rate, Gop/s"),
        ],
        rival: "memory and arithmetic overlap fully, and poly64's arithmetic runs slower than the FMA-rate kernel's \
                (one dependent chain per thread instead of eight)",
        rival_figure: "none the check reads: a time between the larger term and the sum fits both; poly64 timed with its \
                input in a register (no loads) would tell",
        tells_rival_apart: false,
        planted: &[57.0, 56.0, 6.0, 2700.0, 62000.0],
        check: |m| {
            let n = 16_777_216.0;
            let sum = m[2] + n * 8.0 / (m[3] * 1e3) + n * 128.0 / (m[4] * 1e3);
            verdict(m[0] > 1.15 * m[1] && m[0] <= sum, || {
                format!("{:.1} us against the larger term's {:.1} and the sum's {sum:.1}", m[0], m[1])
            })
        },
    },
    Why {
        id: "d30-why-cpu-poly-loop",
        cause: "the CPU misses its model on the polynomials, not because its op rate is wrong, but because a \
                polynomial's loop (a dependent chain per element, behind an inner loop over the degree) runs slower \
                per operation than the rate loop's unrolled chains: poly4 and poly64 at 16 Mi both take at least 1.3 \
                times the model's time, while the stencil, which the model prices by the same op rate, is within 1.5 \
                times either way",
        figures: &[
            report(LESSON, "poly4 at 16777216: CPU, us"),
            report(LESSON, "poly4 at 16777216: CPU model, us"),
            report(LESSON, "poly64 at 16777216: CPU, us"),
            report(LESSON, "poly64 at 16777216: CPU model, us"),
            report(LESSON, "stencil at 16777216: CPU, us"),
            report(LESSON, "stencil at 16777216: CPU model, us"),
        ],
        rival: "the CPU's op rate is mis-measured, too high for the CPU's real code whatever its loop",
        rival_figure: "the stencil, priced by the same op rate, would miss by as much as the polynomials",
        tells_rival_apart: true,
        planted: &[2000.0, 1000.0, 2000.0, 1000.0, 2000.0, 1000.0],
        check: |m| {
            let (poly4, poly64, stencil) = (m[0] / m[1], m[2] / m[3], m[4] / m[5]);
            verdict(poly4.min(poly64) >= 1.3 && (1.0 / 1.5..=1.5).contains(&stencil), || {
                format!("poly4 {poly4:.2}x its model, poly64 {poly64:.2}x, the stencil {stencil:.2}x")
            })
        },
    },
];
