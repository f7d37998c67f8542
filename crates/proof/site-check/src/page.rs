//! One page's facts turned into problems: as its HTML says them (every
//! page, [`examine_written`]) and as the browser saw them (the pages it
//! lays out, [`examine_browsed`]); and the site folder the pages are named
//! within.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use url::Url;

use crate::driver::LogEntry;
use crate::html::Written;
use crate::report::Problem;
use crate::viewport::PHONE_WIDTH;

/// What page.js returns: what only a browser knows.
#[derive(Debug, Deserialize)]
pub(crate) struct Facts {
    /// The document's own URL, without its fragment: another page's or
    /// file's when the page navigated away by itself.
    pub(crate) url: String,
    pub(crate) scroll_width: u64,
    pub(crate) inner_width: u64,
    pub(crate) widest: String,
    pub(crate) images: Vec<Image>,
    pub(crate) resources: Vec<Resource>,
    /// The dialogs its scripts opened, as `alert("message")` (dialogs.js).
    pub(crate) dialogs: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Image {
    pub(crate) src: String,
    pub(crate) loaded: bool,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Resource {
    pub(crate) kind: String,
    pub(crate) url: String,
}

/// The site folder (canonical) and its `file://` URL.
pub(crate) struct Site {
    pub(crate) root: PathBuf,
    root_url: Url,
}

/// Where a URL points, seen from the site.
enum Target {
    /// A file or folder inside the site, by its name there (`a/b.html`).
    Inside(String, PathBuf),
    /// A `file:` path outside the site folder.
    OutsideFolder(PathBuf),
    /// A name inside the site folder that is a symlink (or lies under
    /// one) to the real path outside it.
    Escapes(String, PathBuf),
    /// A network request: no reader offline gets it.
    Network,
    /// Nothing fetched: `mailto:`, `data:`, `javascript:`, ...
    Other,
}

impl Site {
    pub(crate) fn new(root: PathBuf) -> std::io::Result<Self> {
        let root_url = Url::from_directory_path(&root).map_err(|()| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not an absolute folder path")
        })?;
        Ok(Site { root, root_url })
    }

    /// The `file://` URL of the page named `name`.
    pub(crate) fn url_of(&self, name: &str) -> Url {
        Url::from_file_path(self.root.join(name)).unwrap_or_else(|()| self.root_url.clone())
    }

    fn target(&self, url: &str) -> Target {
        let Ok(url) = Url::parse(url) else {
            return Target::Other;
        };
        match url.scheme() {
            "file" => match url.to_file_path() {
                Ok(path) => match path.strip_prefix(&self.root) {
                    Ok(rel) => match self.escape_of(&path) {
                        Some(real) => Target::Escapes(name_of(rel), real),
                        None => Target::Inside(name_of(rel), path.clone()),
                    },
                    Err(_) => Target::OutsideFolder(path),
                },
                Err(()) => Target::OutsideFolder(PathBuf::from(url.path())),
            },
            "http" | "https" | "ws" | "wss" | "ftp" => Target::Network,
            _ => Target::Other,
        }
    }

    /// Where `path`, inside the site folder by name, really is when that
    /// is outside it (through a symlink); `None` for a path that stays
    /// inside, or does not exist.
    fn escape_of(&self, path: &Path) -> Option<PathBuf> {
        let real = path.canonicalize().ok()?;
        (!real.starts_with(&self.root)).then_some(real)
    }

    /// Whether `url` names a file inside the site folder that is not there.
    fn is_missing(&self, url: &str) -> bool {
        let without = url.split(['#', '?']).next().unwrap_or(url);
        matches!(self.target(without), Target::Inside(_, path) if !path.is_file())
    }

    /// Whether fetching `url` leaves the site folder.
    fn is_outside(&self, url: &str) -> bool {
        matches!(
            self.target(url),
            Target::Network | Target::OutsideFolder(_) | Target::Escapes(..)
        )
    }

    /// `url` as a reader of a report wants it: a name in the site for a
    /// file inside it, else the URL.
    fn show(&self, url: &str) -> String {
        match self.target(url) {
            Target::Inside(name, _) => name,
            _ => url.to_string(),
        }
    }

    /// Every HTML file under the site folder, by name, sorted, and every
    /// symlink whose target is outside it (not followed). A symlinked folder
    /// that stays inside is walked once, however many links lead to it.
    pub(crate) fn walk(&self) -> std::io::Result<Walk> {
        let mut walk = Walk {
            pages: Vec::new(),
            escapes: Vec::new(),
        };
        let mut folders = vec![self.root.clone()];
        let mut walked: HashSet<PathBuf> = HashSet::from([self.root.clone()]);
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder)? {
                let entry = entry?;
                let path = entry.path();
                let Ok(rel) = path.strip_prefix(&self.root) else {
                    continue;
                };
                let name = name_of(rel);
                if entry.file_type()?.is_symlink() {
                    match path.canonicalize() {
                        Ok(real) if !real.starts_with(&self.root) => {
                            walk.escapes.push(Escape { name, real });
                            continue;
                        }
                        // A dangling link is a file that is not there: a
                        // link to it is broken, which the link says.
                        Err(_) => continue,
                        Ok(_) => {}
                    }
                }
                if path.is_dir() {
                    if let Ok(real) = path.canonicalize() {
                        if walked.insert(real) {
                            folders.push(path);
                        }
                    }
                } else if is_html(&path) {
                    walk.pages.push(name);
                }
            }
        }
        walk.pages.sort();
        walk.escapes.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(walk)
    }
}

