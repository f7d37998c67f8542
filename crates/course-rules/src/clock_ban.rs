//! Rule 1, "No host clocks": finds host clock use in code, not in comments or
//! string literals, in C, C++, CUDA, Rust, Python and shell files.
//!
//! The banned forms are a table (`names`), listed form by form in
//! CUDA-CODE-STYLE.md; `cxx` and `rust` find them in each language's code,
//! `hidden` in the assembly, name strings and clock files the lexer blanks,
//! and `script` in Python and shell scripts. `project` says which files are
//! read, in which language, including Rust brought in by `include!` or
//! `#[path]`. An allow-list (`ci/host-clock-allow.txt` for the shared files,
//! and a lesson's own `code/<lesson>/host-clock-allow.txt` for its files)
//! names each file that may read a host clock and exactly which findings it
//! may have; anything else in that file is still reported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::lexer::{code_only, Lang};
use crate::problem::{Problem, Problems};

mod cxx;
mod hidden;
mod names;
mod project;
mod rust;
mod script;

pub use project::{brought_in, scan_project, source_of};
pub use script::Script;

const WHY: &str = "host clocks time the queueing of GPU work, not the work; time kernels with \
                   events (CUDA-CODE-STYLE.md rule 1, \"No host clocks\"; exceptions go in \
                   the lesson's host-clock-allow.txt)";

/// One host clock found in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    /// The canonical name of what was found, as the allow-list spells it:
    /// `clock_gettime`, `<ctime>`, `std::chrono`, `std::time::Instant`, ...
    pub what: String,
    /// How it appeared, when that differs from `what` (a rename, a glob).
    pub detail: Option<String>,
}

/// A finding as the rules report it: `path:line:col: what (detail): why`.
impl From<Finding> for Problem {
    fn from(finding: Finding) -> Problem {
        let message = match &finding.detail {
            Some(detail) => format!("{} ({detail}): {WHY}", finding.what),
            None => format!("{}: {WHY}", finding.what),
        };
        Problem {
            path: Some(finding.path),
            line: Some(finding.line),
            col: Some(finding.col),
            message,
        }
    }
}

/// The file types the rule covers, and which syntax each uses.
pub fn lang_of(path: &Path) -> Option<Lang> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "cu" | "cuh" | "c" | "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "inl"
        | "ipp" | "tpp" => Some(Lang::C),
        "rs" => Some(Lang::Rust),
        _ => None,
    }
}

/// A language rule 1 reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// C, C++, CUDA or Rust.
    Code(Lang),
    Script(Script),
}

impl From<Lang> for Source {
    fn from(lang: Lang) -> Source {
        Source::Code(lang)
    }
}

impl From<Script> for Source {
    fn from(script: Script) -> Source {
        Source::Script(script)
    }
}

/// Every host clock in `src`, which is the text of `path`.
pub fn scan(path: &Path, src: &str, source: impl Into<Source>) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut add = |line: usize, col: usize, what: &str, detail: Option<String>| {
        found.push(Finding {
            path: path.to_path_buf(),
            line,
            col,
            what: what.to_string(),
            detail,
        });
    };
    match source.into() {
        Source::Code(lang) => {
            let code = code_only(src, lang);
            match lang {
                Lang::C => cxx::scan(src, &code, &mut add),
                Lang::Rust => rust::scan(src, &code, &mut add),
            }
            for (line, col, file) in hidden::clock_files(src, &code) {
                add(line, col, file, Some("a file that holds a clock".into()));
            }
        }
        Source::Script(script) => script::scan(src, script, &mut add),
    }
    found.sort_by_key(|f| (f.line, f.col));
    found
}

type Add<'a> = dyn FnMut(usize, usize, &str, Option<String>) + 'a;

/// The allow-list: for each file, the findings (by `what`) it may have.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AllowList {
    pub entries: BTreeMap<PathBuf, BTreeSet<String>>,
}

impl AllowList {
    /// Parses lines of `path: what[, what...]: why` (`#` starts a comment
    /// line) from the list at `source`, whose paths are relative to `base`:
    /// the repository root for `ci/host-clock-allow.txt`, the lesson's
    /// directory for a lesson's own `host-clock-allow.txt`.
    pub fn parse(text: &str, source: &Path, base: &Path) -> Result<AllowList, Problems> {
        let mut list = AllowList::default();
        list.add(text, source, base)?;
        Ok(list)
    }

