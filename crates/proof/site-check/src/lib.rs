//! `site-check`: checks a static HTML site, a folder of pages meant to be
//! read from `file://`, at a phone's width: every page's HTML in Rust, and
//! the pages' layout and scripts in a real headless Chromium driven over
//! WebDriver (chromedriver).
//!
//! From a start page it reads every page a same-site link reaches, once
//! each, and reports every problem it finds, not the first. Read from the
//! HTML, on every page: broken links and fragments, links and loads that
//! leave the site folder (the site must work offline), images and other
//! files that are not there, images without alt text, not exactly one
//! `h1`, no `lang`, tables without `th`, pages no link reaches, and
//! symlinks that lead out of the folder. Seen in the browser, on the pages
//! [`Browse`] chooses (every page, or a sample): console errors and failed
//! loads, requests that leave the folder (a script's too), images that did
//! not load, pages wider than the 390 px viewport, dialogs a script opens
//! (`alert`, `confirm`, `prompt`: answered, not shown), a page that navigates
//! away by itself, and a page that does not finish loading and running its
//! scripts within a time limit (an endless script: the browser is then
//! replaced and the check goes on). A page whose tab crashes is visited
//! again in a fresh browser (a renderer killed for memory on a busy
//! machine is not the page's fault); crashing it twice is a problem. It
//! can also take screenshots of pages at given widths.
//!
//! Not for: generating the site, checking its prose or HTML syntax, links
//! that only scripts write, or sites served over http (a server's redirects
//! and index pages are not modelled). It needs `chromium` and
//! `chromedriver` on `PATH` (`ci/provision-browser.sh` installs them).

mod driver;
mod error;
mod html;
mod page;
mod report;
mod scripts;
mod viewport;

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;
use fantoccini::Client;
use serde_json::json;

use driver::Browser;
use html::{Risk, Written};
use page::{Facts, Site};
use viewport::{PHONE_HEIGHT, PHONE_WIDTH};

pub use error::Error;
pub use report::{Problem, Report};

/// How long one page may take to load and answer the facts script, unless
/// [`Options::page_timeout`] says otherwise.
pub const DEFAULT_PAGE_TIMEOUT: Duration = Duration::from_secs(30);

/// What to check and what to photograph.
#[derive(Debug, Clone)]
pub struct Options {
    /// The site's folder.
    pub site: PathBuf,
    /// The page the crawl starts from, relative to `site` (`index.html`).
    pub start: String,
    /// Pages to photograph after the check, each at its width.
    pub screenshots: Vec<Shot>,
    /// Where screenshots go [default: the working directory].
    pub screenshot_dir: Option<PathBuf>,
    /// How long one page may take to load, and then to answer the facts
    /// script; a page past it is a problem, and the browser is replaced.
    pub page_timeout: Duration,
    /// Which pages the browser lays out and runs.
    pub browse: Browse,
    /// More arguments for Chromium's command line, after the check's own
    /// (`--js-flags=--max-old-space-size=64` to give pages less memory).
    pub chromium_args: Vec<String>,
}

/// The pages the browser visits; every page's HTML is checked either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Browse {
    /// Every page the start page reaches.
    #[default]
    Every,
    /// The pages most likely to show what only a browser shows, for a site
    /// of many pages made from few templates: every page of a folder of at
    /// most [`WHOLE_FOLDER`] pages, and in a larger folder (pages of one
    /// kind) its first page and the pages with the longest `<pre>` line,
    /// the longest word, the widest table and the most bytes; the start
    /// page and the pages to photograph always.
    Sample,
}

/// A folder with at most this many pages is browsed whole by
/// [`Browse::Sample`].
pub const WHOLE_FOLDER: usize = 8;

impl Options {
    /// The site in `site` from `index.html`, no screenshots, the default
    /// page timeout.
    pub fn new(site: impl Into<PathBuf>) -> Self {
        Options {
            site: site.into(),
            start: "index.html".to_string(),
            screenshots: Vec::new(),
            screenshot_dir: None,
            page_timeout: DEFAULT_PAGE_TIMEOUT,
            browse: Browse::Every,
            chromium_args: Vec::new(),
        }
    }
}

/// A page, relative to the site folder, to photograph `width` CSS px wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    pub page: String,
    pub width: u32,
}

