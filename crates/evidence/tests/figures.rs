//! Figure blocks against the committed evidence: every block in the
//! repository is what the evidence gives, and a stale one fails the check by
//! its name, with the command that rewrites it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evidence::figures::{self, blocks, WRITE_COMMAND};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn figures_cli(root: &Path, write: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence"));
    cmd.arg("figures").arg("--root").arg(root);
    if write {
        cmd.arg("--write");
    }
    cmd.output().unwrap()
}

#[test]
fn every_figure_block_in_the_repository_matches_the_evidence() {
    let outcome = figures::run(&repository(), false);
    assert!(outcome.errors.is_empty(), "{}", outcome.errors.join("\n"));
    assert!(
        outcome.stale.is_empty(),
        "stale figure blocks (run `{WRITE_COMMAND}`):\n{}",
        outcome.stale.join("\n")
    );
    assert!(
        outcome.blocks > 0,
        "no figure blocks found: the check checked nothing"
    );
}

/// The first document under the repository holding a block whose text has
/// a digit, its path relative to the root, and that block.
fn a_document_with_a_figure(root: &Path) -> (PathBuf, String, figures::Block) {
    for path in figures::documents(root) {
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(found) = blocks(&text) else { continue };
        if let Some(b) = found
            .into_iter()
            .find(|b| text[b.content.clone()].contains(|c: char| c.is_ascii_digit()))
        {
            return (path.strip_prefix(root).unwrap().to_path_buf(), text, b);
        }
    }
    panic!(
        "no document under {} has a figure block with a number",
        root.display()
    );
}

#[test]
fn a_planted_stale_figure_fails_the_check_naming_its_block_and_the_command() {
    let root = repository();
    let (relative, text, block) = a_document_with_a_figure(&root);
    let dir = std::env::temp_dir().join(format!("figures-planted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(&relative).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(root.join("evidence"), dir.join("evidence")).unwrap();

    // The block's first digit, one higher: a figure someone typed over.
    let at = block.content.start
        + text[block.content.clone()]
            .find(|c: char| c.is_ascii_digit())
            .unwrap();
    let digit = text.as_bytes()[at] - b'0';
    let planted = format!("{}{}{}", &text[..at], (digit + 1) % 10, &text[at + 1..]);
    let copy = dir.join(&relative);
    std::fs::write(&copy, &planted).unwrap();

    let checked = figures_cli(&dir, false);
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(checked.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}:{}: block `{}`",
            relative.display(),
            block.line,
            block.name
        )),
        "the failure names the file and the block:\n{stderr}"
    );
    assert!(
        stderr.contains(WRITE_COMMAND),
        "the failure names the command:\n{stderr}"
    );

    let written = figures_cli(&dir, true);
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        text,
        "--write restores the evidence's figure"
    );
    assert_eq!(figures_cli(&dir, false).status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_query_that_names_no_known_figure_is_an_error_naming_the_block() {
    let root = repository();
    let lesson = evidence::lessons::LESSONS[0].name();
    let dir = std::env::temp_dir().join(format!("figures-unknown-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root.join("evidence"), dir.join("evidence")).unwrap();
    let doc = format!("x <!-- figure nosuch: {{median(runs(\"{lesson}\", \"h200-cxx\", \"no such figure\"))}} -->1<!-- /figure -->\n");
    std::fs::write(dir.join("doc.md"), doc).unwrap();
    let out = figures_cli(&dir, false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("doc.md:1: block `nosuch`"), "{stderr}");
    assert!(stderr.contains("no such figure"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_list_names_every_block_with_its_query() {
    let root = repository();
    let out = Command::new(env!("CARGO_BIN_EXE_evidence"))
        .args(["figures", "--list", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (relative, _, block) = a_document_with_a_figure(&root);
    let line = format!(
        "{} `{}`: {}",
        relative.display(),
        block.name,
        block.template.replace('\n', " / ")
    );
    assert!(
        stdout.lines().any(|l| l == line),
        "{line} missing from:\n{stdout}"
    );
    assert_eq!(stdout.lines().count(), figures::run(&root, false).blocks);
}

/// A fresh root whose `evidence` is the repository's, and `day09-timing`'s
/// README in it with its first figure planted stale: (root, document,
/// planted text, the README as committed).
fn planted_root() -> (tempfile::TempDir, PathBuf, String, String) {
    let root = repository();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("evidence"), dir.path().join("evidence")).unwrap();
    let relative = Path::new("code/day09-timing/README.md");
    let text = std::fs::read_to_string(root.join(relative)).unwrap();
    let block = blocks(&text).unwrap().into_iter().next().unwrap();
    let planted = format!(
        "{}999{}",
        &text[..block.content.start],
        &text[block.content.end..]
    );
    let doc = dir.path().join(relative);
    std::fs::create_dir_all(doc.parent().unwrap()).unwrap();
    std::fs::write(&doc, &planted).unwrap();
    (dir, doc, planted, text)
}

/// Defect 8: `figures --write` stopped mid-write (here by a file-size limit
/// below the document's size, as in the issue) leaves the document whole:
/// as it was, not its first 16 kB.
#[test]
fn an_interrupted_write_leaves_the_document_whole() {
    use std::os::unix::process::CommandExt;
    let (dir, doc, planted, _) = planted_root();
    assert!(
        planted.len() > 16 * 1024,
        "the document must be larger than the limit"
    );
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence"));
    cmd.args(["figures", "--write", "--root"]).arg(dir.path());
    // SAFETY: setrlimit is async-signal-safe, and only sets this child's limit.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 16 * 1024,
                rlim_max: 16 * 1024,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(!out.status.success(), "the write must have been stopped: {out:?}");
    let now = std::fs::read_to_string(&doc).unwrap();
    assert!(
        now == planted,
        "the document is {} bytes, not the {} it was",
        now.len(),
        planted.len()
    );
}

/// Defect 8: with an error in one document, the other stale documents are
/// rewritten and each rewritten block is named; the document with the error
/// is left as it was and its stale blocks are named as not rewritten.
#[test]
fn write_says_what_it_rewrote_and_what_it_did_not() {
    let (dir, doc, _, committed) = planted_root();
    let broken = dir.path().join("broken.md");
    let broken_text = "a <!-- figure bad: {nosuch(1)} -->1<!-- /figure -->\n\
                       b <!-- figure old: {2 + 2} -->5<!-- /figure -->\n";
    std::fs::write(&broken, broken_text).unwrap();
    let out = figures_cli(dir.path(), true);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let first = blocks(&committed).unwrap().into_iter().next().unwrap();
    assert!(
        stdout.contains(&format!(
            "rewrote code/day09-timing/README.md:{}: block `{}`",
            first.line, first.name
        )),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), committed);
    assert!(stderr.contains("broken.md:1: block `bad`: "), "{stderr}");
    assert!(
        stderr.contains("not rewritten: broken.md:2: block `old`"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
}

/// Defect 9: a query that divides by zero is an error, never `inf` or `NaN`
/// written into a document.
#[test]
fn a_value_that_is_no_number_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let text = "a <!-- figure inf: {1 / 0} -->1<!-- /figure -->\n\
                b <!-- figure nan: {0 / 0 as .2} -->1<!-- /figure -->\n";
    std::fs::write(dir.path().join("doc.md"), text).unwrap();
    let out = figures_cli(dir.path(), true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("doc.md:1: block `inf`: ") && stderr.contains("not a finite number"),
        "{stderr}"
    );
    assert!(stderr.contains("doc.md:2: block `nan`: "), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.path().join("doc.md")).unwrap(), text);
}
