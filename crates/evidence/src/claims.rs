//! The lesson pages' qualitative statements about their numbers, as named
//! claims checked against every transcript of the lesson.
//!
//! A claim that does not hold on some GPU for a known reason is listed in
//! `evidence/expected-failures.txt` (`claim | GPU name | reason`); `check`
//! then reports it as expected to fail there, and fails on anything else.

use std::collections::BTreeMap;

use crate::day09::Report as Day09;
use crate::day53::Report as Day53;
use crate::transcript::{Body, Transcript};

/// How one claim came out on one transcript.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Holds,
    Fails(String),
    /// The claim says nothing about this transcript (another lesson, a
    /// reference tool, a run under a sanitizer, a variant it is not about).
    NotApplicable,
}

/// The transcripts a claim may compare against: the same lesson, GPU and
/// program, without the sanitizer runs.
pub struct Peers<'a> {
    pub all: &'a [Transcript],
}

impl Peers<'_> {
    fn day09_like(&self, t: &Transcript, eager: bool) -> Vec<&Day09> {
        self.all
            .iter()
            .filter(|p| p.header.gpu == t.header.gpu && program(p) == program(t) && !p.under_sanitizer())
            .filter(|p| p.header.has_env("CUDA_MODULE_LOADING=EAGER") == eager)
            .filter_map(|p| match &p.body {
                Body::Day09(r) => Some(r),
                _ => None,
            })
            .collect()
    }
}

/// `cxx`, `rust` or a tool, from the file name's last part.
pub fn program(t: &Transcript) -> &str {
    let stem = t.file.rsplit('/').next().unwrap_or(&t.file);
    if stem.contains("-rust") {
        "rust"
    } else if stem.contains("-cxx") {
        "cxx"
    } else {
        "other"
    }
}

pub fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

type Check = fn(&Transcript, &Peers) -> Outcome;

/// One claim: an id for tables and the expected-failure list, the lesson it
/// belongs to, the page's statement, and the check.
pub struct Claim {
    pub id: &'static str,
    pub lesson: &'static str,
    pub statement: &'static str,
    pub check: Check,
}

fn verdict(holds: bool, why: impl FnOnce() -> String) -> Outcome {
    if holds {
        Outcome::Holds
    } else {
        Outcome::Fails(why())
    }
}

/// Day 9's timing claims apply to its plain, lazily loading runs.
fn day09_lazy(t: &Transcript) -> Option<&Day09> {
    match &t.body {
        Body::Day09(r) if !t.under_sanitizer() && !t.header.has_env("CUDA_MODULE_LOADING=EAGER") => Some(r),
        _ => None,
    }
}

fn day09_any(t: &Transcript) -> Option<&Day09> {
    match &t.body {
        Body::Day09(r) if !t.under_sanitizer() => Some(r),
        _ => None,
    }
}

fn day09_eager(t: &Transcript) -> Option<&Day09> {
    match &t.body {
        Body::Day09(r) if !t.under_sanitizer() && t.header.has_env("CUDA_MODULE_LOADING=EAGER") => Some(r),
        _ => None,
    }
}

fn day53(t: &Transcript) -> Option<&Day53> {
    match &t.body {
        Body::Day53(r) if !t.under_sanitizer() => Some(r),
        _ => None,
    }
}

