//! `evidence record`: run a program and write its transcript. The header
//! is gathered and checked before anything runs (a line break in a value
//! would forge header lines of its own); the transcript appears with
//! `# exit code: unfinished`, the output follows as it comes, and the
//! header is completed in one rename when the program ends.
//!
//! The supervision is coreutils' `timeout --kill-after=GRACE 0 COMMAND` as
//! the leader of a process group of its own: a stop signal passed to it
//! reaches everything the program started, SIGKILL following after GRACE,
//! and it gets SIGTERM if the recorder itself is killed. The recorder waits
//! on the output pipe and one signalfd (the program's end, its own stop
//! signals, the `--timeout` alarm); the alarm and the output cap SIGKILL
//! the group, and the program's end kills what it left running there.
//!
//! Not for: parsing transcripts (`evidence::transcript`) or judging runs.

use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind, Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::time::Duration;

use anyhow::{bail, Context};
use cli_exit::OwnMessage;
use evidence::{atomic, capped, transcript};
use libc::{SIGKILL, SIGTERM};

/// Run COMMAND and write EVIDENCE/LESSON/<UTC start>-NAME.txt (header,
/// then the output as it comes); print the transcript's path.
///
/// Exit status: the program's, as a shell gives it (128+N for a program
/// ended by signal N, 127 for one that could not start); 124 when
/// --timeout ended it, as timeout(1) says; 128+N when the recorder was
/// stopped by signal N (passed on to the program, the transcript
/// finished, one line naming it); 1, with one line, when the transcript
/// could not be written or finished (the line says how the program
/// ended), or, with nothing run, when a header value would hold a control
/// character (EVIDENCE_RUNTIME, EVIDENCE_NVCC) or no commit `check` takes;
/// 2 for a bad command line.
#[derive(clap::Args)]
pub struct Record {
    /// A lesson (`evidence lessons`) or one of the other evidence folders.
    #[arg(long, value_parser = OwnMessage(lesson_folder))]
    lesson: String,
    /// The run's name, one word: the transcript is <UTC start>-NAME.txt.
    #[arg(long, value_parser = OwnMessage(run_name))]
    name: String,
    /// End a program still running after SECONDS (SIGKILL to everything
    /// it started), and record that.
    #[arg(long, value_name = "SECONDS", value_parser = OwnMessage(seconds))]
    timeout: Option<Duration>,
    /// After passing SIGINT, SIGTERM or SIGHUP on to the program, end it
    /// with SIGKILL if it is still running SECONDS later.
    #[arg(long, value_name = "SECONDS", value_parser = OwnMessage(seconds), default_value = "5")]
    grace: Duration,
    /// VAR=value assignments the command runs with, then `--` and the command.
    #[arg(value_name = "VAR=value", value_parser = OwnMessage(env_assignment))]
    env: Vec<(String, String)>,
    #[arg(last = true, required = true, value_name = "COMMAND", value_parser = OwnMessage(header_word))]
    command: Vec<String>,
}

impl Record {
    /// Records into `evidence`, prints the transcript's path, and passes
    /// the program's exit status on.
    pub fn run(self, evidence: &Path) -> anyhow::Result<ExitCode> {
        let (path, ending, replaced) = record(&self, evidence)?;
        let path = path.display();
        if let Some(Stopper::Recorder(sig, _)) = ending.stopper {
            let name = signal_name(sig);
            eprintln!("error: recording stopped by {name}, which was passed on to the program; its transcript is {path}");
            return Ok(ExitCode::from((128 + sig) as u8));
        }
        if replaced > 0 {
            eprintln!("note: the program printed {replaced} invalid UTF-8 sequence(s); {path} holds U+FFFD in their place");
        }
        println!("{path}");
        Ok(ExitCode::from(ending.exit_status()))
    }
}

/// `--lesson`: an evidence folder, so a transcript lands where `check` looks.
fn lesson_folder(name: &str) -> Result<String, lessons::UnknownFolder> {
    lessons::folder(name).map(str::to_string)
}

/// `--name`: a [run name](transcript::is_run_name).
fn run_name(name: &str) -> Result<String, String> {
    match transcript::is_run_name(name) {
        true => Ok(name.to_string()),
        false => Err(format!(
            "{name:?} is not a run name: one word of at most {} letters, digits, '.', '_', '+' and '-', \
             starting with a letter or digit",
            transcript::MAX_RUN_NAME
        )),
    }
}

