//! Rule 1, "No host clocks", as a rule table in the manner of Chromium's
//! PRESUBMIT `BanRule`: each row a regex, the file kinds it applies to, the
//! paths it leaves out, and why. Every line of every C, C++, CUDA, Rust,
//! Python and shell file of the project is matched against the rows, with
//! its comments taken out first (`//` and `/* */` in C and Rust, `#` in
//! scripts), and every hit is printed as `path:line: name: why`.
//!
//! Clippy's `disallowed-methods`/`disallowed-types` (`clippy.toml`) ban the
//! Rust clocks it can resolve; the rows here also catch the text (a macro, a
//! `use` alias, `asm!`). A file that reads a clock on purpose names the row
//! in an allow-list (`ci/host-clock-allow.txt` for shared files,
//! `code/<lesson>/host-clock-allow.txt` for a lesson's own), with the
//! reason; an entry that allows nothing is an error too.
//!
//! Not for: resolving imports or macros. A clock must be named on the line
//! that reads it, which is what a reader of the line sees too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::rules::problem::Problem;

/// The languages the rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// C, C++ and CUDA.
    C,
    Rust,
    Python,
    Shell,
}
use Kind::{Python, Rust, Shell, C};

/// One banned pattern.
#[derive(Debug, PartialEq, Eq)]
pub struct Ban {
    /// How a hit and an allow-list entry name it.
    pub name: &'static str,
    pub pattern: &'static str,
    pub kinds: &'static [Kind],
    /// Files (or folders, ending in `/`) the row does not apply to.
    pub excluded: &'static [&'static str],
    pub why: &'static str,
}

/// The rule's own files name every clock they ban: the table, the planted
/// files its tests check it against, and the test that plants them in a copy.
const OWN: &[&str] = &[
    "crates/xtask/src/rules/host_clock.rs",
    "crates/xtask/tests/planted/",
    "crates/xtask/tests/it/repository.rs",
];

const QUEUE: &str = "a host clock times the queueing of GPU work, not the work; time kernels with CUDA events (CUDA-CODE-STYLE.md rule 1)";

/// The table. `clock()` and `clock64()` are device intrinsics too, so bare
/// `clock()` is not a row: host C reaches it through `std::clock`, or
/// `<ctime>`/`<time.h>` and `CLOCKS_PER_SEC`, which are.
#[rustfmt::skip]
pub const BANS: &[Ban] = &[
    Ban { name: "chrono clock", pattern: r"\b(steady|system|high_resolution|utc|tai|gps|file)_clock\b", kinds: &[C], excluded: OWN, why: QUEUE },
    Ban { name: "<ctime>", pattern: r#"#\s*include\s*[<"](ctime|time\.h|sys/time\.h|sys/times\.h|sys/timeb\.h)[>"]"#, kinds: &[C], excluded: OWN, why: "the C library's clocks" },
    Ban { name: "std::clock", pattern: r"\bstd::clock\b|\bCLOCKS_PER_SEC\b", kinds: &[C], excluded: OWN, why: "the process's CPU time counts the host thread, never the kernel" },
    Ban { name: "clock_gettime", pattern: r"clock_gettime|clock_getres", kinds: &[C, Rust, Python], excluded: OWN, why: QUEUE },
    Ban { name: "gettimeofday", pattern: r"\bgettimeofday\b|\btimespec_get\b", kinds: &[C, Rust], excluded: OWN, why: QUEUE },
    Ban { name: "time()", pattern: r"::\s*time\s*\(|\btime\s*\(\s*(NULL|nullptr|0)\s*\)", kinds: &[C, Rust], excluded: OWN, why: "the wall clock, in seconds" },
    Ban { name: "omp_get_wtime", pattern: r"\bomp_get_wti(me|ck)\b", kinds: &[C], excluded: OWN, why: "OpenMP's timer is a host wall clock" },
    Ban { name: "MPI_Wtime", pattern: r"\bP?MPI_Wti(me|ck)\b", kinds: &[C], excluded: OWN, why: "MPI's timer is a host wall clock" },
    Ban { name: "rdtsc", pattern: r"(?i)rdtsc|rdpmc", kinds: &[C, Rust], excluded: OWN, why: "the timestamp counter is a host clock with no unit of its own" },
    Ban { name: "/proc/uptime", pattern: r"/proc/uptime", kinds: &[C, Rust, Python, Shell], excluded: OWN, why: "the kernel's uptime clock, read as text" },
    Ban { name: "Instant", pattern: r"\bInstant\b", kinds: &[Rust], excluded: OWN, why: QUEUE },
    Ban { name: "SystemTime", pattern: r"\bSystemTime\b|\bUNIX_EPOCH\b", kinds: &[Rust], excluded: OWN, why: "the wall clock" },
    Ban { name: "time.time", pattern: r"\btime\.time(_ns)?\b|\bfrom\s+time\s+import\b.*\btime\b", kinds: &[Python], excluded: OWN, why: "the wall clock" },
    Ban { name: "time.perf_counter", pattern: r"\b(perf_counter|process_time|thread_time)(_ns)?\b|\btimeit\b", kinds: &[Python], excluded: OWN, why: QUEUE },
    Ban { name: "time.monotonic", pattern: r"\bmonotonic(_ns)?\b", kinds: &[Python], excluded: OWN, why: QUEUE },
    Ban { name: "date +%s", pattern: r"\bdate\b[^|;&]*\+\S*%[sN]", kinds: &[Shell], excluded: OWN, why: "the wall clock" },
    Ban { name: "$EPOCHREALTIME", pattern: r"\$\{?EPOCHREALTIME\b", kinds: &[Shell], excluded: OWN, why: "the wall clock" },
    Ban { name: "$EPOCHSECONDS", pattern: r"\$\{?(EPOCHSECONDS|SECONDS)\b", kinds: &[Shell], excluded: OWN, why: "the wall clock" },
];

static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    BANS.iter()
        .map(|b| Regex::new(b.pattern).expect("a valid ban pattern"))
        .collect()
});

