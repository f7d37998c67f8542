//! Why the site could not be built or written.
//!
//! Not for: the evidence's own problems, which the site shows on its pages.

use std::path::{Path, PathBuf};

use crate::load::LoadError;
use crate::site::plot;

/// The file that marks a folder as a site this command wrote, so that
/// writing again may replace it and nothing else.
pub const MARKER: &str = ".evidence-site";

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("{}: not empty, and not a site `evidence site` wrote (no {MARKER} in it); name a new or empty folder", .0.display())]
    NotASite(PathBuf),
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Plot(#[from] plot::PlotError),
    #[error("two files of the site would be {0}")]
    SamePath(String),
    #[error("{}: {why}; name a folder of its own for the site", .out.display())]
    BadPlace { out: PathBuf, why: String },
    #[error("writing the site's summary as JSON")]
    Summary(#[from] serde_json::Error),
}

pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SiteError + '_ {
    move |source| SiteError::Io {
        path: path.to_path_buf(),
        source,
    }
}
