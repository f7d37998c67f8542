//! Every banned form of CUDA-CODE-STYLE.md rule 1, planted in a small
//! source and expected back as a finding at the right place; and the look-alikes
//! that must stay clean (device clocks, CUDA events, sleeping, comments,
//! strings, ordinary words).

use std::path::Path;

use super::{scan, Script, Source};
use crate::lexer::Lang;

/// One planted form: the source, the finding's `what`, and the text the
/// finding must point at (its line and column start there).
struct Plant {
    src: &'static str,
    what: &'static str,
    at: &'static str,
}

const fn p(src: &'static str, what: &'static str, at: &'static str) -> Plant {
    Plant { src, what, at }
}

const C_PLANTS: &[Plant] = &[
    // Headers that exist to read a clock.
    p("#include <chrono>", "<chrono>", "#include"),
    p("#include <ctime>", "<ctime>", "#include"),
    p("  #include <time.h>", "<time.h>", "#include"),
    p("#include <sys/time.h>", "<sys/time.h>", "#include"),
    p("#include <sys/times.h>", "<sys/times.h>", "#include"),
    p("#include <sys/timeb.h>", "<sys/timeb.h>", "#include"),
    p("#include <mach/mach_time.h>", "<mach/mach_time.h>", "#include"),
    p("#include <profileapi.h>", "<profileapi.h>", "#include"),
    p("#include <timeapi.h>", "<timeapi.h>", "#include"),
    p("#include <boost/chrono.hpp>", "<boost/chrono.hpp>", "#include"),
    p(
        "#include <boost/chrono/chrono.hpp>",
        "<boost/chrono/chrono.hpp>",
        "#include",
    ),
    p(
        "#include <boost/timer/timer.hpp>",
        "<boost/timer/timer.hpp>",
        "#include",
    ),
    p("#include <tbb/tick_count.h>", "<tbb/tick_count.h>", "#include"),
    p(
        "#include <oneapi/tbb/tick_count.h>",
        "<oneapi/tbb/tick_count.h>",
        "#include",
    ),
    p(
        "#include <benchmark/benchmark.h>",
        "<benchmark/benchmark.h>",
        "#include",
    ),
    // std::chrono and every clock in it.
    p(
        "auto t = std::chrono::steady_clock::now();",
        "std::chrono",
        "std::chrono",
    ),
    p(
        "auto t = std::chrono::steady_clock::now();",
        "steady_clock",
        "steady_clock",
    ),
    p(
        "auto t = std::chrono::system_clock::now();",
        "system_clock",
        "system_clock",
    ),
    p(
        "auto t = std::chrono::high_resolution_clock::now();",
        "high_resolution_clock",
        "high_resolution_clock",
    ),
    p(
        "auto t = std::chrono::utc_clock::now();",
        "utc_clock",
        "utc_clock",
    ),
    p(
        "auto t = std::chrono::tai_clock::now();",
        "tai_clock",
        "tai_clock",
    ),
    p(
        "auto t = std::chrono::gps_clock::now();",
        "gps_clock",
        "gps_clock",
    ),
    p(
        "auto t = std::chrono::file_clock::now();",
        "file_clock",
        "file_clock",
    ),
    p(
        "using namespace std; auto t = chrono::steady_clock::now();",
        "std::chrono",
        "chrono::",
    ),
    p(
        "using namespace std::chrono; auto t = high_resolution_clock::now();",
        "high_resolution_clock",
        "high_resolution_clock::",
    ),
    p(
        "auto t = std::filesystem::file_time_type::clock::now();",
        "clock::now",
        "std::filesystem",
    ),
    p(
        "template <class Clock> auto f() { return Clock::now(); }",
        "Clock::now",
        "Clock::now",
    ),
    p(
        "auto t = cuda::std::chrono::system_clock::now();",
        "std::chrono",
        "std::chrono",
    ),
    // The C library.
    p(
        "clock_gettime(CLOCK_MONOTONIC, &ts);",
        "clock_gettime",
        "clock_gettime",
    ),
    p(
        "clock_gettime(CLOCK_REALTIME, &ts);",
        "clock_gettime",
        "clock_gettime",
    ),
    p(
        "clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);",
        "clock_gettime",
        "clock_gettime",
    ),
    p(
        "clock_getres(CLOCK_MONOTONIC, &ts);",
        "clock_getres",
        "clock_getres",
    ),
    p(
        "__clock_gettime64(CLOCK_MONOTONIC, &ts);",
        "__clock_gettime64",
        "__clock_gettime64",
    ),
    p(
        "__vdso_clock_gettime(CLOCK_MONOTONIC, &ts);",
        "__vdso_clock_gettime",
        "__vdso_clock_gettime",
    ),
    p(
        "syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);",
        "SYS_clock_gettime",
        "SYS_clock_gettime",
    ),
    p(
        "syscall(__NR_gettimeofday, &tv, 0);",
        "__NR_gettimeofday",
        "__NR_gettimeofday",
    ),
    p("syscall(SYS_time, 0);", "SYS_time", "SYS_time"),
    p("gettimeofday(&tv, nullptr);", "gettimeofday", "gettimeofday"),
    p("struct timeb tb; ftime(&tb);", "ftime", "ftime"),
    p("struct tms t; times(&t);", "times()", "times("),
    p("getrusage(RUSAGE_SELF, &ru);", "getrusage", "getrusage"),
    p("timespec_get(&ts, TIME_UTC);", "timespec_get", "timespec_get"),
    p("long c = clock() / CLOCKS_PER_SEC;", "clock()", "clock("),
    p(
        "long c = clock() / CLOCKS_PER_SEC;",
        "CLOCKS_PER_SEC",
        "CLOCKS_PER_SEC",
    ),
    p("std::clock_t c = std::clock();", "clock()", "clock("),
    p("auto f = &std::clock;", "clock()", "clock;"),
    p("time_t s = time(NULL);", "time()", "time("),
    p("time_t s = ::time(nullptr);", "time()", "time("),
    p("__time64_t s = _time64(nullptr);", "_time64", "_time64"),
    p(
        "pthread_getcpuclockid(pthread_self(), &id);",
        "pthread_getcpuclockid",
        "pthread_getcpuclockid",
    ),
    p(
        "clock_getcpuclockid(0, &id);",
        "clock_getcpuclockid",
        "clock_getcpuclockid",
    ),
    p(
        "uint64_t t = mach_absolute_time();",
        "mach_absolute_time",
        "mach_absolute_time",
    ),
    p(
        "void* f = dlsym(RTLD_NEXT, \"clock_gettime\");",
        "clock_gettime",
        "dlsym",
    ),
    p("hrtime_t t = gethrtime();", "gethrtime", "gethrtime"),
    p("hrtime_t t = gethrvtime();", "gethrvtime", "gethrvtime"),
    p(
        "long r = syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);",
        "SYS_clock_gettime",
        "SYS_clock_gettime",
    ),
    p(
        "FILE* f = fopen(\"/proc/uptime\", \"r\");",
        "/proc/uptime",
        "/proc/uptime",
    ),
    p(
        "std::ifstream up(\"/proc/uptime\"); double s; up >> s;",
        "/proc/uptime",
        "/proc/uptime",
    ),
    // OpenMP and MPI timers.
    p("double t = omp_get_wtime();", "omp_get_wtime", "omp_get_wtime"),
    p("double r = omp_get_wtick();", "omp_get_wtick", "omp_get_wtick"),
    p("double t = MPI_Wtime();", "MPI_Wtime", "MPI_Wtime"),
    p("double r = MPI_Wtick();", "MPI_Wtick", "MPI_Wtick"),
    p("double t = PMPI_Wtime();", "PMPI_Wtime", "PMPI_Wtime"),
    // The timestamp counter, through every door.
    p("unsigned long long c = __rdtsc();", "__rdtsc", "__rdtsc"),
    p("unsigned aux; auto c = __rdtscp(&aux);", "__rdtscp", "__rdtscp"),
    p("auto c = _rdtsc();", "_rdtsc", "_rdtsc"),
    p(
        "auto c = __builtin_ia32_rdtsc();",
        "__builtin_ia32_rdtsc",
        "__builtin_ia32_rdtsc",
    ),
    p(
        "auto c = __builtin_ia32_rdtscp(&aux);",
        "__builtin_ia32_rdtscp",
        "__builtin_ia32_rdtscp",
    ),
    p(
        "auto c = __builtin_readcyclecounter();",
        "__builtin_readcyclecounter",
        "__builtin_readcyclecounter",
    ),
    p(
        "auto c = __builtin_readsteadycounter();",
        "__builtin_readsteadycounter",
        "__builtin_readsteadycounter",
    ),
    p("auto c = __rdpmc(0);", "__rdpmc", "__rdpmc"),
    p(
        "asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));",
        "rdtsc",
        "asm",
    ),
    p(
        "__asm__ __volatile__(\"lfence\\n\\trdtscp\" : \"=a\"(lo), \"=d\"(hi) :: \"ecx\");",
        "rdtscp",
        "__asm__",
    ),
    p(
        "__asm__ volatile(\".byte 0x0f, 0x31\" : \"=a\"(lo), \"=d\"(hi));",
        "rdtsc",
        "__asm__",
    ),
    p(
        "asm volatile(\"mrs %0, cntvct_el0\" : \"=r\"(v));",
        "cntvct_el0",
        "asm",
    ),
    p("__asm { rdtsc }", "rdtsc", "rdtsc"),
    // Windows.
    p(
        "QueryPerformanceCounter(&li);",
        "QueryPerformanceCounter",
        "QueryPerformanceCounter",
    ),
    p(
        "QueryPerformanceFrequency(&f);",
        "QueryPerformanceFrequency",
        "QueryPerformanceFrequency",
    ),
    p("DWORD t = GetTickCount();", "GetTickCount", "GetTickCount"),
    p(
        "ULONGLONG t = GetTickCount64();",
        "GetTickCount64",
        "GetTickCount64",
    ),
    p("DWORD t = timeGetTime();", "timeGetTime", "timeGetTime"),
    p(
        "GetSystemTimePreciseAsFileTime(&ft);",
        "GetSystemTimePreciseAsFileTime",
        "GetSystemTimePreciseAsFileTime",
    ),
    // Libraries.
    p(
        "auto t = boost::chrono::steady_clock::now();",
        "boost::chrono",
        "boost::chrono",
    ),
    p("boost::timer::cpu_timer t;", "boost::timer", "boost::timer"),
    p(
        "auto t = boost::posix_time::microsec_clock::local_time();",
        "microsec_clock",
        "microsec_clock",
    ),
    p(
        "tbb::tick_count t0 = tbb::tick_count::now();",
        "tbb::tick_count",
        "tbb::tick_count t0",
    ),
    p(
        "using namespace tbb; auto t0 = tick_count::now();",
        "tick_count::now",
        "tick_count::now",
    ),
    p("absl::Time t = absl::Now();", "absl::Now", "absl::Now"),
    p(
        "auto t = cuptiGetTimestamp(&ts);",
        "cuptiGetTimestamp",
        "cuptiGetTimestamp",
    ),
    // A clock in a host function is found even after a macro that names
    // __global__, and in a __host__ __device__ function.
    p(
        "#define KERNEL __global__\nlong h() { return clock(); }",
        "clock()",
        "clock(",
    ),
    p(
        "__host__ __device__ long hd() { return clock(); }",
        "clock()",
        "clock(",
    ),
];

