//! The site check (site_support/check.rs) against a good small site, one planted fault at a
//! time, and several at once (every one is reported). The committed
//! evidence's site is checked in tests/site.rs, where it is built.

use std::path::Path;

use check::{check, Report};

#[path = "site_support/check.rs"]
mod check;
use tempfile::TempDir;

/// A 1x1 SVG: an image without a PNG encoder.
const PIC: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>"#;

/// A whole page: `lang`, one `h1` (`title`), and `body` after it.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{title}</title></head>\n\
         <body>\n<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
    )
}

/// Writes `text` to `dir/name`, making its folders.
fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Three pages, 6 links, 1 image, a table with `th`, a fragment link.
fn site() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "pic.svg", PIC);
    write(
        d,
        "index.html",
        &page(
            "Home",
            "<p><a href=\"guide/a%20b.html\">A</a> <a href=\"b.html#part\">B's part</a></p>\n\
             <img src=\"pic.svg\" alt=\"A black dot\">\n\
             <table><tr><th scope=\"col\">n</th></tr><tr><td>1</td></tr></table>",
        ),
    );
    write(
        d,
        "guide/a b.html",
        &page(
            "A",
            "<a href=\"../index.html\">Home</a> <a href=\"../b.html\">B</a>",
        ),
    );
    write(
        d,
        "b.html",
        &page(
            "B",
            "<h2 id=\"part\">Part</h2>\n<a href=\"index.html#top\">Home</a> <a href=\"#\">Top</a>",
        ),
    );
    dir
}

/// The good site with `b.html`'s body after its heading replaced by `body`.
fn planted(body: &str) -> Report {
    let dir = site();
    write(
        dir.path(),
        "b.html",
        &page(
            "B",
            &format!("<h2 id=\"part\">P</h2><a href=\"index.html\">H</a>{body}"),
        ),
    );
    check(dir.path())
}

/// Asserts the report's problems are exactly `expected`.
fn assert_problems(report: &Report, expected: &[&str]) {
    assert_eq!(report.problems, expected, "{:#?}", report.problems);
}

#[test]
fn a_good_site_passes_with_its_counts() {
    let dir = site();
    let report = check(dir.path());
    assert_problems(&report, &[]);
    assert_eq!((report.pages, report.links, report.images), (3, 6, 1));
}

#[test]
fn each_planted_fault_is_named_on_its_page() {
    for (body, problem) in [
        ("<a href=\"gone.html\">G</a>", "b.html: broken link to gone.html: no such file"),
        (
            "<a href=\"guide/a%20b.html#nowhere\">A</a>",
            "b.html: link to guide/a b.html#nowhere: no element has that id",
        ),
        ("<img src=\"gone.png\" alt=\"Gone\">", "b.html: img gone.png: no such file"),
        ("<img src=\"pic.svg\" alt=\" \">", "b.html: image pic.svg has no alt text"),
        (
            "<link rel=\"stylesheet\" href=\"https://example.com/site.css\">",
            "b.html: link https://example.com/site.css is outside the site folder: the site must work offline",
        ),
        (
            "<img src=\"../../x.png\" alt=\"X\">",
            "b.html: img ../../x.png is outside the site folder: the site must work offline",
        ),
        (
            "<a href=\"https://example.com/\">E</a>",
            "b.html: link outside the site folder, https://example.com/",
        ),
        ("<a href=\"/etc/passwd\">P</a>", "b.html: link outside the site folder, /etc/passwd"),
        ("<h1>Again</h1>", "b.html: 2 h1 elements, not 1"),
        ("<table><tr><td>1</td></tr></table>", "b.html: a table without th"),
        ("<script>console.log(1)</script>", "b.html: a <script>; the site holds none"),
        ("<p onclick=\"x()\">p</p>", "b.html: <p onclick=...>: a script; the site holds none"),
        ("<a href=\"javascript:alert(1)\">J</a>", "b.html: a link to javascript:alert(1): a script"),
        ("<img src=\"javascript:x\" alt=\"J\">", "b.html: img javascript:x: a script"),
    ] {
        assert_problems(&planted(body), &[problem]);
    }
}

#[test]
fn a_page_without_lang_and_an_orphan_are_named() {
    let dir = site();
    let text = page("B", "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a>").replace(" lang=\"en\"", "");
    write(dir.path(), "b.html", &text);
    write(
        dir.path(),
        "guide/lost.html",
        &page("Lost", "<a href=\"../index.html\">H</a>"),
    );
    assert_problems(
        &check(dir.path()),
        &[
            "b.html: no lang on <html>",
            "guide/lost.html: no link from index.html reaches this page (orphan)",
        ],
    );
}

#[test]
fn a_site_without_index_html_says_so_and_its_pages_are_orphans() {
    let dir = site();
    std::fs::rename(dir.path().join("index.html"), dir.path().join("home.html")).unwrap();
    assert_problems(
        &check(dir.path()),
        &[
            "b.html: broken link to index.html: no such file",
            "b.html: no link from index.html reaches this page (orphan)",
            "guide/a b.html: broken link to index.html: no such file",
            "guide/a b.html: no link from index.html reaches this page (orphan)",
            "home.html: no link from index.html reaches this page (orphan)",
            "index.html: no such page",
        ],
    );
}

/// Every problem is reported, not the first: a page's own, then its broken
/// links, then its missing fragments.
#[test]
fn every_problem_is_reported_not_the_first() {
    let report = planted(
        "<a href=\"gone.html\">G</a><img src=\"pic.svg\"><script></script><a href=\"b.html#nowhere\">x</a>",
    );
    assert_problems(
        &report,
        &[
            "b.html: image pic.svg has no alt text",
            "b.html: a <script>; the site holds none",
            "b.html: broken link to gone.html: no such file",
            "b.html: link to b.html#nowhere: no element has that id",
        ],
    );
}

/// A page reached through a symlink out of the folder is outside it.
#[test]
fn a_link_through_a_symlink_out_of_the_folder_is_outside() {
    let dir = site();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.html", &page("Secret", ""));
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
    write(
        dir.path(),
        "b.html",
        &page(
            "B",
            "<h2 id=\"part\">P</h2><a href=\"index.html\">H</a><a href=\"out/secret.html\">S</a>",
        ),
    );
    assert_problems(
        &check(dir.path()),
        &["b.html: link outside the site folder, out/secret.html"],
    );
}

#[test]
fn a_site_folder_that_is_not_there_is_one_problem() {
    let dir = tempfile::tempdir().unwrap();
    let report = check(&dir.path().join("none"));
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("No such file"),
        "{:?}",
        report.problems
    );
}
