//! The report's lines, in the exact layout events.cu prints, so the two
//! programs' transcripts compare line by line. One function per part, each
//! starting with the blank line that separates parts, as the lesson prints
//! each part when it is done. Each line with numbers is a template the
//! parser reads back with.

use lesson_spec::fill;

use crate::claims;
use crate::parts::{Case, Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8, Spread, Wait};
use crate::parts::{FIRST_LAUNCHES, STEADY_LAUNCHES};

pub(crate) const P1_REPS: &str = "host clock, median of {} launches per kernel";
pub(crate) const P1_ROW: &str = "{:9.3}  {:10.1}  {:15.1}";
pub(crate) const P2: &str = "Part 2: events against a host clock plus sync, one {:.3} ms kernel";
pub(crate) const P2_REPS: &str = "{} timings each: median, interquartile range, IQR / median";
pub(crate) const P2_ROW: &str = "{:>11}  {:9.4} ms  IQR {:7.4} ms  spread {:6.2}%";
pub(crate) const P3: &str = "Part 3: waiting on a {:.3} ms kernel, spinning against blocking sync";
pub(crate) const P3_REPS: &str = "{} waits each, medians";
pub(crate) const P3_ROW: &str = "{:>9}  {:9.3}  {:9.3}  {:8.1}%  {:10.1}";
pub(crate) const P4_HOST: &str =
    "host cost of cudaEventRecord + cudaStreamWaitEvent, median of {} rounds of {}";
pub(crate) const P4_CHAIN: &str = "device cost of a chain of {} empty kernels, median of {} rounds";
/// Part 4's rows: a label, the cost, and what it is per (`pair`, `link`).
pub(crate) const P4_ROW: &str = "{:>16}  {:8.3} us per {}";
pub(crate) const P5: &str =
    "Part 5: a {:.3} ms producer on stream A, its consumer on stream B behind cudaStreamWaitEvent";
pub(crate) const P5_REPS: &str = "{} runs; the consumer's result was right in all";
pub(crate) const P5_ISSUE: &str = "host issued all {} calls in {:8.4} ms (median)";
pub(crate) const P5_GAP: &str = "consumer started {:8.4} ms after the producer ended (smallest)";
pub(crate) const P6: &str = "Part 6: what an event interval around a {:.3} ms kernel holds, median of {}";
pub(crate) const P6_ROW: &str = "{:>26}  {:7.3} ms  interval {:8.3} ms";
pub(crate) const P7: &str = "Part 7: {} launches of a {}-cycle kernel after {:.0} ms idle, each timed alone";
pub(crate) const P7_MHZ: &str = "SM clock after the idle period: {} MHz";
pub(crate) const P7_ROW: &str = "{:6}  {:9.4}  {:6}";
pub(crate) const P7_INSIDE_ROW: &str = "{:6}  {:9.4}  {:9.4}  {:9.1}  {:6}";
pub(crate) const P8: &str = "Part 8: the page's pattern against timeKernel, the same {}-cycle kernel";
/// Part 8's rows: a label (right-aligned to 36 as a whole), then the time.
pub(crate) const P8_PAGE: &str = "page (1 warm-up, loop of {})";
pub(crate) const P8_TIME_KERNEL: &str = "timeKernel ({} warm-ups, mean of {})";
pub(crate) const P8_ROW: &str = "{:>36}  {:9.4} ms per launch";

/// events.cu's verdict word.
fn verdict(holds: bool) -> &'static str {
    if holds {
        "holds"
    } else {
        "does not hold"
    }
}

pub fn gpu_line(name: &str, (major, minor): (i32, i32)) -> String {
    format!("GPU: {name} (compute capability {major}.{minor})")
}

pub fn part1(p: &Part1) -> String {
    let heads = format!(
        "{:>9}  {:>10}  {:>15}",
        "kernel ms", "launch us", "launch+sync us"
    );
    let mut out = format!(
        "\nPart 1: a launch returns once it is queued\n{}\n{heads}\n",
        fill(P1_REPS, &[&p.reps])
    );
    for r in &p.rows {
        out += &(fill(P1_ROW, &[&r.kernel_ms, &r.launch_us, &r.sync_us]) + "\n");
    }
    // The program's own verdict, events.cu's rule: the page's claim reads
    // "covers the kernel" as 90% of it, a threshold of its own.
    let holds = p
        .rows
        .iter()
        .all(|r| r.launch_us < 20.0 && r.sync_us >= r.kernel_ms * 1.0e3);
    out + &format!(
        "verdict: {} (launch alone under 20 us for all three, with a sync at least the kernel)",
        verdict(holds)
    )
}