const RUST_PLANTS: &[Plant] = &[
    // std::time, through every kind of path.
    p("fn f() { std::time::Instant::now(); }", "std::time::Instant", "std::time"),
    p("fn f() { ::std::time::SystemTime::now(); }", "std::time::SystemTime", "std::time"),
    p("use std::time::UNIX_EPOCH;", "std::time::UNIX_EPOCH", "UNIX_EPOCH"),
    p("fn f() { let d = std::time::UNIX_EPOCH.elapsed(); }", "std::time::UNIX_EPOCH", "std::time"),
    p("fn f() { let e = std::time::SystemTime::UNIX_EPOCH; }", "std::time::SystemTime", "std::time"),
    p("use std::time::{self as tm};\nfn f() { tm::UNIX_EPOCH.elapsed(); }", "std::time::UNIX_EPOCH", "tm::"),
    p("use std::time::*;\nfn f() { UNIX_EPOCH.elapsed(); }", "std::time::UNIX_EPOCH", "UNIX_EPOCH"),
    p("use std::time::{Instant as Clock};\nfn f() { Clock::now(); }", "std::time::Instant", "Clock::now"),
    p("extern crate std as s;\nfn f() { s::time::Instant::now(); }", "std::time::Instant", "s::time"),
    // libc and the other C-library crates.
    p("fn f() { unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) }; }", "clock_gettime", "libc::clock_gettime"),
    p("fn f() { unsafe { libc::gettimeofday(&mut tv, std::ptr::null_mut()) }; }", "gettimeofday", "libc::gettimeofday"),
    p("fn f() { unsafe { libc::time(std::ptr::null_mut()) }; }", "time()", "libc::time"),
    p("fn f() { unsafe { libc::clock() }; }", "clock()", "libc::clock"),
    p("fn f() { unsafe { libc::times(&mut t) }; }", "times()", "libc::times"),
    p("fn f() { unsafe { libc::timespec_get(&mut ts, 1) }; }", "timespec_get", "libc::timespec_get"),
    p("fn f() { unsafe { libc::clock_getres(1, &mut ts) }; }", "clock_getres", "libc::clock_getres"),
    p("fn f() { unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) }; }", "getrusage", "libc::getrusage"),
    p("fn f() { unsafe { libc::syscall(libc::SYS_clock_gettime, 1, &mut ts) }; }", "SYS_clock_gettime", "libc::SYS_clock_gettime"),
    p("fn f() { unsafe { libc::mach_absolute_time() }; }", "mach_absolute_time", "libc::mach_absolute_time"),
    p("use libc::{clock_gettime as cg};\nfn f() { unsafe { cg(1, p) }; }", "clock_gettime", "cg("),
    p("use libc::time;", "time()", "time;"),
    p("use libc::*;\nfn f() { unsafe { time(p) }; }", "time()", "time("),
    p("use libc as c;\nfn f() { unsafe { c::clock() }; }", "clock()", "c::clock"),
    p("extern \"C\" { fn clock_gettime(c: i32, t: *mut u8) -> i32; }", "clock_gettime", "clock_gettime"),
    p("extern \"C\" { fn time(t: *mut i64) -> i64; }\nfn f() { unsafe { time(p) }; }", "time()", "time(p)"),
    p("extern \"C\" {\n    #[link_name = \"clock_gettime\"]\n    fn my_clock(c: i32, t: *mut u8) -> i32;\n}", "clock_gettime", "link_name"),
    p("fn f() { nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC); }", "clock_gettime", "nix::time"),
    p("fn f() { rustix::time::clock_gettime(rustix::time::ClockId::Monotonic); }", "clock_gettime", "rustix::time"),
    p("fn f() { nix::sys::resource::getrusage(who); }", "getrusage", "nix::sys"),
    p("fn f() { unsafe { windows_sys::Win32::System::Performance::QueryPerformanceCounter(&mut c) }; }", "QueryPerformanceCounter", "windows_sys"),
    p("extern \"C\" { fn omp_get_wtime() -> f64; }", "omp_get_wtime", "omp_get_wtime"),
    p("extern \"C\" { fn MPI_Wtime() -> f64; }", "MPI_Wtime", "MPI_Wtime"),
    // The timestamp counter.
    p("fn f() { let c = unsafe { core::arch::x86_64::_rdtsc() }; }", "_rdtsc", "core::arch"),
    p("fn f() { let c = unsafe { std::arch::x86_64::__rdtscp(&mut aux) }; }", "__rdtscp", "std::arch"),
    p("fn f() { let c = unsafe { core::arch::x86::_rdtsc() }; }", "_rdtsc", "core::arch"),
    p("use std::arch::x86_64::_rdtsc as tsc;\nfn f() { unsafe { tsc() }; }", "_rdtsc", "tsc("),
    p("use core::arch::x86_64::*;\nfn f() { unsafe { _rdtsc() }; }", "_rdtsc", "_rdtsc"),
    p("fn f() { unsafe { std::arch::asm!(\"rdtsc\", out(\"eax\") lo, out(\"edx\") hi) }; }", "rdtsc", "asm!"),
    p("fn f() { unsafe { asm!(\"lfence\", \"rdtscp\", out(\"eax\") lo) }; }", "rdtscp", "asm!"),
    p("core::arch::global_asm!(\"read: rdtsc\", \"ret\");", "rdtsc", "global_asm!"),
    // Clock crates.
    p("fn f() { let t = chrono::Utc::now(); }", "Utc::now", "chrono::Utc"),
    p("use chrono::Local;\nfn f() { Local::now(); }", "Local::now", "Local::now"),
    p("use chrono::prelude::*;\nfn f() { Utc::today(); }", "Utc::today", "Utc::today"),
    p("fn f() { let t = time::OffsetDateTime::now_utc(); }", "OffsetDateTime::now_utc", "time::OffsetDateTime"),
    p("fn f() { let t = time::OffsetDateTime::now_local(); }", "OffsetDateTime::now_local", "time::OffsetDateTime"),
    p("fn f() { let t = time::Instant::now(); }", "time::Instant", "time::Instant"),
    p("fn f() { let t = jiff::Timestamp::now(); }", "Timestamp::now", "jiff::Timestamp"),
    p("fn f() { let c = quanta::Clock::new(); let t = c.now(); }", "quanta", "quanta::Clock"),
    p("use quanta::Instant;", "quanta", "Instant;"),
    p("fn f() { let t = minstant::Instant::now(); }", "minstant", "minstant::Instant"),
    p("fn f() { let t = coarsetime::Instant::now(); }", "coarsetime", "coarsetime::Instant"),
    p("fn f() { let t = fastant::Instant::now(); }", "fastant", "fastant::Instant"),
    p("fn f() { let t = cpu_time::ProcessTime::now(); }", "cpu_time", "cpu_time::ProcessTime"),
    p("fn f() { let t = web_time::Instant::now(); }", "web_time", "web_time::Instant"),
    p("fn f(c: &mut criterion::Criterion) {}", "criterion", "criterion::Criterion"),
    p("fn f() { let t = tokio::time::Instant::now(); }", "tokio::time::Instant", "tokio::time"),
    p("use tokio::time::Instant;\nfn a() { Instant::now(); }", "tokio::time::Instant", "Instant::now"),
    // Spelled as a type, a function value, inside a macro, through `use std as s`.
    p("struct S { t: std::time::Instant }", "std::time::Instant", "std::time"),
    p("use std::{thread, time::{Duration, Instant}};\nfn f() { let now = Instant::now; }", "std::time::Instant", "Instant::now;"),
    p("macro_rules! now { () => { std::time::SystemTime::now() }; }", "std::time::SystemTime", "std::time"),
    p("use std as s;\nfn f() { s::time::Instant::now(); }", "std::time::Instant", "s::time"),
    p("fn f() { <Clock>::now(); }\nuse std::time::Instant as Clock;", "std::time::Instant", "Clock>"),
    p("unsafe extern \"C\" { fn clock() -> i64; }\nfn f() { unsafe { clock() }; }", "clock()", "clock() }"),
    p("fn f() { nix::time::ClockId::CLOCK_MONOTONIC.now(); nix::time::ClockId::now(c); }", "ClockId::now", "nix::time::ClockId::now"),
    p("fn f() { unsafe { asm!(r\"rdtsc\", out(\"eax\") lo) }; }", "rdtsc", "asm!"),
    // System calls by name, and the clock the kernel keeps in a file.
    p("use libc::{syscall, SYS_clock_gettime};\nfn f() { unsafe { syscall(SYS_clock_gettime, 1, p) }; }", "SYS_clock_gettime", "SYS_clock_gettime,"),
    p("fn f() { unsafe { libc::syscall(libc::SYS_gettimeofday, p, q) }; }", "SYS_gettimeofday", "libc::SYS_gettimeofday"),
    p("extern \"C\" { fn gethrtime() -> i64; }", "gethrtime", "gethrtime"),
    p("fn f() { let up = std::fs::read_to_string(\"/proc/uptime\"); }", "/proc/uptime", "/proc/uptime"),
    p("fn f() { let up = std::fs::File::open(r\"/proc/uptime\"); }", "/proc/uptime", "/proc/uptime"),
];

