//! A built site checked from its HTML, without a browser (a test's check:
//! tests/site.rs runs it on the committed evidence's site, tests/site_check.rs
//! on planted faults): every page under
//! the folder read (html5gum, a WHATWG tokenizer), every problem reported,
//! not the first. On every page: links and their fragments lead to a file
//! and an id in the folder, images are there and have alt text, nothing is
//! loaded from or linked to outside the folder (the site works offline and
//! from `file://`), one `h1`, a `lang`, every table has a `th`, and no
//! script: no `<script>`, no `on*=` handler, no `javascript:` URL. Pages no
//! link from `index.html` reaches are orphans.
//!
//! Why no browser here: a page without a script cannot loop, open a dialog
//! or navigate away by itself, which is what a headless browser had to be
//! driven to catch; this check holds the site to having none. What only a
//! browser sees, the laid-out width and the console, is the browser test's
//! (`tests/browser.rs`), on a few pages of each kind.
//!
//! Not for: HTML syntax, prose, `<base href>` (the site has none: URLs are
//! read against their page), or sites served over http.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Component, Path, PathBuf};

use html5gum::{DefaultEmitter, Token, Tokenizer};

use evidence::site::INDEX;

/// What a check of a site found.
#[derive(Debug, Default)]
pub struct Report {
    pub pages: usize,
    pub links: usize,
    pub images: usize,
    /// Every problem as `page: what`, by page name; a page's own first,
    /// then its broken links, then its missing fragments.
    pub problems: Vec<String>,
}

/// Checks the site in `site`, every `.html` page under it.
pub fn check(site: &Path) -> Report {
    let mut report = Report::default();
    let root = match site.canonicalize() {
        Ok(root) => root,
        Err(e) => {
            report.problems.push(format!("{}: {e}", site.display()));
            return report;
        }
    };
    let mut pages = BTreeMap::new();
    if let Err(e) = walk(&root, &root, &mut pages) {
        report.problems.push(format!("{}: {e}", root.display()));
    }
    report.pages = pages.len();
    let mut problems: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut fragments = Vec::new();
    for (name, page) in &pages {
        report.links += page.links.len();
        report.images += page.images;
        let found = problems.entry(name).or_default();
        found.append(&mut page.problems.clone());
        for (target, fragment) in &page.links {
            match target {
                Ok(target) if !pages.contains_key(target) && !root.join(target).is_file() => {
                    found.push(format!("broken link to {target}: no such file"))
                }
                Ok(target) => fragments.extend(fragment.as_ref().map(|f| (name.as_str(), target, f))),
                Err(outside) => found.push(format!("link outside the site folder, {outside}")),
            }
        }
    }
    for (from, target, fragment) in fragments {
        let ids = pages.get(target).map(|p| &p.ids);
        // `#` and `#top` go to the top of any page.
        let top = fragment.is_empty() || fragment.eq_ignore_ascii_case("top");
        if !top && ids.is_some_and(|ids| !ids.contains(fragment)) {
            let found = problems.entry(from).or_default();
            found.push(format!("link to {target}#{fragment}: no element has that id"));
        }
    }
    if !pages.contains_key(INDEX) {
        problems
            .entry(INDEX)
            .or_default()
            .push("no such page".to_string());
    }
    let reached = reached(&pages);
    for orphan in pages.keys().filter(|name| !reached.contains(name.as_str())) {
        let found = problems.entry(orphan).or_default();
        found.push("no link from index.html reaches this page (orphan)".to_string());
    }
    report.problems.extend(
        problems
            .into_iter()
            .flat_map(|(page, found)| found.into_iter().map(move |p| format!("{page}: {p}"))),
    );
    report
}

/// One page as its HTML says.
#[derive(Default)]
struct Page {
    /// Each `<a href>`'s page in the site (or the URL outside it) and its
    /// fragment.
    links: Vec<(Result<String, String>, Option<String>)>,
    /// Every `id` and `<a name>`.
    ids: BTreeSet<String>,
    images: usize,
    problems: Vec<String>,
}

/// Reads every `.html` page under `folder` into `pages`, by its name from
/// `root` (`lessons/day09-timing.html`). A symlink is not followed: what it
/// leads to is not the site's.
fn walk(root: &Path, folder: &Path, pages: &mut BTreeMap<String, Page>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let (entry, path) = entry.map(|e| (e.file_type(), e.path()))?;
        if entry?.is_dir() {
            walk(root, &path, pages)?;
        } else if path.extension().is_some_and(|e| e == "html") && !path.is_symlink() {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            let page = read(root, &name, &String::from_utf8_lossy(&std::fs::read(&path)?));
            pages.insert(name, page);
        }
    }
    Ok(())
}

/// The pages `index.html` reaches by links.
fn reached(pages: &BTreeMap<String, Page>) -> BTreeSet<&str> {
    let mut seen = BTreeSet::from([INDEX]);
    let mut queue = VecDeque::from([INDEX]);
    while let Some(name) = queue.pop_front() {
        for (target, _) in pages.get(name).map_or(&[][..], |p| &p.links) {
            if let Ok(target) = target {
                if pages.contains_key(target) && seen.insert(target) {
                    queue.push_back(target);
                }
            }
        }
    }
    seen
}

