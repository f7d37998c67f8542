//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs and the diagnostics its `dispatch` and `why` phases record
//! (`gpu-phases/empty-blocks.cu`, `gpu-phases/why-blocks.cu`).

use lesson_spec::why::{lines, report};
use lesson_spec::{verdict, Why};

const LESSON: &str = "day10-block-sizes";

pub static WHYS: &[Why] = &[
    Why {
        id: "d10-why-block-starts",
        cause: "small blocks are paced by how fast blocks start: from 32 to 128 threads a kernel that does nothing \
                takes at least 95% of vectorAdd's time over the same grid, and starts blocks at a rate that varies \
                by at most 5% across those sizes",
        figures: &[
            lines("empty-blocks", "empty kernel at 32 threads, ms"),
            lines("empty-blocks", "vectorAdd at 32 threads, ms"),
            lines("empty-blocks", "empty kernel at 128 threads, ms"),
            lines("empty-blocks", "vectorAdd at 128 threads, ms"),
            lines("empty-blocks", "empty kernel at 32 threads, blocks per us"),
            lines("empty-blocks", "empty kernel at 128 threads, blocks per us"),
        ],
        rival: "small blocks are slow because too few warps per SM hide the memory's latency, not because of how \
                fast blocks start",
        rival_figure: "the empty kernel, which touches no memory, would take far less than vectorAdd over the same grid",
        tells_rival_apart: true,
        planted: &[0.10, 0.30, 0.05, 0.06, 1600.0, 1600.0],
        check: |m| {
            let (share32, share128) = (m[0] / m[1], m[2] / m[3]);
            let rates = m[4].max(m[5]) / m[4].min(m[5]);
            verdict(share32 >= 0.95 && share128 >= 0.95 && rates <= 1.05, || {
                format!(
                    "empty kernel {:.0}% and {:.0}% of vectorAdd at 32 and 128 threads, start rates {:.3}x apart",
                    share32 * 100.0,
                    share128 * 100.0,
                    rates
                )
            })
        },
    },
    Why {
        id: "d10-why-achieved-occupancy",
        cause: "the start rate caps achieved occupancy, not theoretical: at 64 threads vectorAdd's achieved \
                occupancy (ncu) is under half its theoretical 100%, and a grid-stride grid of the same blocks, \
                started once, reaches at least 85% achieved and runs at least twice as fast",
        figures: &[
            lines("d10-why-ncu", "ncu vectorAdd at 64 threads, sm__maximum_warps_per_active_cycle_pct"),
            lines("d10-why-ncu", "ncu vectorAdd at 64 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 64 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
            lines("d10-why", "vectorAdd at 64 threads, ms"),
            lines("d10-why", "grid-stride persistent at 64 threads, ms"),
        ],
        rival: "the grid-stride grid is faster because each thread handles many elements (more bytes in flight per \
                warp), not because more warps are resident",
        rival_figure: "none the check reads: the persistent grid raises achieved occupancy and the work per thread \
                together; a persistent grid held to vectorAdd's achieved occupancy would tell which buys the time",
        tells_rival_apart: false,
        planted: &[100.0, 40.0, 60.0, 0.20, 0.15],
        check: |m| {
            verdict(m[1] < m[0] / 2.0 && m[2] >= 85.0 && m[3] >= 2.0 * m[4], || {
                format!(
                    "achieved {:.1}% of theoretical {:.1}%, grid-stride {:.1}%, {:.2}x faster",
                    m[1],
                    m[0],
                    m[2],
                    m[3] / m[4]
                )
            })
        },
    },
    Why {
        id: "d10-why-turnover",
        cause: "768 and 1024 threads are slow because an SM's slots free one whole block at a time (a block's \
                slots wait for its last warp), not because only two blocks fit: 264 persistent grid-stride blocks \
                of 1024 threads (also two per SM) run at least 10% faster than one element per thread at 1024, \
                within 5% of 192 threads, with achieved occupancy at least 20 points higher",
        figures: &[
            lines("d10-why", "vectorAdd at 1024 threads, ms"),
            lines("d10-why", "grid-stride persistent at 1024 threads, ms"),
            lines("d10-why", "vectorAdd at 192 threads, ms"),
            lines("d10-why-ncu", "ncu vectorAdd at 1024 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 1024 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
        ],
        rival: "block start and exit, not the wait for a block's last warp, hold the SM's slots at 768 and 1024 \
                threads",
        rival_figure: "none the check reads: the persistent grid removes block starts, exits and the wait for the last warp \
                together; ncu's warp slots held by blocks whose warps have ended, against slots held by no block, \
                would split them",
        tells_rival_apart: false,
        planted: &[0.100, 0.098, 0.060, 60.0, 65.0],
        check: |m| {
            verdict(m[1] <= m[0] / 1.10 && m[1] <= m[2] * 1.05 && m[4] >= m[3] + 20.0, || {
                format!(
                    "grid-stride {:.4} ms against {:.4} at 1024 and {:.4} at 192; achieved {:.1}% against {:.1}%",
                    m[1], m[0], m[2], m[4], m[3]
                )
            })
        },
    },
    Why {
        id: "d10-why-partial-warp",
        cause: "a block of 100 threads runs four warps, one with 28 idle lanes: fmaChains, bound by its lanes, \
                takes 100 threads' time within 3% of 128/100 times 128 threads', while vectorAdd, bound by \
                memory and block starts, is within 5% of 96 threads",
        figures: &[
            report(LESSON, "fmaChains 100 threads, ms"),
            report(LESSON, "fmaChains 128 threads, ms"),
            report(LESSON, "vectorAdd 100 threads, ms"),
            report(LESSON, "vectorAdd 96 threads, ms"),
        ],
        rival: "the idle lanes cost vectorAdd too: a warp with four live lanes holds a whole warp slot",
        rival_figure: "vectorAdd at 100 threads would run slower than at 96 by up to the warps' ratio (4 warps for 100 \
                elements against 3 for 96), not within 5%",
        tells_rival_apart: true,
        planted: &[1.30, 1.00, 0.070, 0.060],
        check: |m| {
            let lanes = (m[0] / m[1]) / (128.0 / 100.0);
            let va = m[2] / m[3];
            verdict((lanes - 1.0).abs() <= 0.03 && (va - 1.0).abs() <= 0.05, || {
                format!("fmaChains at {lanes:.3} of the lanes' ratio, vectorAdd 100/96 = {va:.3}")
            })
        },
    },
    Why {
        id: "d10-why-api-largest",
        cause: "cudaOccupancyMaxPotentialBlockSize maximises theoretical occupancy and, among block sizes that \
                tie, returns the largest: it picks 1024 threads for both kernels, and vectorAdd there is at \
                least 10% slower than at 192",
        figures: &[
            report(LESSON, "vectorAdd occupancy API's block size, threads").exact(),
            report(LESSON, "fmaChains occupancy API's block size, threads").exact(),
            report(LESSON, "vectorAdd occupancy API's suggestion, ms"),
            report(LESSON, "vectorAdd 192 threads, ms"),
        ],
        rival: "the occupancy API picks the block size that runs the kernel fastest",
        rival_figure: "vectorAdd at the suggested block size would run within 10% of 192 threads' time",
        tells_rival_apart: true,
        planted: &[1024.0, 1024.0, 0.062, 0.061],
        check: |m| {
            verdict(m[0] == 1024.0 && m[1] == 1024.0 && m[2] >= 1.10 * m[3], || {
                format!(
                    "suggested {} and {} threads; vectorAdd there {:.3}x 192's",
                    m[0],
                    m[1],
                    m[2] / m[3]
                )
            })
        },
    },
    Why {
        id: "d10-why-spread-ruler",
        cause: "a run orders two block sizes only where their difference passes the spread: 256 threads' median \
                distance from 192 is under twice 256's median spread, and 384's is over three times its own",
        figures: &[
            report(LESSON, "vectorAdd 192 threads, ms"),
            report(LESSON, "vectorAdd 256 threads, ms"),
            report(LESSON, "vectorAdd 256 threads spread, %"),
            report(LESSON, "vectorAdd 384 threads, ms"),
            report(LESSON, "vectorAdd 384 threads spread, %"),
        ],
        rival: "every difference of medians orders the block sizes, whatever their spread",
        rival_figure: "none the check reads: it restates the figures; whether 256 and 192 keep their order from session to \
                session of the same code would tell",
        tells_rival_apart: false,
        planted: &[0.060, 0.0615, 0.5, 0.0605, 0.5],
        check: |m| {
            let d256 = (m[1] / m[0] - 1.0) * 100.0;
            let d384 = (m[3] / m[0] - 1.0) * 100.0;
            verdict(d256 < 2.0 * m[2] && d384 > 3.0 * m[4], || {
                format!(
                    "256: {d256:.2}% against a {:.2}% spread; 384: {d384:.2}% against {:.2}%",
                    m[2], m[4]
                )
            })
        },
    },
    Why {
        id: "d10-why-fma-peak",
        cause: "fmaChains is sized by arithmetic: 4,096 flops per element at 128 FP32 lanes x 132 SMs x 1.98 GHz \
                (66.9 TFLOP/s) is 1.03 ms, and at 128 threads it reaches at least 90% of that rate",
        figures: &[report(LESSON, "fmaChains 128 threads, GFLOP/s")],
        rival: "fmaChains is bound by memory or by block starts, not by arithmetic",
        rival_figure: "fmaChains' rate at 128 threads would sit well under 90% of the FP32 peak",
        tells_rival_apart: true,
        planted: &[30000.0],
        check: |m| {
            verdict(m[0] >= 0.90 * 66_908.0, || {
                format!("{:.0}% of 66,908 GFLOP/s", m[0] / 66_908.0 * 100.0)
            })
        },
    },
    Why {
        id: "d10-why-lanes-in-flight",
        cause: "a warp with four live lanes holds a whole warp slot and carries four lanes of loads: with block \
                starts out of the way, the persistent grid at 100 threads takes at least 8% longer than at 128, at \
                achieved occupancies within 2 points of each other",
        figures: &[
            lines("d10-why", "grid-stride persistent at 100 threads, ms"),
            lines("d10-why", "grid-stride persistent at 128 threads, ms"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 100 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 128 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
        ],
        rival: "the 100-thread persistent grid is slower because fewer of its warps are resident, not because its \
                warps carry fewer lanes",
        rival_figure: "its achieved occupancy would sit clearly below the 128-thread grid's",
        tells_rival_apart: true,
        planted: &[0.0590, 0.0589, 93.0, 93.4],
        check: |m| {
            verdict(m[0] >= 1.08 * m[1] && (m[2] - m[3]).abs() <= 2.0, || {
                format!(
                    "100 threads at {:.3} times 128's, achieved occupancy {:.1}% against {:.1}%",
                    m[0] / m[1],
                    m[2],
                    m[3]
                )
            })
        },
    },
    Why {
        id: "d10-why-warp-cap",
        cause: "turnover is not all of 768 threads' cost: the persistent grid, which turns over no blocks, still \
                takes at least 5% longer at 768 threads than at 1024, with achieved occupancy under 80% (48 of 64 \
                warps at most) against over 90%",
        figures: &[
            lines("d10-why", "grid-stride persistent at 768 threads, ms"),
            lines("d10-why", "grid-stride persistent at 1024 threads, ms"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 768 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
            lines("d10-why-ncu", "ncu vectorAddGridStride at 1024 threads, sm__warps_active.avg.pct_of_peak_sustained_active"),
        ],
        rival: "768 threads lose only to turnover, which the persistent grid removes",
        rival_figure: "the persistent grid would take as long at 768 threads as at 1024",
        tells_rival_apart: true,
        planted: &[0.0589, 0.0589, 71.0, 93.6],
        check: |m| {
            verdict(m[0] >= 1.05 * m[1] && m[2] < 80.0 && m[3] > 90.0, || {
                format!(
                    "768 at {:.3} times 1024's, achieved occupancy {:.1}% against {:.1}%",
                    m[0] / m[1],
                    m[2],
                    m[3]
                )
            })
        },
    },
];
