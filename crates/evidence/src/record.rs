//! `evidence record`: run a lesson program (or a checker around it) and write
//! its transcript, `<dir>/<lesson>/<UTC start>-<name>.txt`, with the metadata
//! header, and a JSON twin beside it holding every number. Never overwrites;
//! a run that fails is recorded as failed, with its exit code and output.
//!
//! The transcript is on disk from the start: the header goes first, with
//! `# exit code: unfinished`, and the output follows as it comes, so a
//! recorder that is killed leaves the run so far. When the program ends the
//! header is completed (`# exit code: 3`, or `# exit code: signal 9
//! (SIGKILL)` for a program ended by a signal, and `# ended by: timeout (1 s)`
//! or `# ended by: the recorder's SIGTERM` when the recorder ended it) and the
//! file is replaced by its finished version in one rename.
//!
//! The program runs in a process group of its own, so that a timeout or a
//! signal to the recorder reaches everything it started, not just the first
//! process. Not for: parsing transcripts (`transcript`) or judging runs.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::transcript;

/// What to run and where to put the record.
pub struct Request {
    pub dir: PathBuf,
    pub lesson: String,
    pub name: String,
    /// `VAR=value` assignments that change the program's behaviour.
    pub env: Vec<(String, String)>,
    pub command: Vec<String>,
    /// Ends a program still running after this long (SIGKILL to its group).
    pub timeout: Option<Duration>,
}

/// The value of `--timeout`: seconds, more than zero, fractions allowed.
pub fn parse_timeout(seconds: &str) -> Result<Duration, String> {
    seconds
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("--timeout {seconds:?}: expected a number of seconds above zero"))
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
    // A program built elsewhere (a Rust twin, or a lesson built with another
    // toolkit) names its compiler in EVIDENCE_NVCC; the nvcc here did not
    // build it.
    let nvcc = std::env::var("EVIDENCE_NVCC")
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| {
            stdout_of("nvcc", &["--version"]).and_then(|v| {
                v.lines()
                    .find(|l| l.contains("release"))
                    .map(|l| l.trim().to_string())
            })
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

/// The exit code line of a transcript whose program had not ended when the
/// recorder stopped (a recorder killed outright never gets to replace it).
const UNFINISHED: &str = "unfinished";

/// The header's facts, gathered before the program starts.
struct Header {
    lesson: String,
    start: String,
    gpu: String,
    driver: String,
    runtime: String,
    nvcc: String,
    host: String,
    command: String,
    environment: String,
    commit: String,
}

impl Header {
    fn gather(req: &Request) -> Header {
        let (gpu, driver, nvcc, host) = machine();
        let environment = if req.env.is_empty() {
            "(nothing that changes behaviour)".to_string()
        } else {
            let pairs: Vec<String> = req.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
            pairs.join(" ")
        };
        Header {
            lesson: req.lesson.clone(),
            start: utc_now(),
            gpu,
            driver,
            runtime: std::env::var("EVIDENCE_RUNTIME").unwrap_or_else(|_| "unknown".into()),
            nvcc,
            host,
            command: req.command.join(" "),
            environment,
            commit: std::env::var("EVIDENCE_COMMIT")
                .ok()
                .or_else(|| stdout_of("git", &["rev-parse", "HEAD"]))
                .unwrap_or_else(|| "unknown".into()),
        }
    }

    /// The header's text, through `# ---`, for an ending known or not.
    fn text(&self, exit_code: &str, ended_by: Option<&Stopper>) -> String {
        let ended_by = ended_by.map_or(String::new(), |s| format!("# ended by: {s}\n"));
        format!(
            "# lesson: {}\n# date: {}\n# gpu: {}\n# driver: {}\n# cuda runtime: {}\n# nvcc: {}\n\
             # host: {}\n# command: {}\n# environment: {}\n# commit: {}\n# exit code: {exit_code}\n\
             {ended_by}# ---\n",
            self.lesson,
            self.start,
            self.gpu,
            self.driver,
            self.runtime,
            self.nvcc,
            self.host,
            self.command,
            self.environment,
            self.commit,
        )
    }
}

/// Creates the transcript under the first free name, the start time and the
/// run's name, numbered from 2 if taken. The name is claimed by creating the
/// file exclusively, so two recorders starting together never share one and
/// nothing already there is ever replaced.
fn create_free(dir: &Path, stamp: &str, name: &str) -> io::Result<(PathBuf, File)> {
    let compact: String = stamp.chars().filter(|c| *c != ':').collect();
    for n in 1.. {
        let file = if n == 1 {
            format!("{compact}-{name}.txt")
        } else {
            format!("{compact}-{name}-{n}.txt")
        };
        let path = dir.join(file);
        match File::options().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("the numbering is unbounded")
}

/// Who ended the program, when it did not end by itself.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stopper {
    Timeout(Duration),
    /// The recorder was sent this signal and passed it on.
    Recorder(i32),
}

impl std::fmt::Display for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopper::Timeout(d) => write!(f, "timeout ({} s)", d.as_secs_f64()),
            Stopper::Recorder(sig) => write!(f, "the recorder's {}", signal_name(*sig)),
        }
    }
}

