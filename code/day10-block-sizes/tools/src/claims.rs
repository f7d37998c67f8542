//! What Day 10's page says about its numbers, as checks. The thresholds are
//! issue 25's, fixed before anything was measured.
//!
//! "The best" is the lowest mean of a table's eleven block sizes; the
//! occupancy API's row is held against it, not part of it. A claim about
//! "slower" compares means: every configuration covers the same n, so the
//! mean is also the time per thread of useful work, times n.

use lesson_spec::{every, judged, yes_no, Claim, Outcome};

use crate::report::{Report, Row, Table};

/// Within 5% of the best: mean <= 1.05 x the best mean.
const PLATEAU: f64 = 0.05;
/// At least 20% slower: mean >= 1.20 x the best mean.
const STARVED: f64 = 0.20;
/// The occupancy API's suggestion: within 5% of the best.
const SUGGESTION: f64 = 0.05;
/// Every spread below 2%.
const NOISE: f64 = 2.0;

/// A figure of every block-size row the run has (blocks.cu's kBlockSizes,
/// whatever a learner made them): the best is the lowest of a table's rows,
/// so a claim against the best reads every row.
const VECTOR_ADD_MEANS: &str = "vectorAdd * threads, ms";
const FMA_MEANS: &str = "fmaChains * threads, ms";

/// `check` with the table's best row, or a failure if it has no rows.
fn with_best(table: &Table, check: impl FnOnce(&Row) -> Outcome) -> Outcome {
    match table.best() {
        Some(best) => check(best),
        None => yes_no(false, "a row missing", || "the table has no rows".into()),
    }
}

/// `check` with the row of `threads` per block, or a failure naming it.
fn with_row(table: &Table, threads: u32, check: impl FnOnce(&Row) -> Outcome) -> Outcome {
    match table.at(threads) {
        Some(row) => check(row),
        None => yes_no(false, "a row missing", || format!("no {threads}-thread row")),
    }
}

/// How far `row` is above `best`, as a fraction.
fn above(row: &Row, best: &Row) -> f64 {
    row.mean_ms / best.mean_ms - 1.0
}

