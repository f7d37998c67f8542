//! The recorded program while it runs: its process group, its output copied
//! into the transcript, the recorder's stop signals passed on, the timeout,
//! and the end of it all.
//!
//! - The program runs in a process group of its own, so the timeout, a
//!   signal to the recorder and the program's own end reach everything it
//!   started, not just the first process. It also gets `SIGKILL` if the
//!   recorder itself is killed (`PR_SET_PDEATHSIG`), so it never runs on
//!   unrecorded.
//! - A stop signal to the recorder (SIGINT, SIGTERM, SIGHUP) is passed on to
//!   the group; a program still running `grace` later gets `SIGKILL`. The
//!   timeout sends `SIGKILL` at once.
//! - The program's end ends the recording: what it left running in its
//!   group (`sleep 30 &`) is killed then, and the output is read up to what
//!   was written by that moment. A process that left the group (`setsid`)
//!   is not waited for; what it prints later is not recorded.
//!
//! Signals go to the group only while its leader is unreaped, so the group's
//! id cannot have been given to another process. Not for: the header, or
//! the transcript's file (the parent module).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Who stopped the program, when something other than the program did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stopper {
    Timeout(Duration),
    /// The recorder was sent this signal and passed it on.
    Recorder(i32),
    /// The transcript could not be written, so the program was killed.
    Unwritable,
    /// The program printed this many bytes, the most a transcript keeps.
    OutputCap(u64),
}

/// How the recorded program ended, and what the recorder did to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ending {
    pub status: ExitStatus,
    /// The first reason the recorder signalled the program, if any.
    pub stopper: Option<Stopper>,
    /// The grace after a passed-on signal ran out, and SIGKILL followed.
    pub escalated: Option<Duration>,
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

    /// The header's `# ended by:` value, when the recorder had a hand in the
    /// ending: what really ended the program, read from its status, so a
    /// program that caught the signal and exited by itself says so.
    pub fn ended_by(&self) -> Option<String> {
        let stopper = self.stopper?;
        let killed_by = self.status.signal();
        Some(match stopper {
            Stopper::Timeout(limit) if killed_by == Some(libc::SIGKILL) => {
                format!("timeout ({} s)", limit.as_secs_f64())
            }
            Stopper::Timeout(limit) => format!(
                "the program itself, as the timeout ({} s) was reached",
                limit.as_secs_f64()
            ),
            Stopper::Recorder(sig) => match self.escalated {
                Some(grace) if killed_by == Some(libc::SIGKILL) => format!(
                    "the recorder's SIGKILL, {} s after its {} went unanswered",
                    grace.as_secs_f64(),
                    signal_name(sig)
                ),
                _ if killed_by == Some(sig) => format!("the recorder's {}", signal_name(sig)),
                _ => format!("the program itself, after the recorder's {}", signal_name(sig)),
            },
            Stopper::Unwritable if killed_by == Some(libc::SIGKILL) => {
                "the recorder's SIGKILL, as the transcript could not be written".to_string()
            }
            Stopper::Unwritable => "the program itself, as the transcript could not be written".to_string(),
            Stopper::OutputCap(cap) if killed_by == Some(libc::SIGKILL) => format!(
                "the recorder's SIGKILL, as the output reached the {cap}-byte cap \
                 (what it printed up to the cap is kept)"
            ),
            Stopper::OutputCap(cap) => {
                format!("the program itself, as its output reached the {cap}-byte cap")
            }
        })
    }

    /// The recorder's own exit status for this ending, as `timeout(1)` and a
    /// shell give them: 124 when the timeout ended the program, the
    /// program's exit code, or 128 + N for a program ended by signal N.
    pub fn exit_status(&self) -> u8 {
        if matches!(self.stopper, Some(Stopper::Timeout(_))) && self.status.signal() == Some(libc::SIGKILL) {
            return 124;
        }
        match (self.status.code(), self.status.signal()) {
            (Some(code), _) => (code & 0xff) as u8,
            (_, Some(sig)) => (128 + sig).clamp(0, 255) as u8,
            (None, None) => 1,
        }
    }
}

/// What the recorder's threads share about the program's group.
struct State {
    reaped: bool,
    stopper: Option<Stopper>,
    escalated: Option<Duration>,
}

/// The recorded program's process group.
struct Group {
    pgid: i32,
    state: Mutex<State>,
    /// Notified once the leader has ended, to cut the timers short.
    ended: Condvar,
}