macro_rules! on {
    ($get:ident, $t:expr, |$r:ident| $body:expr) => {
        match $get($t) {
            Some($r) => $body,
            None => Outcome::NotApplicable,
        }
    };
}

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "d9-regions-nest",
        lesson: "day09-timing",
        statement: "row 1 >= row 5 >= row 4: each timed region contains the next",
        check: |t, _| {
            on!(day09_any, t, |r| verdict(
                r.whole_process_ms >= r.round_trip_ms && r.round_trip_ms >= r.warm_ms,
                || format!(
                    "row 1 {} ms, row 5 {} ms, row 4 {} ms",
                    r.whole_process_ms, r.round_trip_ms, r.warm_ms
                )
            ))
        },
    },
    Claim {
        id: "d9-first-launch-cold",
        lesson: "day09-timing",
        statement: "row 3 > row 4: the first launch pays the module load",
        check: |t, _| {
            on!(day09_lazy, t, |r| verdict(
                r.first_launch_ms > r.warm_ms,
                || format!("row 3 {} ms <= row 4 {} ms", r.first_launch_ms, r.warm_ms)
            ))
        },
    },
    Claim {
        id: "d9-second-kernel-cold",
        lesson: "day09-timing",
        statement: "vectorScale cold > warm: a warm-up only warms what it launches",
        check: |t, _| {
            on!(day09_lazy, t, |r| verdict(
                r.scale_cold_ms > r.scale_warm_ms,
                || format!("cold {} ms <= warm {} ms", r.scale_cold_ms, r.scale_warm_ms)
            ))
        },
    },
    Claim {
        id: "d9-launch-is-queueing",
        lesson: "day09-timing",
        statement: "the host clock around the launch alone is far (10x) below launch plus sync",
        check: |t, _| {
            on!(day09_any, t, |r| verdict(
                10.0 * r.launch_only_ms <= r.launch_plus_sync_ms,
                || format!(
                    "launch {} ms, with sync {} ms",
                    r.launch_only_ms, r.launch_plus_sync_ms
                )
            ))
        },
    },
    Claim {
        id: "d9-sync-near-events",
        lesson: "day09-timing",
        statement: "launch plus sync is within a few (5) percent of the warm event time",
        check: |t, _| {
            on!(day09_lazy, t, |r| {
                let off = (r.launch_plus_sync_ms - r.warm_ms).abs() / r.warm_ms;
                verdict(off <= 0.05, || {
                    format!(
                        "{} ms against {} ms, {:.0}% apart",
                        r.launch_plus_sync_ms,
                        r.warm_ms,
                        off * 100.0
                    )
                })
            })
        },
    },
    Claim {
        id: "d9-round-trip-contains-kernel",
        lesson: "day09-timing",
        statement: "the round trip is at least the kernel at every size",
        check: |t, _| {
            on!(day09_any, t, |r| {
                let bad = r.sweep.iter().find(|s| s.round_trip_ms < s.kernel_ms);
                verdict(bad.is_none(), || {
                    let s = bad
                        .map(|s| (s.n, s.round_trip_ms, s.kernel_ms))
                        .unwrap_or_default();
                    format!("at n = {}: round trip {} ms < kernel {} ms", s.0, s.1, s.2)
                })
            })
        },
    },
    Claim {
        id: "d9-cpu-wins-small",
        lesson: "day09-timing",
        statement: "the CPU beats the kernel at n = 1024",
        check: |t, _| {
            on!(day09_lazy, t, |r| match r.sweep.iter().find(|s| s.n == 1024) {
                Some(s) => verdict(s.cpu_ms < s.kernel_ms, || format!(
                    "CPU {} ms, kernel {} ms",
                    s.cpu_ms, s.kernel_ms
                )),
                None => Outcome::Fails("no n = 1024 row".into()),
            })
        },
    },
    Claim {
        id: "d9-kernel-wins-large",
        lesson: "day09-timing",
        statement: "the kernel beats the CPU at the largest swept n",
        check: |t, _| {
            on!(day09_lazy, t, |r| match r.sweep.iter().max_by_key(|s| s.n) {
                Some(s) => verdict(s.kernel_ms < s.cpu_ms, || format!(
                    "at n = {}: kernel {} ms, CPU {} ms",
                    s.n, s.kernel_ms, s.cpu_ms
                )),
                None => Outcome::Fails("no sweep rows".into()),
            })
        },
    },
    Claim {
        id: "d9-process-dwarfs-kernel",
        lesson: "day09-timing",
        statement: "row 1 / row 4 is in the hundreds or more",
        check: |t, _| {
            on!(day09_any, t, |r| verdict(
                r.whole_process_ms / r.warm_ms >= 100.0,
                || format!("row 1 / row 4 = {:.0}", r.whole_process_ms / r.warm_ms)
            ))
        },
    },
    Claim {
        id: "d9-round-trip-loses-at-full-n",
        lesson: "day09-timing",
        statement: "at full n the round trip is slower than the CPU",
        check: |t, _| {
            on!(day09_lazy, t, |r| verdict(
                r.round_trip_ms > r.cpu_ms,
                || format!("round trip {} ms, CPU {} ms", r.round_trip_ms, r.cpu_ms)
            ))
        },
    },
    Claim {
        id: "d9-eager-warms-first-launches",
        lesson: "day09-timing",
        statement: "EAGER: row 3 and vectorScale's cold row fall towards their warm values",
        check: |t, peers| {
            on!(day09_eager, t, |r| {
                let lazy = peers.day09_like(t, false);
                let lazy_gap = median(lazy.iter().map(|l| l.first_launch_ms - l.warm_ms).collect());
                let lazy_scale_gap = median(lazy.iter().map(|l| l.scale_cold_ms - l.scale_warm_ms).collect());
                match (lazy_gap, lazy_scale_gap) {
                    (Some(gap), Some(scale_gap)) => {
                        let now = r.first_launch_ms - r.warm_ms;
                        let scale_now = r.scale_cold_ms - r.scale_warm_ms;
                        // "Towards": each excess over warm at least 40% below lazy's.
                        verdict(now < 0.6 * gap && scale_now < 0.6 * scale_gap, || {
                            format!(
                                "first-launch excess {now:.3} ms (lazy median {gap:.3}), \
                                 vectorScale's {scale_now:.3} ms (lazy median {scale_gap:.3})"
                            )
                        })
                    }
                    _ => Outcome::Fails("no lazy run of the same program on this GPU to compare with".into()),
                }
            })
        },
    },
    Claim {
        id: "d9-eager-context-grows",
        lesson: "day09-timing",
        statement: "EAGER: the load cost moves into the context line, which grows",
        check: |t, peers| {
            on!(day09_eager, t, |r| {
                match median(peers.day09_like(t, false).iter().map(|l| l.context_ms).collect()) {
                    Some(lazy) => verdict(r.context_ms > lazy, || {
                        format!("context {} ms, lazy median {lazy:.3} ms", r.context_ms)
                    }),
                    None => {
                        Outcome::Fails("no lazy run of the same program on this GPU to compare with".into())
                    }
                }
            })
        },
    },
    Claim {
        id: "d53-pinned-faster",
        lesson: "day53-pinned",
        statement: "pinned copies are faster than pageable ones at every size",
        check: |t, _| {
            on!(day53, t, |r| {
                let bad = r.bandwidth.iter().find(|b| b.pinned_gb_s <= b.pageable_gb_s);
                verdict(bad.is_none(), || {
                    let b = bad
                        .map(|b| (b.mib, b.pinned_gb_s, b.pageable_gb_s))
                        .unwrap_or_default();
                    format!("at {} MiB: pinned {} GB/s, pageable {} GB/s", b.0, b.1, b.2)
                })
            })
        },
    },
    Claim {
        id: "d53-pinned-async-returns",
        lesson: "day53-pinned",
        statement: "the pinned cudaMemcpyAsync call is a small fraction (under 10%) of its completion",
        check: |t, _| {
            on!(day53, t, |r| verdict(
                r.async_pinned.call_percent < 10.0,
                || format!("call is {}% of completion", r.async_pinned.call_percent)
            ))
        },
    },
    Claim {
        id: "d53-pageable-async-blocks",
        lesson: "day53-pinned",
        statement: "the pageable cudaMemcpyAsync call is most (over half) of its completion",
        check: |t, _| {
            on!(day53, t, |r| verdict(
                r.async_pageable.call_percent > 50.0,
                || format!("call is {}% of completion", r.async_pageable.call_percent)
            ))
        },
    },
    Claim {
        id: "d53-zero-copy-slower",
        lesson: "day53-pinned",
        statement: "zero-copy is several (3 or more) times slower than device-resident",
        check: |t, _| {
            on!(day53, t, |r| verdict(r.zero_copy_ratio >= 3.0, || format!(
                "zero-copy costs {}x",
                r.zero_copy_ratio
            )))
        },
    },
    Claim {
        id: "sanitizer-clean",
        lesson: "*",
        statement: "compute-sanitizer reports no errors and no hazards",
        check: |t, _| {
            if !t.under_sanitizer() {
                return Outcome::NotApplicable;
            }
            let clean = t.sanitizer.iter().any(|l| {
                l.contains("ERROR SUMMARY: 0 errors")
                    || l.contains("0 hazards displayed (0 errors, 0 warnings)")
            });
            verdict(clean && t.header.exit_code == 0, || {
                t.sanitizer
                    .last()
                    .cloned()
                    .unwrap_or_else(|| "no sanitizer summary line".into())
            })
        },
    },
];