/// The name of a signal the way `kill -l` spells it, with the SIG prefix.
fn signal_name(sig: i32) -> String {
    let known = [
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGTRAP, "SIGTRAP"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGPIPE, "SIGPIPE"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGXCPU, "SIGXCPU"),
        (libc::SIGXFSZ, "SIGXFSZ"),
    ];
    known
        .iter()
        .find(|(n, _)| *n == sig)
        .map_or_else(|| format!("SIG{sig}"), |(_, name)| name.to_string())
}

/// The exit code line's value for how the program ended.
fn exit_code_text(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => code.to_string(),
        (None, Some(sig)) => format!("signal {sig} ({})", signal_name(sig)),
        (None, None) => UNFINISHED.to_string(),
    }
}

/// The recorded program's process group, which the timeout and the
/// recorder's signals end. Signals go only while its leader is unreaped, so
/// its id cannot have been given to another process.
struct Group {
    pgid: i32,
    reaped: Mutex<bool>,
    stopper: Mutex<Option<Stopper>>,
}

impl Group {
    /// Sends `signal` to the group unless it has been reaped; the first
    /// stopper to send one is the one the transcript names.
    fn stop(&self, why: Option<Stopper>, signal: i32) {
        let reaped = self.reaped.lock().unwrap_or_else(PoisonError::into_inner);
        if *reaped {
            return;
        }
        // SAFETY: kill(2) touches no memory of ours; a negative pid names the
        // group, whose leader is unreaped while `reaped` is held false.
        unsafe { libc::kill(-self.pgid, signal) };
        let mut stopper = self.stopper.lock().unwrap_or_else(PoisonError::into_inner);
        if stopper.is_none() {
            *stopper = why;
        }
    }

    /// Waits for the leader to end, marks the group closed, then reaps it.
    fn wait(&self, child: &mut Child) -> io::Result<ExitStatus> {
        wait_unreaped(child.id())?;
        *self.reaped.lock().unwrap_or_else(PoisonError::into_inner) = true;
        child.wait()
    }
}

