//! The site in a real browser: headless Chromium, driven over WebDriver
//! (chromedriver), opens the index, a lesson page and the "what changed"
//! page of the committed evidence's site at 390 and 1280 CSS px, and fails
//! on a console error (a failed load among them: the browser is kept
//! offline) or a page wider than its window; it photographs each into
//! `target/site-screenshots/`. A second test plants both faults.
//!
//! Everything else about the HTML is site_support/check.rs's, which needs no
//! browser: the site holds no script, so no page can loop, open a dialog or
//! navigate away, and a few pages of each template are enough here.
//!
//! Why WebDriver, and by hand: Chromium's `--dump-dom` and `--screenshot`
//! give neither the console nor a laid-out width, while chromedriver's
//! HTTP answers both in a handful of JSON calls; a client crate would bring
//! an async runtime for them. Each call has a deadline (the socket's, and
//! WebDriver's own page-load and script limits under it), and chromedriver
//! is ended on drop, Chromium with it (it quits when chromedriver dies).
//!
//! Skipped, saying so, only where `chromium` or `chromedriver` is not on
//! PATH, and never under CI: `ci/provision-browser.sh` (which CI runs)
//! installs both.

#[path = "site_support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use evidence::site;
use serde_json::{json, Value};
use support::repository;

/// How long one WebDriver call may take; chromedriver's own limits for a
/// page load and a script are under it, so it answers first.
const DEADLINE: Duration = Duration::from_secs(60);
const WIDTHS: [u32; 2] = [390, 1280];

/// A chromedriver and its one Chromium session.
struct Browser {
    chromedriver: Child,
    port: u16,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free port and opens a headless session, or
    /// says why not.
    fn open() -> Result<Browser, String> {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let chromedriver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver: {e}"))?;
        let mut browser = Browser {
            chromedriver,
            port,
            session: String::new(),
        };
        // 200 tries 100 ms apart (host clocks are banned here).
        for tries in 0.. {
            if call(port, "GET", "/status", Value::Null).is_ok() {
                break;
            }
            if tries == 200 {
                return Err("chromedriver did not answer within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            // Offline: a request for anything outside fails at once, as
            // for a reader without a network, and is a console error.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ];
        let capabilities = json!({ "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "args": args },
            "goog:loggingPrefs": { "browser": "ALL" },
            "timeouts": { "pageLoad": 30_000, "script": 20_000 },
        }});
        let session = call(port, "POST", "/session", json!({ "capabilities": capabilities }))?;
        browser.session = session["sessionId"].as_str().unwrap_or_default().to_string();
        Ok(browser)
    }

    /// A call on the session, `POST /session/{id}/{path}`.
    fn post(&self, path: &str, body: Value) -> Result<Value, String> {
        call(
            self.port,
            "POST",
            &format!("/session/{}/{path}", self.session),
            body,
        )
    }

    /// A Chrome DevTools Protocol command on the session's tab.
    fn cdp(&self, cmd: &str, params: Value) -> Result<Value, String> {
        self.post("goog/cdp/execute", json!({ "cmd": cmd, "params": params }))
    }

    /// Opens `page` of the site in `dir` at `width` CSS px and returns its
    /// problems; photographs it, the whole page, into `shots` if given.
    fn visit(&self, dir: &Path, page: &str, width: u32, shots: Option<&Path>) -> Result<Vec<String>, String> {
        let metrics = json!({ "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false });
        self.cdp("Emulation.setDeviceMetricsOverride", metrics)?;
        let url = format!("file://{}", dir.join(page).display());
        self.post("url", json!({ "url": url }))?;
        let script = "const done = arguments[0], root = document.documentElement;
            const facts = () => done([root.scrollWidth, innerWidth, root.scrollHeight]);
            document.readyState === 'complete' ? facts() : addEventListener('load', facts);";
        let facts = self.post("execute/async", json!({ "script": script, "args": [] }))?;
        let [scroll, inner, height] = [0, 1, 2].map(|i| facts[i].as_u64().unwrap_or_default());
        let log = self.post("se/log", json!({ "type": "browser" }))?;
        let mut problems: Vec<String> = log
            .as_array()
            .into_iter()
            .flatten()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| format!("{page} at {width} px: console error: {}", entry["message"]))
            .collect();
        if inner != u64::from(width) {
            problems.push(format!("{page} at {width} px: the window is {inner} px wide"));
        } else if scroll > inner {
            problems.push(format!(
                "{page} at {width} px: {scroll} px wide, wider than the window"
            ));
        }
        if let Some(shots) = shots {
            let clip = json!({ "x": 0, "y": 0, "width": width, "height": height, "scale": 1 });
            let shot = self.cdp(
                "Page.captureScreenshot",
                json!({ "format": "png", "captureBeyondViewport": true, "clip": clip }),
            )?;
            let png = base64::engine::general_purpose::STANDARD
                .decode(shot["data"].as_str().unwrap_or_default())
                .map_err(|e| e.to_string())?;
            let name = format!("{}-{width}.png", page.trim_end_matches(".html").replace('/', "-"));
            std::fs::create_dir_all(shots).map_err(|e| e.to_string())?;
            std::fs::write(shots.join(name), png).map_err(|e| e.to_string())?;
        }
        Ok(problems)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = call(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                Value::Null,
            );
        }
        let _ = self.chromedriver.kill();
        let _ = self.chromedriver.wait();
    }
}

/// One WebDriver call: `method path` with a JSON body, its answer's
/// `value`, or the error chromedriver gave. Every read and write on the
/// socket has [`DEADLINE`].
fn call(port: u16, method: &str, path: &str, body: Value) -> Result<Value, String> {
    let failed = |e: std::io::Error| format!("{method} {path}: {e}");
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&address, DEADLINE).map_err(failed)?;
    stream.set_read_timeout(Some(DEADLINE)).map_err(failed)?;
    stream.set_write_timeout(Some(DEADLINE)).map_err(failed)?;
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(failed)?;
    let mut reader = BufReader::new(stream);
    let (mut status, mut length) = (String::new(), 0);
    reader.read_line(&mut status).map_err(failed)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(failed)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut answer = vec![0; length];
    reader.read_exact(&mut answer).map_err(failed)?;
    let mut answer: Value = serde_json::from_slice(&answer).map_err(|e| format!("{method} {path}: {e}"))?;
    match status.split(' ').nth(1) {
        Some("200") => Ok(answer["value"].take()),
        _ => Err(format!(
            "{method} {path}: {} {}",
            status.trim(),
            answer["value"]["message"]
        )),
    }
}

/// Whether `name` is a program on PATH.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}

/// The browser, or `None` where chromium or chromedriver is not on PATH
/// (the test then passes, having said why), except under CI (`CI` set),
/// which provisions them: there their absence fails.
fn browser() -> Option<Browser> {
    if !(on_path("chromium") && on_path("chromedriver")) {
        let why = "chromium or chromedriver is not on PATH; ci/provision-browser.sh installs them (as root)";
        assert!(std::env::var_os("CI").is_none(), "{why}");
        println!("skipped: {why}");
        return None;
    }
    Some(Browser::open().unwrap_or_else(|e| panic!("{e}")))
}

/// `target/site-screenshots/`.
fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("site-screenshots")
}

