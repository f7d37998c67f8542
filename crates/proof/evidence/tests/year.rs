//! A simulated year of weekly recordings on four GPU kinds, on top of the
//! committed evidence: what `merge`, `check` and `site` cost when the
//! evidence holds 208 more sessions, and how large the site is.
//!
//! Everything here is synthetic and lives only in a temporary folder: each
//! session is the committed H200 session at 3819bed (every second run of
//! it, about 70 transcripts), dated one week apart over the 52 weeks before today, its GPU renamed to one of four
//! kinds, its commit `feedNNN` (the week, in hexadecimal), and three of each
//! report's numbers nudged in their last digit so that no run is a copy of
//! another (which `load` would refuse). Its numbers are the H200's: the
//! test measures the tools, not any GPU.
//!
//! Weeks 1 to 51 are written into the evidence folder as merges leave them
//! (each transcript gzip'd, `<name>.txt.gz`); week 52's four sessions
//! arrive as `evidence merge` gets them, one folder per GPU, as the weekly
//! workflow merges them. What the year adds to the working tree is printed
//! and held under issue 35's 50 MB. Each step is timed with the workspace's one
//! sanctioned clock (host-clock; it times these tools and no GPU work).
//!
//! Ignored by default: it took 41 to 72 s in a release build on the 2-core
//! machine it was written on (the workflow runs `evidence` built with
//! --release), and a debug build is slower. Run it as
//! `cargo nextest run --release -p evidence -E 'test(a_simulated_year)' --run-ignored all --no-capture`.

use std::path::{Path, PathBuf};

use evidence::transcript;
use support::repository;
use synthetic::{copy_tree, files_under, templates, write_session};

mod support;
mod synthetic;

const WEEKS: i64 = 52;

/// The four GPU kinds: the name a header gives, and its word in file names.
const GPUS: [(&str, &str); 4] = [
    ("NVIDIA H200", "h200"),
    ("NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"),
    ("NVIDIA L4", "l4"),
    ("NVIDIA GeForce RTX 4090", "geforce-rtx-4090"),
];

fn seconds_since(start_ms: f64) -> f64 {
    (host_clock::now_ms() - start_ms) / 1000.0
}