pub fn part2(p: &Part2) -> String {
    let row = |name: &str, s: &Spread| fill(P2_ROW, &[&name, &s.median_ms, &s.iqr_ms, &s.percent()]) + "\n";
    format!("\n{}\n{}\n", fill(P2, &[&p.kernel_ms]), fill(P2_REPS, &[&p.reps]))
        + "events: all pairs queued back to back; events+sync: a sync after each pair\n"
        + &row("events", &p.events)
        + &row("events+sync", &p.events_sync)
        + &row("host+sync", &p.host)
        + &format!(
            "verdict: {} (the events' spread is below host+sync's)",
            verdict(claims::events_steadier(p).holds())
        )
}

/// Part 3. A report parsed from a transcript older than the `after calls
/// us` column is printed without it, as that program printed it.
pub fn part3(p: &Part3) -> String {
    let after_calls = p.spin.after_calls_us.is_some() && p.blocking.after_calls_us.is_some();
    let row = |name: &str, w: &Wait| {
        let last = match w.after_calls_us {
            Some(us) if after_calls => format!("  {us:14.1}"),
            _ => String::new(),
        };
        fill(
            P3_ROW,
            &[&name, &w.wait_ms, &w.cpu_ms, &w.cpu_share(), &w.latency_us],
        ) + &last
            + "\n"
    };
    let last_heading = match after_calls {
        true => format!("  {:>14}", "after calls us"),
        false => String::new(),
    };
    format!("\n{}\n{}\n", fill(P3, &[&p.kernel_ms]), fill(P3_REPS, &[&p.reps]))
        + &format!(
            "{:>9}  {:>9}  {:>9}  {:>9}  {:>10}{last_heading}\n",
            "mode", "wait ms", "CPU ms", "CPU share", "wake-up us"
        )
        + &row("spin", &p.spin)
        + &row("blocking", &p.blocking)
        + &format!(
            "blocking wakes {:.1} us later than spinning\n\
             verdict, CPU: {} (spinning burns at least 50% of the wait, blocking at most 10%)\n\
             verdict, wake-up: {} (blocking wakes later, by less than 1000 us)",
            p.blocking_later_us(),
            verdict(claims::spin_burns_cpu(p).holds()),
            verdict(claims::blocking_wakes_slightly_later(p).holds())
        )
}

pub fn part4(p: &Part4) -> String {
    let row = |label: &str, us: f64, per: &str| fill(P4_ROW, &[&label, &us, &per]) + "\n";
    format!("\nPart 4: cudaEventDisableTiming\n{}\n", fill(P4_HOST, &[&p.rounds, &p.ops]))
        + &row("timing event", p.host_timing_us, "pair")
        + &row("DisableTiming", p.host_disabled_us, "pair")
        + &fill(P4_CHAIN, &[&p.chain, &p.rounds])
        + "\n"
        + &row("no events", p.chain_none_us, "link")
        + &row("timing events", p.chain_timing_us, "link")
        + &row("DisableTiming", p.chain_disabled_us, "link")
        + &format!(
            "verdict: {} (DisableTiming costs the host less, and the chain no more than 5% over timing events)",
            verdict(claims::disable_timing_cheaper(p).holds())
        )
}

pub fn part5(p: &Part5) -> String {
    let lines = [
        fill(P5, &[&p.producer_ms]),
        fill(P5_REPS, &[&p.reps]),
        fill(P5_ISSUE, &[&"seven", &p.issue_ms]),
        fill(P5_GAP, &[&p.gap_ms]),
    ];
    format!(
        "\n{}\nverdict: {} (the host's calls take under 10% of the producer, and the consumer starts after it)",
        lines.join("\n"),
        verdict(claims::cross_stream_without_host(p).holds())
    )
}

pub fn part6(p: &Part6) -> String {
    let row = |name: &str, c: &Case| fill(P6_ROW, &[&name, &c.extra_ms, &c.interval_ms]) + "\n";
    format!("\n{}\n", fill(P6, &[&p.kernel_ms, &p.reps]))
        + &row("queued ahead of start", &p.queued)
        + &row("host delay after start", &p.delayed)
        + &row("other stream competing", &p.competing)
        + &format!(
            "verdict, queued ahead: {} (the page: work already in the stream ahead of the timed launches is inside the interval)\n\
             verdict, idle and competing: {} (a host delay and another stream's work are inside the interval)",
            verdict(claims::queued_ahead_inside(p).holds()),
            verdict(claims::idle_and_competing_inside(p).holds())
        )
}

