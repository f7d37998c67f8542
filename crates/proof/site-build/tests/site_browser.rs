//! The site of the committed evidence checked by `crates/proof/site-check`: every
//! page's HTML (every link and fragment and image followed, nothing from
//! outside the folder, no orphan, the accessibility basics), and in a real
//! browser (headless Chromium over WebDriver) a page of each kind and the
//! riskiest of each large folder (the longest transcript line, the widest
//! table, the longest word, the largest page): no console error, no request
//! leaving the folder, nothing wider than a phone; screenshots into
//! `target/site-screenshots/`. And the same check failing on a planted
//! broken link.
//!
//! Needs Debian's chromium and chromium-driver: `ci/provision-browser.sh`
//! (which the README's test command runs) installs them; without them these
//! tests fail, naming it.

use std::path::{Path, PathBuf};

use site_build as site;
use site_check::{Browse, Options, Shot};
use support::{files_under, repository};

mod support;

/// `target/`, where cargo keeps what it builds.
fn target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn html_files(dir: &Path) -> usize {
    files_under(dir)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .count()
}

#[test]
fn the_committed_evidence_s_site_passes_in_a_real_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    site::build(&repository(), &repository().join("evidence"), &out).unwrap();
    let shots_dir = target().join("site-screenshots");
    let lesson = site::lesson_page("day10-block-sizes");
    let screenshots = [site::INDEX, lesson.as_str(), site::CHANGES]
        .iter()
        .flat_map(|page| {
            [1280, 390].map(|width| Shot {
                page: page.to_string(),
                width,
            })
        })
        .collect();
    let report = site_check::check(&Options {
        start: site::INDEX.into(),
        screenshots,
        screenshot_dir: Some(shots_dir.clone()),
        browse: Browse::Sample,
        ..Options::new(&out)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let problems: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
    assert!(
        problems.is_empty(),
        "{} problem(s) in the site:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert_eq!(
        report.pages,
        html_files(&out),
        "every page is reached from the index"
    );
    assert!(report.images > 0 && report.links > report.pages);
    // Every folder of pages (a kind: lessons/, folders/, each lesson's
    // runs/) has a page in the browser, and a sample is a sample.
    let folders: std::collections::BTreeSet<String> = files_under(&out)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| {
            let rel = p.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
            rel.rsplit_once('/').map_or(String::new(), |(f, _)| f.to_string())
        })
        .collect();
    for folder in &folders {
        assert!(
            report
                .browsed
                .iter()
                .any(|page| page.rsplit_once('/').map_or("", |(f, _)| f) == folder),
            "no page of {folder:?} in the browser: {:?}",
            report.browsed
        );
    }
    assert!(
        report.browsed.len() <= folders.len() * site_check::WHOLE_FOLDER,
        "{} pages in the browser",
        report.browsed.len()
    );
    assert_eq!(report.screenshots.len(), 6);
    for shot in &report.screenshots {
        assert!(
            shot.starts_with(&shots_dir) && shot.is_file(),
            "{}",
            shot.display()
        );
    }
    println!(
        "{} pages ({} in the browser), {} links, {} images: no problems; screenshots in {}",
        report.pages,
        report.browsed.len(),
        report.links,
        report.images,
        shots_dir.display()
    );
}

#[test]
fn a_planted_broken_link_fails_the_browser_check() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    // One Day 10 run: a small site of a few pages.
    let from = repository().join("evidence/day10-block-sizes");
    std::fs::create_dir_all(ev.join("day10-block-sizes")).unwrap();
    let f = "2026-12-01T213005Z-h200-cxx.txt";
    std::fs::copy(from.join(f), ev.join("day10-block-sizes").join(f)).unwrap();
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    let options = Options {
        start: site::INDEX.into(),
        ..Options::new(&out)
    };
    let clean = site_check::check(&options).unwrap_or_else(|e| panic!("{e}"));
    assert!(clean.problems.is_empty(), "{:?}", clean.problems);

    let page = out.join(site::lesson_page("day10-block-sizes"));
    let text = std::fs::read_to_string(&page).unwrap();
    let planted = text.replacen(
        "</main>",
        "<p><a href=\"../runs/day10-block-sizes/no-such-run.html\">a run</a></p></main>",
        1,
    );
    assert_ne!(planted, text);
    std::fs::write(&page, planted).unwrap();
    let broken = site_check::check(&options).unwrap_or_else(|e| panic!("{e}"));
    let problems: Vec<String> = broken.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("lessons/day10-block-sizes.html") && problems[0].contains("no-such-run.html"),
        "{}",
        problems[0]
    );
}
