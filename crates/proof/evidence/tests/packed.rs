//! Packed sessions (evidence-model's archive.rs, packs.rs and packing.rs)
//! through the command line: a merge packs a session that began more than
//! a month before its GPU's latest, every reader reads its runs from the
//! pack as from their files, and a packing
//! cut short is finished by the next merge.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evidence_model::{archive, packing, packs, transcript};
use support::repository;
use synthetic::{copy_tree, files_under, templates, write_session};

mod support;
mod synthetic;

fn evidence(ev: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence"))
        .arg("--root")
        .arg(repository())
        .arg("--evidence")
        .arg(ev)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An evidence folder `tmp/evidence` holding one synthetic H200 session
/// that began two days ago, and another that began 40 days ago in
/// `tmp/arriving/evidence`, ready to merge: a session more than a month
/// older than its GPU's latest. (Synthetic, as the committed evidence's
/// sessions are all of one week; tests/synthetic.)
fn a_month_old_session(tmp: &Path) -> (PathBuf, PathBuf) {
    let templates = templates();
    let now = transcript::date(&transcript::utc_now().unwrap()).unwrap();
    let h200 = ("NVIDIA H200", "h200");
    let ev = tmp.join("evidence");
    write_session(&ev, &templates, h200, now - time::Duration::days(2), "feed002", 2);
    let arriving = tmp.join("arriving/evidence");
    write_session(
        &arriving,
        &templates,
        h200,
        now - time::Duration::days(40),
        "feed001",
        1,
    );
    (ev, arriving)
}

#[test]
fn a_merge_packs_an_old_session_and_every_reader_reads_it_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let (ev, arriving) = a_month_old_session(tmp.path());
    // The same session merged by the library, which does not pack: what
    // every reader should still see once it is packed.
    let plain = tmp.path().join("plain");
    copy_tree(&ev, &plain);
    evidence_model::merge::merge(std::slice::from_ref(&arriving), &plain, &mut || {}).unwrap();
    let plain_check = evidence(&plain, &["check"]);
    let plain_sessions = evidence(&plain, &["sessions"]);
    assert!(plain_check.status.success(), "{}", text(&plain_check.stderr));

    let merged = evidence(&ev, &["merge", arriving.to_str().unwrap()]);
    let out = text(&merged.stdout);
    assert!(merged.status.success(), "{out}{}", text(&merged.stderr));
    let runs = files_under(&arriving).len();
    assert!(
        out.contains(&format!("{} new transcripts", runs / 2))
            && out.contains("packed 1 session(s) that began more than 28 days before their GPU's latest")
            && out.contains(&format!(": {runs} files, ")),
        "{out}"
    );
    let packs = packs::packs(&ev);
    assert_eq!(packs.len(), 1, "{packs:?}");
    let packed_bytes = packs[0].metadata().unwrap().len();
    let arriving_bytes: u64 = files_under(&arriving)
        .iter()
        .map(|f| f.metadata().unwrap().len())
        .sum();
    assert!(
        packed_bytes * 5 < arriving_bytes,
        "{packed_bytes} bytes packed from {arriving_bytes}"
    );
    // No file of the session is left beside the pack, and the recent
    // session is all still there as files.
    let left: HashSet<PathBuf> = files_under(&ev).into_iter().collect();
    for f in files_under(&arriving) {
        assert!(
            !left.contains(&ev.join(f.strip_prefix(&arriving).unwrap())),
            "{}",
            f.display()
        );
    }
    assert_eq!(left.len(), runs + 1, "the recent session's files and the pack");

    // `check` reads the packed runs and prints the same report; `sessions`
    // lists the same sessions.
    let check = evidence(&ev, &["check"]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert_eq!(text(&check.stdout), text(&plain_check.stdout));
    assert_eq!(
        text(&evidence(&ev, &["sessions"]).stdout),
        text(&plain_sessions.stdout)
    );

    // The runs' names are taken: merging the folder again adds nothing.
    let again = evidence(&ev, &["merge", arriving.to_str().unwrap()]);
    let out = text(&again.stdout);
    assert!(
        again.status.success() && out.contains(&format!("0 new transcripts, {} already there", runs / 2)),
        "{out}{}",
        text(&again.stderr)
    );
    assert!(!out.contains("packed"), "{out}");

    // A run with a packed run's name and other bytes is a clash.
    let clash = tmp.path().join("clash/evidence");
    copy_tree(&arriving, &clash);
    let one = files_under(&clash)
        .into_iter()
        .find(|f| f.extension().is_some_and(|e| e == "json"))
        .unwrap();
    std::fs::write(&one, "{}\n").unwrap();
    let refused = evidence(&ev, &["merge", clash.to_str().unwrap()]);
    let err = text(&refused.stderr);
    assert!(
        !refused.status.success()
            && err.contains("has this name with other bytes")
            && err.contains("packed/"),
        "{err}"
    );
}

#[test]
fn a_session_a_document_names_is_not_packed() {
    let tmp = tempfile::tempdir().unwrap();
    let (ev, arriving) = a_month_old_session(tmp.path());
    evidence_model::merge::merge(std::slice::from_ref(&arriving), &ev, &mut || {}).unwrap();
    let named = files_under(&arriving)
        .into_iter()
        .find(|f| f.extension().is_some_and(|e| e == "txt"))
        .unwrap();
    let name = named.file_name().unwrap().to_string_lossy().into_owned();
    // What a README quoting the run would give.
    let root = tmp.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("README.md"),
        format!("<!-- transcript: evidence/day09-timing/{name} -->\n"),
    )
    .unwrap();
    let pinned = packing::pinned(&root, &ev);
    assert!(pinned.contains(&name), "{pinned:?}");
    assert_eq!(packing::pack_old(&ev, || pinned.clone(), &mut || {}).unwrap(), []);
    assert!(packs::packs(&ev).is_empty());
    // Without the README, the same session is packed.
    assert_eq!(packing::pack_old(&ev, HashSet::new, &mut || {}).unwrap().len(), 1);
}