#[test]
fn the_committed_evidence_s_site_in_a_real_browser_at_390_and_1280_px() {
    let Some(browser) = browser() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    site::build(&repository(), &repository().join("evidence"), &out).unwrap();
    let shots = screenshots();
    let lesson = site::lesson_page("day10-block-sizes");
    let mut problems = Vec::new();
    for width in WIDTHS {
        for page in [site::INDEX, &lesson, site::CHANGES] {
            problems.extend(browser.visit(&out, page, width, Some(&shots)).unwrap());
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for width in WIDTHS {
        for name in ["index", "lessons-day10-block-sizes", "changes"] {
            let png = std::fs::read(shots.join(format!("{name}-{width}.png"))).unwrap();
            // The PNG's width (IHDR, big-endian at byte 16) is the page's.
            assert_eq!(png[16..20], width.to_be_bytes(), "{name}-{width}.png");
        }
    }
    println!(
        "6 pages at 390 and 1280 px: no problems; screenshots in {}",
        shots.display()
    );
}

/// A missing image (a failed load is a console error) and a box 1000 px
/// wide: the one at both widths, the other at 390 alone.
#[test]
fn a_failed_load_and_a_page_wider_than_the_window_are_named() {
    let Some(browser) = browser() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence/day10-block-sizes");
    std::fs::create_dir_all(&ev).unwrap();
    // One Day 10 run, and its twin while twins are committed.
    for run in [
        "2026-12-01T213005Z-h200-cxx.txt",
        "2026-12-01T213005Z-h200-cxx.json",
    ] {
        let _ = std::fs::copy(
            repository().join("evidence/day10-block-sizes").join(run),
            ev.join(run),
        );
    }
    let out = tmp.path().join("site");
    site::build(&repository(), &tmp.path().join("evidence"), &out).unwrap();
    let index = std::fs::read_to_string(out.join(site::INDEX)).unwrap();
    let planted = "<img src=\"gone.png\" alt=\"gone\"><div style=\"width:1000px\">wide</div></main>";
    std::fs::write(out.join(site::INDEX), index.replacen("</main>", planted, 1)).unwrap();
    let mut problems = Vec::new();
    for width in WIDTHS {
        problems.extend(browser.visit(&out, site::INDEX, width, None).unwrap());
    }
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].starts_with("index.html at 390 px: console error: ") && problems[0].contains("gone.png")
    );
    assert!(
        problems[1].starts_with("index.html at 390 px: ") && problems[1].ends_with("wider than the window")
    );
    assert!(
        problems[2].starts_with("index.html at 1280 px: console error: ") && problems[2].contains("gone.png")
    );
}
