//! The site of the evidence (`evidence site`): every claim on every GPU at
//! a glance; and the lessons' charts as SVG ([`plot`], which `evidence
//! plot` writes alone).
//!
//! Its pages: the index ([`index`]), a page per lesson ([`lesson`]), per
//! recording session ([`sessions`]), what changed ([`changes`]), each
//! lesson's figures over its sessions ([`history`]), a page per recent
//! transcript ([`transcript`]) and per other evidence folder, the
//! instrument's page ([`instrument`]), and `summary.json` ([`summary`]).
//!
//! Every link is relative and nothing is fetched from outside the site, so
//! it works from `file://` and from any static host. The same evidence
//! gives the same bytes: nothing here iterates a hash, and the one clock
//! read is the evidence's own check that no run is dated in the future.
//!
//! The site's HTML is checked by tests/site_support/check.rs (every page,
//! no browser); tests/site_browser.rs opens a few pages in a real one.
//!
//! Not for: judging runs (that is [`crate::check`]).

mod changes;
mod context;
mod error;
mod history;
mod index;
mod instrument;
mod layout;
mod lesson;
pub mod plot;
mod repro;
mod sessions;
mod summary;
mod transcript;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use context::PAGED_DAYS;
pub use error::{SiteError, MARKER};
pub use layout::{
    folder_page, lesson_page, session_page, transcript_page, CHANGES, INDEX, INSTRUMENT, SESSIONS,
};
pub use summary::SUMMARY;

use context::{Evidence, SiteChart};
use error::io;

use crate::load;
use crate::transcript::Transcript;
use crate::verdicts::Column;

/// `out` made absolute, its links and `..` resolved (a folder that does not
/// exist yet resolved through its parent), and refused where replacing it
/// whole would lose something: a folder that holds the evidence or the
/// repository, one inside the evidence, the root of a file system, or a
/// mount point (which cannot be renamed), or a symlink to nothing (which
/// the site cannot be renamed onto).
fn resolve(root: &Path, evidence: &Path, out: &Path) -> Result<PathBuf, SiteError> {
    let bad = |why: &str| SiteError::BadPlace {
        out: out.to_path_buf(),
        why: why.to_string(),
    };
    let absolute = std::path::absolute(out).map_err(io(out))?;
    let resolved = match std::fs::canonicalize(&absolute) {
        Ok(real) => real,
        Err(_) if absolute.is_symlink() => return Err(bad("a symlink to nothing that exists")),
        Err(_) => {
            let name = absolute.file_name().ok_or_else(|| bad("it names no folder"))?;
            let parent = absolute.parent().ok_or_else(|| bad("it names no folder"))?;
            // The parent must be made; its own `..` and links resolve once it is.
            std::fs::create_dir_all(parent).map_err(io(parent))?;
            std::fs::canonicalize(parent).map_err(io(parent))?.join(name)
        }
    };
    if resolved.exists() && !resolved.is_dir() {
        return Err(bad("not a folder"));
    }
    let parent = resolved
        .parent()
        .ok_or_else(|| bad("the root of the file system"))?;
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    for (what, held) in [
        ("the evidence folder", real(evidence)),
        ("the repository", real(root)),
    ] {
        if held.starts_with(&resolved) {
            return Err(bad(&format!(
                "it holds {what} ({}), which replacing it would delete",
                held.display()
            )));
        }
    }
    if resolved.starts_with(real(evidence)) {
        return Err(bad("it is inside the evidence folder, whose every file is a run"));
    }
    use std::os::unix::fs::MetadataExt;
    if let (Ok(here), Ok(above)) = (std::fs::metadata(&resolved), std::fs::metadata(parent)) {
        if here.dev() != above.dev() {
            return Err(bad(
                "a mount point, which the site cannot replace (it is written beside and renamed into place)",
            ));
        }
    }
    Ok(resolved)
}

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    pub pages: usize,
    pub charts: usize,
}

/// The files of the site, by path from its root, before any is written.
#[derive(Default)]
struct Files(BTreeMap<String, String>);

impl Files {
    /// Adds a file; two at one path (two GPUs whose names make one word,
    /// say) are an error, never one silently replacing the other.
    fn add(&mut self, path: String, text: String) -> Result<(), SiteError> {
        if self.0.contains_key(&path) {
            return Err(SiteError::SamePath(path));
        }
        self.0.insert(path, text);
        Ok(())
    }
}

/// Writes the site of the evidence in `dir` (the repository at `root`, for
/// the lessons' titles) into `out`: a new or empty folder, or one this
/// command wrote before, which is replaced whole.
pub fn build(root: &Path, dir: &Path, out: &Path) -> Result<Built, SiteError> {
    // Where the site goes is settled before anything is read or built.
    let out = &resolve(root, dir, out)?;
    let loaded = load::load(dir)?;
    let mut problems = loaded.problems.clone();
    let tables: Vec<_> = lessons::LESSONS
        .iter()
        .copied()
        .zip(crate::check::every_lesson(&loaded.transcripts, &mut problems))
        .collect();
    let columns = tables
        .iter()
        .flat_map(|(_, table)| &table.rows)
        .map(|row| Column::of(row.transcript))
        .collect();
    // Paths as the repository names them, not as this machine does: the
    // same evidence gives the same site wherever it is checked out.
    let here = format!("{}/", dir.display());
    let problems: Vec<String> = problems
        .iter()
        .map(|p| p.to_string().replace(&here, "evidence/"))
        .collect();
    let titles = lessons::LESSONS
        .iter()
        .map(|l| (l.name(), lesson::title(root, l.name())))
        .collect();
    let sessions = crate::sessions::of(&loaded.transcripts);
    let history = crate::history::of(&sessions);
    let session_of = sessions
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.runs.iter().map(move |t| (t.file.as_str(), i)))
        .collect();
    let per_session = tables
        .iter()
        .map(|(_, table)| crate::verdicts::per_session(table, &sessions))
        .collect();
    let latest = crate::changes::latest(&history, &sessions);
    let alarms = crate::changes::false_alarms(&history);
    let evidence = Evidence {
        dir,
        titles,
        transcripts: &loaded.transcripts,
        tables,
        columns,
        problems: &problems,
        sessions: &sessions,
        session_of,
        history: &history,
        recent: crate::sessions::recent(&sessions),
        per_session,
        latest,
        alarms,
    };
    let files = pages(&evidence)?;
    let built = Built {
        pages: files.0.keys().filter(|p| p.ends_with(".html")).count(),
        charts: files.0.keys().filter(|p| p.ends_with(".svg")).count(),
    };
    write(out, &files)?;
    Ok(built)
}