/// The kind of a file, by its extension or, without one, its `#!` line.
pub fn kind_of(path: &Path, first_line: &str) -> Option<Kind> {
    match path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .as_deref()
    {
        Some(
            "cu" | "cuh" | "c" | "h" | "cc" | "cpp" | "cxx" | "hh" | "hpp" | "hxx" | "inl" | "ipp" | "tpp",
        ) => Some(C),
        Some("rs") => Some(Rust),
        Some("py") => Some(Python),
        Some("sh" | "bash") => Some(Shell),
        Some(_) => None,
        None if first_line.starts_with("#!") && first_line.contains("python") => Some(Python),
        None if first_line.starts_with("#!") && first_line.contains("sh") => Some(Shell),
        None => None,
    }
}

/// One line that names a host clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub path: PathBuf,
    pub line: usize,
    pub ban: &'static Ban,
}

impl From<&Hit> for Problem {
    fn from(hit: &Hit) -> Problem {
        Problem::at(&hit.path, hit.line, format!("{}: {}", hit.ban.name, hit.ban.why))
    }
}

/// Every hit in `text`, the text of `path` (relative to the repository), in
/// line order; none for a file of no kind the rule reads.
pub fn scan(path: &Path, text: &str) -> Vec<Hit> {
    let Some(kind) = kind_of(path, text.lines().next().unwrap_or("")) else {
        return Vec::new();
    };
    let excluded = |ban: &Ban| {
        ban.excluded.iter().any(|e| match e.strip_suffix('/') {
            Some(folder) => path.starts_with(folder),
            None => path == Path::new(e),
        })
    };
    let mut in_block = false;
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = without_comments(line, kind, &mut in_block);
        for (ban, pattern) in BANS.iter().zip(PATTERNS.iter()) {
            if ban.kinds.contains(&kind) && !excluded(ban) && pattern.is_match(&code) {
                hits.push(Hit {
                    path: path.to_path_buf(),
                    line: n + 1,
                    ban,
                });
            }
        }
    }
    hits
}

/// The line with its comments blanked: `/* */` (which may span lines, hence
/// `in_block`) and `//` to the end in C and Rust; in scripts, `#` to the end
/// where it starts the line or follows a space (`$#` and `${#x}` stay).
fn without_comments(line: &str, kind: Kind, in_block: &mut bool) -> String {
    if matches!(kind, Python | Shell) {
        let cut = line
            .char_indices()
            .find(|&(i, c)| c == '#' && (i == 0 || line[..i].ends_with(char::is_whitespace)));
        return line[..cut.map_or(line.len(), |(i, _)| i)].to_string();
    }
    let mut code = String::new();
    let mut rest = line;
    loop {
        if *in_block {
            match rest.find("*/") {
                Some(end) => (rest, *in_block) = (&rest[end + 2..], false),
                None => return code,
            }
        }
        let line_comment = rest.find("//");
        match rest.find("/*") {
            Some(start) if line_comment.is_none_or(|l| start < l) => {
                code.push_str(&rest[..start]);
                code.push(' ');
                (rest, *in_block) = (&rest[start + 2..], true);
            }
            _ => {
                code.push_str(&rest[..line_comment.unwrap_or(rest.len())]);
                return code;
            }
        }
    }
}

/// The allow-lists read together: for each file, the rows it may hit, and
/// where each entry was written.
#[derive(Debug, Default)]
pub struct AllowList {
    entries: BTreeMap<(PathBuf, String), (PathBuf, usize)>,
}

