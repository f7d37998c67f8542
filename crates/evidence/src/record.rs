//! `evidence record`: run a lesson program (or a checker around it) and write
//! its transcript, `<dir>/<lesson>/<UTC start>-<name>.txt`, with the metadata
//! header, and a JSON twin beside it holding every number. Never overwrites;
//! a run that fails is recorded as failed, with its exit code and output.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::transcript;

/// What to run and where to put the record.
pub struct Request {
    pub dir: PathBuf,
    pub lesson: String,
    pub name: String,
    /// `VAR=value` assignments that change the program's behaviour.
    pub env: Vec<(String, String)>,
    pub command: Vec<String>,
}

fn stdout_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The header's machine facts, read the way a person would read them.
fn machine() -> (String, String, String, String) {
    let gpu = stdout_of(
        "nvidia-smi",
        &[
            "--query-gpu=name,compute_cap,driver_version",
            "--format=csv,noheader",
            "-i",
            "0",
        ],
    )
    .unwrap_or_default();
    let mut parts = gpu.split(',').map(str::trim);
    let (name, cc, driver) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let cuda = stdout_of("nvidia-smi", &[])
        .and_then(|s| {
            s.split("CUDA Version:")
                .nth(1)
                .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let gpu_line = if name.is_empty() {
        "none found (nvidia-smi did not answer)".to_string()
    } else {
        format!("{name} (compute capability {cc})")
    };
    let driver_line = format!(
        "{} (CUDA {cuda})",
        if driver.is_empty() { "unknown" } else { &driver }
    );
    let nvcc = stdout_of("nvcc", &["--version"])
        .and_then(|v| {
            v.lines()
                .find(|l| l.contains("release"))
                .map(|l| l.trim().to_string())
        })
        .unwrap_or_else(|| "not found".into());
    let host = format!(
        "{}, {} cores",
        stdout_of("uname", &["-srm"]).unwrap_or_default(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    (gpu_line, driver_line, nvcc, host)
}

fn utc_now() -> String {
    // The date for the header, from date(1): this crate reads no clock itself.
    stdout_of("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]).unwrap_or_else(|| "unknown".into())
}

/// A free file name: the start time and the run's name, numbered if taken.
fn free_path(dir: &Path, stamp: &str, name: &str) -> PathBuf {
    let compact: String = stamp.chars().filter(|c| *c != ':').collect();
    let mut path = dir.join(format!("{compact}-{name}.txt"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{compact}-{name}-{n}.txt"));
        n += 1;
    }
    path
}

/// Runs the request and writes the transcript and its twin; returns the
/// transcript's path. Errors are about recording, not about the program.
pub fn record(req: &Request) -> Result<PathBuf, String> {
    let (program, args) = req.command.split_first().ok_or("no command to record")?;
    let dir = req.dir.join(&req.lesson);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (gpu, driver, nvcc, host) = machine();
    let start = utc_now();
    let path = free_path(&dir, &start, &req.name);

    // stdout and stderr into one pipe, so the transcript keeps their order.
    let (mut reader, writer) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
    let writer2 = writer.try_clone().map_err(|e| format!("pipe: {e}"))?;
    let mut cmd = Command::new(program);
    cmd.args(args).stdout(writer).stderr(writer2).stdin(Stdio::null());
    for (k, v) in &req.env {
        cmd.env(k, v);
    }
    let (output, code) = match cmd.spawn() {
        Ok(mut child) => {
            drop(cmd); // Close our copies of the pipe's writing end.
            let mut output = Vec::new();
            let _ = reader.read_to_end(&mut output);
            let status = child.wait().map_err(|e| format!("waiting for {program}: {e}"))?;
            (
                String::from_utf8_lossy(&output).into_owned(),
                status.code().unwrap_or(-1),
            )
        }
        Err(e) => (format!("could not start {program}: {e}\n"), 127),
    };

    let env_text = if req.env.is_empty() {
        "(nothing that changes behaviour)".to_string()
    } else {
        req.env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let commit = std::env::var("EVIDENCE_COMMIT")
        .ok()
        .or_else(|| stdout_of("git", &["rev-parse", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    let runtime = std::env::var("EVIDENCE_RUNTIME").unwrap_or_else(|_| "unknown".into());
    let text = format!(
        "# lesson: {}\n# date: {start}\n# gpu: {gpu}\n# driver: {driver}\n# cuda runtime: {runtime}\n\
         # nvcc: {nvcc}\n# host: {host}\n# command: {}\n# environment: {env_text}\n# commit: {commit}\n\
         # exit code: {code}\n# ---\n{output}",
        req.lesson,
        req.command.join(" "),
    );
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    write_twin(&path, &text)?;
    Ok(path)
}

/// Writes `<transcript>.json`: the parsed transcript, or, for output this
/// tool cannot parse, the error beside the header it could read.
pub fn write_twin(path: &Path, text: &str) -> Result<PathBuf, String> {
    let file = path.display().to_string();
    let json = match transcript::parse(&file, text) {
        Ok(t) => serde_json::to_string_pretty(&t),
        Err(e) => {
            serde_json::to_string_pretty(&serde_json::json!({ "file": file, "parse_error": e.to_string() }))
        }
    }
    .map_err(|e| format!("{file}: {e}"))?;
    let twin = path.with_extension("json");
    std::fs::write(&twin, json + "\n").map_err(|e| format!("{}: {e}", twin.display()))?;
    Ok(twin)
}