/// Part 7. A report parsed from a transcript older than the kernel and
/// call columns is printed without them, as that program printed it.
pub fn part7(p: &Part7) -> String {
    let head = fill(P7, &[&p.launches.len(), &p.cycles, &p.idle_ms]);
    let mut out = format!("\n{head}\n{}\n", fill(P7_MHZ, &[&p.idle_mhz]));
    let inside = p.has_inside();
    if inside {
        out += &format!(
            "event = the event interval, kernel = the kernel's own duration on the device's timer, \
             call = the launch call\n\
             {:>6}  {:>9}  {:>9}  {:>9}  {:>6}\n",
            "launch", "event ms", "kernel ms", "call us", "SM MHz"
        );
    } else {
        out += &format!("{:>6}  {:>9}  {:>6}\n", "launch", "ms", "SM MHz");
    }
    for (i, l) in p.launches.iter().enumerate() {
        out += &match l.inside {
            Some(d) if inside => fill(
                P7_INSIDE_ROW,
                &[&(i + 1), &l.ms, &d.kernel_ms, &d.call_us, &l.mhz],
            ),
            _ => fill(P7_ROW, &[&(i + 1), &l.ms, &l.mhz]),
        };
        out.push('\n');
    }
    let (first, steady) = (p.first_mean_ms(), p.steady_ms());
    out + &format!(
        "first {FIRST_LAUNCHES} mean {first:.4} ms, last {STEADY_LAUNCHES} median {steady:.4} ms: {:.3}x\n\
         SM clock: first {FIRST_LAUNCHES} mean {:.1} MHz, last {STEADY_LAUNCHES} median {:.1} MHz\n\
         verdict, slower: {} (the first launches after idle are at least 5% slower than steady state)\n\
         verdict, clock: {} (the SM clock is lower over the first launches than in steady state)",
        first / steady,
        p.first_mhz(),
        p.steady_mhz(),
        verdict(claims::first_launches_slower(p)),
        // events.cu's rule, any clock lower; the page's claim asks for 5%.
        verdict(p.first_mhz() < p.steady_mhz())
    )
}

