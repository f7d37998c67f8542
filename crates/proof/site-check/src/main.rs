//! `site-check`: checks a static HTML site folder in headless Chromium at a
//! phone's width and lists every problem; see the library for what counts.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use site_check::{Options, Shot};

/// Check a static HTML site (pages read from file://) in headless Chromium,
/// 390 CSS px wide.
///
/// Prints `N pages (B in the browser), M links, K images: no problems`, or
/// each problem on a line of its own and exits 1. Needs chromium and
/// chromedriver on PATH (ci/provision-browser.sh).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// The site's folder.
    dir: PathBuf,
    /// The page to start from, relative to DIR.
    #[arg(long, default_value = "index.html")]
    start: String,
    /// Photograph PAGE (relative to DIR) WIDTH CSS px wide, the whole page,
    /// after the check; may be given more than once.
    #[arg(long = "screenshot", value_name = "PAGE@WIDTH", value_parser = parse_shot)]
    screenshots: Vec<Shot>,
    /// Where screenshots go, as <page, / as ->-<width>.png.
    #[arg(long, value_name = "DIR", default_value = ".")]
    screenshot_dir: PathBuf,
    /// How long one page may take to load, and then to run the check's
    /// script, in seconds; a page past it is a problem (an endless script),
    /// and the check goes on in a fresh browser.
    #[arg(long, value_name = "SECONDS", default_value_t = site_check::DEFAULT_PAGE_TIMEOUT.as_secs_f64(),
          value_parser = parse_seconds)]
    page_timeout: f64,
    /// Which pages the browser visits: every page, or for a site of many
    /// pages of few kinds a sample (each small folder whole, and of each
    /// large one its first page and its riskiest: the longest <pre> line,
    /// the longest word, the widest table, the most bytes). Every page's
    /// HTML is checked either way.
    #[arg(long, value_enum, default_value_t = BrowseArg::Every)]
    browse: BrowseArg,
    /// One more argument for Chromium's command line, after the check's
    /// own; may be given more than once
    /// (`--chromium-arg=--js-flags=--max-old-space-size=64`).
    #[arg(long = "chromium-arg", value_name = "ARG", allow_hyphen_values = true)]
    chromium_args: Vec<String>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum BrowseArg {
    Every,
    Sample,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
        .ok_or_else(|| format!("`{text}` is not a number of seconds between 0 and 3600"))
}

fn parse_shot(text: &str) -> Result<Shot, String> {
    let (page, width) = text
        .rsplit_once('@')
        .ok_or_else(|| format!("`{text}` is not PAGE@WIDTH (e.g. index.html@390)"))?;
    let width: u32 = width
        .parse()
        .ok()
        .filter(|w| *w > 0)
        .ok_or_else(|| format!("`{width}` is not a width in CSS px (a positive whole number)"))?;
    if page.is_empty() {
        return Err(format!("`{text}` names no page"));
    }
    Ok(Shot {
        page: page.to_string(),
        width,
    })
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    end_browsers_on_signal();
    cli_exit::finish(run(cli_exit::parse::<Cli>()))
}

/// On Ctrl-C, SIGTERM or SIGHUP, ends the browser before this process ends
/// as the signal would have ended it.
fn end_browsers_on_signal() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // Without the handler a signal still ends the program; only the
    // browser may outlive it, so a failure to install it is not fatal.
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            site_check::end_browsers();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
        }
    });
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let opts = Options {
        site: cli.dir.clone(),
        start: cli.start,
        screenshots: cli.screenshots,
        screenshot_dir: Some(cli.screenshot_dir),
        page_timeout: std::time::Duration::from_secs_f64(cli.page_timeout),
        browse: match cli.browse {
            BrowseArg::Every => site_check::Browse::Every,
            BrowseArg::Sample => site_check::Browse::Sample,
        },
        chromium_args: cli.chromium_args,
    };
    let report = site_check::check(&opts).with_context(|| format!("checking {}", cli.dir.display()))?;
    for path in &report.screenshots {
        println!("wrote {}", path.display());
    }
    if report.problems.is_empty() {
        println!(
            "{} pages ({} in the browser), {} links, {} images: no problems",
            report.pages,
            report.browsed.len(),
            report.links,
            report.images
        );
        return Ok(ExitCode::SUCCESS);
    }
    for problem in &report.problems {
        println!("{problem}");
    }
    eprintln!(
        "error: {} problem(s) in {} pages",
        report.problems.len(),
        report.pages
    );
    Ok(ExitCode::FAILURE)
}
