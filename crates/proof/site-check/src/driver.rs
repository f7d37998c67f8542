//! Chromium behind chromedriver: the process, the session (a [`Browser`]
//! holds both), and the two commands fantoccini has no method for (the
//! browser log, and Chrome DevTools Protocol commands).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use fantoccini::wd::{TimeoutConfiguration, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

use crate::error::Error;
use crate::scripts::BEFORE_PAGE_SCRIPTS;
use crate::viewport::{PHONE_HEIGHT, PHONE_WIDTH};

/// The process groups of the chromedriver processes this process has
/// running, for [`end_all`].
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Ends every chromedriver this process started, and the Chromium each
/// started, at once: for a signal handler, since a process a signal ends
/// runs no destructors.
pub(crate) fn end_all() {
    for group in LIVE.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        // SAFETY: kill has no memory preconditions; the group is ours.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// How long chromedriver may take to listen: 200 tries 50 ms apart.
const START_TRIES: u32 = 200;
const START_PAUSE: Duration = Duration::from_millis(50);

/// A chromedriver process in a process group of its own, so that ending the
/// group also ends the Chromium it started, should the session not have
/// closed it (a panic, a chromedriver that hangs). Chromium also quits by
/// itself when chromedriver dies.
pub(crate) struct Driver {
    child: Child,
    pub(crate) url: String,
    /// Whether [`Driver::end`] has run: its process id may be another
    /// process's once waited for.
    ended: bool,
}

impl Driver {
    /// Starts chromedriver on a free localhost port and waits until it
    /// listens. A port taken between choosing and binding makes chromedriver
    /// exit at once; that is tried again on another port.
    pub(crate) fn start() -> Result<Self, Error> {
        let chromedriver = find_on_path("chromedriver").ok_or(Error::Missing("chromedriver"))?;
        find_on_path("chromium").ok_or(Error::Missing("chromium"))?;
        let mut last = String::new();
        for _ in 0..3 {
            let port = free_port().map_err(|e| Error::DriverStart(format!("finding a free port: {e}")))?;
            let mut command = Command::new(&chromedriver);
            command
                .arg(format!("--port={port}"))
                .arg("--silent")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            // The kernel ends chromedriver, and Chromium follows it, when
            // this thread ends without dropping the driver: a signal, or an
            // exit that skips destructors. (The death signal fires when the
            // thread that spawned it ends, and check() holds its thread.)
            // SAFETY: prctl is async-signal-safe and touches no memory of ours.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                    match libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) {
                        0 => Ok(()),
                        _ => Err(std::io::Error::last_os_error()),
                    }
                });
            }
            let child = command
                .spawn()
                .map_err(|e| Error::DriverStart(format!("{}: {e}", chromedriver.display())))?;
            let mut driver = Driver {
                child,
                url: format!("http://127.0.0.1:{port}"),
                ended: false,
            };
            match driver.wait_listening(port) {
                Ok(()) => {
                    if let Ok(group) = i32::try_from(driver.child.id()) {
                        LIVE.lock().unwrap_or_else(PoisonError::into_inner).push(group);
                    }
                    return Ok(driver);
                }
                Err(e) => last = e,
            }
        }
        Err(Error::DriverStart(last))
    }

    /// Waits until chromedriver itself answers `/status` as ready: a bare
    /// connection could be to another program that took the port meanwhile.
    fn wait_listening(&mut self, port: u16) -> Result<(), String> {
        for _ in 0..START_TRIES {
            if let Some(how) = ended_unreaped(&self.child) {
                return Err(format!("chromedriver exited at start ({how})"));
            }
            if status_ready(port) {
                return Ok(());
            }
            std::thread::sleep(START_PAUSE);
        }
        Err(format!("chromedriver did not answer on port {port} within 10 s"))
    }
}

/// How `child` ended, if it has, leaving it unreaped (`WNOWAIT`): reaped, its
/// process id could be another process's before [`Driver::end`] ends the
/// group by that id, which a zombie leader keeps as its own.
fn ended_unreaped(child: &Child) -> Option<String> {
    let pid = libc::id_t::from(child.id());
    // SAFETY: an all-zero siginfo_t is a valid value for waitid to fill.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid, writable siginfo_t for the whole call.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: waitid filled `info`; si_pid is 0 while the child still runs.
    if rc != 0 || unsafe { info.si_pid() } == 0 {
        return None;
    }
    // SAFETY: as above, for an ended child.
    let status = unsafe { info.si_status() };
    Some(match info.si_code {
        libc::CLD_EXITED => format!("exit code {status}"),
        _ => format!("signal {status}"),
    })
}

/// Whether a WebDriver server on `port` says it is ready for a session.
fn status_ready(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    // Read until the answer says so rather than to the end: chromedriver
    // may keep the connection open.
    let mut response = Vec::new();
    let mut chunk = [0u8; 1024];
    while let Ok(n @ 1..) = stream.read(&mut chunk) {
        response.extend_from_slice(&chunk[..n]);
        if String::from_utf8_lossy(&response).contains("\"ready\":true") {
            return true;
        }
    }
    false
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.end();
    }
}

impl Driver {
    /// Ends chromedriver and every Chromium process it started, once.
    fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        // The negative id names the whole group: chromedriver and every
        // Chromium process it started.
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill has no memory preconditions; the group is ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            LIVE.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|group| *group != pid);
        }
        let _ = self.child.wait();
    }
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?.local_addr()?.port())
}