const PYTHON_PLANTS: &[Plant] = &[
    p("import time\nt0 = time.time()", "time.time", "time.time()"),
    p("import time\nt0 = time.time_ns()", "time.time_ns", "time.time_ns"),
    p(
        "import time\nt0 = time.perf_counter()",
        "time.perf_counter",
        "time.perf_counter",
    ),
    p(
        "import time\nt0 = time.perf_counter_ns()",
        "time.perf_counter_ns",
        "time.perf_counter_ns",
    ),
    p(
        "import time\nt0 = time.monotonic()",
        "time.monotonic",
        "time.monotonic",
    ),
    p(
        "import time\nt0 = time.monotonic_ns()",
        "time.monotonic_ns",
        "time.monotonic_ns",
    ),
    p(
        "import time\nt0 = time.process_time()",
        "time.process_time",
        "time.process_time",
    ),
    p(
        "import time\nt0 = time.thread_time()",
        "time.thread_time",
        "time.thread_time",
    ),
    p(
        "import time\nt0 = time.clock_gettime(time.CLOCK_MONOTONIC)",
        "time.clock_gettime",
        "time.clock_gettime",
    ),
    p(
        "import time as t\nt0 = t.perf_counter()",
        "time.perf_counter",
        "t.perf_counter",
    ),
    p(
        "from time import perf_counter\nt0 = perf_counter()",
        "time.perf_counter",
        "perf_counter()",
    ),
    p(
        "from time import perf_counter as pc\nt0 = pc()",
        "time.perf_counter",
        "pc()",
    ),
    p(
        "from time import perf_counter",
        "time.perf_counter",
        "perf_counter",
    ),
    p(
        "from time import (sleep,\n    monotonic)\nt0 = monotonic()",
        "time.monotonic",
        "monotonic()",
    ),
    p(
        "from time import *\nt0 = monotonic_ns()",
        "time.monotonic_ns",
        "monotonic_ns",
    ),
    p("import os, time; t0 = time.time()", "time.time", "time.time()"),
    p("f = time.perf_counter", "time.perf_counter", "time.perf_counter"),
    p(
        "from datetime import datetime\nt0 = datetime.now()",
        "datetime.now",
        "datetime.now",
    ),
    p(
        "import datetime\nt0 = datetime.datetime.now()",
        "datetime.now",
        "datetime.datetime",
    ),
    p(
        "import datetime as dt\nt0 = dt.datetime.utcnow()",
        "datetime.utcnow",
        "dt.datetime",
    ),
    p(
        "from datetime import date\nd = date.today()",
        "date.today",
        "date.today",
    ),
    p(
        "import timeit\nt = timeit.default_timer()",
        "timeit",
        "timeit.default_timer",
    ),
    p(
        "import ctypes\nlibc = ctypes.CDLL(None)\nlibc.clock_gettime(1, ts)",
        "clock_gettime",
        "libc.clock_gettime",
    ),
    p(
        "from timeit import default_timer as timer\nt0 = timer()",
        "timeit",
        "default_timer",
    ),
    p("import os\nu = os.times()", "os.times", "os.times"),
    p(
        "import resource\nr = resource.getrusage(resource.RUSAGE_SELF)",
        "resource.getrusage",
        "resource.getrusage",
    ),
    p(
        "up = float(open(\"/proc/uptime\").read().split()[0])",
        "/proc/uptime",
        "/proc/uptime",
    ),
    p(
        "import pathlib\nup = pathlib.Path('/proc/uptime').read_text()",
        "/proc/uptime",
        "/proc/uptime",
    ),
];

