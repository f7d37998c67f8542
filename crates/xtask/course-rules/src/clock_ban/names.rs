//! The table of banned names for rule 1, shared by the C/C++/CUDA and the Rust
//! scanners and listed, form by form, in CUDA-CODE-STYLE.md.
//!
//! What is here is data and the one normalisation that maps a spelling
//! (`__rdtsc`, `SYS_clock_gettime`, `_ftime64_s`) onto its base name. How a
//! name is found in code (paths, imports, device bodies) is the scanners'
//! business, not this file's.

/// Headers whose only purpose is a clock, matched exactly.
pub const HEADERS: &[&str] = &[
    "chrono",
    "ctime",
    "time.h",
    "sys/time.h",
    "sys/times.h",
    "sys/timeb.h",
    "mach/mach_time.h",
    "profileapi.h",
    "timeapi.h",
    "boost/chrono.hpp",
    "boost/timer.hpp",
    "boost/progress.hpp",
    "tbb/tick_count.h",
    "oneapi/tbb/tick_count.h",
    "benchmark/benchmark.h",
];

/// Header directories whose every header is a clock library.
pub const HEADER_DIRS: &[&str] = &["boost/chrono/", "boost/timer/"];

/// Functions, macros and intrinsics that read a host clock (or exist only to
/// serve one, like a clock's resolution), by base name: they are banned
/// wherever they appear in host code, under any of the spellings that
/// [`clock_function`] folds onto the base.
pub const FUNCTIONS: &[&str] = &[
    // POSIX and the C library.
    "clock_gettime",
    "clock_getres",
    "clock_getcpuclockid",
    "pthread_getcpuclockid",
    "gettimeofday",
    "ftime",
    "timespec_get",
    "timespec_getres",
    "getrusage",
    "CLOCKS_PER_SEC",
    "CLK_TCK",
    // Solaris and illumos: the high-resolution clock and its CPU-time twin.
    "gethrtime",
    "gethrvtime",
    // macOS.
    "mach_absolute_time",
    "mach_continuous_time",
    "mach_approximate_time",
    "clock_gettime_nsec_np",
    // Windows.
    "QueryPerformanceCounter",
    "QueryPerformanceFrequency",
    "GetTickCount",
    "timeGetTime",
    "timeGetSystemTime",
    "GetSystemTime",
    "GetSystemTimeAsFileTime",
    "GetSystemTimePreciseAsFileTime",
    "GetLocalTime",
    "GetProcessTimes",
    "GetThreadTimes",
    "QueryUnbiasedInterruptTime",
    "QueryInterruptTime",
    "QueryInterruptTimePrecise",
    "QueryThreadCycleTime",
    "QueryProcessCycleTime",
    // The runtimes a learner meets next to CUDA.
    "omp_get_wtime",
    "omp_get_wtick",
    "MPI_Wtime",
    "MPI_Wtick",
    "PMPI_Wtime",
    "PMPI_Wtick",
    "cuptiGetTimestamp",
    "GetCurrentTimeNanos",
    // The CPU's own counters: the timestamp counter and its relatives.
    "rdtsc",
    "rdtscp",
    "rdpmc",
    "readcyclecounter",
    "readsteadycounter",
];

/// Names that read a clock but are also ordinary words (`time`, `clock`,
/// `times`): banned where called, qualified (`std::time`, `libc::clock`) or
/// spelled as a system call (`SYS_time`), not as any identifier.
pub const AMBIGUOUS: &[&str] = &["time", "clock", "times"];

/// C++ clock types, banned wherever they appear in host code.
pub const CXX_CLOCK_TYPES: &[&str] = &[
    "steady_clock",
    "system_clock",
    "high_resolution_clock",
    "utc_clock",
    "tai_clock",
    "gps_clock",
    "file_clock",
    "microsec_clock",
    "second_clock",
    "cpu_timer",
    "auto_cpu_timer",
    "progress_timer",
];

/// C++ namespaces and classes banned whole, as (path, what).
pub const CXX_QUALIFIED: &[(&[&str], &str)] = &[
    (&["std", "chrono"], "std::chrono"),
    (&["boost", "chrono"], "boost::chrono"),
    (&["boost", "timer"], "boost::timer"),
    (&["tbb", "tick_count"], "tbb::tick_count"),
];

