//! An evidence folder's packs (`packed/<session id>.tar.gz`, [`crate::archive`])
//! as its readers see them: the runs in them, listed where their files
//! stood, and what is wrong with them.
//!
//! Every reader reaches a packed run through a path that runs through its
//! pack, `evidence/packed/<id>.tar.gz/<folder>/<name>.txt`, which
//! [`crate::capped::read`] follows; so `check`, `site`, `figures`,
//! `compare` and `merge` read a packed run as they read any other, and name
//! it by that path (evidence/README.md, "Packed sessions").
//!
//! Not for: writing packs ([`crate::packing`]) or the pack's format
//! ([`crate::archive`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::archive::{DRAFT_PREFIX, FOLDER, SUFFIX};
use crate::problem::{shown, Problem};
use crate::sessions::Session;
use crate::{archive, capped};

/// The packs in the evidence folder `dir`, in name order.
pub fn packs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join(FOLDER))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_str().is_some_and(|n| n.ends_with(SUFFIX)))
        .collect();
    out.sort();
    out
}

/// The paths through the packs of `dir` to every member with extension
/// `ext`, in name order; a pack that cannot be read lists nothing (and is
/// one of [`problems`]).
pub fn listed(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for pack in packs(dir) {
        let Ok(names) = capped::pack_member_names(&pack) else {
            continue;
        };
        out.extend(
            names
                .iter()
                .filter(|m| Path::new(m).extension().is_some_and(|e| e == ext))
                .map(|m| pack.join(m)),
        );
    }
    out
}

/// The order of evidence files wherever they are: by folder, then name,
/// which for files outside packs is the order of their paths.
pub fn in_folder_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    let key = |p: &Path| {
        (
            p.parent().and_then(Path::file_name).map(|f| f.to_os_string()),
            p.file_name().map(|f| f.to_os_string()),
        )
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// What is wrong with the packs of `dir` beside the runs read from them:
/// a pack that cannot be read, anything in `packed/` that is not a pack,
/// and a session whose runs are not all in the one pack its id names (or
/// all out of packs).
pub fn problems(dir: &Path, sessions: &[Session]) -> Vec<Problem> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir.join(FOLDER))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(DRAFT_PREFIX) {
            out.push(Problem::of_file(
                shown(&path),
                "the draft of a pack whose packing was killed part way; the next `evidence merge` removes it",
            ));
        } else if !name.ends_with(SUFFIX) {
            out.push(Problem::of_file(
                shown(&path),
                format!("not a pack; {FOLDER}/ holds <session id>{SUFFIX} files alone"),
            ));
        } else if let Err(e) = capped::pack_members(&path) {
            // An unpacking error names the pack itself; a read error does not.
            let message = match e {
                capped::ReadError::Pack { error, .. } => error.to_string(),
                e => e.to_string(),
            };
            out.push(Problem::of_file(shown(&path), message));
        }
    }
    for s in sessions {
        let wanted = format!("{}{SUFFIX}", s.id);
        let places: HashSet<Option<String>> = s
            .runs
            .iter()
            .map(|t| {
                archive::split(Path::new(&t.file)).map(|(pack, _)| {
                    pack.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
            })
            .collect();
        let whole = places.len() == 1 && places.iter().all(|p| p.as_ref().is_none_or(|p| *p == wanted));
        if !whole {
            let mut at: Vec<String> = places
                .into_iter()
                .map(|p| p.map_or("its own files".to_string(), |p| format!("{FOLDER}/{p}")))
                .collect();
            at.sort();
            out.push(Problem::of_file(
                format!("session {}", s.id),
                format!(
                    "its runs are in {}; a session is packed whole, into {FOLDER}/{wanted}, or not at all",
                    at.join(" and ")
                ),
            ));
        }
    }
    out
}