impl Group {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends `signal` to the group unless its leader has been reaped; the
    /// first stopper to send one is the one the transcript names.
    fn stop(&self, why: Stopper, signal: i32) {
        let mut state = self.lock();
        if state.reaped {
            return;
        }
        self.kill(signal);
        state.stopper.get_or_insert(why);
    }

    /// After a passed-on signal's grace: SIGKILL, if the leader still runs.
    fn escalate(&self, grace: Duration) {
        let mut state = self.lock();
        if !state.reaped {
            self.kill(libc::SIGKILL);
            state.escalated = Some(grace);
        }
    }

    fn kill(&self, signal: i32) {
        // SAFETY: kill(2) touches no memory of ours; a negative pid names the
        // group, whose leader is unreaped while the caller holds `state`.
        unsafe { libc::kill(-self.pgid, signal) };
    }

    /// Waits `limit`, or less if the leader ends first; true if the time ran
    /// out with the leader still running. A wait on a condition, not a
    /// clock reading of this crate's.
    fn sleep(&self, limit: Duration) -> bool {
        let state = self.lock();
        let (_state, waited) = self
            .ended
            .wait_timeout_while(state, limit, |s| !s.reaped)
            .unwrap_or_else(PoisonError::into_inner);
        waited.timed_out()
    }

    /// Waits for the leader to end, kills what it left running in its group
    /// while the group's id is still its own, marks the group closed and
    /// wakes the timers, then reaps the leader.
    fn wait(&self, child: &mut Child) -> io::Result<ExitStatus> {
        self.wait_guarded(child, Guard { pid: -1, tell: None })
    }

    /// [`Group::wait`], standing `guard` down once the group is killed and
    /// before the leader is reaped, while the group's id is still its own.
    fn wait_guarded(&self, child: &mut Child, guard: Guard) -> io::Result<ExitStatus> {
        if let Err(e) = wait_unreaped(child.id()) {
            guard.stand_down();
            return Err(e);
        }
        {
            let mut state = self.lock();
            self.kill(libc::SIGKILL);
            state.reaped = true;
        }
        guard.stand_down();
        self.ended.notify_all();
        child.wait()
    }
}

/// A process forked from the recorder whose one task is to kill the
/// program's group should the recorder die without ending it (`kill -9`):
/// `PR_SET_PDEATHSIG` reaches only the program's first process, not what it
/// started. It waits on a pipe whose writing end only the recorder holds;
/// end of file without a byte first means the recorder died.
struct Guard {
    pid: libc::pid_t,
    /// The recorder's end of the pipe: a byte on it stands the guard down.
    tell: Option<io::PipeWriter>,
}