    /// Adds the entries of another list (see [`AllowList::parse`]), reporting
    /// every malformed line, not the first.
    pub fn add(&mut self, text: &str, source: &Path, base: &Path) -> Result<(), Problems> {
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |message: &str| Problem::at(source, n + 1, message);
            let mut parts = line.splitn(3, ": ");
            let (Some(path), Some(whats), Some(why)) = (parts.next(), parts.next(), parts.next()) else {
                problems.push(at("expected `path: clock[, clock]: why`"));
                continue;
            };
            if why.trim().is_empty() {
                problems.push(at("give the reason"));
                continue;
            }
            let whats = whats
                .split(',')
                .map(|w| w.trim().to_string())
                .filter(|w| !w.is_empty());
            self.entries.insert(base.join(path.trim()), whats.collect());
        }
        Problems::or_ok(problems, ())
    }

    /// Whether `finding` is sanctioned for its file.
    pub fn allows(&self, finding: &Finding) -> bool {
        self.entries
            .get(&finding.path)
            .is_some_and(|whats| whats.contains(&finding.what))
    }
}

#[cfg(test)]
mod planted;

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str, lang: Lang) -> Vec<String> {
        scan(Path::new("f"), src, lang)
            .into_iter()
            .map(|f| format!("{}:{} {}", f.line, f.col, f.what))
            .collect()
    }

    #[test]
    fn c_host_clocks_in_code_are_found() {
        let src = "#include <chrono>\n#include <ctime>\n#include \"sys/time.h\"\n\
                   auto t = std::chrono::steady_clock::now();\n\
                   clock_gettime(CLOCK_MONOTONIC, &ts); gettimeofday(&tv, 0);\n\
                   long c = clock() / CLOCKS_PER_SEC; time_t s = std::time(nullptr); timespec_get(&ts, 1);\n\
                   std::chrono::high_resolution_clock x; std::chrono::system_clock y;";
        let f = found(src, Lang::C);
        for want in [
            "1:1 <chrono>",
            "2:1 <ctime>",
            "3:1 <sys/time.h>",
            "4:10 std::chrono",
            "4:23 steady_clock",
            "5:1 clock_gettime",
            "5:38 gettimeofday",
            "6:10 clock()",
            "6:20 CLOCKS_PER_SEC",
            "6:52 time()",
            "6:67 timespec_get",
            "7:14 high_resolution_clock",
            "7:52 system_clock",
        ] {
            assert!(f.contains(&want.to_string()), "{want} missing from {f:?}");
        }
    }

    #[test]
    fn the_same_words_in_comments_and_strings_are_not_found() {
        let src = "// #include <chrono>\n/* std::chrono::steady_clock clock() */\n\
                   printf(\"clock_gettime gettimeofday time()\");\n  // time(nullptr)\n\
                   const char* s = R\"(CLOCKS_PER_SEC)\";";
        assert_eq!(found(src, Lang::C), Vec::<String>::new());
        let rs = "//! std::time::Instant is banned\nfn f() { let s = \"Instant::now()\"; }\n\
                  /* use std::time::SystemTime; */";
        assert_eq!(found(rs, Lang::Rust), Vec::<String>::new());
    }

    #[test]
    fn device_clock_calls_are_not_host_clocks() {
        let src = "__global__ void k(long* t) { t[0] = clock64(); t[1] = clock(); }\n\
                   __device__ long d() { return clock(); }\n\
                   __host__ __device__ long hd() { return clock(); }\n\
                   long h() { return clock(); }";
        assert_eq!(found(src, Lang::C), ["3:40 clock()", "4:19 clock()"]);
    }

    #[test]
    fn member_functions_named_time_are_not_clocks() {
        assert_eq!(
            found("x = timer.time(); y = p->clock();", Lang::C),
            Vec::<String>::new()
        );
    }

    #[test]
    fn rust_clocks_are_found_through_every_kind_of_import() {
        let src = "use std::time::Instant;\nfn a() { Instant::now(); }\n\
                   use std::time::{Duration, SystemTime as Wall};\nfn b() { Wall::now(); }\n\
                   use std::time as t;\nfn c() { t::Instant::now(); }\n\
                   fn d() { std::time::SystemTime::now(); ::std::time::Instant::now(); }\n\
                   use std::{fmt, time::{self as tm}};\nfn e() { tm::SystemTime::now(); }";
        let f = found(src, Lang::Rust);
        for want in [
            "1:16 std::time::Instant",
            "2:10 std::time::Instant",
            "3:27 std::time::SystemTime",
            "4:10 std::time::SystemTime",
            "6:10 std::time::Instant",
            "7:10 std::time::SystemTime",
            "7:42 std::time::Instant",
            "9:10 std::time::SystemTime",
        ] {
            assert!(f.contains(&want.to_string()), "{want} missing from {f:?}");
        }
        assert!(!f.iter().any(|x| x.contains("Duration")), "{f:?}");
    }

    #[test]
    fn a_glob_import_makes_the_bare_names_clocks() {
        let f = found(
            "use std::time::*;\nfn a() { let t = Instant::now(); }",
            Lang::Rust,
        );
        assert_eq!(f, ["2:18 std::time::Instant"]);
    }

    #[test]
    fn other_crates_clocks_are_found_under_their_own_names() {
        let src = "use tokio::time::Instant;\nfn a() { Instant::now(); my::time::Instant::now(); }\n\
                   use my::time::Instant as Mine;\nfn b(i: Mine) -> std::time::Duration { i.since() }";
        assert_eq!(
            found(src, Lang::Rust),
            [
                "1:18 tokio::time::Instant",
                "2:10 tokio::time::Instant",
                "2:26 Instant::now"
            ]
        );
    }

    #[test]
    fn more_c_and_cuda_source_extensions_are_covered() {
        for name in ["a.c", "a.cxx", "a.hxx", "a.hh", "a.inl", "a.CU", "a.cuh"] {
            assert_eq!(lang_of(Path::new(name)), Some(Lang::C), "{name}");
        }
        assert_eq!(lang_of(Path::new("a.py")), None);
    }

    #[test]
    fn findings_print_path_line_col_what_and_why() {
        let f = scan(
            Path::new("code/x/x.cu"),
            "int a;\n  gettimeofday(&t, 0);",
            Lang::C,
        );
        let line = Problem::from(f[0].clone()).to_string();
        assert!(
            line.starts_with("code/x/x.cu:2:3: gettimeofday: host clocks time"),
            "{line}"
        );
        assert!(line.contains("CUDA-CODE-STYLE.md rule 1"), "{line}");
    }

    #[test]
    fn an_allowed_file_may_use_only_its_own_clock() {
        let allow = AllowList::parse(
            "# comment\nt.cu: clock_gettime, <ctime>: Day 9 shows why\n",
            Path::new("code/d9/host-clock-allow.txt"),
            Path::new("code/d9"),
        )
        .unwrap();
        let f = scan(
            Path::new("code/d9/t.cu"),
            "#include <ctime>\nclock_gettime(0, 0); auto x = std::chrono::steady_clock::now();",
            Lang::C,
        );
        let denied: Vec<&str> = f
            .iter()
            .filter(|f| !allow.allows(f))
            .map(|f| f.what.as_str())
            .collect();
        assert_eq!(denied, ["std::chrono", "steady_clock"]);
        let elsewhere = scan(Path::new("code/other.cu"), "clock_gettime(0, 0);", Lang::C);
        assert!(!allow.allows(&elsewhere[0]));
    }

    #[test]
    fn allow_list_lines_need_a_reason() {
        let (source, base) = (Path::new("code/x/host-clock-allow.txt"), Path::new("code/x"));
        let problems =
            AllowList::parse("a.cu: clock_gettime\nb.cu: clock_gettime: \n", source, base).unwrap_err();
        let expected = |line| Problem::at(source, line, "expected `path: clock[, clock]: why`");
        assert_eq!(problems.0, [expected(1), expected(2)]);
        assert_eq!(
            problems.0[0].to_string(),
            "code/x/host-clock-allow.txt:1: expected `path: clock[, clock]: why`"
        );
    }
}