pub const CLAIMS: &[Claim<Report>] = &[
    Claim {
        id: "d10-memory-bound-plateau",
        statement: "vectorAdd: every block size from 128 to 1024 is within 5% of the best (mean <= 1.05 x best)",
        figures: &[VECTOR_ADD_MEANS],
        plant: |r| {
            let slow = r.vector_add.rows.iter_mut().filter(|row| row.threads >= 512);
            slow.for_each(|row| row.mean_ms *= 1.5);
        },
        check: |run, _| {
            let table = &run.report.vector_add;
            with_best(table, |best| {
                // The best row is not held against itself: it cannot move apart from itself.
                let plateau = table
                    .rows
                    .iter()
                    .filter(|r| (128..=1024).contains(&r.threads) && r.threads != best.threads);
                every(plateau.map(|r| {
                    judged(&[r.mean_ms, best.mean_ms], |m| m[0] <= (1.0 + PLATEAU) * m[1], || {
                        let (t, ms, off) = (best.threads, best.mean_ms, 100.0 * above(r, best));
                        format!("best {t} threads {ms} ms; {} threads {off:.1}% above", r.threads)
                    })
                }))
            })
        },
    },
    Claim {
        id: "d10-tiny-blocks-starve",
        statement: "vectorAdd: 32 threads per block is at least 20% slower than the best (mean >= 1.20 x best)",
        figures: &[VECTOR_ADD_MEANS],
        plant: |r| {
            let best = r.vector_add.best().map_or(0.0, |b| b.mean_ms);
            let tiny = r.vector_add.rows.iter_mut().filter(|row| row.threads == 32);
            tiny.for_each(|row| row.mean_ms = best);
        },
        check: |run, _| {
            let table = &run.report.vector_add;
            with_best(table, |best| {
                with_row(table, 32, |r| {
                    judged(&[r.mean_ms, best.mean_ms], |m| m[0] >= (1.0 + STARVED) * m[1], || {
                        format!(
                            "32 threads {} ms, {:.1}% above the best ({} threads, {} ms)",
                            r.mean_ms,
                            100.0 * above(r, best),
                            best.threads,
                            best.mean_ms
                        )
                    })
                })
            })
        },
    },
    Claim {
        id: "d10-partial-warp-wastes-lanes",
        statement: "fmaChains: 100 threads per block is slower per thread of useful work than 96 and than 128",
        figures: &[
            "fmaChains 100 threads, ms",
            "fmaChains 96 threads, ms",
            "fmaChains 128 threads, ms",
        ],
        plant: |r| {
            let at_96 = r.fma.at(96).map_or(0.0, |row| row.mean_ms);
            let hundred = r.fma.rows.iter_mut().filter(|row| row.threads == 100);
            hundred.for_each(|row| row.mean_ms = at_96);
        },
        check: |run, _| {
            let r = run.report;
            let table = &r.fma;
            let per_thread_ns = |row: &Row| row.mean_ms * 1.0e6 / r.elems as f64;
            with_row(table, 100, |hundred| {
                with_row(table, 96, |ninety_six| {
                    with_row(table, 128, |one_28| {
                        judged(
                            &[hundred.mean_ms, ninety_six.mean_ms, one_28.mean_ms],
                            |m| m[0] > m[1] && m[0] > m[2],
                            || {
                                format!(
                                    "ns per element: 100 threads {:.6}, 96 threads {:.6}, 128 threads {:.6}",
                                    per_thread_ns(hundred),
                                    per_thread_ns(ninety_six),
                                    per_thread_ns(one_28)
                                )
                            },
                        )
                    })
                })
            })
        },
    },
    Claim {
        id: "d10-occupancy-api-near-best",
        statement: "for each kernel the occupancy API's block size is within 5% of the measured best (mean <= 1.05 x best)",
        figures: &[
            VECTOR_ADD_MEANS,
            FMA_MEANS,
            "vectorAdd occupancy API's suggestion, ms",
            "fmaChains occupancy API's suggestion, ms",
        ],
        plant: |r| r.vector_add.suggested.mean_ms *= 1.5,
        check: |run, _| {
            let r = run.report;
            every([("vectorAdd", &r.vector_add), ("fmaChains", &r.fma)].map(|(kernel, table)| {
                let api = &table.suggested;
                with_best(table, |best| {
                    judged(&[api.mean_ms, best.mean_ms], |m| m[0] <= (1.0 + SUGGESTION) * m[1], || {
                        format!(
                            "{kernel}: the API's {} threads {} ms, {:.1}% above the best ({} threads, {} ms)",
                            api.threads,
                            api.mean_ms,
                            100.0 * above(api, best),
                            best.threads,
                            best.mean_ms
                        )
                    })
                })
            }))
        },
    },
    Claim {
        id: "d10-noise-below-differences",
        statement: "every configuration's spread over its five timeKernel calls is below 2%",
        figures: &[
            "vectorAdd * threads spread, %",
            "fmaChains * threads spread, %",
            "vectorAdd occupancy API's suggestion spread, %",
            "fmaChains occupancy API's suggestion spread, %",
        ],
        plant: |r| r.fma.suggested.spread_pct = 5.0,
        check: |run, _| {
            let r = run.report;
            let rows = [("vectorAdd", &r.vector_add), ("fmaChains", &r.fma)].map(|(kernel, table)| {
                let rows = table.rows.iter().map(|row| ("", row));
                rows.chain(std::iter::once(("the API's ", &table.suggested)))
                    .map(move |(what, row)| (kernel, what, row))
            });
            every(rows.into_iter().flatten().map(|(kernel, what, row)| {
                judged(&[row.spread_pct], |m| m[0] < NOISE, || {
                    format!("spread at or above 2%: {kernel} {what}{} threads {}%", row.threads, row.spread_pct)
                })
            }))
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::planted;
    use lesson_spec::{LessonReport, Run};

    fn outcome(id: &str, r: &Report) -> Outcome {
        let claim = CLAIMS.iter().find(|c| c.id == id).unwrap();
        let run = Run {
            report: r,
            environment: "",
        };
        (claim.check)(&run, &[run])
    }

    fn set_mean(table: &mut Table, threads: u32, ms: f64) {
        table
            .rows
            .iter_mut()
            .find(|r| r.threads == threads)
            .unwrap()
            .mean_ms = ms;
    }

    #[test]
    fn a_claim_against_the_best_names_every_block_size_the_run_has() {
        // Two more block sizes than the .cu has today, as its "Try it" makes.
        let mut r = planted();
        for table in [&mut r.vector_add, &mut r.fma] {
            for threads in [48, 160] {
                let mut row = table.rows[0].clone();
                row.threads = threads;
                table.rows.push(row);
            }
        }
        let labels: Vec<String> = r.figures().into_iter().map(|f| f.0).collect();
        let named = |id: &str| -> Vec<&str> {
            let patterns = CLAIMS.iter().find(|c| c.id == id).unwrap().figures;
            let named = |l: &&str| patterns.iter().any(|p| lesson_spec::figure_matches(p, l));
            labels.iter().map(String::as_str).filter(named).collect()
        };
        // Every row's mean of a table, and nothing else of it.
        let means = |kernel: &str| -> Vec<&str> {
            let row = |l: &&str| l.starts_with(kernel) && l.ends_with(" threads, ms");
            labels.iter().map(String::as_str).filter(row).collect()
        };
        assert_eq!(means("vectorAdd ").len(), 13);
        assert!(means("vectorAdd ").contains(&"vectorAdd 160 threads, ms"));
        assert_eq!(named("d10-memory-bound-plateau"), means("vectorAdd "));
        assert_eq!(named("d10-tiny-blocks-starve"), means("vectorAdd "));
        let api = "vectorAdd occupancy API's suggestion, ms";
        let both = [means("vectorAdd "), vec![api], means("fmaChains ")].concat();
        assert_eq!(named("d10-occupancy-api-near-best")[..27], both);
    }

    #[test]
    fn the_planted_report_holds_every_claim() {
        let r = planted();
        for c in CLAIMS {
            let run = Run {
                report: &r,
                environment: "",
            };
            assert!(matches!((c.check)(&run, &[]), Outcome::Holds(_)), "{}", c.id);
        }
    }

    #[test]
    fn a_block_size_off_the_plateau_fails_it_by_name() {
        let mut r = planted();
        set_mean(&mut r.vector_add, 768, 0.0700);
        assert!(matches!(
            outcome("d10-memory-bound-plateau", &r),
            Outcome::Fails(why, _) if why == "best 256 threads 0.0606 ms; 768 threads 15.5% above"
        ));
        // 4.9% above lands within 5%.
        set_mean(&mut r.vector_add, 768, 0.0606 * 1.049);
        assert!(matches!(
            outcome("d10-memory-bound-plateau", &r),
            Outcome::Holds(_)
        ));
        // 32, 64 and 96 are not on the plateau the claim names.
        let mut r = planted();
        set_mean(&mut r.vector_add, 64, 0.09);
        assert!(matches!(
            outcome("d10-memory-bound-plateau", &r),
            Outcome::Holds(_)
        ));
    }

    #[test]
    fn tiny_blocks_must_be_a_fifth_slower() {
        let mut r = planted();
        set_mean(&mut r.vector_add, 32, 0.0606 * 1.19);
        let got = outcome("d10-tiny-blocks-starve", &r);
        assert!(
            matches!(&got, Outcome::Fails(why, _) if why.contains("19.0% above the best")),
            "{got:?}"
        );
        set_mean(&mut r.vector_add, 32, 0.0606 * 1.21);
        assert!(matches!(outcome("d10-tiny-blocks-starve", &r), Outcome::Holds(_)));
        r.vector_add.rows.retain(|row| row.threads != 32);
        assert!(matches!(
            outcome("d10-tiny-blocks-starve", &r),
            Outcome::Fails(why, _) if why == "no 32-thread row"
        ));
    }

    #[test]
    fn a_partial_warp_must_lose_to_both_neighbours() {
        let mut r = planted();
        set_mean(&mut r.fma, 128, 1.40);
        let got = outcome("d10-partial-warp-wastes-lanes", &r);
        assert!(
            matches!(&got, Outcome::Fails(why, _) if why.starts_with("ns per element: 100 threads ")),
            "{got:?}"
        );
        let mut r = planted();
        let hundred = r.fma.at(100).unwrap().mean_ms;
        set_mean(&mut r.fma, 96, hundred);
        assert!(matches!(
            outcome("d10-partial-warp-wastes-lanes", &r),
            Outcome::Fails(..)
        ));
    }

    #[test]
    fn the_apis_suggestion_is_held_to_each_kernels_best() {
        let mut r = planted();
        r.fma.suggested.mean_ms = 1.2;
        let got = outcome("d10-occupancy-api-near-best", &r);
        assert!(
            matches!(&got, Outcome::Fails(why, _) if why.starts_with("fmaChains: the API's 1024 threads 1.2 ms")),
            "{got:?}"
        );
    }

    #[test]
    fn one_noisy_configuration_fails_the_noise_claim() {
        let mut r = planted();
        r.vector_add.suggested.spread_pct = 2.0;
        assert!(matches!(
            outcome("d10-noise-below-differences", &r),
            Outcome::Fails(why, _) if why == "spread at or above 2%: vectorAdd the API's 1024 threads 2%"
        ));
        let mut r = planted();
        r.fma.rows[3].spread_pct = 7.5;
        assert!(matches!(
            outcome("d10-noise-below-differences", &r),
            Outcome::Fails(why, _) if why == "spread at or above 2%: fmaChains 100 threads 7.5%"
        ));
    }
}
