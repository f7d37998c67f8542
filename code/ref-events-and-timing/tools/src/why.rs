//! The causes this lesson's README gives, as checks (`lesson_spec::why`):
//! each is judged per GPU on the medians of its figures, from the lesson's
//! runs and the diagnostics its `why` phase records
//! (`gpu-phases/why-chain.cu`).

use lesson_spec::why::{lines, report};
use lesson_spec::{verdict, Why};

const LESSON: &str = "ref-events-and-timing";

pub static WHYS: &[Why] = &[
    Why {
        id: "ev-why-queue",
        cause: "a launch is a write into a queue: the launch call alone takes under 20 us for a 10 us and a 10 ms \
                kernel alike, and only with a synchronise does the host clock hold the 10 ms kernel (at least 9 ms of it: at 10 ms \
                the threshold would sit on the bound itself)",
        figures: &[
            report(LESSON, "0.01 ms kernel, launch alone, us"),
            report(LESSON, "10 ms kernel, launch alone, us"),
            report(LESSON, "10 ms kernel, launch + sync, us"),
        ],
        rival: "the launch call waits for the kernel to run",
        rival_figure: "the 10 ms kernel's launch call alone would take about 10 ms",
        tells_rival_apart: true,
        planted: &[5.0, 10000.0, 10005.0],
        check: |m| {
            verdict(m[0] < 20.0 && m[1] < 20.0 && m[2] >= 9_000.0, || {
                format!("{:.1} and {:.1} us alone, {:.0} us with the sync", m[0], m[1], m[2])
            })
        },
    },
    Why {
        id: "ev-why-event-stamp",
        cause: "an event is stamped when the stream reaches it: 5 ms queued before the start event leaves a 1 ms \
                kernel's interval within 5% of 1 ms, a 3 ms host delay after it is inside the interval, and \
                event pairs synchronised one by one, whose start finds the stream idle, read longer than pairs \
                queued back to back",
        figures: &[
            report(LESSON, "interval, queued ahead, ms"),
            report(LESSON, "interval, host delay, ms"),
            report(LESSON, "events+sync median, ms"),
            report(LESSON, "events median, ms"),
        ],
        rival: "an event is stamped when the host records it, not when the stream reaches it",
        rival_figure: "with 5 ms queued ahead, the 1 ms kernel's interval would read about 6 ms",
        tells_rival_apart: true,
        planted: &[6.0, 1.0, 0.05, 0.05],
        check: |m| {
            verdict((m[0] - 1.0).abs() <= 0.05 && m[1] >= 3.9 && m[2] > m[3], || {
                format!(
                    "queued ahead {:.3} ms, host delay {:.3} ms, synchronised pairs {:.4} against {:.4}",
                    m[0], m[1], m[2], m[3]
                )
            })
        },
    },
    Why {
        id: "ev-why-wait",
        cause: "waiting is a choice between a core and a wake-up: a spinning wait burns at least half the wait in \
                CPU time and a blocking one at most a tenth, and the blocking wait, counted from before the calls, \
                wakes later",
        figures: &[
            report(LESSON, "spin wait CPU share, %"),
            report(LESSON, "blocking wait CPU share, %"),
            report(LESSON, "spin wake-up, us"),
            report(LESSON, "blocking wake-up, us"),
        ],
        rival: "the blocking flag is not honoured: both waits spin",
        rival_figure: "the blocking wait's CPU share would be as high as the spinning one's",
        tells_rival_apart: true,
        planted: &[95.0, 90.0, 5.0, 5.0],
        check: |m| {
            verdict(m[0] >= 50.0 && m[1] <= 10.0 && m[3] > m[2], || {
                format!("CPU {:.1}% and {:.1}%, wake-up {:.1} and {:.1} us", m[0], m[1], m[2], m[3])
            })
        },
    },
    Why {
        id: "ev-why-chain-is-launch",
        cause: "Part 4's chain link is the host's launch call, not the device's cost: launched, a link takes within \
                20% of the launch call's time per link; replayed as a CUDA graph the same chain takes under a \
                third of it per link, and only there does a timing event cost the device more than a \
                DisableTiming one",
        figures: &[
            lines("ev-why-chain", "chain link launched, timing event, us"),
            lines("ev-why-chain", "launch call per link, timing event, us"),
            lines("ev-why-chain", "chain link in a graph, timing event, us"),
            lines("ev-why-chain", "chain link in a graph, DisableTiming event, us"),
            lines("ev-why-chain", "chain link in a graph, no event, us"),
        ],
        rival: "the link is the device's own cost per kernel and event, which the host's call only happens to match",
        rival_figure: "in a graph, without the host's calls, a link would take as long as launched",
        tells_rival_apart: true,
        planted: &[4.0, 4.1, 3.9, 3.8, 3.7],
        check: |m| {
            verdict(
                (m[0] / m[1] - 1.0).abs() <= 0.20 && m[2] < m[0] / 1.5 && m[4] < m[0] / 3.0 && m[3] < m[2],
                || {
                    format!(
                        "launched {:.2} us, call {:.2} us; in a graph {:.2} (timing), {:.2} (DisableTiming), {:.2} (none)",
                        m[0], m[1], m[2], m[3], m[4]
                    )
                },
            )
        },
    },
    Why {
        id: "ev-why-disable-timing-host",
        cause: "a DisableTiming event costs the host less: its record-and-wait pair takes less than half a timing \
                event's",
        figures: &[
            report(LESSON, "record + wait, timing event, us"),
            report(LESSON, "record + wait, DisableTiming, us"),
        ],
        rival: "a timing event's record-and-wait is slower for another reason than state the driver keeps (waiting \
                for the GPU to write its timestamp)",
        rival_figure: "none the check reads: it restates the effect; the state the driver keeps is not measured",
        tells_rival_apart: false,
        planted: &[5.0, 4.0],
        check: |m| verdict(m[1] < m[0] / 2.0, || format!("{:.3} against {:.3} us", m[1], m[0])),
    },
    Why {
        id: "ev-why-disable-timing-record",
        cause: "a DisableTiming event saves the host its time in cudaEventRecord, where a timing event's timestamp \
                is set up: on an idle stream the record call alone takes at most half a timing event's, while \
                cudaStreamWaitEvent on a completed event costs the two alike (within 25%)",
        figures: &[
            lines("ev-why-chain", "record call, timing event, us"),
            lines("ev-why-chain", "record call, DisableTiming event, us"),
            lines("ev-why-chain", "stream wait call, timing event, us"),
            lines("ev-why-chain", "stream wait call, DisableTiming event, us"),
        ],
        rival: "the saving is in cudaStreamWaitEvent, the dependency a timing event carries, and the record calls \
                cost the same",
        rival_figure: "the two record calls would cost alike and the DisableTiming stream wait less",
        tells_rival_apart: true,
        // The rival true: records alike, the wait cheaper.
        planted: &[0.40, 0.38, 0.80, 0.30],
        check: |m| {
            verdict(m[1] <= 0.5 * m[0] && (m[3] / m[2] - 1.0).abs() <= 0.25, || {
                format!(
                    "record {:.3} against {:.3} us; stream wait {:.3} against {:.3} us (DisableTiming against timing)",
                    m[1], m[0], m[3], m[2]
                )
            })
        },
    },
    Why {
        id: "ev-why-idle-launch-call",
        cause: "the first launch after idle is slow on the host's launch path, not in the kernel or the clock: its \
                interval exceeds steady state by at least 10 us, its launch call by at least 10 us, the kernel's \
                own duration is within 2% of steady state and the SM clock is the same",
        figures: &[
            report(LESSON, "launch 1 after idle, ms"),
            report(LESSON, "steady launches, ms"),
            report(LESSON, "launch 1 after idle, launch call us"),
            report(LESSON, "steady launches, launch call us"),
            report(LESSON, "launch 1 after idle, kernel ms"),
            report(LESSON, "steady launches, kernel ms"),
            report(LESSON, "SM clock, first launches, MHz").exact(),
            report(LESSON, "SM clock, steady launches, MHz").exact(),
        ],
        rival: "the first launch after idle is slow because the GPU's clocks ramp up from idle",
        rival_figure: "the kernel's own duration after idle would exceed steady state, and the SM clock would read lower",
        tells_rival_apart: true,
        planted: &[0.020, 0.015, 12.0, 8.0, 0.010, 0.010, 1980.0, 1980.0],
        check: |m| {
            let interval = (m[0] - m[1]) * 1000.0;
            let call = m[2] - m[3];
            let kernel = m[4] / m[5];
            verdict(
                interval >= 10.0 && call >= 10.0 && (kernel - 1.0).abs() <= 0.02 && m[6] == m[7],
                || {
                    format!(
                        "interval +{interval:.1} us, call +{call:.1} us, kernel {kernel:.3}x, clocks {} and {} MHz",
                        m[6], m[7]
                    )
                },
            )
        },
    },
];