/// A word of the command or the environment: anything a header line can
/// hold, which is anything without a control character.
fn header_word(word: &str) -> Result<String, String> {
    match word.contains(char::is_control) {
        false => Ok(word.to_string()),
        true => Err(format!(
            "{word:?} holds a line break or another control character, which a header cannot record"
        )),
    }
}

/// A `VAR=value` assignment: a [header word](header_word) whose name is
/// not empty and is no flag.
fn env_assignment(word: &str) -> Result<(String, String), String> {
    let word = header_word(word)?;
    match word.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.starts_with('-') => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("`{word}` is not VAR=value (put -- before the command)")),
    }
}

/// A number of seconds above zero, fractions allowed.
fn seconds(text: &str) -> Result<Duration, String> {
    let seconds = text.parse::<f64>().ok().filter(|s| *s > 0.0);
    seconds
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("{text:?}: expected a number of seconds above zero"))
}

/// What `program` printed, trimmed, if it succeeded.
fn stdout_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    out.status.success().then_some(text)
}

/// An `EVIDENCE_*` variable's value, if set and not blank.
fn given(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|v| !v.trim().is_empty())
}

/// The word after `key` in `text`.
fn word_after(text: &str, key: &str) -> Option<String> {
    Some(text.split(key).nth(1)?.split_whitespace().next()?.to_string())
}

/// The header's fields, `(key, value, where the value came from)` in the
/// header's order.
type Fields = Vec<(&'static str, String, &'static str)>;

const GPU_QUERY: &[&str] = &[
    "--query-gpu=name,compute_cap,driver_version",
    "--format=csv,noheader",
    "-i",
    "0",
];

/// The header's fields, gathered and checked before the program starts.
fn gather(req: &Record) -> anyhow::Result<Fields> {
    let smi = stdout_of("nvidia-smi", GPU_QUERY).unwrap_or_default();
    let facts: Vec<&str> = smi.split(',').map(str::trim).chain(["", "", ""]).collect();
    let cuda = stdout_of("nvidia-smi", &[]).and_then(|s| word_after(&s, "CUDA Version:"));
    let gpu = match facts[0] {
        "" => "none found (nvidia-smi did not answer)".to_string(),
        name => format!("{name} (compute capability {})", facts[1]),
    };
    let driver = if facts[2].is_empty() { "unknown" } else { facts[2] };
    let driver = format!("{driver} (CUDA {})", cuda.as_deref().unwrap_or("unknown"));
    // A program built elsewhere (a Rust twin, or a lesson built with
    // another toolkit) names its compiler in EVIDENCE_NVCC.
    let nvcc = match given("EVIDENCE_NVCC") {
        Some(v) => (v, "EVIDENCE_NVCC"),
        None => {
            let banner = stdout_of("nvcc", &["--version"]).unwrap_or_default();
            let release = banner.lines().find(|l| l.contains("release")).map(str::trim);
            (release.unwrap_or("not found").to_string(), "`nvcc --version`")
        }
    };
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let host = format!(
        "{}, {cores} cores",
        stdout_of("uname", &["-srm"]).unwrap_or_default()
    );
    let pairs = req.env.iter().map(|(k, v)| Ok(format!("{k}={}", env_value(v)?)));
    let environment = match req.env.is_empty() {
        true => "(nothing that changes behaviour)".to_string(),
        false => pairs.collect::<anyhow::Result<Vec<_>>>()?.join(" "),
    };
    let Some(start) = transcript::utc_now() else {
        bail!("nothing recorded: cannot tell the date (`date -u` did not answer), and a transcript is dated")
    };
    let fields = vec![
        ("lesson", req.lesson.clone(), "--lesson"),
        ("date", start, "`date -u`"),
        ("gpu", gpu, "nvidia-smi"),
        ("driver", driver, "nvidia-smi"),
        (
            "cuda runtime",
            given("EVIDENCE_RUNTIME").unwrap_or("unknown".into()),
            "EVIDENCE_RUNTIME",
        ),
        ("nvcc", nvcc.0, nvcc.1),
        ("host", host, "uname"),
        (
            "command",
            shell_words(req.command.iter().map(String::as_str))?,
            "the command",
        ),
        ("environment", environment, "the VAR=value words"),
        commit()?,
    ];
    // A line break would forge header lines (`# exit code: 0` above the
    // real one); a tab makes a header `check` refuses.
    if let Some((key, value, from)) = fields.iter().find(|(_, v, _)| v.contains(char::is_control)) {
        bail!(
            "nothing recorded: `# {key}:` would be {value:?} (from {from}), which holds a line break or \
             another control character; a header line holds none"
        );
    }
    Ok(fields)
}