pub fn part8(p: &Part8, iters: u32, warmups: u32, runs: u32) -> String {
    let row = |label: String, ms: f64| fill(P8_ROW, &[&label, &ms]) + "\n";
    format!("\n{}\n", fill(P8, &[&p.cycles]))
        + &row(fill(P8_PAGE, &[&iters]), p.page_ms)
        + &row(fill(P8_TIME_KERNEL, &[&warmups, &runs]), p.time_kernel_ms)
        + &format!(
            "timeKernel / page: {:.3}x\nverdict: {} (the two agree within 5%)",
            p.ratio(),
            verdict(claims::pattern_matches_time_kernel(p).holds())
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    // C's printf is the oracle: each line is the .cu's own format.
    use crate::parts::{Case, Inside, Launch, LaunchRow, Spread, Wait};
    use lesson_spec::testkit::conformance::c_printf as printf;

    #[test]
    fn part1_rows_match_c_printf() {
        let p = Part1 {
            reps: 20,
            rows: vec![LaunchRow {
                kernel_ms: 10.0,
                launch_us: 3.25,
                sync_us: 10012.06,
            }],
        };
        let text = part1(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[3],
            printf("%9s  %10s  %15s", &["kernel ms", "launch us", "launch+sync us"])
        );
        assert_eq!(
            lines[4],
            printf("%9.3f  %10.1f  %15.1f", &["10.0", "3.25", "10012.06"])
        );
        assert_eq!(
            lines[5],
            "verdict: holds (launch alone under 20 us for all three, with a sync at least the kernel)"
        );
    }

    #[test]
    fn part2_and_part3_rows_match_c_printf() {
        let p = Part2 {
            kernel_ms: 0.1,
            reps: 50,
            events: Spread {
                median_ms: 0.10241,
                iqr_ms: 0.00102,
            },
            events_sync: Spread {
                median_ms: 0.1064,
                iqr_ms: 0.0014,
            },
            host: Spread {
                median_ms: 0.1123,
                iqr_ms: 0.0041,
            },
        };
        let text = part2(&p);
        let spread = (100.0 * 0.00102 / 0.10241f64).to_string();
        assert_eq!(
            text.lines().nth(4).unwrap(),
            printf(
                "%11s  %9.4f ms  IQR %7.4f ms  spread %6.2f%%",
                &["events", "0.10241", "0.00102", &spread]
            )
        );
        assert!(text.ends_with("verdict: holds (the events' spread is below host+sync's)"));
        let w = Part3 {
            kernel_ms: 50.0,
            reps: 5,
            spin: Wait {
                wait_ms: 50.1,
                cpu_ms: 49.9,
                latency_us: 12.3,
                after_calls_us: Some(-2.5),
            },
            blocking: Wait {
                wait_ms: 50.2,
                cpu_ms: 0.3,
                latency_us: 80.1,
                after_calls_us: Some(61.25),
            },
        };
        let text = part3(&w);
        assert_eq!(
            text.lines().nth(3).unwrap(),
            printf(
                "%9s  %9s  %9s  %9s  %10s  %14s",
                &[
                    "mode",
                    "wait ms",
                    "CPU ms",
                    "CPU share",
                    "wake-up us",
                    "after calls us"
                ]
            )
        );
        let share = (100.0 * 0.3 / 50.2f64).to_string();
        assert_eq!(
            text.lines().nth(5).unwrap(),
            printf(
                "%9s  %9.3f  %9.3f  %8.1f%%  %10.1f  %14.1f",
                &["blocking", "50.2", "0.3", &share, "80.1", "61.25"]
            )
        );
        assert!(text.contains("\nblocking wakes 67.8 us later than spinning\n"));
    }

    #[test]
    fn part6_to_part8_rows_match_c_printf() {
        let case = Case {
            extra_ms: 5.0,
            interval_ms: 1.0104,
        };
        let p = Part6 {
            kernel_ms: 1.0,
            reps: 3,
            queued: case.clone(),
            delayed: case.clone(),
            competing: case,
        };
        assert_eq!(
            part6(&p).lines().nth(2).unwrap(),
            printf(
                "%26s  %7.3f ms  interval %8.3f ms",
                &["queued ahead of start", "5.0", "1.0104"]
            )
        );
        let p8 = Part8 {
            cycles: 200000,
            page_ms: 0.10125,
            time_kernel_ms: 0.1013,
        };
        assert_eq!(
            part8(&p8, 100, 3, 10).lines().nth(2).unwrap(),
            printf(
                "%36s  %9.4f ms per launch",
                &["page (1 warm-up, loop of 100)", "0.10125"]
            )
        );
    }

    #[test]
    fn part7_rows_match_c_printf_with_and_without_the_inside_columns() {
        let launch = |inside| Launch {
            ms: 0.13865,
            mhz: 1980,
            inside,
        };
        let mut p = Part7 {
            cycles: 200000,
            idle_ms: 1500.0,
            idle_mhz: 1980,
            launches: vec![
                launch(Some(Inside {
                    kernel_ms: 0.101125,
                    call_us: 41.25,
                }));
                20
            ],
        };
        let text = part7(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("event = the event interval, kernel = "));
        assert_eq!(
            lines[4],
            printf(
                "%6s  %9s  %9s  %9s  %6s",
                &["launch", "event ms", "kernel ms", "call us", "SM MHz"]
            )
        );
        assert_eq!(
            lines[5],
            printf(
                "%6d  %9.4f  %9.4f  %9.1f  %6u",
                &["1", "0.13865", "0.101125", "41.25", "1980"]
            )
        );
        // The program's verdicts, not the page's claims: a clock one step
        // lower is a boost to events.cu, and a sync at 95% of the kernel
        // does not cover it, whatever the claims' thresholds.
        p.launches[0].mhz = 1965;
        assert!(part7(&p).contains("verdict, clock: holds"), "{}", part7(&p));
        assert!(!crate::claims::clocks_boost_after_idle(&p).holds());
        let short = Part1 {
            reps: 5,
            rows: vec![LaunchRow {
                kernel_ms: 10.0,
                launch_us: 5.0,
                sync_us: 9_500.0,
            }],
        };
        assert!(
            part1(&short).contains("verdict: does not hold"),
            "{}",
            part1(&short)
        );
        assert!(crate::claims::launch_returns_queued(&short).holds());
        p.launches[0].mhz = 1980;
        // A report read from an older transcript prints as it was printed.
        p.launches = vec![launch(None); 20];
        let old = part7(&p);
        let lines: Vec<&str> = old.lines().collect();
        assert_eq!(lines[3], printf("%6s  %9s  %6s", &["launch", "ms", "SM MHz"]));
        assert_eq!(lines[4], printf("%6d  %9.4f  %6u", &["1", "0.13865", "1980"]));
    }
}