const SHELL_PLANTS: &[Plant] = &[
    p("t0=$(date +%s%N)", "date +%s", "date"),
    p("t0=$(date +%s%N)", "date +%N", "date"),
    p("t0=`date +%s`", "date +%s", "date"),
    p("t0=\"$(/bin/date +%s.%N)\"", "date +%N", "date"),
    p("start=$EPOCHREALTIME", "$EPOCHREALTIME", "$EPOCHREALTIME"),
    p("echo \"${EPOCHREALTIME}\"", "$EPOCHREALTIME", "${EPOCHREALTIME}"),
    p("s=$EPOCHSECONDS", "$EPOCHSECONDS", "$EPOCHSECONDS"),
    p("SECONDS=0; run; echo \"took $SECONDS s\"", "$SECONDS", "$SECONDS"),
    p("time ./timing", "time", "time ./timing"),
    p("for i in 1 2; do time ./timing; done", "time", "time ./timing"),
    p("if true; then /usr/bin/time -v ./timing; fi", "time", "time -v"),
    p("read -r up _ < /proc/uptime", "/proc/uptime", "/proc/uptime"),
    p("up=$(cut -d' ' -f1 /proc/uptime)", "/proc/uptime", "/proc/uptime"),
];

/// Where a finding points: the text from its line and column on.
fn pointed_at(src: &str, line: usize, col: usize) -> String {
    let text = src.lines().nth(line - 1).unwrap_or("");
    text.chars().skip(col - 1).collect()
}

