//! Why the site could not be checked at all: a missing browser, a session
//! that would not open, a folder that could not be read.

use std::path::PathBuf;

use crate::viewport::PHONE_WIDTH;

/// Why the site could not be checked at all (its own faults are
/// [`Problem`](crate::Problem)s).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0} not found on PATH; install it with ci/provision-browser.sh (as root)")]
    Missing(&'static str),
    #[error("chromedriver failed to start: {0}")]
    DriverStart(String),
    #[error("could not open a headless Chromium session: {0}")]
    Session(String),
    #[error("reading the site folder {0}")]
    Site(PathBuf, #[source] std::io::Error),
    #[error("start page {0} not found")]
    StartPage(PathBuf),
    #[error("the viewport is {0} CSS px wide, not {PHONE_WIDTH}: the phone-width emulation did not hold")]
    Viewport(u64),
    #[error("WebDriver failed on {page}: {message}")]
    WebDriver { page: String, message: String },
    #[error("page {0} to photograph not found in the site")]
    ShotPage(String),
    #[error("writing screenshot {0}")]
    Write(PathBuf, #[source] std::io::Error),
    #[error("starting the async runtime")]
    Runtime(#[source] std::io::Error),
}