/// `name` in a folder of `PATH`, as a shell would find it.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// A headless Chromium session and the chromedriver behind it, at phone
/// width, with page-load and script limits set.
pub(crate) struct Browser {
    pub(crate) client: Client,
    // Dropped after the client: ending it ends Chromium too.
    driver: Driver,
    // What it was opened with, for the one that replaces it.
    timeout: Duration,
    chromium_args: Vec<String>,
}

impl Browser {
    /// Starts chromedriver, opens a session, lays pages out at the phone's
    /// width, and limits each page's load and each script to `timeout`;
    /// `chromium_args` go on Chromium's command line after the check's own.
    pub(crate) async fn open(timeout: Duration, chromium_args: &[String]) -> Result<Self, Error> {
        let driver = Driver::start()?;
        let client = open_session(&driver, chromium_args).await?;
        let setup = |e: fantoccini::error::CmdError| Error::Session(e.to_string());
        client
            .update_timeouts(TimeoutConfiguration::new(
                Some(timeout),
                Some(timeout),
                Some(Duration::ZERO),
            ))
            .await
            .map_err(setup)?;
        set_viewport(&client, PHONE_WIDTH, PHONE_HEIGHT)
            .await
            .map_err(setup)?;
        cdp(
            &client,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": BEFORE_PAGE_SCRIPTS }),
        )
        .await
        .map_err(setup)?;
        Ok(Browser {
            client,
            driver,
            timeout,
            chromium_args: chromium_args.to_vec(),
        })
    }

    /// Ends this browser at once (a hung renderer may keep it from
    /// answering a polite close) and opens a fresh one in its place; the
    /// old one is gone before the new one starts.
    pub(crate) async fn replace(&mut self) -> Result<(), Error> {
        self.driver.end();
        let args = std::mem::take(&mut self.chromium_args);
        *self = Browser::open(self.timeout, &args).await?;
        Ok(())
    }

    /// Closes the session, which quits Chromium; the driver's drop ends
    /// what is left.
    pub(crate) async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// Opens a headless Chromium session on `driver`.
async fn open_session(driver: &Driver, chromium_args: &[String]) -> Result<Client, Error> {
    let mut args = vec![
        "--headless=new".to_string(),
        "--no-sandbox".to_string(),
        "--disable-gpu".to_string(),
        // file:// pages may fetch their neighbours (a script loading JSON).
        "--allow-file-access-from-files".to_string(),
        // Offline on purpose: every host fails to resolve at once, so an
        // external request fails fast, the way it would for a reader
        // without a network, instead of waiting on DNS.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1".to_string(),
        "--force-device-scale-factor=1".to_string(),
        "--hide-scrollbars".to_string(),
        "--mute-audio".to_string(),
        "--no-first-run".to_string(),
        "--disable-extensions".to_string(),
        "--disable-background-networking".to_string(),
        "--disable-dev-shm-usage".to_string(),
        format!("--window-size={PHONE_WIDTH},{PHONE_HEIGHT}"),
    ];
    args.extend(chromium_args.iter().cloned());
    let capabilities = json!({
        "browserName": "chrome",
        // An alert() would otherwise fail every later command.
        "unhandledPromptBehavior": "dismiss",
        "goog:loggingPrefs": { "browser": "ALL" },
        "goog:chromeOptions": {
            "args": args,
        },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("json! of an object literal is an object")
    };
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .map_err(|e| Error::Session(e.to_string()))?;
    Ok(client)
}

/// Lays pages out `width` CSS px wide at device pixel ratio 1, whatever
/// minimum window width headless Chromium keeps.
pub(crate) async fn set_viewport(
    client: &Client,
    width: u32,
    height: u32,
) -> Result<(), fantoccini::error::CmdError> {
    cdp(
        client,
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
    )
    .await
    .map(drop)
}

/// A Chrome DevTools Protocol command through chromedriver's
/// `goog/cdp/execute`, for the current tab.
pub(crate) async fn cdp(
    client: &Client,
    cmd: &str,
    params: Value,
) -> Result<Value, fantoccini::error::CmdError> {
    client
        .issue_cmd(SessionPost {
            path: "goog/cdp/execute",
            body: json!({ "cmd": cmd, "params": params }),
        })
        .await
}

/// The browser log since the last call: console messages, uncaught
/// exceptions, failed loads. chromedriver clears it as it answers.
pub(crate) async fn browser_log(client: &Client) -> Result<Vec<LogEntry>, fantoccini::error::CmdError> {
    let value = client
        .issue_cmd(SessionPost {
            path: "se/log",
            body: json!({ "type": "browser" }),
        })
        .await?;
    Ok(serde_json::from_value(value).unwrap_or_default())
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct LogEntry {
    pub(crate) level: String,
    #[serde(default)]
    pub(crate) source: String,
    pub(crate) message: String,
}

/// A POST to `/session/{id}/PATH` with a JSON body.
#[derive(Debug)]
struct SessionPost {
    path: &'static str,
    body: Value,
}

impl WebDriverCompatibleCommand for SessionPost {
    fn endpoint(&self, base_url: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.to_string()))
    }
}
