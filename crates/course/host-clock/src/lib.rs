//! The one host clock in the workspace: `CLOCK_MONOTONIC`, read in milliseconds
//! as `f64`, the Rust twin of the course's `hostMs()`.
//!
//! Host clocks are banned everywhere else (CUDA-CODE-STYLE.md, "No host clocks"):
//! a host clock around a kernel launch measures the queueing of the work, not
//! the work, and kernels are timed with CUDA events through `time-kernel`.
//! This crate exists for the few places where the host's view *is* the
//! question: the misleading host-clock numbers a lesson takes apart (a
//! launch timed without and with a sync, a whole process), a CPU reference
//! where nothing is asynchronous, how long a call holds the calling thread,
//! which no CUDA event can see, and how much CPU time a wait burns
//! ([`process_cpu_ms`], the process's CPU clock). Each lesson that reads it
//! names its files, and why, in its own `host-clock-allow.txt`.
//!
//! `CLOCK_MONOTONIC` never jumps when the system clock is set, which a
//! stopwatch must not do. It is read through `libc` rather than
//! `std::time::Instant`, which the whole workspace bans outright. clippy.toml
//! bans `libc::clock_gettime` as well, for every crate but this one: the
//! crate-level allow below is the one exception, and `course-rules` holds
//! this file to `clock_gettime` alone through `ci/host-clock-allow.txt`.
#![allow(
    clippy::disallowed_methods,
    reason = "the workspace's one sanctioned host clock (CUDA-CODE-STYLE.md rule 1)"
)]

/// Milliseconds on the monotonic clock since an arbitrary fixed point.
///
/// Only differences between two readings mean anything.
pub fn now_ms() -> f64 {
    read_ms(libc::CLOCK_MONOTONIC, "CLOCK_MONOTONIC")
}

/// Milliseconds of CPU time this process has used, all its threads together
/// (`CLOCK_PROCESS_CPUTIME_ID`), the CUDA driver's own threads included.
///
/// Only differences between two readings mean anything: across a wait, the
/// difference says how much of the wait a CPU core spent working.
pub fn process_cpu_ms() -> f64 {
    read_ms(libc::CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID")
}

/// One reading of `clock` in milliseconds.
fn read_ms(clock: libc::clockid_t, name: &str) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec. Both clocks this crate
    // reads exist on every Linux kernel this project supports, so the call
    // cannot fail; the branch below keeps that assumption checked in release
    // builds too.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        // Unreachable on Linux; a zero reading would silently corrupt every
        // difference, so stop loudly instead.
        eprintln!("error: clock_gettime({name}) failed");
        std::process::exit(1);
    }
    ts.tv_sec as f64 * 1.0e3 + ts.tv_nsec as f64 * 1.0e-6
}

#[cfg(test)]
mod tests {
    use super::{now_ms, process_cpu_ms};

    #[test]
    fn readings_never_go_backwards() {
        let mut last = now_ms();
        for _ in 0..10_000 {
            let next = now_ms();
            assert!(next >= last, "{next} < {last}");
            last = next;
        }
    }

    #[test]
    fn a_sleep_shows_up_as_at_least_its_length() {
        let before = now_ms();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let elapsed = now_ms() - before;
        // A sleep never returns early; the upper side is the scheduler's business.
        assert!(elapsed >= 20.0, "slept 20 ms, clock says {elapsed}");
    }

    #[test]
    fn the_unit_is_milliseconds_not_seconds_or_nanoseconds() {
        // Uptime in ms is far above 1 and far below 1e15 (31,000 years).
        let t = now_ms();
        assert!(t > 1.0 && t < 1.0e15, "{t}");
    }

    #[test]
    fn cpu_time_grows_with_work_and_not_with_sleep() {
        // Work until the process has used 20 ms of CPU, however long a
        // loaded machine takes to give it that (this test failed under load
        // when it spun for 30 ms of wall time and asked for 10 ms of CPU).
        // A CPU clock that never grows would spin forever, so 10 s of wall
        // time fails the test instead.
        let (cpu0, wall0) = (process_cpu_ms(), now_ms());
        let mut x = 0u64;
        while process_cpu_ms() - cpu0 < 20.0 {
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_add(1));
            }
            assert!(
                now_ms() - wall0 < 10_000.0,
                "10 s of spinning used {} ms of CPU",
                process_cpu_ms() - cpu0
            );
        }
        // Asleep for 30 ms: next to none of it is CPU time (other test
        // threads of this process may add a little).
        let cpu1 = process_cpu_ms();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let asleep = process_cpu_ms() - cpu1;
        assert!(asleep < 10.0, "30 ms asleep used {asleep} ms of CPU");
    }
}
