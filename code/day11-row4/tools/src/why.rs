//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs, its `ncu` phase and the diagnostics its `why` and `coalesce` phases
//! record (`gpu-phases/why-row4.cu`, `gpu-phases/why-coalesce.cu`).

use lesson_spec::why::{lines, report, runs};
use lesson_spec::{verdict, Why};

const LESSON: &str = "day11-row4";

pub static WHYS: &[Why] = &[
    Why {
        id: "d11-why-flush-control",
        cause: "the per-launch row with nothing queued ahead is no control: its start event, stamped on an idle \
                stream, also holds the host's launch submission. Behind a spin kernel that touches no memory the \
                launch is at least 2 us faster; the read-only flush takes between 1 and 4 us more off, as does \
                ncu's flush against --cache-control none",
        figures: &[
            lines("d11-why", "per-launch events no flush, ms"),
            lines("d11-why", "per-launch events behind a spin kernel, ms"),
            lines("d11-why", "per-launch events L2 flushed, ms"),
            runs(LESSON, "cxx-ncu-cache-control-none", "ncu duration, ms, median"),
            runs(LESSON, "cxx-ncu", "ncu duration, ms, median"),
        ],
        rival: "the no-flush row's extra time is the L2's state left by the previous launch, not the host's \
                submission",
        rival_figure: "behind a spin kernel, which takes the submission out of the interval, the per-launch row would read \
                the same as with nothing queued",
        tells_rival_apart: true,
        planted: &[0.0650, 0.0645, 0.0620, 0.060, 0.058],
        check: |m| {
            let host = (m[0] - m[1]) * 1000.0;
            let cache = (m[1] - m[2]) * 1000.0;
            let ncu = (m[3] - m[4]) * 1000.0;
            let band = |us: f64| (1.0..=4.0).contains(&us);
            verdict(host >= 2.0 && band(cache) && band(ncu), || {
                format!("submission {host:.1} us, flush {cache:.1} us, ncu's flush {ncu:.1} us")
            })
        },
    },
    Why {
        id: "d11-why-work-per-thread",
        cause: "more work per thread helps, and float4 is one way to get it: scalar loads of 4 elements per thread \
                run within 3% of the float4 kernel, and at least 15% faster than 1 per thread; the float4 kernel \
                launched over row 4's grid, 4 times the blocks it needs, is slower than row 4",
        figures: &[
            lines("d11-why", "scalar 1 per thread, ms"),
            lines("d11-why", "scalar 4 per thread, ms"),
            lines("d11-why", "vectorAdd4, ms"),
            lines("d11-why", "vectorAdd4 at row 4's grid, ms"),
            lines("d11-why", "row 4, ms"),
        ],
        rival: "float4 is faster because its loads are wider (fewer instructions per byte), not because each thread \
                does more work",
        rival_figure: "scalar loads of 4 elements per thread would stay near 1 per thread's time, well behind float4",
        tells_rival_apart: true,
        planted: &[0.060, 0.058, 0.050, 0.055, 0.054],
        check: |m| {
            verdict(
                (m[1] / m[2] - 1.0).abs() <= 0.03 && m[0] >= 1.15 * m[1] && m[3] > m[4],
                || {
                    format!(
                        "4 per thread {:.4} ms, float4 {:.4}, 1 per thread {:.4}; float4 over row 4's grid {:.4} against {:.4}",
                        m[1], m[2], m[0], m[3], m[4]
                    )
                },
            )
        },
    },
    Why {
        id: "d11-why-launch-floor",
        cause: "at small n the time is the host's launch call, not the GPU: a 64 Ki-element launch takes within 15% \
                of an empty kernel's launch, and the same launches replayed in a CUDA graph take under a third of it",
        figures: &[
            lines("d11-why", "sweep n=65536, ms"),
            lines("d11-why", "empty kernel launched, ms"),
            lines("d11-why", "graph n=65536, ms"),
            lines("d11-why", "empty kernel in a graph, ms"),
        ],
        rival: "the GPU's own per-launch cost (its front end starting a grid), not the host's launch call, sets the \
                floor",
        rival_figure: "none the check reads: a graph cuts the host's and the GPU's per-launch cost alike; the same launches \
                queued behind a spin kernel, which hides the host's call, would split them",
        tells_rival_apart: false,
        planted: &[0.0045, 0.0044, 0.0030, 0.0030],
        check: |m| {
            verdict((m[0] / m[1] - 1.0).abs() <= 0.15 && m[2] < m[0] / 3.0 && m[3] < m[1] / 3.0, || {
                format!(
                    "64 Ki {:.5} ms against an empty launch's {:.5}; in a graph {:.5} and {:.5}",
                    m[0], m[1], m[2], m[3]
                )
            })
        },
    },
    Why {
        id: "d11-why-l2-shows-in-graphs",
        cause: "the L2 shows once the launch floor is out of the way: a read-only kernel replayed in a graph over \
                24 and 32 MiB reads faster than the DRAM's theoretical peak, and over 192 MiB slower",
        figures: &[
            lines("d11-why", "graph read-only 24 MiB, GB/s"),
            lines("d11-why", "graph read-only 32 MiB, GB/s"),
            lines("d11-why", "graph read-only 192 MiB, GB/s"),
            report(LESSON, "theoretical peak, GB/s"),
        ],
        rival: "the read rate above the DRAM's peak is the graph's timing, or a peak set too low, not the L2",
        rival_figure: "the 192 MiB graph, which no L2 holds, would read above the peak as well",
        tells_rival_apart: true,
        planted: &[3000.0, 3100.0, 4000.0, 4800.0],
        check: |m| {
            verdict(m[0] > m[3] && m[1] > m[3] && m[2] < m[3], || {
                format!("{:.0}, {:.0} and {:.0} GB/s against a {:.0} GB/s peak", m[0], m[1], m[2], m[3])
            })
        },
    },
    Why {
        id: "d11-why-in-l2-is-sizes",
        cause: "the `in L2` column compares sizes, not what is cached: under ncu, with caches left as the previous \
                launch left them, the launches at 2 Mi and 4 Mi elements read at least 95% of their inputs from DRAM, \
                while the 64 Ki-element launch, whose 0.75 MiB the L2 holds many times over, reads under half of \
                its inputs from DRAM (else the profiler, not the L2, sends every read to DRAM)",
        figures: &[
            lines("d11-why-ncu-sweep", "ncu vectorAdd grid 8192, dram__bytes_read.sum"),
            lines("d11-why-ncu-sweep", "ncu vectorAdd grid 16384, dram__bytes_read.sum"),
            lines("d11-why-ncu-sweep", "ncu vectorAdd grid 256, dram__bytes_read.sum"),
        ],
        rival: "ncu's replay restores memory between its passes, so under a multi-pass metric set every launch reads \
                its inputs from DRAM whatever the L2 held",
        rival_figure: "the 64 Ki-element launch, whose 0.75 MiB the L2 holds many times over, would read its inputs from \
                DRAM too, as the 2 Mi and 4 Mi launches do",
        tells_rival_apart: true,
        planted: &[16777216.0, 33554432.0, 527360.0],
        check: |m| {
            // Two float inputs of 2 Mi and 4 Mi elements.
            let (two, four, small) = (8.0 * 2_097_152.0, 8.0 * 4_194_304.0, 8.0 * 65_536.0);
            verdict(m[0] >= 0.95 * two && m[1] >= 0.95 * four && m[2] < 0.5 * small, || {
                format!(
                    "{:.0}% and {:.0}% of the inputs from DRAM at 2 Mi and 4 Mi, {:.0}% at 64 Ki",
                    m[0] / two * 100.0,
                    m[1] / four * 100.0,
                    m[2] / small * 100.0
                )
            })
        },
    },
    Why {
        id: "d11-why-copy-reference",
        cause: "the 64 MiB copy kernel is a reference, not the memory's ceiling: a 1 GiB copy runs at least 8% \
                faster, and ncu sees the 64 MiB copy use less of the DRAM's bandwidth and leave over a fifth of \
                its output unwritten to DRAM when it ends",
        figures: &[
            lines("d11-why", "copy4 64 MiB, GB/s"),
            lines("d11-why", "copy4 1 GiB, GB/s"),
            lines("d11-why-ncu-full", "ncu copy4 grid 16385, dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            lines("d11-why-ncu-full", "ncu copy4 grid 262144, dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            lines("d11-why-ncu-full", "ncu copy4 grid 16385, dram__bytes_write.sum"),
        ],
        rival: "the 64 MiB copy runs at the memory's ceiling, and the 1 GiB copy's higher rate is noise",
        rival_figure: "none the check reads predicts what the rival would not: copies of several sizes fitted to a \
                start-and-tail cost plus bytes over a rate would show whether the 64 MiB copy's shortfall is its \
                start and tail",
        tells_rival_apart: false,
        planted: &[4000.0, 4100.0, 80.0, 80.0, 67108864.0],
        check: |m| {
            // copy4 at full n writes n floats: 16,777,827 x 4 bytes.
            let output = 4.0 * 16_777_827.0;
            verdict(m[1] >= 1.08 * m[0] && m[2] < m[3] && m[4] < 0.8 * output, || {
                format!(
                    "{:.0} against {:.0} GB/s; DRAM {:.1}% against {:.1}%; {:.0}% of the output written",
                    m[0],
                    m[1],
                    m[2],
                    m[3],
                    m[4] / output * 100.0
                )
            })
        },
    },
    Why {
        id: "d11-why-first-launch-dirty",
        cause: "the first profiled launch writes more because the inputs' host-to-device copies leave dirty lines \
                in the L2: behind a read-only flush, the first launch writes at least 10% fewer bytes",
        figures: &[
            lines("d11-why-ncu-first", "ncu vectorAdd launch 0, dram__bytes_write.sum"),
            lines("d11-why-ncu-first-flush", "ncu vectorAdd launch 0, dram__bytes_write.sum"),
        ],
        rival: "the first profiled launch writes more because of ncu's own first pass, not dirty lines the copies \
                left",
        rival_figure: "behind a read-only flush the first launch would write as many bytes as without one",
        tells_rival_apart: true,
        planted: &[100.0, 100.0],
        check: |m| {
            verdict(m[1] <= 0.9 * m[0], || format!("{:.0} against {:.0} bytes", m[1], m[0]))
        },
    },
    Why {
        id: "d11-why-clocks-steady",
        cause: "no row is slowed by the clocks: the SM clock counted inside a kernel that runs beside 40 launches \
                of row 4 is within 1% of the clock NVML reads after the rows, and the memory clock NVML reads after \
                the first row and after the last is the same",
        figures: &[
            lines("d11-why", "SM clock counted in a kernel during 40 launches of row 4, MHz"),
            lines("d11-why", "SM clock after the per-launch rows, MHz").exact(),
            lines("d11-why", "memory clock after the check launch, MHz").exact(),
            lines("d11-why", "memory clock after the per-launch rows, MHz").exact(),
        ],
        rival: "the SM clock drops while the rows run and is back by the time NVML is read, after the row, with the \
                GPU idle",
        rival_figure: "the SM clock counted during row 4's launches would be lower than NVML's reading after them",
        tells_rival_apart: true,
        // The rival true: 4% down while row 4 runs.
        planted: &[1900.0, 1980.0, 3201.0, 3201.0],
        check: |m| {
            verdict((m[0] / m[1] - 1.0).abs() <= 0.01 && m[2] == m[3], || {
                format!(
                    "SM {:.0} MHz counted during row 4 against {} after the rows; memory {} to {} MHz",
                    m[0], m[1], m[2], m[3]
                )
            })
        },
    },
    Why {
        id: "d11-why-coalescing",
        cause: "a warp's loads coalesce into whole sectors: an offset that misaligns them costs under 10%, while a \
                stride of 2 loses over a third of the useful rate and a stride of 32 over 90%",
        figures: &[
            lines("d11-why-coalesce", "offset 0, GB/s"),
            lines("d11-why-coalesce", "offset 1, GB/s"),
            lines("d11-why-coalesce", "stride 1, GB/s"),
            lines("d11-why-coalesce", "stride 2, GB/s"),
            lines("d11-why-coalesce", "stride 32, GB/s"),
        ],
        rival: "the useful rate falls with the stride because the L2 fetches 64 bytes from DRAM at a time, not \
                because a warp's loads split into more 32-byte sectors",
        rival_figure: "none the check reads: both lose the rate with the stride; stride 16's and 32's rate against stride \
                8's (the same under 32-byte sectors, half under 64-byte fetches), or ncu's DRAM bytes per useful \
                byte, would tell",
        tells_rival_apart: false,
        planted: &[1000.0, 800.0, 1000.0, 700.0, 200.0],
        check: |m| {
            verdict(m[1] >= 0.9 * m[0] && m[3] <= 0.65 * m[2] && m[4] <= 0.1 * m[2], || {
                format!(
                    "offset 1 at {:.2}, stride 2 at {:.2}, stride 32 at {:.2} of the aligned rate",
                    m[1] / m[0],
                    m[3] / m[2],
                    m[4] / m[2]
                )
            })
        },
    },
    Why {
        id: "d11-why-replay-restores",
        cause: "the four-metric figure that every launch reads its inputs from DRAM is ncu's replay, not the L2: \
                with one metric (one pass) launches two and three at 2 Mi elements read under 10% of their inputs \
                from DRAM, while with the four metrics (several passes, memory restored between them) the same \
                launches read at least 95%",
        figures: &[
            lines("d11-why-ncu-l2-one", "ncu vectorAdd launch 4, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-one", "ncu vectorAdd launch 5, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-four", "ncu vectorAdd launch 4, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-four", "ncu vectorAdd launch 5, dram__bytes_read.sum"),
        ],
        rival: "the L2 does not keep the 24 MiB of arrays from one launch to the next, so every launch reads its \
                inputs from DRAM whatever the profiler does",
        rival_figure: "the one-pass launches two and three would read their inputs from DRAM too, as the four-metric \
                ones do",
        tells_rival_apart: true,
        planted: &[16777216.0, 16777216.0, 16777216.0, 16777216.0],
        check: |m| {
            let inputs = 8.0 * 2_097_152.0;
            verdict(
                m[0] < 0.1 * inputs && m[1] < 0.1 * inputs && m[2] >= 0.95 * inputs && m[3] >= 0.95 * inputs,
                || {
                    format!(
                        "one pass: {:.1}% and {:.1}% of the inputs from DRAM; four metrics: {:.1}% and {:.1}%",
                        m[0] / inputs * 100.0,
                        m[1] / inputs * 100.0,
                        m[2] / inputs * 100.0,
                        m[3] / inputs * 100.0
                    )
                },
            )
        },
    },
    Why {
        id: "d11-why-restore-size",
        cause: "ncu's replay sends a launch's reads to DRAM by restoring, between passes, the allocation the \
                launch writes: with the four metrics, launches two and three at 2 Mi elements read under 10% of \
                their inputs from DRAM when the output's allocation is 8 MiB, and at least 80% when it is 256 MiB, \
                more than four times the L2; with one metric (one pass, nothing restored) they read under 10% \
                from the 256 MiB allocation too",
        figures: &[
            lines("d11-why-ncu-l2-four", "ncu vectorAdd launch 4, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-four", "ncu vectorAdd launch 5, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-four-big-out", "ncu vectorAdd launch 5, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-one-big-out", "ncu vectorAdd launch 4, dram__bytes_read.sum"),
            lines("d11-why-ncu-l2-one-big-out", "ncu vectorAdd launch 5, dram__bytes_read.sum"),
        ],
        rival: "a large allocation changes what the L2 keeps between launches by itself, whether or not the \
                profiler restores it",
        rival_figure: "with one metric, where nothing is restored, the launches beside the 256 MiB allocation would \
                       read their inputs from DRAM too",
        tells_rival_apart: true,
        // The rival true: the one-pass launches read everything from DRAM too.
        planted: &[0.0, 0.0, 16777216.0, 16777216.0, 16777216.0, 16777216.0],
        check: |m| {
            let inputs = 8.0 * 2_097_152.0;
            let share = |x: f64| x / inputs * 100.0;
            verdict(
                m[0] < 0.1 * inputs
                    && m[1] < 0.1 * inputs
                    && m[2] >= 0.8 * inputs
                    && m[3] >= 0.8 * inputs
                    && m[4] < 0.1 * inputs
                    && m[5] < 0.1 * inputs,
                || {
                    format!(
                        "four metrics: {:.1}% and {:.1}% beside an 8 MiB output, {:.1}% and {:.1}% beside a 256 MiB \
                         one; one metric beside 256 MiB: {:.1}% and {:.1}%",
                        share(m[0]),
                        share(m[1]),
                        share(m[2]),
                        share(m[3]),
                        share(m[4]),
                        share(m[5])
                    )
                },
            )
        },
    },
    Why {
        id: "d11-why-warm-in-l2",
        cause: "a launch finds its data in the L2 only while the footprint is well inside it: a persistent float4 \
                vectorAdd behind a launch of itself takes under 0.6 of its time behind the read-only flush at 24 \
                MiB, and over 0.8 at 96 MiB",
        figures: &[
            lines("d11-why-mix", "footprint 24 MiB vectorAdd4 persistent warm/cold"),
            lines("d11-why-mix", "footprint 96 MiB vectorAdd4 persistent warm/cold"),
        ],
        rival: "the warm launch is faster for a reason other than where its data is (the flush's after-effects, the \
                queue ahead of the start event), at every footprint alike",
        rival_figure: "warm / cold would stay well below 1 at 96 MiB too, where the data cannot survive in a 60 MiB L2",
        tells_rival_apart: true,
        planted: &[0.4, 0.4],
        check: |m| {
            verdict(m[0] < 0.6 && m[1] > 0.8, || {
                format!("warm / cold {:.2} at 24 MiB and {:.2} at 96 MiB", m[0], m[1])
            })
        },
    },
    Why {
        id: "d11-why-mix",
        cause: "the copy is one mix of reads and writes, not the memory's one ceiling: over 1 GiB per array a \
                kernel that only reads moves at least 3% more bytes per second than the copy",
        figures: &[
            lines("d11-why-mix", "mix read-only 1 GiB, GB/s"),
            lines("d11-why-mix", "mix copy 1 GiB, GB/s"),
        ],
        rival: "the 1 GiB copy is the DRAM's ceiling for any mix, and other mixes differ from it by noise",
        rival_figure: "the read-only kernel would run within a percent or two of the copy",
        tells_rival_apart: true,
        planted: &[4240.0, 4240.0],
        check: |m| {
            verdict(m[0] >= 1.03 * m[1], || {
                format!("read-only at {:.3} of the copy's rate", m[0] / m[1])
            })
        },
    },
    Why {
        id: "d11-why-littles-law",
        cause: "one element per thread cannot keep the peak's bytes in flight: the peak times a DRAM load's latency \
                (a pointer chase) is more per SM than the 16 KiB of loads 2,048 threads of row 4 hold at once",
        figures: &[
            runs(LESSON, "cxx rust", "theoretical peak, GB/s"),
            lines("d11-why-mix", "pointer chase 256 MiB, ns per load"),
        ],
        rival: "row 4 is held by the DRAM's bandwidth alone, and more loads in flight would not help",
        rival_figure: "none the check reads: the latency figure only says whether the bytes in flight could suffice; \
                the per-thread kernels' times (`d11-why-work-per-thread`) tell the two apart",
        tells_rival_apart: false,
        planted: &[4814.0, 300.0],
        check: |m| {
            // GB/s x ns = bytes, over the H200's 132 SMs.
            let per_sm = m[0] * m[1] / 132.0;
            verdict(per_sm > 16384.0, || format!("{per_sm:.0} bytes per SM needed in flight"))
        },
    },
    Why {
        id: "d11-why-gpu-launch",
        cause: "the back-to-back launch floor is mostly the host's: with the launches queued behind a spin kernel \
                before the first runs, an empty kernel costs the GPU under half the back-to-back time per launch",
        figures: &[
            lines("d11-why-mix", "empty kernels queued ahead").exact(),
            lines("d11-why-mix", "empty kernel queued behind a spin, us per launch"),
            lines("d11-why-mix", "empty kernel back to back, us per launch"),
        ],
        rival: "the floor is the GPU's own per-launch cost, and the host only keeps pace with it",
        rival_figure: "the launches queued ahead would take the GPU as long each as launched back to back",
        tells_rival_apart: true,
        planted: &[1.0, 4.5, 4.6],
        check: |m| {
            verdict(m[0] == 1.0 && m[1] < 0.5 * m[2], || {
                format!("queued ahead {}, {:.2} us against {:.2} back to back", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "d11-why-fetch-granularity",
        cause: "past a stride of 8 the L2 fetches more than the sector a load uses: at stride 16 ncu counts at least \
                12 DRAM bytes read per useful byte, and a 32-byte fetch granularity makes stride-16 reads at least \
                30% faster",
        figures: &[
            lines("d11-why-ncu-stride", "ncu strideRead launch 1, dram__bytes_read.sum"),
            lines("d11-why-mix", "stride 16 read, GB/s"),
            lines("d11-why-mix", "stride 16 read at 32-byte fetch, GB/s"),
        ],
        rival: "each useful float costs one 32-byte sector whatever the stride past 8, so the fetch granularity \
                changes nothing",
        rival_figure: "stride 16 would read 8 DRAM bytes per useful byte, and its rate would not change at a 32-byte \
                fetch granularity",
        tells_rival_apart: true,
        planted: &[268435456.0, 300.0, 300.0],
        check: |m| {
            // 8 Mi useful floats of 4 bytes.
            let per_useful = m[0] / 33_554_432.0;
            verdict(per_useful >= 12.0 && m[2] >= 1.3 * m[1], || {
                format!(
                    "{per_useful:.1} DRAM bytes per useful byte at stride 16; {:.2} times the rate at 32-byte fetches",
                    m[2] / m[1]
                )
            })
        },
    },
    Why {
        id: "d11-why-strided-writes",
        cause: "a strided write costs DRAM reads: at stride 8 the L2 reads at least 4 bytes from DRAM per useful \
                byte written, to merge each partial sector with the rest of it",
        figures: &[lines("d11-why-ncu-stride", "ncu strideWrite launch 1, dram__bytes_read.sum")],
        rival: "a write only writes: the L2 masks the unwritten bytes of a sector and reads nothing",
        rival_figure: "the strided writes would read next to nothing from DRAM",
        tells_rival_apart: true,
        planted: &[0.0],
        check: |m| {
            let per_useful = m[0] / 33_554_432.0;
            verdict(per_useful >= 4.0, || {
                format!("{per_useful:.2} DRAM bytes read per useful byte written at stride 8")
            })
        },
    },
];