/// What [`Site::walk`] found.
pub(crate) struct Walk {
    pub(crate) pages: Vec<String>,
    pub(crate) escapes: Vec<Escape>,
}

/// A symlink in the site whose target is outside its folder.
pub(crate) struct Escape {
    pub(crate) name: String,
    pub(crate) real: PathBuf,
}

fn name_of(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn is_html(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("html") || ext.eq_ignore_ascii_case("htm"))
}

/// A link to `#fragment` on `target`, checked once every page's ids are known.
pub(crate) struct Fragment {
    from: String,
    target: String,
    fragment: String,
}

/// What the static check of one page gave: its problems, the pages it links
/// to, its fragment links, and the URLs whose failure it has already
/// reported (the browser's log of the same failure is not a second fault).
pub(crate) struct Found {
    pub(crate) problems: Vec<Problem>,
    pub(crate) pages: Vec<String>,
    pub(crate) fragments: Vec<Fragment>,
    pub(crate) reported: HashSet<String>,
}

/// `url` as written on page `name`, resolved as the browser resolves it:
/// against the page's `<base href>` if it has one, else the page's URL.
fn resolve(site: &Site, name: &str, base: Option<&str>, url: &str) -> String {
    let page = site.url_of(name);
    let base = base.and_then(|b| page.join(b).ok()).unwrap_or(page);
    base.join(url).map_or_else(|_| url.to_string(), |u| u.to_string())
}

/// Every problem of page `name` that its HTML shows, without a browser:
/// `lang`, `h1`, table headers, links and fragments, images and their alt
/// text, and what it loads from outside the folder or that is not there.
pub(crate) fn examine_written(site: &Site, name: &str, written: &Written) -> Found {
    let mut found = Found {
        problems: Vec::new(),
        pages: Vec::new(),
        fragments: Vec::new(),
        reported: HashSet::new(),
    };
    let say = |message: String| Problem {
        page: name.to_string(),
        message,
    };
    let base = written.base.as_deref();
    let mut problems = Vec::new();
    if written.lang.is_empty() {
        problems.push(say("no lang on <html>".to_string()));
    }
    if written.h1 != 1 {
        problems.push(say(format!("{} h1 elements, not 1", written.h1)));
    }
    if written.tables_without_th > 0 {
        problems.push(say(format!("{} table(s) without th", written.tables_without_th)));
    }
    // External and out-of-folder URLs are reported once a page, whichever
    // element asked first.
    let reported = &mut found.reported;
    for link in &written.links {
        let link = resolve(site, name, base, link);
        let (without, fragment) = match link.split_once('#') {
            Some((without, fragment)) => (without, Some(fragment)),
            None => (link.as_str(), None),
        };
        let without = without.split_once('?').map_or(without, |(path, _)| path);
        match site.target(without) {
            Target::Inside(target, path) => {
                if path.is_dir() {
                    problems.push(say(format!(
                        "link to folder {target}/: file:// shows a listing, not a page; link the page itself"
                    )));
                } else if !path.is_file() {
                    problems.push(say(format!("broken link to {target}: no such file")));
                } else if is_html(&path) {
                    found.pages.push(target.clone());
                    if let Some(fragment) = fragment.map(percent_decoded) {
                        found.fragments.push(Fragment {
                            from: name.to_string(),
                            target,
                            fragment,
                        });
                    }
                }
            }
            Target::OutsideFolder(path) => {
                if reported.insert(link.clone()) {
                    problems.push(say(format!("link outside the site folder: {}", path.display())));
                }
            }
            Target::Escapes(target, real) => {
                if reported.insert(link.clone()) {
                    problems.push(say(format!(
                        "link to {target}, a symlink to {}, outside the site folder",
                        real.display()
                    )));
                }
            }
            Target::Network => {
                if reported.insert(link.clone()) {
                    problems.push(say(format!("external link {link}: the site must work offline")));
                }
            }
            Target::Other => {}
        }
    }
    for image in &written.images {
        let src = resolve(site, name, base, &image.src);
        if !image.alt {
            problems.push(say(format!("image {} has no alt text", site.show(&src))));
        }
        if site.is_outside(&src) {
            if reported.insert(src.clone()) {
                problems.push(say(format!(
                    "image {src} is outside the site folder: the site must work offline"
                )));
            }
        } else if site.is_missing(&src) && reported.insert(src.clone()) {
            problems.push(say(format!(
                "image {} did not load: no such file",
                site.show(&src)
            )));
        }
    }
    for (kind, url) in &written.resources {
        let url = resolve(site, name, base, url);
        if site.is_outside(&url) {
            if reported.insert(url.clone()) {
                problems.push(say(format!(
                    "{kind} {url} is outside the site folder: the site must work offline"
                )));
            }
        } else if site.is_missing(&url) && reported.insert(url.clone()) {
            problems.push(say(format!(
                "{kind} {} did not load: no such file",
                site.show(&url)
            )));
        }
    }
    found.problems = problems;
    found
}