/// Page `name`'s HTML read for what the checks need.
fn read(root: &Path, name: &str, html: &str) -> Page {
    let mut page = Page::default();
    let (mut lang, mut h1) = (None, 0);
    // Each open table: whether it has a `th` yet.
    let mut tables: Vec<bool> = Vec::new();
    let mut emitter = DefaultEmitter::default();
    // A raw-text element's content (`<style>`, `<title>`) is text, not tags.
    emitter.naively_switch_states(true);
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        let tag = match token {
            Token::StartTag(tag) => tag,
            Token::EndTag(end) if end.name.as_slice() == b"table" => {
                if tables.pop() == Some(false) {
                    page.problems.push("a table without th".to_string());
                }
                continue;
            }
            _ => continue,
        };
        let element = String::from_utf8_lossy(&tag.name).into_owned();
        let attr = |key: &str| {
            tag.attributes
                .get(key.as_bytes())
                .map(|v| String::from_utf8_lossy(&v.value).into_owned())
        };
        for key in tag.attributes.keys().filter(|k| k.starts_with(b"on")) {
            let key = String::from_utf8_lossy(key);
            page.problems
                .push(format!("<{element} {key}=...>: a script; the site holds none"));
        }
        if let Some(id) = attr("id") {
            page.ids.insert(id);
        }
        match element.as_str() {
            "html" if lang.is_none() => lang = Some(attr("lang").unwrap_or_default()),
            "h1" => h1 += 1,
            "table" => tables.push(false),
            "th" => tables.last_mut().into_iter().for_each(|th| *th = true),
            "script" => page.problems.push("a <script>; the site holds none".to_string()),
            "a" => {
                page.ids.extend(attr("name"));
                if let Some(href) = attr("href") {
                    let (url, fragment) = match href.split_once('#') {
                        Some((url, fragment)) => (url, Some(decoded(fragment))),
                        None => (href.as_str(), None),
                    };
                    match place(root, name, url) {
                        Place::Page(target) => page.links.push((Ok(target), fragment)),
                        Place::Outside => page.links.push((Err(href.clone()), None)),
                        Place::Script => page.problems.push(format!("a link to {href}: a script")),
                        Place::Nothing => {}
                    }
                }
            }
            _ => {}
        }
        if element == "img" {
            page.images += 1;
            if attr("alt").is_none_or(|alt| alt.trim().is_empty()) {
                page.problems.push(format!(
                    "image {} has no alt text",
                    attr("src").unwrap_or_default()
                ));
            }
        }
        // What the browser fetches as it shows the page.
        let loads = match element.as_str() {
            "img" | "script" | "iframe" | "embed" | "audio" | "video" | "source" | "track" => {
                &["src", "poster"][..]
            }
            "link" => &["href"],
            "object" => &["data"],
            _ => &[],
        };
        for url in loads.iter().filter_map(|key| attr(key)) {
            match place(root, name, url.split('#').next().unwrap_or_default()) {
                Place::Page(target) if !root.join(&target).is_file() => {
                    page.problems.push(format!("{element} {target}: no such file"))
                }
                Place::Outside => page.problems.push(format!(
                    "{element} {url} is outside the site folder: the site must work offline"
                )),
                Place::Script => page.problems.push(format!("{element} {url}: a script")),
                _ => {}
            }
        }
    }
    if lang.is_none_or(|lang| lang.trim().is_empty()) {
        page.problems.push("no lang on <html>".to_string());
    }
    if h1 != 1 {
        page.problems.push(format!("{h1} h1 elements, not 1"));
    }
    page
}

/// Where a URL written on a page leads.
enum Place {
    /// A file in the site, by its name from the root (the page itself for
    /// a bare `#fragment`).
    Page(String),
    /// A network address, an absolute path, or a path out of the folder
    /// (by `..` or a symlink).
    Outside,
    /// A `javascript:` URL.
    Script,
    /// Nothing fetched: `mailto:`, `data:`, ...
    Nothing,
}

/// Where `url` (without its fragment), written on page `name`, leads.
fn place(root: &Path, name: &str, url: &str) -> Place {
    let url = url.split('?').next().unwrap_or_default().trim();
    if let Some((scheme, _)) = url.split_once(':').filter(|(s, _)| !s.contains('/')) {
        return match scheme.to_ascii_lowercase().as_str() {
            "javascript" => Place::Script,
            "http" | "https" | "file" | "ftp" | "ws" | "wss" => Place::Outside,
            _ => Place::Nothing,
        };
    }
    if url.starts_with('/') {
        return Place::Outside;
    }
    let mut path = PathBuf::from(name);
    path.pop();
    for part in Path::new(&decoded(url)).components() {
        match part {
            // `..` climbs a folder (the guard's pop); with none left, it is out.
            Component::ParentDir if !path.pop() => return Place::Outside,
            Component::Normal(part) => path.push(part),
            _ => {}
        }
    }
    if url.is_empty() {
        path = PathBuf::from(name);
    }
    match root.join(&path).canonicalize() {
        Ok(real) if !real.starts_with(root) => Place::Outside,
        _ => Place::Page(path.to_string_lossy().into_owned()),
    }
}

/// `%20` as a space: links are percent-encoded, names and ids are not.
fn decoded(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}