#[test]
fn a_packing_cut_short_is_named_by_check_and_finished_by_the_next_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let (ev, arriving) = a_month_old_session(tmp.path());
    evidence_model::merge::merge(std::slice::from_ref(&arriving), &ev, &mut || {}).unwrap();
    packing::pack_old(&ev, HashSet::new, &mut || {}).unwrap();
    // As a packing killed after its rename leaves it: files the pack holds
    // still beside it; and one killed before: a draft.
    let kept: Vec<PathBuf> = files_under(&arriving)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "txt"))
        .take(2)
        .flat_map(|t| [t.with_extension("json"), t])
        .collect();
    for f in &kept {
        let to = ev.join(f.strip_prefix(&arriving).unwrap());
        std::fs::copy(f, &to).unwrap();
    }
    let draft = ev.join(archive::FOLDER).join(".evidence-pack-abc123");
    std::fs::write(&draft, b"half a pack").unwrap();
    let check = evidence(&ev, &["check"]);
    let err = text(&check.stderr);
    assert!(!check.status.success(), "{err}");
    assert!(
        err.contains("one run counted twice") && err.contains("killed part way"),
        "{err}"
    );
    assert!(err.contains("a session is packed whole"), "{err}");

    // Merging anything (here the same folder, which adds nothing) finishes it.
    let merged = evidence(&ev, &["merge", arriving.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert!(!draft.exists());
    for f in &kept {
        assert!(
            !ev.join(f.strip_prefix(&arriving).unwrap()).exists(),
            "{}",
            f.display()
        );
    }
    let check = evidence(&ev, &["check"]);
    assert!(check.status.success(), "{}", text(&check.stderr));
}

#[test]
fn a_broken_pack_and_a_stray_file_in_the_packs_folder_are_each_named_by_check() {
    let tmp = tempfile::tempdir().unwrap();
    let (ev, _) = a_month_old_session(tmp.path());
    let folder = ev.join(archive::FOLDER);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("2026-01-01T000000Z-h200.tar.gz"), b"not a pack").unwrap();
    std::fs::write(folder.join("notes.txt"), b"a stray file").unwrap();
    // A pack's name that leads to a device, and one that is a FIFO with no
    // writer: each refused by name, before a byte is read and without
    // waiting.
    std::os::unix::fs::symlink("/dev/zero", folder.join("2026-01-02T000000Z-h200.tar.gz")).unwrap();
    let fifo = folder.join("2026-01-03T000000Z-h200.tar.gz");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let check = evidence(&ev, &["check"]);
    let err = text(&check.stderr);
    assert!(!check.status.success());
    assert!(
        err.contains("2026-01-01T000000Z-h200.tar.gz: not a gzip-compressed tar")
            && err.contains("notes.txt: not a pack")
            && err.contains("2026-01-02T000000Z-h200.tar.gz: not a regular file (a character device)")
            && err.contains("2026-01-03T000000Z-h200.tar.gz: not a regular file (a FIFO)"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