/// The header's text, through `# ---`, for an ending known or not.
fn header(fields: &Fields, exit_code: &str, ended_by: Option<&str>) -> String {
    let mut text: String = fields.iter().map(|(k, v, _)| format!("# {k}: {v}\n")).collect();
    text += &format!("# exit code: {exit_code}\n");
    if let Some(by) = ended_by {
        text += &format!("# ended by: {by}\n");
    }
    text + "# ---\n"
}

/// Words joined so that a POSIX shell reads them back as they were.
fn shell_words<'a>(words: impl IntoIterator<Item = &'a str>) -> anyhow::Result<String> {
    shlex::try_join(words).context("quoting the command")
}

/// An environment value as `# environment:` writes it: as it is when it is
/// one plain word (as readers match it with `has_env`), shell-quoted
/// otherwise, so the line still splits into its assignments.
fn env_value(value: &str) -> anyhow::Result<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    match !value.is_empty() && value.chars().all(plain) {
        true => Ok(value.to_string()),
        false => shell_words([value]),
    }
}

/// The `commit` field: EVIDENCE_COMMIT, or the checkout's HEAD; one
/// `check` would refuse stops the recording.
fn commit() -> anyhow::Result<(&'static str, String, &'static str)> {
    let (commit, from) = match std::env::var("EVIDENCE_COMMIT") {
        Ok(commit) => (commit, "EVIDENCE_COMMIT"),
        Err(_) => match stdout_of("git", &["rev-parse", "HEAD"]) {
            Some(head) => (head, "`git rev-parse HEAD`"),
            None => bail!(
                "nothing recorded: no commit to record: EVIDENCE_COMMIT is not set and `git rev-parse HEAD` \
                 did not answer; set EVIDENCE_COMMIT to the commit the program was built from"
            ),
        },
    };
    if let Err(e) = transcript::check_commit(&commit) {
        bail!("nothing recorded: {from}: {e}");
    }
    Ok(("commit", commit, from))
}

/// Creates the transcript, holding `opening`, under the first free name:
/// the start time and the run's name, numbered from 2 if taken. Each is
/// written whole before it takes the name, so no reader sees half a header.
fn create_free(dir: &Path, stamp: &str, name: &str, opening: &str) -> io::Result<(PathBuf, File)> {
    let compact: String = stamp.chars().filter(|c| *c != ':').collect();
    for n in 1.. {
        let path = match n {
            1 => dir.join(format!("{compact}-{name}.txt")),
            n => dir.join(format!("{compact}-{name}-{n}.txt")),
        };
        match atomic::write_new(&path, opening) {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            done => {
                let file = done.and_then(|()| OpenOptions::new().read(true).append(true).open(&path));
                return file.map(|f| (path, f));
            }
        }
    }
    unreachable!("the numbering is unbounded")
}

/// Runs the command and writes its transcript: its path, how the program
/// ended and how many invalid UTF-8 sequences became U+FFFD. The program's
/// own failure is recorded, not an error.
fn record(req: &Record, evidence: &Path) -> anyhow::Result<(PathBuf, Ending, usize)> {
    // The header first: one that cannot be written leaves no trace.
    let fields = gather(req)?;
    let dir = evidence.join(&req.lesson);
    let opening = header(&fields, "unfinished", None);
    let (path, mut file) = std::fs::create_dir_all(&dir)
        .and_then(|()| create_free(&dir, &fields[1].1, &req.name, &opening))
        .with_context(|| dir.display().to_string())?;
    let (ending, written) = run(req, &mut file, capped::record_cap(opening.len()))?;
    let by = ending.ended_by();
    let unfinished = |e: io::Error| {
        anyhow::anyhow!(
            "{}: the transcript could not be finished ({e}); it still says `exit code: unfinished`, but the \
             program ended with exit code {}{}",
            path.display(),
            ending.exit_code_text(),
            by.as_ref().map_or(String::new(), |by| format!(", ended by {by}"))
        )
    };
    let mut output = Vec::new();
    written
        .and_then(|()| file.seek(io::SeekFrom::Start(opening.len() as u64)))
        .and_then(|_| file.read_to_end(&mut output))
        .map_err(unfinished)?;
    let replaced = output.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
    let text = header(&fields, &ending.exit_code_text(), by.as_deref()) + &String::from_utf8_lossy(&output);
    atomic::write(&path, text).map_err(unfinished)?;
    Ok((path, ending, replaced))
}

