//! Figure blocks against the committed evidence: every block in the
//! repository is what the evidence gives, and a stale one fails the check by
//! its name, with the command that rewrites it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evidence_figures::blocks::{self as figures, blocks, WRITE_COMMAND};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
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
    let outcome = figures::run(&repository(), &repository().join("evidence"), false);
    assert!(outcome.errors.is_empty(), "{:#?}", outcome.errors);
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
    let lesson = lessons::LESSONS[0].name();
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
    assert_eq!(
        stdout.lines().count(),
        figures::run(&root, &root.join("evidence"), false).blocks
    );
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

/// A diagnostics transcript, as `evidence record` writes one, at
/// `root/evidence/diagnostics/<date>-<name>.txt`.
fn diagnostic(root: &Path, date: &str, name: &str, exit_code: i32, body: &str) {
    let folder = root.join("evidence/diagnostics");
    std::fs::create_dir_all(&folder).unwrap();
    let text = format!(
        "# lesson: diagnostics\n# date: {date}\n# gpu: NVIDIA H200 (compute capability 9.0)\n\
         # driver: 580.159.04 (CUDA 13.0)\n# cuda runtime: unknown\n# nvcc: release 13.0, V13.0.88\n\
         # host: Linux x86_64, 16 cores\n# command: /tmp/pageable-rotated 2\n\
         # environment: (nothing that changes behaviour)\n\
         # commit: 0123456789abcdef0123456789abcdef01234567\n# exit code: {exit_code}\n# ---\n\
         GPU: NVIDIA H200 (compute capability 9.0)\n{body}"
    );
    let file = folder.join(format!("{}-{name}.txt", date.replace(':', "")));
    std::fs::write(&file, &text).unwrap();
    evidence_model::twin::write(&file, &text).unwrap();
}

/// Two successful `pageable-rotated` runs (one of two passes, one of one)
/// and a failed one, whose numbers must count nowhere.
fn rotated_evidence() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let pass = |one: &str, rotated: &str| {
        format!("16 MiB pageable one buffer, GB/s: {one}\n16 MiB pageable rotated, GB/s: {rotated}\n")
    };
    let two_passes = format!(
        "\npass 1\n{}\npass 2\n{}",
        pass("10.00", "5.00"),
        pass("12.00", "3.00")
    );
    diagnostic(
        root.path(),
        "2020-01-02T03:04:05Z",
        "h200-pageable-rotated",
        0,
        &two_passes,
    );
    let one_pass = format!("\npass 1\n{}", pass("20.00", "4.00"));
    diagnostic(
        root.path(),
        "2020-01-02T04:00:00Z",
        "h200-pageable-rotated",
        0,
        &one_pass,
    );
    let failed = format!("\npass 1\n{}copy wrong\n", pass("1.00", "999.00"));
    diagnostic(
        root.path(),
        "2020-01-02T05:00:00Z",
        "h200-pageable-rotated",
        1,
        &failed,
    );
    // Another group's run, which a query of this group does not read.
    diagnostic(
        root.path(),
        "2020-01-02T06:00:00Z",
        "h200-round-trip-pinned",
        0,
        "row 5 pinned, ms: 3.712\n",
    );
    root
}

/// `lines()` reads each successful diagnostics run's `LABEL: NUMBER` lines
/// of the group: medians and counts over every line of every such run, the
/// failed run skipped, and two labels of one run paired line by line.
#[test]
fn lines_reads_the_labelled_numbers_of_successful_diagnostics_runs() {
    let root = rotated_evidence();
    let ev = figures::Evidence::new(&root.path().join("evidence"));
    let rotated = r#"lines("h200-pageable-rotated", "16 MiB pageable rotated, GB/s")"#;
    let one = r#"lines("h200-pageable-rotated", "16 MiB pageable one buffer, GB/s")"#;
    let doc = format!(
        "a <!-- figure median: {{median({rotated}) as .2}} -->x<!-- /figure -->\n\
         b <!-- figure count: {{count({rotated})}} -->x<!-- /figure -->\n\
         c <!-- figure ratio: {{sum({rotated} / {one}) as .2}} over {{count({rotated} / {one})}} -->x<!-- /figure -->\n\
         d <!-- figure range: {{range({one}) as .0}} -->x<!-- /figure -->\n\
         e <!-- figure pinned: {{median(lines(\"h200-round-trip-pinned\", \"row 5 pinned, ms\")) as .3}} -->x<!-- /figure -->\n"
    );
    let found = figures::regenerate(&ev, &doc).unwrap();
    assert!(found.errors.is_empty(), "{:#?}", found.errors);
    let values: Vec<&str> = found
        .text
        .lines()
        .map(|l| l.split("-->").nth(1).unwrap().split("<!--").next().unwrap())
        .collect();
    // Rotated: 5, 3 and 4 (the failed run's 999 skipped): median 4 of 3.
    // Paired line by line: 5/10 + 3/12 + 4/20 = 0.95 over 3; paired by file
    // alone it would not be.
    assert_eq!(values, ["4.00", "3", "0.95 over 3", "10 to 20", "3.712"]);
}

/// A label no run of the group prints, or one followed by no number, is an
/// error naming the block; so is a group with no successful run.
#[test]
fn lines_of_a_label_not_found_is_an_error_naming_the_block() {
    let root = rotated_evidence();
    let ev = figures::Evidence::new(&root.path().join("evidence"));
    let doc = "a <!-- figure missing: {count(lines(\"h200-pageable-rotated\", \"32 MiB pinned rotated, GB/s\"))} -->1<!-- /figure -->\n\
               b <!-- figure text: {count(lines(\"h200-pageable-rotated\", \"GPU\"))} -->1<!-- /figure -->\n\
               c <!-- figure nogroup: {count(lines(\"h100-pageable-rotated\", \"16 MiB pageable rotated, GB/s\"))} -->1<!-- /figure -->\n\
               d <!-- figure prefix: {count(lines(\"h200-pageable-rotated\", \"16 MiB pageable rotated\"))} -->1<!-- /figure -->\n";
    let found = figures::regenerate(&ev, doc).unwrap();
    let errors: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(
        errors[0].starts_with("1: block `missing`: ")
            && errors[0].contains("no line `32 MiB pinned rotated, GB/s: NUMBER`"),
        "{errors:#?}"
    );
    assert!(
        errors[1].starts_with("2: block `text`: ") && errors[1].contains("not a finite number"),
        "{errors:#?}"
    );
    assert!(
        errors[2].starts_with("3: block `nogroup`: ") && errors[2].contains("no successful diagnostics runs"),
        "{errors:#?}"
    );
    // The label is matched whole: a prefix of it is not a label.
    assert!(
        errors[3].starts_with("4: block `prefix`: ") && errors[3].contains("no line"),
        "{errors:#?}"
    );
}
