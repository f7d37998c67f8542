// Rule 1's planted Rust file: every line ending in the marker is a hit, and
// no other line is. This comment names std::time::Instant freely.
/* libc::clock_gettime and SystemTime::now() in a block comment */
use std::time::Duration;
use std::time::Instant; // HIT
use std::time::{SystemTime as Wall, UNIX_EPOCH}; // HIT
fn a() -> Instant { Instant::now() } // HIT
fn b() -> u64 { Wall::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() } // HIT
fn c(ts: *mut libc::timespec) { unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, ts) }; } // HIT
macro_rules! now { () => { ::std::time::Instant::now() }; } // HIT
fn d() -> u64 { unsafe { core::arch::x86_64::_rdtsc() } } // HIT
fn e() { unsafe { std::arch::asm!("rdtsc", out("eax") _, out("edx") _) } } // HIT
fn f() -> i64 { unsafe { libc::time(std::ptr::null_mut()) } } // HIT
fn g() -> String { std::fs::read_to_string("/proc/uptime").unwrap() } // HIT
fn h(tv: *mut libc::timeval) { unsafe { libc::gettimeofday(tv, std::ptr::null_mut()) }; } // HIT
fn sleep() { std::thread::sleep(Duration::from_millis(5)) }