fn pages(ev: &Evidence) -> Result<Files, SiteError> {
    let mut files = Files::default();
    files.add(layout::STYLESHEET.into(), layout::CSS.into())?;
    files.add(
        MARKER.into(),
        "written by `evidence site`; replaced whole when it writes again\n".into(),
    )?;
    files.add(INDEX.into(), index::page(ev))?;
    for ((lesson, table), by_session) in ev.tables.iter().zip(&ev.per_session) {
        let charts = plot_charts(ev.transcripts, *lesson)?;
        let history = history::charts(ev, *lesson)?;
        files.add(
            lesson_page(lesson.name()),
            lesson::page(ev, *lesson, table, by_session, &charts, &history),
        )?;
        for chart in charts.into_iter().chain(history) {
            files.add(chart.path, chart.svg)?;
        }
    }
    files.add(SESSIONS.into(), sessions::list(ev))?;
    for (path, page) in sessions::pages(ev) {
        files.add(path, page)?;
    }
    files.add(CHANGES.into(), changes::page(ev))?;
    files.add(SUMMARY.into(), summary::json(ev)?)?;
    for folder in lessons::OTHER_FOLDERS {
        if let Some(page) = index::folder(ev, folder) {
            files.add(folder_page(folder), page)?;
        }
    }
    files.add(INSTRUMENT.into(), instrument::page(ev))?;
    for t in ev.transcripts.iter().filter(|t| ev.has_page(t)) {
        files.add(transcript_page(t), transcript::page(ev, t)?)?;
    }
    Ok(files)
}

/// The lesson's charts, one set per GPU: a band over two GPUs' runs would
/// mean nothing.
fn plot_charts(all: &[Transcript], lesson: &dyn lesson_spec::Lesson) -> Result<Vec<SiteChart>, SiteError> {
    let gpus: BTreeSet<&str> = all
        .iter()
        .filter(|t| t.header.lesson == lesson.name())
        .map(|t| t.header.gpu_name())
        .collect();
    let mut out = Vec::new();
    // Two spellings of one GPU (`NVIDIA H200`, `H200`) make one word of a
    // chart's name; the second spelling's charts are numbered, in name order.
    let mut taken = BTreeSet::new();
    for gpu in gpus {
        for chart in plot::lesson_charts(all, lesson, Some(gpu))? {
            let mut path = format!("plots/{}.svg", chart.stem);
            for n in 2.. {
                if taken.insert(path.clone()) {
                    break;
                }
                path = format!("plots/{}-{n}.svg", chart.stem);
            }
            out.push(SiteChart {
                path,
                title: chart.title,
                gpu: gpu.to_string(),
                svg: chart.svg,
            });
        }
    }
    Ok(out)
}

/// Writes `files` into a new folder beside `out`, then puts it in `out`'s
/// place, so a reader never sees half a site. A staging folder a killed
/// build left (named with the same prefix) is removed by the next build of
/// the same `out`; two builds of one site at once are not supported.
fn write(out: &Path, files: &Files) -> Result<(), SiteError> {
    let replacing = std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some());
    if replacing && !out.join(MARKER).is_file() {
        return Err(SiteError::NotASite(out.to_path_buf()));
    }
    let parent = out.parent().unwrap_or(Path::new("/")).to_path_buf();
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let prefix = format!(
        ".{}.evidence-site-",
        out.file_name().unwrap_or_default().to_string_lossy()
    );
    for stale in std::fs::read_dir(&parent).into_iter().flatten().flatten() {
        if stale.file_name().to_string_lossy().starts_with(&prefix) && stale.path().is_dir() {
            let _ = std::fs::remove_dir_all(stale.path());
        }
    }
    let staging = tempfile::Builder::new()
        .prefix(&prefix)
        .tempdir_in(&parent)
        .map_err(io(&parent))?;
    for (path, text) in &files.0 {
        let file = staging.path().join(path);
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(io(folder))?;
        }
        std::fs::write(&file, text).map_err(io(&file))?;
    }
    // A temporary folder is its owner's alone; a site is for every reader.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o755))
        .map_err(io(staging.path()))?;
    // The old site goes beside it under the staging prefix, removed when
    // `old` is dropped. A failed rename puts it back and leaves no staging.
    let old = tempfile::Builder::new()
        .prefix(&prefix)
        .tempdir_in(&parent)
        .map_err(io(&parent))?;
    let replacing = out.exists();
    if replacing {
        std::fs::rename(out, old.path()).map_err(io(out))?;
    }
    if let Err(e) = std::fs::rename(staging.path(), out) {
        if replacing {
            let _ = std::fs::rename(old.path(), out);
        }
        return Err(io(out)(e));
    }
    let _ = staging.keep(); // renamed into place: not to be removed
    Ok(())
}