/// Who stopped the program, when something other than the program did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stopper {
    Timeout(Duration),
    /// The recorder was sent this signal and passed it on, SIGKILL
    /// following after this grace.
    Recorder(i32, Duration),
    /// The transcript could not be written, so the program was killed.
    Unwritable,
    /// The program printed this many bytes, the most a transcript keeps.
    OutputCap(u64),
}

/// How the recorded program ended, and what the recorder did to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ending {
    pub status: ExitStatus,
    pub stopper: Option<Stopper>,
}

impl Ending {
    /// The header's `# exit code:` value: `3`, or `signal 9 (SIGKILL)`.
    pub fn exit_code_text(&self) -> String {
        match (self.status.code(), self.status.signal()) {
            (Some(code), _) => code.to_string(),
            (_, Some(sig)) => format!("signal {sig} ({})", signal_name(sig)),
            (None, None) => "unknown".to_string(),
        }
    }

    /// The header's `# ended by:` value, when the recorder had a hand in
    /// the ending: what really ended the program, read from its status.
    pub fn ended_by(&self) -> Option<String> {
        let by = |sig| self.status.signal() == Some(sig);
        let why = match self.stopper? {
            Stopper::Timeout(t) if by(SIGKILL) => return Some(format!("timeout ({} s)", t.as_secs_f64())),
            Stopper::Timeout(t) => format!("as the timeout ({} s) was reached", t.as_secs_f64()),
            Stopper::Recorder(sig, grace) if by(SIGKILL) => {
                let (grace, sig) = (grace.as_secs_f64(), signal_name(sig));
                return Some(format!(
                    "the recorder's SIGKILL, {grace} s after its {sig} went unanswered"
                ));
            }
            Stopper::Recorder(sig, _) if by(sig) => {
                return Some(format!("the recorder's {}", signal_name(sig)))
            }
            Stopper::Recorder(sig, _) => format!("after the recorder's {}", signal_name(sig)),
            Stopper::Unwritable => "as the transcript could not be written".into(),
            Stopper::OutputCap(cap) => format!("as the output reached the {cap}-byte cap"),
        };
        Some(match by(SIGKILL) {
            true => format!("the recorder's SIGKILL, {why}"),
            false => format!("the program itself, {why}"),
        })
    }

    /// The recorder's own exit status, as `timeout(1)` and a shell give
    /// them: 124 when the timeout ended the program, its exit code, or
    /// 128 + N for a program ended by signal N.
    pub fn exit_status(&self) -> u8 {
        match (self.stopper, self.status.code(), self.status.signal()) {
            (Some(Stopper::Timeout(_)), _, Some(SIGKILL)) => 124,
            (_, Some(code), _) => (code & 0xff) as u8,
            (_, _, Some(sig)) => (128 + sig).clamp(0, 255) as u8,
            _ => 1,
        }
    }
}