#[test]
#[ignore = "about a minute in a release build, more in debug; run it with --release and --run-ignored all (see the header)"]
fn a_simulated_year_of_four_gpus_merges_checks_and_builds_its_site_in_time() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    copy_tree(&repository().join("evidence"), &ev);
    let templates = templates();
    let now = transcript::date(&transcript::utc_now().unwrap()).unwrap();
    // Week 52 begins two days before today, so that no run is dated later.
    let first = now - time::Duration::weeks(WEEKS) - time::Duration::days(2);

    let started = host_clock::now_ms();
    let mut text_bytes = 0;
    let mut arriving: Vec<PathBuf> = Vec::new();
    for week in 0..WEEKS {
        let commit = format!("feed{week:03x}");
        for (k, gpu) in GPUS.iter().enumerate() {
            let start = first + time::Duration::weeks(week + 1) + time::Duration::hours(2 * k as i64);
            let id = 1 + week as usize * GPUS.len() + k;
            let arrives = week == WEEKS - 1;
            let into = if arrives {
                let dir = tmp.path().join(format!("arriving-{}/evidence", gpu.1));
                arriving.push(dir.clone());
                dir
            } else {
                ev.clone()
            };
            text_bytes += write_session(&into, &templates, *gpu, start, &commit, id, !arrives);
        }
    }
    let generated = seconds_since(started);
    let sessions = WEEKS as usize * GPUS.len();
    let size = |dir: &Path| -> u64 { files_under(dir).iter().map(|f| f.metadata().unwrap().len()).sum() };
    println!(
        "generated {sessions} sessions of {} transcripts each ({} transcripts, {:.1} MB as text) in {generated:.1} s",
        templates.len(),
        sessions * templates.len(),
        text_bytes as f64 / 1e6
    );
    assert!(
        (60..=80).contains(&templates.len()),
        "{} runs a session",
        templates.len()
    );

    let started = host_clock::now_ms();
    let merged = evidence::merge::merge(&arriving, &ev).unwrap_or_else(|e| panic!("{e}"));
    let merge_s = seconds_since(started);
    let new: usize = merged.iter().map(|m| m.new).sum();
    assert_eq!(
        new,
        templates.len() * GPUS.len(),
        "week 52's four sessions are merged"
    );

    // What the year adds to the working tree: the transcripts alone (their
    // twins are derived, never kept), each gzip'd.
    let after = size(&ev) - size(&repository().join("evidence"));
    println!(
        "the year grows the evidence by {:.1} MB ({:.1} MB of transcripts as text)",
        after as f64 / 1e6,
        text_bytes as f64 / 1e6
    );
    assert!(
        after < 50_000_000,
        "the year grows the evidence by {:.1} MB, over issue 35's 50 MB cap",
        after as f64 / 1e6
    );

    let started = host_clock::now_ms();
    let checked = evidence::check::run(&ev).unwrap();
    let check_s = seconds_since(started);
    // The H200's numbers on other GPUs fail the claims the H200's
    // expected-failure lists explain for the H200 alone: those are findings
    // of the renaming. Anything else (a copy, a parse error) is a bug here.
    let not_claims: Vec<String> = checked
        .problems
        .iter()
        .map(ToString::to_string)
        .filter(|p| !p.contains(" fails: "))
        .collect();
    assert!(
        not_claims.is_empty(),
        "{} problem(s): {:?}",
        not_claims.len(),
        &not_claims[..not_claims.len().min(5)]
    );

    let loaded = evidence::load::load(&ev).unwrap();
    let all_sessions = evidence::sessions::of(&loaded.transcripts).len();
    let committed_sessions = {
        let committed = evidence::load::load(&repository().join("evidence")).unwrap();
        evidence::sessions::of(&committed.transcripts).len()
    };
    assert_eq!(
        all_sessions,
        committed_sessions + sessions,
        "each synthetic session is one session"
    );

    let out = tmp.path().join("site");
    let started = host_clock::now_ms();
    let built = evidence::site::build(&repository(), &ev, &out).unwrap();
    let site_s = seconds_since(started);
    let files = files_under(&out);
    let bytes: u64 = files.iter().map(|f| f.metadata().unwrap().len()).sum();
    let run_pages = files.iter().filter(|f| f.starts_with(out.join("runs"))).count();
    let summary = out.join(evidence::site::SUMMARY).metadata().unwrap().len();
    println!(
        "evidence: {} transcripts in {all_sessions} sessions; merge of week 52 ({new} transcripts) {merge_s:.1} s; \
         check {check_s:.1} s ({} claim failures from the renaming); site {site_s:.1} s: {} pages ({run_pages} of runs), \
         {} charts, {:.1} MB ({:.1} MB of summary.json)",
        loaded.transcripts.len(),
        checked.problems.len(),
        built.pages,
        built.charts,
        bytes as f64 / 1e6,
        summary as f64 / 1e6
    );
    // Runs keep a page only in their GPU's last PAGED_DAYS: every GPU's
    // latest session is week 52's, so no run dated a week more before today
    // has one, while each GPU's recent runs do. (A share of all transcripts
    // stood here before; the committed evidence, all of it recent, outgrew it.)
    let cutoff = now - time::Duration::days(evidence::site::PAGED_DAYS + 7);
    let cutoff = format!(
        "{:04}-{:02}-{:02}",
        cutoff.year(),
        u8::from(cutoff.month()),
        cutoff.day()
    );
    let run_page_names: Vec<&str> = files
        .iter()
        .filter(|f| f.starts_with(out.join("runs")))
        .filter_map(|f| f.file_name()?.to_str())
        .collect();
    let old: Vec<&&str> = run_page_names
        .iter()
        .filter(|n| n.get(..10) < Some(cutoff.as_str()))
        .collect();
    assert!(
        old.is_empty(),
        "runs keep a page only in their GPU's last {} days: {} pages of runs from before {cutoff}, {:?} the first",
        evidence::site::PAGED_DAYS,
        old.len(),
        old.first()
    );
    for (_, word) in GPUS {
        let suffix = format!("Z-{word}-");
        assert!(
            run_page_names.iter().any(|n| n.contains(&suffix)),
            "no run of the {word} has a page"
        );
    }
    assert!(check_s < 30.0, "check took {check_s:.1} s, over its 30 s target");
    assert!(site_s < 60.0, "site took {site_s:.1} s, over its 60 s target");
}
