//! The checker against a good small site and against one planted fault at
//! a time. Each test starts its own chromedriver and Chromium (on a port of
//! its own), so they may run in parallel threads or processes.

mod support;

use std::path::Path;

use site_check::{Options, Problem, Report};
use support::{good_site, page, write};
use tempfile::TempDir;

fn site() -> TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    good_site(dir.path());
    dir
}

/// The check of the site in `dir` from index.html; a setup error (no
/// Chromium) fails the test with its one line.
pub fn check(dir: &Path) -> Report {
    let opts = Options {
        site: dir.to_path_buf(),
        start: "index.html".into(),
        screenshots: Vec::new(),
        screenshot_dir: None,
    };
    site_check::check(&opts).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts that the report holds exactly one problem, on `page`, whose
/// message contains `words`; returns that message.
pub fn assert_one_problem<'r>(report: &'r Report, page: &str, words: &str) -> &'r str {
    let lines: Vec<String> = report.problems.iter().map(Problem::to_string).collect();
    assert_eq!(report.problems.len(), 1, "expected one problem, got {lines:#?}");
    let problem = &report.problems[0];
    assert_eq!(problem.page, page, "{lines:#?}");
    assert!(problem.message.contains(words), "{lines:#?} lacks {words:?}");
    &problem.message
}

/// The good site with the page at `file` written as `title` and `body`,
/// which must give exactly one problem, on `page`, containing `words`.
fn planted(file: &str, title: &str, body: &str, page_with_problem: &str, words: &str) {
    let dir = site();
    write(dir.path(), file, &page(title, body));
    assert_one_problem(&check(dir.path()), page_with_problem, words);
}

#[test]
fn a_good_site_passes_with_its_counts() {
    let dir = site();
    let report = check(dir.path());
    assert_eq!(report.problems, vec![]);
    assert_eq!((report.pages, report.links, report.images), (3, 5, 1));
}

#[test]
fn a_broken_link_is_reported() {
    planted(
        "b.html",
        "B",
        "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a> <a href=\"gone.html\">G</a>",
        "b.html",
        "broken link to gone.html",
    );
}

#[test]
fn a_missing_fragment_id_is_reported() {
    planted(
        "guide/a.html",
        "A",
        "<a href=\"../index.html\">H</a> <a href=\"../b.html#nowhere\">B</a>",
        "guide/a.html",
        "b.html#nowhere: no element has that id",
    );
}

#[test]
fn a_missing_image_file_is_reported_once() {
    planted(
        "b.html",
        "B",
        "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a><img src=\"gone.png\" alt=\"Gone\">",
        "b.html",
        "image gone.png did not load",
    );
}

#[test]
fn an_image_without_alt_is_reported() {
    planted(
        "b.html",
        "B",
        "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a><img src=\"pic.svg\">",
        "b.html",
        "image pic.svg has no alt text",
    );
}

#[test]
fn a_console_error_is_reported() {
    let dir = site();
    write(dir.path(), "guide/a.html", &page("A", "<a href=\"../index.html\">H</a> <a href=\"../b.html\">B</a>\n<script>console.error(\"planted\");</script>"));
    let report = check(dir.path());
    let message = assert_one_problem(&report, "guide/a.html", "console error: guide/a.html");
    assert!(message.contains("planted"), "{message}");
}

#[test]
fn an_external_stylesheet_is_reported() {
    let dir = site();
    let body = "<link rel=\"stylesheet\" href=\"https://example.com/site.css\"><h2 id=\"part\">P</h2><a href=\"index.html\">H</a>";
    write(dir.path(), "b.html", &page("B", body));
    assert_one_problem(
        &check(dir.path()),
        "b.html",
        "https://example.com/site.css is outside the site folder",
    );
}

#[test]
fn a_page_wider_than_a_phone_is_reported() {
    let dir = site();
    let body = "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a><div class=\"code\" style=\"width:2000px\">x</div>";
    write(dir.path(), "b.html", &page("B", body));
    assert_one_problem(
        &check(dir.path()),
        "b.html",
        "wider than the 390 px viewport (div.code reaches past it)",
    );
}

#[test]
fn a_page_that_scrolls_wide_content_in_a_box_passes() {
    let dir = site();
    let body = "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a>\
                <div style=\"overflow-x:auto\"><pre style=\"width:2000px\">x</pre></div>";
    write(dir.path(), "b.html", &page("B", body));
    assert_eq!(check(dir.path()).problems, vec![]);
}

#[test]
fn two_h1s_are_reported() {
    let dir = site();
    write(
        dir.path(),
        "b.html",
        &page("B", "<h1 id=\"part\">Again</h1><a href=\"index.html\">H</a>"),
    );
    assert_one_problem(&check(dir.path()), "b.html", "2 h1 elements, not 1");
}

#[test]
fn a_page_without_lang_is_reported() {
    let dir = site();
    let text = page("B", "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a>").replace(" lang=\"en\"", "");
    write(dir.path(), "b.html", &text);
    assert_one_problem(&check(dir.path()), "b.html", "no lang on <html>");
}

#[test]
fn a_table_without_th_is_reported() {
    let dir = site();
    let body = "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a><table><tr><td>1</td></tr></table>";
    write(dir.path(), "b.html", &page("B", body));
    assert_one_problem(&check(dir.path()), "b.html", "1 table(s) without th");
}

#[test]
fn an_orphan_page_is_reported() {
    let dir = site();
    write(dir.path(), "guide/lost.html", &page("Lost", ""));
    assert_one_problem(&check(dir.path()), "guide/lost.html", "no link reaches this page");
}

#[test]
fn a_missing_start_page_is_a_setup_error() {
    let dir = site();
    let opts = site_check::Options {
        site: dir.path().to_path_buf(),
        start: "start.html".into(),
        screenshots: Vec::new(),
        screenshot_dir: None,
    };
    let e = site_check::check(&opts).expect_err("no start.html");
    assert!(matches!(e, site_check::Error::StartPage(_)), "{e}");
}

#[test]
fn screenshots_are_pngs_of_the_asked_widths() {
    let dir = site();
    let shots = tempfile::tempdir().expect("a temporary folder");
    let opts = site_check::Options {
        site: dir.path().to_path_buf(),
        start: "index.html".into(),
        screenshots: [("index.html", 1280), ("guide/a.html", 390)]
            .map(|(page, width)| site_check::Shot {
                page: page.into(),
                width,
            })
            .to_vec(),
        screenshot_dir: Some(shots.path().join("out")),
    };
    let report = site_check::check(&opts).unwrap_or_else(|e| panic!("{e}"));
    let expected = [("index-1280.png", 1280), ("guide-a-390.png", 390)];
    assert_eq!(report.screenshots.len(), expected.len());
    for (path, (name, width)) in report.screenshots.iter().zip(expected) {
        assert_eq!(path, &shots.path().join("out").join(name));
        let png = std::fs::read(path).expect("reading a screenshot");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{name} is not a PNG");
        // IHDR's width, big-endian, at byte 16: CSS px at device pixel ratio 1.
        let png_width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        assert_eq!(png_width, width, "{name}");
    }
}