/// The plants that the scanner misses or reports in the wrong place.
fn missed(plants: &[Plant], lang: impl Into<Source> + Copy) -> Vec<String> {
    let mut missed = Vec::new();
    for plant in plants {
        let found = scan(Path::new("f"), plant.src, lang);
        let hit = found
            .iter()
            .any(|f| f.what == plant.what && pointed_at(plant.src, f.line, f.col).starts_with(plant.at));
        if !hit {
            let got: Vec<String> = found
                .iter()
                .map(|f| format!("{}:{} {}", f.line, f.col, f.what))
                .collect();
            missed.push(format!(
                "{:?}: want {} at {:?}, got {got:?}",
                plant.src, plant.what, plant.at
            ));
        }
    }
    missed
}

#[test]
fn every_banned_c_cpp_and_cuda_form_is_found_where_it_is() {
    let missed = missed(C_PLANTS, Lang::C);
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

#[test]
fn every_banned_rust_form_is_found_where_it_is() {
    let missed = missed(RUST_PLANTS, Lang::Rust);
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

#[test]
fn every_banned_python_form_is_found_where_it_is() {
    let missed = missed(PYTHON_PLANTS, Source::Script(Script::Python));
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

#[test]
fn every_banned_shell_form_is_found_where_it_is() {
    let missed = missed(SHELL_PLANTS, Source::Script(Script::Shell));
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

#[test]
fn every_finding_prints_as_path_line_col_what_why() {
    for (plants, lang) in [
        (C_PLANTS, Source::Code(Lang::C)),
        (RUST_PLANTS, Source::Code(Lang::Rust)),
        (PYTHON_PLANTS, Source::Script(Script::Python)),
        (SHELL_PLANTS, Source::Script(Script::Shell)),
    ] {
        for plant in plants {
            for f in scan(Path::new("code/x/x.cu"), plant.src, lang) {
                let line = crate::problem::Problem::from(f.clone()).to_string();
                let head = format!("code/x/x.cu:{}:{}: {}", f.line, f.col, f.what);
                assert!(line.starts_with(&head), "{line}");
                assert!(line.ends_with(super::finding::WHY), "{line}");
            }
        }
    }
}

fn assert_clean(src: &str, lang: impl Into<Source>) {
    let found: Vec<String> = scan(Path::new("f"), src, lang)
        .iter()
        .map(|f| format!("{}:{} {}", f.line, f.col, f.what))
        .collect();
    assert!(found.is_empty(), "{src:?}: {found:?}");
}

#[test]
fn device_clocks_and_cuda_events_are_not_host_clocks() {
    assert_clean(
        "__global__ void k(long long* t) {\n\
         t[0] = clock64(); t[1] = clock();\n\
         unsigned long long g; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g));\n\
         auto n = cuda::std::chrono::system_clock::now();\n}\n\
         __device__ long long d() { return clock64() + clock(); }",
        Lang::C,
    );
    assert_clean(
        "cudaEvent_t start, stop; cudaEventCreate(&start); cudaEventRecord(start, 0);\n\
         float ms = 0; cudaEventElapsedTime(&ms, start, stop);\n\
         const float warm = timeKernel([&] { k<<<1, 1>>>(); });\n\
         cudaDeviceProp p; int khz = p.clockRate; nvmlDeviceGetClockInfo(dev, NVML_CLOCK_SM, &mhz);",
        Lang::C,
    );
}

#[test]
fn sleeping_ordinary_words_comments_and_strings_are_not_host_clocks() {
    assert_clean(
        "usleep(10); nanosleep(&ts, nullptr); sleep(1); clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, 0);\n\
         int times = 3; x.times(2); p->clock(); timer.time(); struct timespec ts; timeval tv;\n\
         // omp_get_wtime() __rdtsc() MPI_Wtime QueryPerformanceCounter std::chrono\n\
         /* asm(\"rdtsc\") */ printf(\"clock_gettime %s\", \"tbb::tick_count::now()\");\n\
         const char* s = R\"(gettimeofday() _rdtsc)\"; asm volatile(\"pause\");",
        Lang::C,
    );
    assert_clean(
        "use std::time::Duration;\nuse host_clock::now_ms;\n\
         fn f(s: &S) -> f64 {\n    std::thread::sleep(std::time::Duration::from_millis(5));\n\
         let clock = 3; let time = s.time + s.clock(); let t0 = now_ms(); let n = s.now();\n\
         times(3); // libc::clock_gettime, _rdtsc, Instant::now()\n\
         let s = \"std::time::Instant::now() libc::time chrono::Utc::now()\";\n\
         host_clock::now_ms() - t0\n}\nfn times(n: u32) {}\n\
         /* asm!(\"rdtsc\") */ fn g() { unsafe { core::arch::asm!(\"pause\") } }",
        Lang::Rust,
    );
}

#[test]
fn scripts_that_sleep_label_with_dates_or_name_clocks_in_words_are_clean() {
    assert_clean(
        "import time\nimport torch\n# time.time() and time.perf_counter() lie about GPU work\n\
         print(\"never time.time() a kernel\")\ntime.sleep(1)\n\
         start = torch.cuda.Event(enable_timing=True)\nms = start.elapsed_time(stop)\n\
         \"\"\"datetime.now() in a docstring\"\"\"\nx.times = 3\nfrom datetime import timedelta\n\
         d = timedelta(seconds=1)\nn = len(now)\ndef now_ms(): pass\n",
        Script::Python,
    );
    assert_clean(
        "#!/bin/sh\n# time ./x, date +%s%N and $EPOCHREALTIME are banned\n\
         dir=out-$(date -u +%Y%m%dT%H%M%SZ)\nsleep 1\necho \"$#\" \"${#x}\" $SECONDS_LEFT\n\
         timeout 60 ./x\nruntime=$(./probe)\necho \"the time it took\"\n\
         ./update --date 2026 # date +%s\nuptime_file=none\n",
        Script::Shell,
    );
    assert_clean(
        "// reads /proc/uptime, which is banned\n/* \"/proc/uptime\" */\n\
         const char* help = \"see the rules\"; // \"/proc/uptime\"\n",
        Lang::C,
    );
}

#[test]
fn rust_brought_in_under_another_name_is_read_as_rust() {
    let root = tempfile_dir();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "crates/a/src/lib.rs",
        "include!(\"clock.inc\");\n#[path = \"../hidden/m.txt\"]\nmod m;\n",
    );
    write(
        "crates/a/src/clock.inc",
        "fn f() { std::time::Instant::now(); }\n",
    );
    write(
        "crates/a/hidden/m.txt",
        "pub fn g() { unsafe { libc::gettimeofday(p, q) }; }\n",
    );
    let files = vec![
        std::path::PathBuf::from("crates/a/src/lib.rs"),
        std::path::PathBuf::from("crates/a/src/clock.inc"),
    ];
    let (found, problems) = super::scan_project(&root, &files);
    let _ = std::fs::remove_dir_all(&root);
    assert!(problems.is_empty(), "{problems:?}");
    let found: Vec<String> = found
        .iter()
        .map(|f| format!("{}:{} {}", f.path.display(), f.line, f.what))
        .collect();
    assert_eq!(
        found,
        [
            "crates/a/hidden/m.txt:1 gettimeofday",
            "crates/a/src/clock.inc:1 std::time::Instant"
        ]
    );
}

/// A fresh folder of this test's own under the system's temp dir.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("course-rules-brought-in-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