/// A signalfd for the program's end, the `--timeout` alarm and the stop
/// signals (SIGINT, SIGTERM, SIGHUP), all blocked so that they arrive
/// through it alone; a stop signal the recorder was started ignoring (as a
/// shell starts a background job with SIGINT) stays ignored.
fn signal_fd() -> io::Result<OwnedFd> {
    // SAFETY: the sets are initialised before use (sigemptyset, sigaction
    // filling a zeroed sigaction); the mask and dispositions are this
    // single-threaded process's own, and `fd` is a new descriptor.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGCHLD, libc::SIGALRM, libc::SIGINT, SIGTERM, libc::SIGHUP] {
            let mut now: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, std::ptr::null(), &mut now);
            match sig {
                // Ignored, these would be discarded (and an ended child reaped unseen).
                libc::SIGCHLD | libc::SIGALRM => _ = libc::signal(sig, libc::SIG_DFL),
                _ if now.sa_sigaction == libc::SIG_IGN => continue,
                _ => {}
            }
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        match libc::signalfd(-1, &set, libc::SFD_CLOEXEC) {
            fd if fd >= 0 => Ok(OwnedFd::from_raw_fd(fd)),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

/// The next signal that `fd` holds.
fn next_signal(fd: &OwnedFd) -> io::Result<i32> {
    // SAFETY: an all-zero signalfd_siginfo is valid, and read fills at most its size.
    unsafe {
        let mut info: libc::signalfd_siginfo = std::mem::zeroed();
        let size = std::mem::size_of_val(&info);
        match libc::read(fd.as_raw_fd(), (&raw mut info).cast(), size) {
            n if n == size as isize => Ok(info.ssi_signo as i32),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

/// Whether process `pid` has ended, leaving it unreaped (`WNOWAIT`), so
/// its process group's id is still its own.
fn has_ended(pid: u32) -> bool {
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: an all-zero siginfo_t is valid for waitid to fill.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(libc::P_PID, pid, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

/// Sends `sig` to process `pid`, or to its group for a negative one.
fn kill(pid: i32, sig: i32) {
    // SAFETY: kill(2) touches no memory of ours; callers name only the
    // program's leader or its group while the leader is unreaped.
    unsafe { libc::kill(pid, sig) };
}

/// Arms the alarm (SIGALRM) that ends a program still running after `limit`.
fn alarm(limit: Duration) {
    // SAFETY: an all-zero itimerval is valid (no repeat), and setitimer
    // reads it whole; the old value is not asked for.
    unsafe {
        let mut timer: libc::itimerval = std::mem::zeroed();
        timer.it_value.tv_sec = limit.as_secs() as libc::time_t;
        timer.it_value.tv_usec = limit.subsec_micros() as libc::suseconds_t;
        libc::setitimer(libc::ITIMER_REAL, &timer, std::ptr::null_mut());
    }
}

/// At most this many reads once the program has ended, so a process that
/// left its group and keeps writing cannot hold the recording open.
const READS_AFTER_END: usize = 16;

/// The output pipe copied into the transcript, up to the cap.
struct Output<'a> {
    pipe: Option<io::PipeReader>,
    file: &'a mut File,
    room: u64,
    error: Option<io::Error>,
}

impl Output<'_> {
    /// Copies what the pipe holds now (at most `reads` reads); says why the
    /// program must be killed when the cap is reached or a write fails.
    fn copy(&mut self, reads: usize, cap: u64) -> Option<Stopper> {
        let mut buf = [0u8; 64 * 1024];
        for _ in 0..reads {
            let written = match self.pipe.as_mut()?.read(&mut buf) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return None,
                Ok(0) => {
                    self.pipe = None;
                    return None;
                }
                Ok(n) => {
                    let kept = n.min(self.room as usize);
                    self.room -= kept as u64;
                    self.file.write_all(&buf[..kept])
                }
                Err(e) => Err(e),
            };
            if let Err(e) = written {
                self.pipe = None;
                self.error = Some(e);
                return Some(Stopper::Unwritable);
            }
            if self.room == 0 {
                // Closed only after the kill, so the program does not die of
                // SIGPIPE first and get recorded as ended by that.
                return Some(Stopper::OutputCap(cap));
            }
        }
        None
    }
}

/// Runs the command under `timeout(1)` with its output into `file` (see
/// the module header); its ending, and whether all its output was written.
fn run(req: &Record, file: &mut File, cap: u64) -> anyhow::Result<(Ending, io::Result<()>)> {
    let signals = signal_fd().context("catching signals")?;
    let (reader, writer) = io::pipe().context("making the output pipe")?;
    // SAFETY: fcntl on a descriptor this function owns.
    unsafe { libc::fcntl(reader.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    let mut cmd = Command::new("timeout");
    cmd.arg(format!("--kill-after={}s", req.grace.as_secs_f64()))
        .args(["--", "0"])
        .args(&req.command)
        .envs(req.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(writer.try_clone().context("making the output pipe")?)
        .stderr(writer)
        .process_group(0);
    let recorder = std::process::id();
    // SAFETY: runs between fork and exec, calling only the
    // async-signal-safe sigemptyset, sigprocmask, prctl and getppid.
    unsafe {
        cmd.pre_exec(move || {
            // The signals blocked here for the signalfd are not the program's.
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            // timeout(1) passes SIGTERM on to the group, then SIGKILL.
            if libc::prctl(libc::PR_SET_PDEATHSIG, SIGTERM) != 0 {
                return Err(io::Error::last_os_error());
            }
            match libc::getppid() as u32 == recorder {
                true => Ok(()),
                false => Err(io::Error::other("the recorder ended before the program started")),
            }
        });
    }
    let spawned = cmd.spawn();
    drop(cmd); // Closes this process's copies of the pipe's writing end.
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            // Recorded as a shell would report it: exit code 127.
            let written = writeln!(file, "could not start timeout(1) to run the command: {e}");
            return Ok((
                Ending {
                    status: ExitStatus::from_raw(127 << 8),
                    stopper: None,
                },
                written,
            ));
        }
    };
    let group = child.id() as i32;
    let mut stopper = None;
    let mut stop = |why: Stopper, to: i32, sig: i32| {
        kill(to, sig);
        stopper.get_or_insert(why);
    };
    if let Some(limit) = req.timeout {
        alarm(limit);
    }
    let mut out = Output {
        pipe: Some(reader),
        file,
        room: cap,
        error: None,
    };
    let poll_in = |fd| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        let mut fds = [
            poll_in(out.pipe.as_ref().map_or(-1, |p| p.as_raw_fd())),
            poll_in(signals.as_raw_fd()),
        ];
        // SAFETY: `fds` is a valid array of two pollfd for the whole call.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
            match io::Error::last_os_error() {
                e if e.kind() == ErrorKind::Interrupted => continue,
                e => return Err(e).context("waiting for the program"),
            }
        }
        if fds[0].revents != 0 {
            if let Some(why) = out.copy(usize::MAX, cap) {
                stop(why, -group, SIGKILL);
                out.pipe = None;
            }
        }
        if fds[1].revents != 0 {
            match next_signal(&signals).context("reading signals")? {
                libc::SIGCHLD if has_ended(child.id()) => break,
                libc::SIGCHLD => {}
                libc::SIGALRM => stop(Stopper::Timeout(req.timeout.unwrap_or_default()), -group, SIGKILL),
                sig => stop(Stopper::Recorder(sig, req.grace), group, sig),
            }
        }
    }
    // What the program left running in its group ends with it.
    kill(-group, SIGKILL);
    if let Some(why) = out.copy(READS_AFTER_END, cap) {
        stopper.get_or_insert(why);
    }
    let status = child.wait().context("waiting for the program")?;
    Ok((Ending { status, stopper }, out.error.map_or(Ok(()), Err)))
}

/// The name of a signal the way `kill -l` spells it, with the SIG prefix.
pub fn signal_name(sig: i32) -> String {
    // Linux's numbering, 1 to 31.
    const NAMES: [&str; 31] = [
        "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE",
        "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ",
        "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
    ];
    let name = usize::try_from(sig - 1).ok().and_then(|i| NAMES.get(i));
    name.map_or_else(|| format!("SIG{sig}"), |n| format!("SIG{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_is_never_replaced_and_the_next_number_is_used() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::write(dir.join("2026-01-02T030405Z-run.txt"), "kept").unwrap();
        let (second, _) = create_free(dir, "2026-01-02T03:04:05Z", "run", "second").unwrap();
        let (third, _) = create_free(dir, "2026-01-02T03:04:05Z", "run", "third").unwrap();
        assert_eq!(second, dir.join("2026-01-02T030405Z-run-2.txt"));
        assert_eq!(third, dir.join("2026-01-02T030405Z-run-3.txt"));
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(read("2026-01-02T030405Z-run.txt"), "kept");
        assert_eq!(read("2026-01-02T030405Z-run-2.txt"), "second");
        assert_eq!(read("2026-01-02T030405Z-run-3.txt"), "third");
        // No draft is left behind: every file is a transcript.
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 3);
    }

    #[test]
    fn seconds_are_positive_numbers() {
        assert_eq!(seconds("1"), Ok(Duration::from_secs(1)));
        assert_eq!(seconds("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-2", "x", "", "inf", "NaN"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_assignment_is_a_named_var_equals_value_on_one_line() {
        assert_eq!(env_assignment("A=1"), Ok(("A".into(), "1".into())));
        assert_eq!(env_assignment("A="), Ok(("A".into(), String::new())));
        for bad in ["=1", "-x=1", "--", "run"] {
            assert_eq!(
                env_assignment(bad).unwrap_err(),
                format!("`{bad}` is not VAR=value (put -- before the command)")
            );
        }
        for bad in ["A=1\n2", "A=1\t2", "A=\r"] {
            assert!(
                env_assignment(bad).unwrap_err().contains("control character"),
                "{bad:?}"
            );
        }
        assert_eq!(header_word("a b").as_deref(), Ok("a b"));
    }

    #[test]
    fn only_known_folders_and_one_word_names_are_taken() {
        for good in [
            "day09-timing",
            "machine",
            "gpu-tests",
            "instrument-suite",
            "diagnostics",
        ] {
            assert_eq!(lesson_folder(good).as_deref(), Ok(good));
        }
        for bad in [
            "../../escaped",
            "/tmp",
            "",
            ".",
            "..",
            "day09-timing/..",
            "scratch",
            "Day09-timing",
        ] {
            let e = lesson_folder(bad).unwrap_err().to_string();
            assert!(e.contains("known: ") && e.contains("day09-timing"), "{bad}: {e}");
        }
        for good in [
            "h200-cxx",
            "h200-x2-rust-eager",
            "r1-suite-1",
            "modes-graph_pdl-2",
            "a",
        ] {
            assert_eq!(run_name(good).as_deref(), Ok(good));
        }
        for bad in ["", "a/b", "../x", "/abs", ".hidden", "-flag", "a b", "a\nb", "é"] {
            assert!(run_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_command_is_written_so_a_shell_runs_it_again() {
        let words = [
            "sh",
            "-c",
            "echo \"$HOME\" 'it''s' | wc",
            "two words",
            "",
            "plain",
        ];
        let line = shell_words(words).unwrap();
        let out = Command::new("sh")
            .args(["-c", &format!("for w in {line}; do printf '<%s>' \"$w\"; done")])
            .output()
            .unwrap();
        let expected: String = words.iter().map(|w| format!("<{w}>")).collect();
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{line}");
    }

    #[test]
    fn endings_name_the_signal_and_who_really_ended_the_program() {
        let ending = |raw, stopper| Ending {
            status: ExitStatus::from_raw(raw),
            stopper,
        };
        let term = Some(Stopper::Recorder(libc::SIGTERM, Duration::from_millis(500)));
        let cases = [
            (ending(3 << 8, None), "3", None, 3),
            (ending(9, None), "signal 9 (SIGKILL)", None, 137),
            (
                ending(9, Some(Stopper::Timeout(Duration::from_millis(1500)))),
                "signal 9 (SIGKILL)",
                Some("timeout (1.5 s)"),
                124,
            ),
            (
                ending(0, Some(Stopper::Timeout(Duration::from_secs(1)))),
                "0",
                Some("the program itself, as the timeout (1 s) was reached"),
                0,
            ),
            (
                ending(15, term),
                "signal 15 (SIGTERM)",
                Some("the recorder's SIGTERM"),
                143,
            ),
            (
                ending(0, term),
                "0",
                Some("the program itself, after the recorder's SIGTERM"),
                0,
            ),
            (
                ending(9, term),
                "signal 9 (SIGKILL)",
                Some("the recorder's SIGKILL, 0.5 s after its SIGTERM went unanswered"),
                137,
            ),
            (
                ending(9, Some(Stopper::Unwritable)),
                "signal 9 (SIGKILL)",
                Some("the recorder's SIGKILL, as the transcript could not be written"),
                137,
            ),
        ];
        for (ending, code, ended_by, status) in cases {
            assert_eq!(ending.exit_code_text(), code, "{ending:?}");
            assert_eq!(ending.ended_by().as_deref(), ended_by, "{ending:?}");
            assert_eq!(ending.exit_status(), status, "{ending:?}");
        }
    }
}