impl AllowList {
    /// Adds the lines `path: name[, name]: why` of the list at `source`,
    /// whose paths are relative to `base` (the root for the shared list, the
    /// lesson's directory for a lesson's); a malformed line is a problem.
    pub fn add(&mut self, text: &str, source: &Path, base: &Path) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate().map(|(n, l)| (n + 1, l.trim())) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, ": ");
            let (Some(path), Some(names), Some(why)) = (parts.next(), parts.next(), parts.next()) else {
                problems.push(Problem::at(source, n, "expected `path: name[, name]: why`"));
                continue;
            };
            if why.trim().is_empty() {
                problems.push(Problem::at(source, n, "expected `path: name[, name]: why`"));
            }
            for name in names.split(',').map(str::trim) {
                if !BANS.iter().any(|b| b.name == name) {
                    problems.push(Problem::at(
                        source,
                        n,
                        format!("`{name}` is no row of rule 1's table"),
                    ));
                }
                self.entries.insert(
                    (base.join(path.trim()), name.to_string()),
                    (source.to_path_buf(), n),
                );
            }
        }
        problems
    }

    /// The hits no entry allows, then every entry that allowed none.
    pub fn judge(&self, hits: &[Hit]) -> Vec<Problem> {
        let key = |h: &Hit| (h.path.clone(), h.ban.name.to_string());
        let mut problems: Vec<Problem> = hits
            .iter()
            .filter(|h| !self.entries.contains_key(&key(h)))
            .map(Problem::from)
            .collect();
        for ((path, name), (source, n)) in &self.entries {
            if !hits.iter().any(|h| &h.path == path && h.ban.name == name) {
                let message = format!(
                    "allows `{name}` in {}, which has none: remove the entry",
                    path.display()
                );
                problems.push(Problem::at(source, *n, message));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of a planted file that end in the marker `HIT`.
    fn marked(text: &str) -> Vec<usize> {
        let marked = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_end().ends_with("HIT"));
        marked.map(|(n, _)| n + 1).collect()
    }

    #[test]
    fn every_banned_form_is_named_by_path_and_line_in_each_language() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/planted");
        for name in ["clock.cu", "clock.rs", "clock.py", "clock.sh"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let path = Path::new("code/x").join(name);
            let hits = scan(&path, &text);
            let mut lines: Vec<usize> = hits.iter().map(|h| h.line).collect();
            lines.dedup();
            assert_eq!(lines, marked(&text), "{name}: {hits:?}");
            assert!(marked(&text).len() >= 6, "{name} plants too little");
            let first = Problem::from(&hits[0]).to_string();
            assert!(
                first.starts_with(&format!("code/x/{name}:{}: ", hits[0].line)),
                "{first}"
            );
        }
    }

    #[test]
    fn the_planted_files_are_the_rules_own_and_are_not_hits_where_they_live() {
        let rel = Path::new("crates/xtask/tests/planted/clock.cu");
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/planted/clock.cu"));
        assert_eq!(scan(rel, &text.unwrap()), []);
    }

    #[test]
    fn comments_name_clocks_freely_and_device_clocks_are_not_host_clocks() {
        let cu = "// std::chrono::steady_clock\n/* gettimeofday\n clock_gettime */ int x;\n\
                  __global__ void k(long long* t) { t[0] = clock64(); t[1] = clock(); }\n";
        assert_eq!(scan(Path::new("a.cu"), cu), []);
        let sh = "#!/bin/sh\n# date +%s and $EPOCHREALTIME\necho $# ${#x}\n";
        assert_eq!(scan(Path::new("run"), sh), []);
        let hits = scan(
            Path::new("a.cu"),
            "int a; /* x */ auto t = std::chrono::steady_clock::now(); // y\n",
        );
        assert_eq!(
            hits.iter().map(|h| h.ban.name).collect::<Vec<_>>(),
            ["chrono clock"]
        );
    }

    #[test]
    fn an_allowed_file_may_have_only_its_rows_and_an_entry_that_allows_nothing_is_an_error() {
        let mut allow = AllowList::default();
        let list = Path::new("code/d9/host-clock-allow.txt");
        let text = "# why\nt.cu: clock_gettime, <ctime>: Day 9 shows why\nu.cu: rdtsc: gone\n";
        assert_eq!(allow.add(text, list, Path::new("code/d9")), []);
        let hits = scan(
            Path::new("code/d9/t.cu"),
            "#include <ctime>\nclock_gettime(0, 0);\nstd::chrono::steady_clock c;\n",
        );
        let problems: Vec<String> = allow.judge(&hits).iter().map(Problem::to_string).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with("code/d9/t.cu:3: chrono clock: "),
            "{problems:?}"
        );
        assert_eq!(problems[1], "code/d9/host-clock-allow.txt:3: allows `rdtsc` in code/d9/u.cu, which has none: remove the entry");
    }

    #[test]
    fn allow_list_lines_need_a_known_row_and_a_reason() {
        let problems = AllowList::default().add(
            "a.cu: clock_gettime\nb.cu: sundial: why\n",
            Path::new("l.txt"),
            Path::new(""),
        );
        let lines: Vec<String> = problems.iter().map(Problem::to_string).collect();
        assert_eq!(
            lines,
            [
                "l.txt:1: expected `path: name[, name]: why`",
                "l.txt:2: `sundial` is no row of rule 1's table"
            ]
        );
    }
}
