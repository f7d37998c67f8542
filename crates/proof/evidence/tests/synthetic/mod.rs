//! Synthetic sessions for the tests that need the evidence of months
//! (tests/year.rs): the committed H200 session at 3819bed,
//! every second run of it, re-dated, its GPU renamed and its numbers
//! nudged so that no run is a copy of another. Only ever written into a
//! temporary folder.

use std::path::Path;

use evidence::transcript;

use crate::support::repository;

/// The committed session every synthetic one is made from.
const TEMPLATE_COMMIT: &str = "3819bed";

/// A template run: its folder, its name after the date, its text, and how
/// many seconds after the session's start it began.
pub struct Template {
    folder: String,
    run: String,
    text: String,
    offset: i64,
}

pub fn templates() -> Vec<Template> {
    let loaded = evidence::load::load(&repository().join("evidence")).unwrap();
    let all = evidence::sessions::of(&loaded.transcripts);
    let session = all
        .iter()
        .find(|s| s.short_commit() == TEMPLATE_COMMIT)
        .expect("the committed evidence holds the template session");
    let start = transcript::date(&session.start).unwrap();
    session
        .runs
        .iter()
        .step_by(2)
        .map(|t| {
            let path = Path::new(&t.file);
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            Template {
                folder: t.header.lesson.clone(),
                run: name["2026-12-01T225221Z-".len()..].to_string(),
                text: std::fs::read_to_string(path).unwrap(),
                offset: (transcript::date(&t.header.date).unwrap() - start).whole_seconds(),
            }
        })
        .collect()
}

/// `d` as a header's `# date:` writes it.
fn header_date(d: time::PrimitiveDateTime) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        d.year(),
        u8::from(d.month()),
        d.day(),
        d.hour(),
        d.minute(),
        d.second()
    )
}

/// `body` with the last digit of its first three numbers that have three
/// or more decimals moved on by the digits of `id` (units, tens,
/// hundreds): a different body for every id from 1 to 999.
fn nudged(body: &str, id: usize) -> String {
    let bytes = body.as_bytes();
    let mut lasts = Vec::new();
    let mut i = 0;
    while i < bytes.len() && lasts.len() < 3 {
        if bytes[i] == b'.' && i > 0 && bytes[i - 1].is_ascii_digit() {
            let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits >= 3 {
                lasts.push(i + digits);
            }
            i += digits + 1;
        } else {
            i += 1;
        }
    }
    let mut out = bytes.to_vec();
    for (n, &at) in lasts.iter().enumerate() {
        let step = (id / 10usize.pow(n as u32)) % 10;
        out[at] = b'0' + (out[at] - b'0' + step as u8) % 10;
    }
    String::from_utf8(out).unwrap()
}

/// Writes one synthetic session into `into`: the templates as recorded on
/// `gpu` from `start`, at `commit`; each kept gzip'd as `evidence merge`
/// keeps a run it adds (`merged`, into an evidence folder), or as the
/// recorder leaves it (into a session's folder). The transcripts' bytes,
/// as text.
pub fn write_session(
    into: &Path,
    templates: &[Template],
    gpu: (&str, &str),
    start: time::PrimitiveDateTime,
    commit: &str,
    id: usize,
    merged: bool,
) -> u64 {
    let mut bytes = 0;
    for t in templates {
        let date = header_date(start + time::Duration::seconds(t.offset));
        let (head, body) = t.text.split_once("\n# ---\n").unwrap();
        let head: String = head
            .lines()
            .map(|l| match l.split_once(": ") {
                Some(("# date", _)) => format!("# date: {date}"),
                Some(("# commit", _)) => format!("# commit: {commit}"),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let text = format!("{head}\n# ---\n{}", nudged(body, id)).replace("NVIDIA H200", gpu.0);
        let run = t.run.replacen("h200", gpu.1, 1);
        let path = into
            .join(&t.folder)
            .join(format!("{}-{run}.txt", date.replace(':', "")));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        bytes += text.len() as u64;
        if merged {
            let gz = evidence::capped::gzipped(&path);
            std::fs::write(gz, evidence::capped::gzip(text.as_bytes())).unwrap();
        } else {
            std::fs::write(&path, &text).unwrap();
        }
    }
    bytes
}

pub fn copy_tree(from: &Path, to: &Path) {
    for file in files_under(from) {
        let dest = to.join(file.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&file, &dest).unwrap();
    }
}

/// Every file under `dir`, at any depth, in no particular order.
pub fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}
