//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs, PyTorch's reference runs and the `staging` phase's diagnostics
//! (`gpu-phases/pageable-rotated.cu`).

use lesson_spec::why::{lines, report, runs};
use lesson_spec::{verdict, Why};

const LESSON: &str = "day53-pinned";
/// PCIe Gen 5 x16: 32 GT/s per lane, 128b/130b, 16 lanes, GB/s each way.
const GEN5_X16_GB_S: f64 = 32.0 * 16.0 * 128.0 / 130.0 / 8.0;
const MIB: f64 = 1_048_576.0;

pub static WHYS: &[Why] = &[
    Why {
        id: "d53-why-link",
        cause: "pinned copies level off at the link's rate: the 256 MiB pinned copy runs at over 80% of PCIe Gen 5 \
                x16's 63.0 GB/s (so more than a Gen 4 x16 link, at half that, could carry) and within 5% of PyTorch's \
                pinned copy",
        figures: &[
            report(LESSON, "256 MiB pinned, GB/s"),
            runs(LESSON, "torch-reference", "256 MiB pinned, GB/s"),
        ],
        rival: "pinned copies level off at the DMA engine's or the host memory's rate, not the link's",
        rival_figure: "none the check reads: a copy over a link of another width or generation would tell the link from the \
                engine",
        tells_rival_apart: false,
        planted: &[30.0, 30.0],
        check: |m| {
            verdict(
                m[0] >= 0.8 * GEN5_X16_GB_S && (m[0] / m[1] - 1.0).abs() <= 0.05,
                || format!("{:.1} GB/s, PyTorch {:.1}, the link {GEN5_X16_GB_S:.1}", m[0], m[1]),
            )
        },
    },
    Why {
        id: "d53-why-fixed-cost",
        cause: "small pinned copies fall short because each has a fixed cost of a few microseconds: the 1 MiB \
                copy's time less 1 MiB at the 256 MiB copy's rate is 2 to 30 us, and the 4 MiB copy's the same \
                within a factor of 2",
        figures: &[
            report(LESSON, "1 MiB pinned, GB/s"),
            report(LESSON, "4 MiB pinned, GB/s"),
            report(LESSON, "256 MiB pinned, GB/s"),
        ],
        rival: "small copies fall short because the copy's rate ramps up with its size, not because of a fixed cost \
                per copy",
        rival_figure: "the 4 MiB copy's time over the 256 MiB rate would grow with its size, beyond twice the 1 MiB copy's",
        tells_rival_apart: true,
        planted: &[40.0, 45.0, 55.0],
        check: |m| {
            // Microseconds beyond what the bytes take at the large copy's rate.
            let extra = |mib: f64, gb_s: f64| mib * MIB / (gb_s * 1e3) - mib * MIB / (m[2] * 1e3);
            let (one, four) = (extra(1.0, m[0]), extra(4.0, m[1]));
            verdict((2.0..=30.0).contains(&one) && four <= 2.0 * one && four >= one / 2.0, || {
                format!("{one:.1} us at 1 MiB, {four:.1} us at 4 MiB")
            })
        },
    },
    Why {
        id: "d53-why-staging",
        cause: "pageable copies are slow because the driver stages them through a pinned buffer on the CPU: from \
                fresh (rotated) buffers pageable copies run at a quarter of the pinned rate or less at every size \
                from 1 to 256 MiB, and at the same rate within a factor of 1.5 whatever the size",
        figures: &[
            lines("pageable-rotated", "1 MiB pageable rotated, GB/s"),
            lines("pageable-rotated", "16 MiB pageable rotated, GB/s"),
            lines("pageable-rotated", "256 MiB pageable rotated, GB/s"),
            lines("pageable-rotated", "1 MiB pinned rotated, GB/s"),
            lines("pageable-rotated", "16 MiB pinned rotated, GB/s"),
            lines("pageable-rotated", "256 MiB pinned rotated, GB/s"),
        ],
        rival: "pageable copies are slow because the driver pins each page for the copy, not because it stages the \
                data through a pinned buffer",
        rival_figure: "none the check reads: staging and pinning per page are both slow and flat with size; the copy's CPU \
                time spent in a memcpy, or a pageable copy of memory registered beforehand, would tell",
        tells_rival_apart: false,
        planted: &[20.0, 20.0, 20.0, 50.0, 55.0, 55.0],
        check: |m| {
            let pageable = [m[0], m[1], m[2]];
            let quarter = pageable.iter().zip(&m[3..6]).all(|(p, q)| *p <= q / 4.0);
            let hi = pageable.iter().copied().fold(f64::MIN, f64::max);
            let lo = pageable.iter().copied().fold(f64::MAX, f64::min);
            verdict(quarter && hi / lo <= 1.5, || {
                format!("pageable {:.1}, {:.1}, {:.1} GB/s against pinned {:.1}, {:.1}, {:.1}", m[0], m[1], m[2], m[3], m[4], m[5])
            })
        },
    },
    Why {
        id: "d53-why-cached-source",
        cause: "the lesson's small pageable copies are flattered by a source buffer that stays in the CPU's caches: \
                from one buffer the 1 MiB copy is at least 1.3 times as fast as from rotated ones, and at 256 MiB \
                the two are within 10%",
        figures: &[
            lines("pageable-rotated", "1 MiB pageable one buffer, GB/s"),
            lines("pageable-rotated", "1 MiB pageable rotated, GB/s"),
            lines("pageable-rotated", "256 MiB pageable one buffer, GB/s"),
            lines("pageable-rotated", "256 MiB pageable rotated, GB/s"),
        ],
        rival: "one buffer is faster because the driver keeps its pages locked or mapped from the copy before, not \
                because the data stays in the CPU's caches",
        rival_figure: "none the check reads: both make one buffer faster than rotated ones at small sizes; the same 1 MiB \
                copy with the CPU's caches flushed between copies would tell",
        tells_rival_apart: false,
        planted: &[10.0, 10.0, 8.0, 8.0],
        check: |m| {
            verdict(m[0] >= 1.3 * m[1] && (m[2] / m[3] - 1.0).abs() <= 0.10, || {
                format!("1 MiB {:.2}x, 256 MiB {:.2}x", m[0] / m[1], m[2] / m[3])
            })
        },
    },
    Why {
        id: "d53-why-async-pageable",
        cause: "cudaMemcpyAsync from pageable memory is not asynchronous because the staging copy runs inside the \
                call: the call holds the thread for at least 95% of the copy's completion, while from pinned memory \
                it returns within 1%",
        figures: &[
            report(LESSON, "async pageable call, % of completion"),
            report(LESSON, "async pinned call, % of completion"),
        ],
        rival: "the call waits for the copy's DMA to finish, whatever stages it",
        rival_figure: "none the check reads: both hold the call for 95% of the completion; where the call's time goes (a \
                memcpy on the CPU against a wait with the CPU idle) would tell",
        tells_rival_apart: false,
        planted: &[50.0, 0.5],
        check: |m| verdict(m[0] >= 95.0 && m[1] <= 1.0, || format!("{:.1}% and {:.1}%", m[0], m[1])),
    },
    Why {
        id: "d53-why-zero-copy-link",
        cause: "zero-copy is slow by the ratio of the GPU's memory to PCIe, not by a penalty of its own: the kernel \
                reads mapped host memory at over 80% of the pinned 64 MiB copy's rate",
        figures: &[
            report(LESSON, "zero-copy kernel, ms"),
            report(LESSON, "64 MiB pinned, GB/s"),
        ],
        rival: "zero-copy carries a penalty of its own (each access a small PCIe read with its latency), beyond the \
                link's rate",
        rival_figure: "the kernel's read rate of mapped memory would fall well under the pinned copy's rate",
        tells_rival_apart: true,
        planted: &[10.0, 50.0],
        check: |m| {
            let read_gb_s = 64.0 * MIB / (m[0] * 1e6);
            verdict(read_gb_s >= 0.8 * m[1], || format!("{read_gb_s:.1} GB/s read against {:.1}", m[1]))
        },
    },
];