/// The claims that apply to `lesson`.
pub fn for_lesson(lesson: &str) -> impl Iterator<Item = &'static Claim> + '_ {
    CLAIMS
        .iter()
        .filter(move |c| c.lesson == lesson || c.lesson == "*")
}

/// `evidence/expected-failures.txt`: lines of `claim | GPU name | reason`,
/// or `claim | GPU name @ commit prefix | reason` for a failure that belongs
/// to the runs of one commit (a bug since fixed, kept on the record).
#[derive(Debug, Default)]
pub struct ExpectedFailures {
    /// (claim, GPU name, commit prefix or "") -> reason.
    pub entries: BTreeMap<(String, String, String), String>,
}

impl ExpectedFailures {
    pub fn parse(file: &str, text: &str) -> Result<Self, crate::ParseError> {
        let mut entries = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
            let bad = |message: &str| crate::ParseError {
                file: file.to_string(),
                line: i + 1,
                message: message.to_string(),
            };
            if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
                return Err(bad("expected `claim | GPU name | reason`"));
            }
            if !CLAIMS.iter().any(|c| c.id == parts[0]) {
                return Err(bad(&format!("no claim is named `{}`", parts[0])));
            }
            let (gpu, commit) = match parts[1].split_once('@') {
                Some((gpu, commit)) => (gpu.trim(), commit.trim()),
                None => (parts[1], ""),
            };
            entries.insert(
                (parts[0].to_string(), gpu.to_string(), commit.to_string()),
                parts[2].to_string(),
            );
        }
        Ok(ExpectedFailures { entries })
    }

    /// Why `claim` may fail for a run on `gpu_name` at `commit`, if it may.
    pub fn reason(&self, claim: &str, gpu_name: &str, commit: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|((c, g, prefix), _)| c == claim && g == gpu_name && commit.starts_with(prefix.as_str()))
            .map(|(_, reason)| reason.as_str())
    }
}