/// Rust types and constants that are clocks, as full paths.
pub const RUST_CLOCK_PATHS: &[&str] = &[
    "std::time::Instant",
    "std::time::SystemTime",
    "std::time::UNIX_EPOCH",
    "tokio::time::Instant",
    "time::Instant",
];

/// Rust crates that exist to read a clock (or, like criterion, time code
/// with one): any path into them is a finding.
pub const RUST_CLOCK_CRATES: &[&str] = &[
    "quanta",
    "minstant",
    "coarsetime",
    "fastant",
    "cpu_time",
    "web_time",
    "instant",
    "criterion",
];

/// The last segment of a path that reads "the time now" in any library:
/// `Utc::now`, `tick_count::now`, `OffsetDateTime::now_utc`, `absl::Now`.
pub const NOW_FUNCTIONS: &[&str] = &["now", "now_utc", "now_local", "today", "Now"];

/// Instructions that read a CPU clock, looked for in inline assembly text.
pub const ASM_INSTRUCTIONS: &[&str] = &[
    "rdtsc",
    "rdtscp",
    "rdpmc",
    "cntvct_el0",
    "cntpct_el0",
    "cntvctss_el0",
    "pmccntr_el0",
    "mftb",
    "rdtime",
    "rdcycle",
];

/// Machine code for the timestamp counter, as an `.byte` list in assembly:
/// (bytes with separators removed, the instruction it encodes).
pub const ASM_ENCODINGS: &[(&str, &str)] = &[("0x0f,0x01,0xf9", "rdtscp"), ("0x0f,0x31", "rdtsc")];

/// Files whose reading is reading a host clock, found as string literals in
/// code (`fopen("/proc/uptime", "r")`, `open("/proc/uptime")`) and as words
/// in shell scripts (`read up _ < /proc/uptime`).
pub const CLOCK_FILES: &[&str] = &["/proc/uptime"];

/// Python's clocks: `module.function` as the standard library spells them,
/// found through `import time as t` and `from time import perf_counter`.
pub const PYTHON_FUNCTIONS: &[&str] = &[
    "time.time",
    "time.time_ns",
    "time.perf_counter",
    "time.perf_counter_ns",
    "time.monotonic",
    "time.monotonic_ns",
    "time.process_time",
    "time.process_time_ns",
    "time.thread_time",
    "time.thread_time_ns",
    "time.clock",
    "time.clock_gettime",
    "time.clock_gettime_ns",
    "os.times",
    "resource.getrusage",
];

/// Python modules that exist to time code with a host clock: any use.
pub const PYTHON_MODULES: &[&str] = &["timeit"];

/// The last segment of a Python call that reads "now" (`datetime.now()`,
/// `datetime.datetime.utcnow()`, `date.today()`, `arrow.utcnow()`).
pub const PYTHON_NOW: &[&str] = &["now", "utcnow", "today"];

/// Shell variables whose value is read from a host clock (bash).
pub const SHELL_VARIABLES: &[&str] = &["$EPOCHREALTIME", "$EPOCHSECONDS", "$SECONDS"];

/// `date` formats that read the clock as a number to subtract: seconds since
/// the epoch and nanoseconds (`date +%s%N`). A date written as a label
/// (`date -u +%Y-%m-%dT%H:%M:%SZ`) times nothing and is not a finding.
/// As (format, finding).
pub const DATE_FORMATS: &[(&str, &str)] = &[("%s", "date +%s"), ("%N", "date +%N")];

/// Shell commands that time another command with a host clock (`time make`,
/// `/usr/bin/time -v prog`), as a command word.
pub const SHELL_TIMERS: &[&str] = &["time"];

/// Prefixes that name a function's system call or kernel entry point.
const SYSCALL_PREFIXES: &[&str] = &["SYS_", "NR_", "vdso_", "kernel_"];

/// Prefixes of compiler builtins around a base name.
const BUILTIN_PREFIXES: &[&str] = &["builtin_ia32_", "builtin_"];

/// How much context a clock function's name needs to be a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The name is a clock wherever it appears.
    Nothing,
    /// An ordinary word too: a clock only where called or qualified.
    CallOrQualifier,
}