/// Checks the site as [`Options`] say: every page's HTML, then the pages
/// [`Options::browse`] chooses in a headless Chromium session that ends,
/// with its chromedriver, before this returns (or unwinds).
pub fn check(opts: &Options) -> Result<Report, Error> {
    let root = opts
        .site
        .canonicalize()
        .map_err(|e| Error::Site(opts.site.clone(), e))?;
    let site = Site::new(root).map_err(|e| Error::Site(opts.site.clone(), e))?;
    let start = site.root.join(&opts.start);
    if !start.is_file() {
        return Err(Error::StartPage(start));
    }
    let shots = opts
        .screenshots
        .iter()
        .map(|shot| match site.root.join(&shot.page).is_file() {
            true => Ok(shot),
            false => Err(Error::ShotPage(shot.page.clone())),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut report = Report::default();
    let read = read_site(&site, &opts.start, &mut report)?;
    let shot_pages: Vec<&str> = shots.iter().map(|s| s.page.as_str()).collect();
    let browse = match opts.browse {
        Browse::Every => read.iter().map(|page| page.name.clone()).collect(),
        Browse::Sample => sample(&read, &opts.start, &shot_pages),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let shot_dir = opts.screenshot_dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let timeout = opts.page_timeout;
    let reported: HashMap<&str, &HashSet<String>> = read
        .iter()
        .map(|page| (page.name.as_str(), &page.reported))
        .collect();
    runtime.block_on(async {
        let mut browser = Browser::open(timeout, &opts.chromium_args).await?;
        let browsed = browse_pages(&mut browser, &site, &browse, &reported, timeout, &mut report).await;
        if browsed.is_ok() {
            for shot in shots {
                let path = screenshot(&browser.client, &site, shot, &shot_dir).await?;
                report.screenshots.push(path);
            }
        }
        browser.close().await;
        browsed
    })?;
    // Stable: a page's problems stay in the order found.
    report.problems.sort_by(|a, b| a.page.cmp(&b.page));
    Ok(report)
}

/// One page read from its HTML.
struct ReadPage {
    name: String,
    risk: Risk,
    bytes: usize,
    /// The URLs whose failures the static check named on this page.
    reported: HashSet<String>,
}

/// Reads every page reachable from `start` by its links, breadth first,
/// into `report`: each page's problems its HTML shows, missing fragments,
/// symlinks out of the folder and orphans. Returns the pages in the order
/// read.
fn read_site(site: &Site, start: &str, report: &mut Report) -> Result<Vec<ReadPage>, Error> {
    let walk = site.walk().map_err(|e| Error::Site(site.root.clone(), e))?;
    for escape in &walk.escapes {
        report.problems.push(Problem {
            page: escape.name.clone(),
            message: format!("a symlink to {}, outside the site folder", escape.real.display()),
        });
    }
    let mut read = Vec::new();
    let mut queue = VecDeque::from([start.to_string()]);
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut ids: HashMap<String, HashSet<String>> = HashMap::new();
    let mut fragments = Vec::new();
    while let Some(name) = queue.pop_front() {
        let path = site.root.join(&name);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                report.problems.push(Problem {
                    page: name,
                    message: format!("could not be read: {e}"),
                });
                continue;
            }
        };
        let written: Written = html::read(&String::from_utf8_lossy(&bytes));
        let found = page::examine_written(site, &name, &written);
        report.pages += 1;
        report.links += written.links.len();
        report.images += written.images.len();
        report.problems.extend(found.problems);
        fragments.extend(found.fragments);
        for target in found.pages {
            if seen.insert(target.clone()) {
                queue.push_back(target);
            }
        }
        ids.insert(name.clone(), written.ids.into_iter().collect());
        read.push(ReadPage {
            name,
            risk: written.risk,
            bytes: bytes.len(),
            reported: found.reported,
        });
    }
    report.problems.extend(page::missing_fragments(&fragments, &ids));
    report.problems.extend(
        walk.pages
            .into_iter()
            .filter(|name| !seen.contains(name))
            .map(|page| Problem {
                page,
                message: "no link reaches this page (orphan)".to_string(),
            }),
    );
    Ok(read)
}

/// The pages [`Browse::Sample`] chooses, in the order read.
fn sample(read: &[ReadPage], start: &str, shots: &[&str]) -> Vec<String> {
    let folder = |name: &str| name.rsplit_once('/').map_or("", |(folder, _)| folder).to_string();
    let mut folders: HashMap<String, Vec<&ReadPage>> = HashMap::new();
    for page in read {
        folders.entry(folder(&page.name)).or_default().push(page);
    }
    let mut chosen: HashSet<&str> = shots.iter().copied().chain([start]).collect();
    for pages in folders.values() {
        if pages.len() <= WHOLE_FOLDER {
            chosen.extend(pages.iter().map(|p| p.name.as_str()));
            continue;
        }
        // The first page to reach each largest measure (ties go to the
        // page read first).
        let most = |measure: fn(&ReadPage) -> usize| {
            pages
                .iter()
                .fold(None::<&ReadPage>, |best, p| match best {
                    Some(b) if measure(b) >= measure(p) => Some(b),
                    _ => Some(p),
                })
                .map(|p| p.name.as_str())
        };
        let measures: [fn(&ReadPage) -> usize; 4] = [
            |p| p.risk.pre_line,
            |p| p.risk.word,
            |p| p.risk.table,
            |p| p.bytes,
        ];
        chosen.extend(pages.first().map(|p| p.name.as_str()));
        chosen.extend(measures.into_iter().filter_map(most));
    }
    read.iter()
        .filter(|p| chosen.contains(p.name.as_str()))
        .map(|p| p.name.clone())
        .collect()
}

/// What visiting one page gave.
enum Visit {
    /// Its facts and the browser log of its visit.
    Seen(Box<Facts>, Vec<driver::LogEntry>),
    /// It did not load, or did not answer the facts script, in time.
    TimedOut,
    /// It went elsewhere by itself before its facts could be read: the
    /// problem that says where.
    Left(Problem),
    /// Chromium's tab crashed while it was open (its renderer died: out of
    /// memory on a loaded machine, or the page itself).
    Crashed,
}

/// Whether a WebDriver error says the tab's renderer died. chromedriver
/// answers "tab crashed" (or "session deleted because of page crash")
/// with a body fantoccini does not parse, so the message is what there is.
fn is_tab_crash(e: &fantoccini::error::CmdError) -> bool {
    let message = e.to_string();
    message.contains("tab crashed") || message.contains("page crash") || message.contains("target crashed")
}

/// Loads page `name` and reads its facts and the browser log, each step
/// within `timeout` (chromedriver's own limits, and ours around them in
/// case a busy page stops chromedriver answering at all).
async fn visit(client: &Client, site: &Site, name: &str, timeout: Duration) -> Result<Visit, Error> {
    let failed = |e: fantoccini::error::CmdError| Error::WebDriver {
        page: name.to_string(),
        message: e.to_string(),
    };
    // A margin for chromedriver to say "timeout" itself first.
    let limit = timeout + Duration::from_secs(5);
    let loaded = tokio::time::timeout(limit, client.goto(site.url_of(name).as_str())).await;
    match loaded {
        Err(_) => return Ok(Visit::TimedOut),
        Ok(Err(e)) if e.is_timeout() => return Ok(Visit::TimedOut),
        Ok(Err(e)) if is_tab_crash(&e) => return Ok(Visit::Crashed),
        Ok(Err(e)) => return Err(failed(e)),
        Ok(Ok(())) => {}
    }
    let value = match tokio::time::timeout(limit, client.execute_async(scripts::SCRIPT, vec![])).await {
        Err(_) => return Ok(Visit::TimedOut),
        Ok(Err(e)) if e.is_timeout() || e.is_script_timeout() => {
            // chromedriver also says "script timeout", at once, when the
            // document unloads under the script: a page that navigates by
            // itself, caught mid-way. Where the browser now is tells which.
            let now = tokio::time::timeout(limit, client.current_url()).await;
            return Ok(match now {
                Ok(Ok(url)) => {
                    page::navigated_away(site, name, url.as_str()).map_or(Visit::TimedOut, Visit::Left)
                }
                _ => Visit::TimedOut,
            });
        }
        Ok(Err(e)) if is_tab_crash(&e) => return Ok(Visit::Crashed),
        Ok(Err(e)) => return Err(failed(e)),
        Ok(Ok(value)) => value,
    };
    let facts: Facts = serde_json::from_value(value).map_err(|e| Error::WebDriver {
        page: name.to_string(),
        message: format!("reading what the page script returned: {e}"),
    })?;
    let log = match tokio::time::timeout(limit, driver::browser_log(client)).await {
        Err(_) => return Ok(Visit::TimedOut),
        Ok(Err(e)) if is_tab_crash(&e) => return Ok(Visit::Crashed),
        Ok(log) => log.map_err(failed)?,
    };
    Ok(Visit::Seen(Box::new(facts), log))
}

/// Visits each of `pages` in the browser, into `report`: what only a
/// browser shows of each.
async fn browse_pages(
    browser: &mut Browser,
    site: &Site,
    pages: &[String],
    reported: &HashMap<&str, &HashSet<String>>,
    timeout: Duration,
    report: &mut Report,
) -> Result<(), Error> {
    let none = HashSet::new();
    for name in pages {
        report.browsed.push(name.clone());
        let mut visited = visit(&browser.client, site, name, timeout).await?;
        if let Visit::Crashed = visited {
            // Once is taken for the machine's doing (a renderer killed for
            // memory while other work runs): the page gets a fresh browser
            // and a second visit. Twice is the page's.
            browser.replace().await?;
            visited = visit(&browser.client, site, name, timeout).await?;
        }
        let (facts, log) = match visited {
            Visit::Seen(facts, log) => (facts, log),
            Visit::Crashed => {
                report.problems.push(Problem {
                    page: name.clone(),
                    message: "crashed the browser's tab twice, each time in a fresh browser; \
                              its browser checks were not made"
                        .to_string(),
                });
                browser.replace().await?;
                continue;
            }
            Visit::Left(problem) => {
                report.problems.push(problem);
                continue;
            }
            Visit::TimedOut => {
                report.problems.push(Problem {
                    page: name.clone(),
                    message: format!(
                        "did not finish loading and running its scripts within {} s \
                         (an endless script?); its browser checks were not made",
                        timeout.as_secs_f64()
                    ),
                });
                // A page that keeps its renderer busy may keep the whole
                // browser from answering: the next page gets a fresh one.
                browser.replace().await?;
                continue;
            }
        };
        if facts.inner_width != u64::from(PHONE_WIDTH) {
            return Err(Error::Viewport(facts.inner_width));
        }
        // The facts are another document's when the page went elsewhere
        // by itself (a script setting location): that is the problem.
        if let Some(problem) = page::navigated_away(site, name, &facts.url) {
            report.problems.push(problem);
            continue;
        }
        let reported = reported.get(name.as_str()).copied().unwrap_or(&none);
        report
            .problems
            .extend(page::examine_browsed(site, name, &facts, &log, reported));
    }
    Ok(())
}

/// Photographs the whole of one page at `shot.width` CSS px, device pixel
/// ratio 1, into `<dir>/<page stem, / as ->-<width>.png`.
async fn screenshot(client: &Client, site: &Site, shot: &Shot, dir: &Path) -> Result<PathBuf, Error> {
    let failed = |e: fantoccini::error::CmdError| Error::WebDriver {
        page: shot.page.clone(),
        message: format!("taking a screenshot: {e}"),
    };
    driver::set_viewport(client, shot.width, PHONE_HEIGHT)
        .await
        .map_err(failed)?;
    client
        .goto(site.url_of(&shot.page).as_str())
        .await
        .map_err(failed)?;
    let height = client
        .execute("return document.documentElement.scrollHeight;", vec![])
        .await
        .map_err(failed)?
        .as_u64()
        .unwrap_or(u64::from(PHONE_HEIGHT))
        .max(1);
    let shot_value = driver::cdp(
        client,
        "Page.captureScreenshot",
        json!({
            "format": "png",
            "captureBeyondViewport": true,
            "clip": { "x": 0, "y": 0, "width": shot.width, "height": height, "scale": 1 },
        }),
    )
    .await
    .map_err(failed)?;
    let data = shot_value["data"].as_str().unwrap_or_default();
    let png = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| Error::WebDriver {
            page: shot.page.clone(),
            message: format!("the screenshot was not base64: {e}"),
        })?;
    let path = dir.join(shot_file_name(&shot.page, shot.width));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, png))
        .map_err(|e| Error::Write(path.clone(), e))?;
    Ok(path)
}

/// Ends, at once, every chromedriver and Chromium that a [`check`] running
/// in this process has started. For a program's signal handler: a process
/// that a signal ends runs no destructors, and Chromium may outlive a
/// chromedriver that dies.
pub fn end_browsers() {
    driver::end_all();
}

/// `guide/intro.html` at 390: `guide-intro-390.png`.
pub fn shot_file_name(page: &str, width: u32) -> String {
    let stem = [".html", ".htm"]
        .iter()
        .find_map(|ext| page.strip_suffix(ext))
        .unwrap_or(page);
    format!("{}-{width}.png", stem.replace('/', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shot_names_flatten_folders_and_drop_the_extension() {
        assert_eq!(shot_file_name("guide/intro.html", 390), "guide-intro-390.png");
        assert_eq!(shot_file_name("index.html", 1280), "index-1280.png");
    }
}