impl Guard {
    /// Forks the guard of group `pgid`. Without one (fork failed) the
    /// recording goes on as before, with only the first process tied to
    /// the recorder.
    fn start(pgid: i32) -> Guard {
        let Ok((listen, tell)) = io::pipe() else {
            return Guard { pid: -1, tell: None };
        };
        // SAFETY: the child calls only async-signal-safe functions
        // (signal, close_range, read, kill, _exit) before it exits, as a
        // fork of a process with threads must.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let fd = listen.as_raw_fd();
            // SAFETY: as above; nothing here allocates or takes a lock.
            unsafe {
                for sig in STOP_SIGNALS {
                    libc::signal(sig, libc::SIG_IGN);
                }
                // Every other descriptor goes, so the guard holds no pipe
                // or file of the recording open.
                if fd > 0 {
                    libc::syscall(libc::SYS_close_range, 0, fd as u32 - 1, 0);
                }
                libc::syscall(libc::SYS_close_range, fd as u32 + 1, u32::MAX, 0);
                let mut byte = 0u8;
                let n = loop {
                    let n = libc::read(fd, (&mut byte as *mut u8).cast(), 1);
                    if n >= 0 || *libc::__errno_location() != libc::EINTR {
                        break n;
                    }
                };
                if n == 0 {
                    libc::kill(-pgid, libc::SIGKILL);
                }
                libc::_exit(0);
            }
        }
        Guard {
            pid,
            tell: (pid > 0).then_some(tell),
        }
    }

    /// Stands the guard down and reaps it.
    fn stand_down(mut self) {
        if let Some(mut tell) = self.tell.take() {
            let _ = tell.write_all(b"x");
            drop(tell);
            let mut status = 0;
            // SAFETY: waits for the guard this recorder forked.
            while unsafe { libc::waitpid(self.pid, &mut status, 0) } < 0
                && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
            {}
        }
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

/// How to run the program and watch it.
pub struct Watch {
    pub timeout: Option<Duration>,
    pub grace: Duration,
    /// The most output kept; a program that prints more is killed there,
    /// so the transcript stays one every reader takes whole.
    pub output_cap: u64,
}

/// What went wrong running the program, as opposed to how it ended.
#[derive(Debug)]
pub enum Failure {
    /// It could not be started (a shell would say 127).
    Start(io::Error),
    /// The recorder could not set itself up or wait for it.
    Recorder(&'static str, io::Error),
    /// It ran and ended, but its output could not all be written.
    Output(Ending, io::Error),
}

/// Runs `cmd` with stdout and stderr into one pipe, so the transcript keeps
/// their order, and appends what it prints to `file` as it comes, until the
/// program ends (see the module header).
pub fn run(mut cmd: Command, file: File, watch: &Watch) -> Result<Ending, Failure> {
    let recorder = |what| move |e| Failure::Recorder(what, e);
    let (reader, writer) = io::pipe().map_err(recorder("making the output pipe"))?;
    let writer2 = writer.try_clone().map_err(recorder("making the output pipe"))?;
    cmd.stdout(writer)
        .stderr(writer2)
        .stdin(std::process::Stdio::null());
    cmd.process_group(0);
    let recorder_pid = std::process::id();
    // SAFETY: the closure runs in the child between fork and exec and calls
    // only async-signal-safe functions (prctl, getppid).
    unsafe {
        cmd.pre_exec(move || {
            // The program dies with the recorder, not on without it.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The recorder may have died before the line above took effect.
            if libc::getppid() as u32 != recorder_pid {
                return Err(io::Error::other("the recorder ended before the program started"));
            }
            Ok(())
        });
    }
    // Caught before the program starts, so none is lost in between.
    let signals =
        signal_hook::iterator::Signals::new(stop_signals()).map_err(recorder("catching stop signals"))?;
    let spawned = cmd.spawn();
    drop(cmd); // Close our copies of the pipe's writing end.
    let mut child = spawned.map_err(Failure::Start)?;
    // Kills the group if the recorder itself is killed outright; told to
    // stand down once the group has ended normally.
    let guard = Guard::start(child.id() as i32);
    let group = Arc::new(Group {
        pgid: child.id() as i32,
        state: Mutex::new(State {
            reaped: false,
            stopper: None,
            escalated: None,
        }),
        ended: Condvar::new(),
    });
    let (mut stop_reading, stop_pipe) = match io::pipe() {
        Ok((r, w)) => (w, r),
        Err(e) => {
            group.stop(Stopper::Unwritable, libc::SIGKILL);
            let _ = group.wait(&mut child);
            return Err(Failure::Recorder("making the reader's stop pipe", e));
        }
    };
    // Held here too, so the byte that stops the copier never meets a pipe
    // without a reader (SIGPIPE) when the copier has already ended.
    let stop_pipe = Arc::new(stop_pipe);
    let output_cap = watch.output_cap;
    let copier = {
        let group = Arc::clone(&group);
        let stop_pipe = Arc::clone(&stop_pipe);
        std::thread::spawn(move || {
            let mut reader = reader;
            let copied = copy_until_stopped(&mut reader, &stop_pipe, file, output_cap);
            match copied {
                Err(_) => group.stop(Stopper::Unwritable, libc::SIGKILL),
                Ok(Copied::Capped) => group.stop(Stopper::OutputCap(output_cap), libc::SIGKILL),
                Ok(Copied::All) => {}
            }
            // The reading end closes only now, after the SIGKILL: closed
            // first, a program writing into it could die of SIGPIPE before
            // the kill and be recorded as ended by that instead.
            drop(reader);
            copied
        })
    };
    let signal_handle = signals.handle();
    let forwarder = forward_signals(&group, signals, watch.grace);
    let watchdog = watch.timeout.map(|limit| {
        let group = Arc::clone(&group);
        std::thread::spawn(move || {
            if group.sleep(limit) {
                group.stop(Stopper::Timeout(limit), libc::SIGKILL);
            }
        })
    });
    let status = group.wait_guarded(&mut child, guard);
    // The program has ended: what it wrote is in the pipe; read that, no more.
    let _ = stop_reading.write_all(b"x");
    signal_handle.close();
    let copied = join(copier);
    // Dropped only now, after `close` has woken the forwarder (see
    // forward_signals).
    drop(join(forwarder));
    watchdog.map(join);
    let status = status.map_err(recorder("waiting for the program"))?;
    let state = group.lock();
    let ending = Ending {
        status,
        stopper: state.stopper,
        escalated: state.escalated,
    };
    copied.map_err(|e| Failure::Output(ending, e))?;
    Ok(ending)
}

/// Joins a recorder thread, whose panic would be a bug: passed on as one.
fn join<T>(thread: JoinHandle<T>) -> T {
    thread
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Passes each stop signal on to the group; after the first, a program
/// still running `grace` later gets SIGKILL.
///
/// The thread hands `signals` back rather than dropping it: its handle's
/// `close` wakes the thread by a `send` (without `MSG_NOSIGNAL`) to the
/// socket `signals` reads, and a thread that saw the close before that
/// `send` and dropped `signals` would leave the socket with no reader, so
/// the `send` would kill the recorder by SIGPIPE (its default here: see
/// `cli_exit::quiet_on_closed_pipe`). The caller drops it after the close.
fn forward_signals(
    group: &Arc<Group>,
    mut signals: signal_hook::iterator::Signals,
    grace: Duration,
) -> JoinHandle<signal_hook::iterator::Signals> {
    let group = Arc::clone(group);
    std::thread::spawn(move || {
        let mut escalation = None;
        for sig in signals.forever() {
            group.stop(Stopper::Recorder(sig), sig);
            if escalation.is_none() {
                let group = Arc::clone(&group);
                escalation = Some(std::thread::spawn(move || {
                    if group.sleep(grace) {
                        group.escalate(grace);
                    }
                }));
            }
        }
        escalation.map(join);
        signals
    })
}

/// Whether the copier took all the program printed, or stopped at the cap.
enum Copied {
    All,
    Capped,
}

/// At most this many reads once told to stop, so a process outside the
/// group that keeps writing cannot hold the recording open.
const READS_AFTER_STOP: usize = 16;

/// Copies the program's output into `file` until the pipe closes, or, once
/// a byte arrives on `stop`, until the pipe has nothing more to give.
fn copy_until_stopped(
    pipe: &mut io::PipeReader,
    stop: &io::PipeReader,
    mut file: File,
    cap: u64,
) -> io::Result<Copied> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut reads_left: Option<usize> = None;
    let mut room = cap;
    loop {
        let mut fds = [
            libc::pollfd {
                fd: pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: stop.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // Once stopping, only what is already there: do not wait.
        let wait = if reads_left.is_some() { 0 } else { -1 };
        // SAFETY: `fds` is a valid array of two pollfd for the whole call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait) };
        if ready < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if fds[0].revents != 0 {
            let n = pipe.read(&mut buf)?;
            if n == 0 {
                return Ok(Copied::All);
            }
            let kept = n.min(room as usize);
            file.write_all(&buf[..kept])?;
            room -= kept as u64;
            if kept < n || room == 0 {
                return Ok(Copied::Capped);
            }
            match &mut reads_left {
                Some(0) => return Ok(Copied::All),
                Some(left) => *left -= 1,
                None => {}
            }
        } else if reads_left.is_some() {
            return Ok(Copied::All);
        }
        if fds[1].revents != 0 && reads_left.is_none() {
            reads_left = Some(READS_AFTER_STOP);
        }
    }
}

/// The name of a signal the way `kill -l` spells it, with the SIG prefix.
pub fn signal_name(sig: i32) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ending(raw: i32, stopper: Option<Stopper>, escalated: Option<Duration>) -> Ending {
        Ending {
            status: ExitStatus::from_raw(raw),
            stopper,
            escalated,
        }
    }

    #[test]
    fn endings_name_the_signal_and_who_really_ended_the_program() {
        let term = Some(Stopper::Recorder(libc::SIGTERM));
        let grace = Some(Duration::from_millis(500));
        let cases = [
            (ending(3 << 8, None, None), "3", None, 3),
            (ending(9, None, None), "signal 9 (SIGKILL)", None, 137),
            (
                ending(9, Some(Stopper::Timeout(Duration::from_millis(1500))), None),
                "signal 9 (SIGKILL)",
                Some("timeout (1.5 s)"),
                124,
            ),
            (
                ending(0, Some(Stopper::Timeout(Duration::from_secs(1))), None),
                "0",
                Some("the program itself, as the timeout (1 s) was reached"),
                0,
            ),
            (
                ending(15, term, None),
                "signal 15 (SIGTERM)",
                Some("the recorder's SIGTERM"),
                143,
            ),
            (
                ending(0, term, None),
                "0",
                Some("the program itself, after the recorder's SIGTERM"),
                0,
            ),
            (
                ending(9, term, grace),
                "signal 9 (SIGKILL)",
                Some("the recorder's SIGKILL, 0.5 s after its SIGTERM went unanswered"),
                137,
            ),
            (
                ending(9, Some(Stopper::Unwritable), None),
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