/// Whether `name` is one of the banned functions under any of its spellings:
/// leading underscores (`_rdtsc`, `__rdtscp`), a system-call or vDSO prefix
/// (`SYS_time`, `__NR_gettimeofday`, `__vdso_clock_gettime`), a builtin
/// prefix (`__builtin_ia32_rdtsc`), and the width and safe-variant suffixes
/// (`clock_gettime64`, `GetTickCount64`, `_ftime64_s`).
pub fn clock_function(name: &str) -> Option<Needs> {
    let (base, syscall) = base_name(name);
    let unsuffixed = strip_suffixes(base);
    if FUNCTIONS.contains(&base) || FUNCTIONS.contains(&unsuffixed) {
        return Some(Needs::Nothing);
    }
    // `clock64` is the device's cycle counter, so only `time` takes suffixes.
    let ambiguous = AMBIGUOUS.contains(&base) || unsuffixed == "time";
    match ambiguous {
        false => None,
        true if syscall || base != name => Some(Needs::Nothing),
        true => Some(Needs::CallOrQualifier),
    }
}

/// The name without leading underscores and prefixes, and whether one of the
/// prefixes named a system call or kernel entry point.
fn base_name(name: &str) -> (&str, bool) {
    let bare = name.trim_start_matches('_');
    for prefix in SYSCALL_PREFIXES {
        if let Some(rest) = bare.strip_prefix(prefix) {
            return (rest.trim_start_matches('_'), true);
        }
    }
    for prefix in BUILTIN_PREFIXES {
        if let Some(rest) = bare.strip_prefix(prefix) {
            return (rest.trim_start_matches('_'), false);
        }
    }
    (bare, false)
}

fn strip_suffixes(base: &str) -> &str {
    let base = base.strip_suffix("_s").unwrap_or(base);
    base.strip_suffix("64")
        .or_else(|| base.strip_suffix("32"))
        .unwrap_or(base)
}

/// Every banned name and form, for the test that CUDA-CODE-STYLE.md lists
/// them all.
#[cfg(test)]
fn all_listed() -> impl Iterator<Item = &'static str> {
    HEADERS
        .iter()
        .chain(HEADER_DIRS)
        .chain(FUNCTIONS)
        .chain(AMBIGUOUS)
        .chain(CXX_CLOCK_TYPES)
        .chain(CXX_QUALIFIED.iter().map(|(_, what)| what))
        .chain(RUST_CLOCK_PATHS)
        .chain(RUST_CLOCK_CRATES)
        .chain(NOW_FUNCTIONS)
        .chain(ASM_INSTRUCTIONS)
        .chain(CLOCK_FILES)
        .chain(PYTHON_FUNCTIONS)
        .chain(PYTHON_MODULES)
        .chain(PYTHON_NOW)
        .chain(SHELL_VARIABLES)
        .chain(DATE_FORMATS.iter().map(|(_, what)| what))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_fold_onto_their_base_name() {
        for name in [
            "__rdtsc",
            "_rdtsc",
            "__rdtscp",
            "__builtin_ia32_rdtsc",
            "__builtin_readcyclecounter",
            "SYS_clock_gettime",
            "__NR_gettimeofday",
            "__vdso_clock_gettime",
            "clock_gettime64",
            "__clock_gettime64",
            "GetTickCount64",
            "_ftime64_s",
            "_time64",
            "SYS_time",
            "__NR_times",
        ] {
            assert_eq!(clock_function(name), Some(Needs::Nothing), "{name}");
        }
    }

    #[test]
    fn ordinary_words_need_a_call_and_device_counters_are_not_clocks() {
        for name in ["time", "clock", "times"] {
            assert_eq!(clock_function(name), Some(Needs::CallOrQualifier), "{name}");
        }
        for name in [
            "clock64",
            "globaltimer",
            "timer",
            "timespec",
            "clock_nanosleep",
            "now_ms",
            "CLOCK_MONOTONIC",
        ] {
            assert_eq!(clock_function(name), None, "{name}");
        }
    }

    #[test]
    fn cuda_code_style_lists_every_banned_form() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../CUDA-CODE-STYLE.md"
        ))
        .expect("CUDA-CODE-STYLE.md at the workspace root");
        let missing: Vec<&str> = all_listed()
            .filter(|name| {
                let spellings = [
                    format!("`{name}`"),
                    format!("`{name}()`"),
                    format!("`<{name}>`"),
                    format!("`<{name}…>`"),
                ];
                !spellings.iter().any(|s| doc.contains(s.as_str()))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "CUDA-CODE-STYLE.md rule 1 does not list {missing:?}"
        );
    }
}