/// Every problem of page `name` that only a browser shows: its width, its
/// console errors and failed loads, and what it (its scripts too) fetched
/// from outside the folder; `reported` holds the URLs whose failures the
/// static check already named.
pub(crate) fn examine_browsed(
    site: &Site,
    name: &str,
    facts: &Facts,
    log: &[LogEntry],
    reported: &HashSet<String>,
) -> Vec<Problem> {
    let say = |message: String| Problem {
        page: name.to_string(),
        message,
    };
    let mut problems = Vec::new();
    for dialog in &facts.dialogs {
        problems.push(say(format!(
            "a script opened a dialog, {dialog}: a generated page runs no script that does"
        )));
    }
    if facts.scroll_width > facts.inner_width {
        let culprit = match facts.widest.as_str() {
            "" => String::new(),
            widest => format!(" ({widest} reaches past it)"),
        };
        problems.push(say(format!(
            "the page is {} px wide, wider than the {PHONE_WIDTH} px viewport{culprit}; \
             wide content must scroll inside its own box",
            facts.scroll_width
        )));
    }
    let mut seen: HashSet<&str> = reported.iter().map(String::as_str).collect();
    let mut not_loaded: HashSet<&str> = HashSet::new();
    for image in &facts.images {
        if site.is_outside(&image.src) {
            if seen.insert(&image.src) {
                problems.push(say(format!(
                    "image {} is outside the site folder: the site must work offline",
                    image.src
                )));
            }
        } else if !image.loaded && !seen.contains(image.src.as_str()) {
            not_loaded.insert(&image.src);
            problems.push(say(format!("image {} did not load", site.show(&image.src))));
        }
    }
    for resource in &facts.resources {
        if site.is_outside(&resource.url) && seen.insert(&resource.url) {
            problems.push(say(format!(
                "{} {} is outside the site folder: the site must work offline",
                resource.kind, resource.url
            )));
        }
    }
    for entry in log.iter().filter(|e| e.level == "SEVERE") {
        if entry.source == "network" {
            // chromedriver writes a failed load as `URL - Failed to load resource: ...`.
            let url = entry.message.split_once(" - ").map_or("", |(url, _)| url);
            if seen.contains(url) || not_loaded.contains(url) {
                continue;
            }
            if site.is_outside(url) {
                problems.push(say(format!("request outside the site folder: {}", entry.message)));
                continue;
            }
        }
        let message = entry.message.replace(site.root_url.as_str(), "");
        problems.push(say(format!("console error: {message}")));
    }
    problems
}

/// The problem with page `name` when the browser, visiting it, is at `url`
/// (its facts' URL, or the browser's own once its facts script failed)
/// and that is another document: a script (or a refresh) took it there.
pub(crate) fn navigated_away(site: &Site, name: &str, url: &str) -> Option<Problem> {
    let message = match site.target(url) {
        Target::Inside(other, _) if other == name => return None,
        Target::Inside(other, _) => format!("the page navigated by itself to {other}; it was not checked"),
        _ => format!("the page navigated by itself out of the site folder, to {url}; it was not checked"),
    };
    Some(Problem {
        page: name.to_string(),
        message,
    })
}

/// `#fragment`'s text as ids are written: `%20` is a space.
fn percent_decoded(fragment: &str) -> String {
    percent_encoding::percent_decode_str(fragment)
        .decode_utf8_lossy()
        .into_owned()
}

/// Fragment links whose target page has no element with that id (or
/// `<a name>`). `#` alone and `#top` need none: they go to the top.
pub(crate) fn missing_fragments(links: &[Fragment], ids: &HashMap<String, HashSet<String>>) -> Vec<Problem> {
    links
        .iter()
        .filter(|l| !l.fragment.is_empty() && !l.fragment.eq_ignore_ascii_case("top"))
        .filter(|l| ids.get(&l.target).is_some_and(|ids| !ids.contains(&l.fragment)))
        .map(|l| Problem {
            page: l.from.clone(),
            message: format!("link to {}#{}: no element has that id", l.target, l.fragment),
        })
        .collect()
}