/// Blocks until process `pid` has ended, leaving it unreaped (`WNOWAIT`).
fn wait_unreaped(pid: u32) -> io::Result<()> {
    loop {
        // SAFETY: an all-zero siginfo_t is a valid value for waitid to fill.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable siginfo_t for the whole call.
        let rc = unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if rc == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// How a recorded program ended.
struct Ending {
    exit_code: String,
    stopper: Option<Stopper>,
}

/// The signals that ask the recorder to stop: passed on to the program,
/// whose ending is then recorded as usual.
const STOP_SIGNALS: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The stop signals the recorder was not started ignoring: a shell starts
/// background jobs with SIGINT ignored, and a recorder must not undo that.
fn stop_signals() -> Vec<i32> {
    STOP_SIGNALS.into_iter().filter(|sig| !ignored(*sig)).collect()
}

fn ignored(sig: i32) -> bool {
    // SAFETY: an all-zero sigaction is a valid value for sigaction to fill.
    let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: a null new action only reads the current one into `current`.
    let rc = unsafe { libc::sigaction(sig, std::ptr::null(), &mut current) };
    rc == 0 && current.sa_sigaction == libc::SIG_IGN
}

/// Runs the program with stdout and stderr into one pipe, so the transcript
/// keeps their order, and appends what it prints to `file` as it comes. A
/// program that cannot start is recorded as exit code 127, as a shell would.
fn run_into(req: &Request, file: &mut File) -> Result<Ending, String> {
    let (program, args) = req.command.split_first().ok_or("no command to record")?;
    let (reader, writer) = io::pipe().map_err(|e| format!("pipe: {e}"))?;
    let writer2 = writer.try_clone().map_err(|e| format!("pipe: {e}"))?;
    let mut cmd = Command::new(program);
    cmd.args(args).stdout(writer).stderr(writer2).stdin(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.envs(req.env.iter().map(|(k, v)| (k, v)));
    // Caught before the program starts, so none is lost in between.
    let signals = signal_hook::iterator::Signals::new(stop_signals())
        .map_err(|e| format!("catching SIGINT, SIGTERM and SIGHUP: {e}"))?;
    let spawned = cmd.spawn();
    drop(cmd); // Close our copies of the pipe's writing end.
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let note = format!("could not start {program}: {e}\n");
            file.write_all(note.as_bytes())
                .map_err(|e| format!("writing the transcript: {e}"))?;
            return Ok(Ending {
                exit_code: "127".into(),
                stopper: None,
            });
        }
    };
    let (status, stopper) = supervise(&mut child, reader, file, signals, req.timeout)?;
    let status = status.map_err(|e| format!("waiting for {program}: {e}"))?;
    Ok(Ending {
        exit_code: exit_code_text(status),
        stopper,
    })
}

/// Copies the program's output into `file` until the pipe closes, with the
/// recorder's stop signals passed on and the timeout watched meanwhile, then
/// waits for the program. A failed copy ends the program.
fn supervise(
    child: &mut Child,
    mut reader: io::PipeReader,
    file: &mut File,
    mut signals: signal_hook::iterator::Signals,
    timeout: Option<Duration>,
) -> Result<(io::Result<ExitStatus>, Option<Stopper>), String> {
    let group = Arc::new(Group {
        pgid: child.id() as i32,
        reaped: Mutex::new(false),
        stopper: Mutex::new(None),
    });
    let signal_handle = signals.handle();
    let forwarder = {
        let group = Arc::clone(&group);
        std::thread::spawn(move || {
            for sig in signals.forever() {
                group.stop(Some(Stopper::Recorder(sig)), sig);
            }
        })
    };
    let (done, watched) = mpsc::channel::<()>();
    let watchdog = timeout.map(|limit| {
        let group = Arc::clone(&group);
        std::thread::spawn(move || {
            // A sleep that the program's end cuts short, not a clock reading.
            if watched.recv_timeout(limit) == Err(mpsc::RecvTimeoutError::Timeout) {
                group.stop(Some(Stopper::Timeout(limit)), libc::SIGKILL);
            }
        })
    });
    let copied = io::copy(&mut reader, file);
    if copied.is_err() {
        group.stop(None, libc::SIGKILL);
    }
    let status = group.wait(child);
    drop(done);
    signal_handle.close();
    for thread in std::iter::once(forwarder).chain(watchdog) {
        thread
            .join()
            .map_err(|_| "a recorder thread panicked".to_string())?;
    }
    copied.map_err(|e| format!("writing the transcript: {e}"))?;
    let stopper = *group.stopper.lock().unwrap_or_else(PoisonError::into_inner);
    Ok((status, stopper))
}

/// Replaces the transcript by its finished version: the header completed,
/// the output as recorded (invalid UTF-8 replaced, as a transcript is text).
/// Written beside it and renamed over it, so no reader sees a half-written one.
fn finish(path: &Path, header_len: usize, header: &str) -> Result<String, String> {
    let shown = |e: io::Error, p: &Path| format!("{}: {e}", p.display());
    let bytes = std::fs::read(path).map_err(|e| shown(e, path))?;
    let output = String::from_utf8_lossy(bytes.get(header_len..).unwrap_or_default());
    let text = format!("{header}{output}");
    let finishing = path.with_extension("txt.finishing");
    std::fs::write(&finishing, &text).map_err(|e| shown(e, &finishing))?;
    std::fs::rename(&finishing, path).map_err(|e| shown(e, path))?;
    Ok(text)
}

/// Runs the request and writes the transcript and its twin; returns the
/// transcript's path. Errors are about recording, not about the program,
/// except that a recorder stopped by a signal says so, and where the
/// transcript is, as an error once the transcript is finished.
pub fn record(req: &Request) -> Result<PathBuf, String> {
    if req.command.is_empty() {
        return Err("no command to record".into());
    }
    let dir = req.dir.join(&req.lesson);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let header = Header::gather(req);
    let (path, mut file) =
        create_free(&dir, &header.start, &req.name).map_err(|e| format!("{}: {e}", dir.display()))?;
    let opening = header.text(UNFINISHED, None);
    file.write_all(opening.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let ending = run_into(req, &mut file).map_err(|e| format!("{}: {e}", path.display()))?;
    drop(file);
    let text = finish(
        &path,
        opening.len(),
        &header.text(&ending.exit_code, ending.stopper.as_ref()),
    )?;
    write_twin(&path, &text)?;
    match ending.stopper {
        Some(Stopper::Recorder(sig)) => Err(format!(
            "recording stopped by {}, which was passed on to the program; its transcript is {}",
            signal_name(sig),
            path.display()
        )),
        _ => Ok(path),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_is_never_replaced_and_the_next_number_is_used() {
        let dir = std::env::temp_dir().join(format!("evidence-free-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("2026-01-02T030405Z-run.txt"), "kept").unwrap();
        let (second, _) = create_free(&dir, "2026-01-02T03:04:05Z", "run").unwrap();
        let (third, _) = create_free(&dir, "2026-01-02T03:04:05Z", "run").unwrap();
        assert_eq!(second, dir.join("2026-01-02T030405Z-run-2.txt"));
        assert_eq!(third, dir.join("2026-01-02T030405Z-run-3.txt"));
        let kept = std::fs::read_to_string(dir.join("2026-01-02T030405Z-run.txt")).unwrap();
        assert_eq!(kept, "kept");
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_timeout("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-2", "x", "", "inf", "NaN"] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn endings_name_the_signal_and_who_sent_it() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(exit_code_text(ExitStatus::from_raw(3 << 8)), "3");
        assert_eq!(exit_code_text(ExitStatus::from_raw(9)), "signal 9 (SIGKILL)");
        assert_eq!(
            Stopper::Timeout(Duration::from_millis(1500)).to_string(),
            "timeout (1.5 s)"
        );
        assert_eq!(
            Stopper::Recorder(libc::SIGINT).to_string(),
            "the recorder's SIGINT"
        );
    }
}
