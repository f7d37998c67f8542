//! Rule 1, "No host clocks": finds host clock use in code, not in comments or
//! string literals, in C, C++, CUDA and Rust files.
//!
//! An allow-list (`ci/host-clock-allow.txt`) names each file that may read a
//! host clock and exactly which findings it may have; anything else in that
//! file is still reported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::lexer::{code_only, Lang};
use crate::tokens::{tokenize, Token};

const WHY: &str = "host clocks time the queueing of GPU work, not the work; time kernels with \
                   events (CUDA-CODE-STYLE.md rule 1, \"No host clocks\"; exceptions go in \
                   ci/host-clock-allow.txt)";

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

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.col,
            self.what
        )?;
        if let Some(detail) = &self.detail {
            write!(f, " ({detail})")?;
        }
        write!(f, ": {WHY}")
    }
}

/// The file types the rule covers, and which syntax each uses.
pub fn lang_of(path: &Path) -> Option<Lang> {
    match path.extension()?.to_str()? {
        "cu" | "cuh" | "h" | "hpp" | "cpp" | "cc" => Some(Lang::C),
        "rs" => Some(Lang::Rust),
        _ => None,
    }
}

/// Every host clock in `src`, which is the text of `path`.
pub fn scan(path: &Path, src: &str, lang: Lang) -> Vec<Finding> {
    let code = code_only(src, lang);
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
    match lang {
        Lang::C => scan_c(src, &code, &mut add),
        Lang::Rust => scan_rust(&code, &mut add),
    }
    found.sort_by_key(|f| (f.line, f.col));
    found
}

type Add<'a> = dyn FnMut(usize, usize, &str, Option<String>) + 'a;

const C_HEADERS: [(&str, &str); 4] = [
    ("chrono", "<chrono>"),
    ("ctime", "<ctime>"),
    ("time.h", "<time.h>"),
    ("sys/time.h", "<sys/time.h>"),
];

const C_NAMES: [&str; 7] = [
    "steady_clock",
    "high_resolution_clock",
    "system_clock",
    "clock_gettime",
    "gettimeofday",
    "timespec_get",
    "CLOCKS_PER_SEC",
];

fn scan_c(src: &str, code: &str, add: &mut Add<'_>) {
    // Includes: the directive must be code (not commented out); the header
    // name is read from the original line, since "..." was blanked.
    for (n, (line, code_line)) in src.lines().zip(code.lines()).enumerate() {
        let directive = code_line.trim_start();
        let Some(rest) = directive.strip_prefix('#') else {
            continue;
        };
        if !rest.trim_start().starts_with("include") {
            continue;
        }
        let original = &line[line.len() - directive.len()..];
        let header = original
            .split(['<', '"'])
            .nth(1)
            .and_then(|h| h.split(['>', '"']).next())
            .unwrap_or("")
            .trim();
        if let Some((_, what)) = C_HEADERS.iter().find(|(h, _)| *h == header) {
            let col = line.len() - directive.len() + 1;
            add(n + 1, col, what, None);
        }
    }

    let tokens = tokenize(code);
    let device = device_token_ranges(&tokens);
    for (i, t) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| tokens[p].text.as_str());
        let next = tokens.get(i + 1).map(|t| t.text.as_str());
        if t.is("std") && next == Some("::") && tokens.get(i + 2).is_some_and(|t| t.is("chrono")) {
            add(t.line, t.col, "std::chrono", None);
        } else if C_NAMES.contains(&t.text.as_str()) {
            add(t.line, t.col, &t.text, None);
        } else if (t.is("clock") || t.is("time"))
            && next == Some("(")
            && !matches!(prev, Some(".") | Some("->"))
            && !device.iter().any(|r| r.contains(&i))
        {
            // A call of clock() or time() in host code. Inside __global__ or
            // __device__ functions clock() is the SM's cycle counter.
            add(
                t.line,
                t.col,
                &format!("{}()", t.text),
                Some("a host call".into()),
            );
        }
    }
}

/// Token index ranges of the bodies of `__global__`/`__device__` functions
/// (not `__host__ __device__` ones, which also run on the host).
fn device_token_ranges(tokens: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut pending_device = false;
    let mut pending_host = false;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.is("__global__") || t.is("__device__") {
            pending_device = true;
        } else if t.is("__host__") {
            pending_host = true;
        } else if t.is(";") {
            pending_device = false;
            pending_host = false;
        } else if t.is("{") {
            let end = matching_brace(tokens, i);
            if pending_device && !pending_host {
                ranges.push(i..end);
                i = end;
            }
            pending_device = false;
            pending_host = false;
        }
        i += 1;
    }
    ranges
}

fn matching_brace(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(open) {
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    tokens.len()
}

const RUST_CLOCKS: [&str; 2] = ["Instant", "SystemTime"];

fn scan_rust(code: &str, add: &mut Add<'_>) {
    let tokens = tokenize(code);
    // Names that mean a banned clock in this file, learned from `use`
    // items, and names that mean the std::time module.
    let mut clock_names: BTreeMap<String, &str> = BTreeMap::new();
    let mut time_modules: BTreeSet<String> = BTreeSet::new();
    let mut in_use = vec![false; tokens.len()];

    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is("use") {
            let end = (i..tokens.len())
                .find(|&j| tokens[j].is(";"))
                .unwrap_or(tokens.len());
            for flag in &mut in_use[i..end] {
                *flag = true;
            }
            for import in parse_use(&tokens[i + 1..end]) {
                let path: Vec<&str> = import.path.iter().map(|t| t.text.as_str()).collect();
                let path = strip_leading_colons(&path);
                let at = import.path.last().copied().unwrap_or(&tokens[i]);
                match path {
                    ["std", "time", "*"] => {
                        for clock in RUST_CLOCKS {
                            clock_names.insert(clock.to_string(), clock);
                        }
                    }
                    ["std", "time"] => {
                        time_modules.insert(import.alias.clone().unwrap_or_else(|| "time".into()));
                    }
                    ["std", "time", clock] if RUST_CLOCKS.contains(clock) => {
                        let clock = RUST_CLOCKS
                            .iter()
                            .find(|c| *c == clock)
                            .copied()
                            .unwrap_or("Instant");
                        let name = import.alias.clone().unwrap_or_else(|| clock.to_string());
                        let detail = import.alias.as_ref().map(|a| format!("imported as `{a}`"));
                        add(at.line, at.col, &format!("std::time::{clock}"), detail);
                        clock_names.insert(name, clock);
                    }
                    _ => {}
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }

    for (i, t) in tokens.iter().enumerate() {
        if in_use[i] {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| tokens[p].text.as_str());
        let next2 = |k: usize| tokens.get(i + k).map(|t| t.text.as_str());
        // A full path: std::time::Instant anywhere in code.
        if t.is("std") && next2(1) == Some("::") && next2(2) == Some("time") && next2(3) == Some("::") {
            if let Some(clock) = next2(4).filter(|c| RUST_CLOCKS.contains(c)) {
                add(t.line, t.col, &format!("std::time::{clock}"), None);
            }
            continue;
        }
        // Through a std::time module alias: time::Instant, t::SystemTime.
        if time_modules.contains(&t.text) && prev != Some("::") && next2(1) == Some("::") {
            if let Some(clock) = next2(2).filter(|c| RUST_CLOCKS.contains(c)) {
                add(
                    t.line,
                    t.col,
                    &format!("std::time::{clock}"),
                    Some(format!("through `{}`", t.text)),
                );
            }
            continue;
        }
        // A name a `use` bound to a clock (directly, renamed or by glob).
        if let Some(clock) = clock_names.get(&t.text) {
            if prev != Some("::") && prev != Some(".") {
                let detail = (t.text != *clock).then(|| format!("as `{}`", t.text));
                add(t.line, t.col, &format!("std::time::{clock}"), detail);
            }
        }
    }
}

fn strip_leading_colons<'a, 'b>(path: &'b [&'a str]) -> &'b [&'a str] {
    match path.first() {
        Some(&"::") => &path[1..],
        _ => path,
    }
}

/// One name a `use` item brings in: its full path and its `as` alias.
struct Import<'a> {
    path: Vec<&'a Token>,
    alias: Option<String>,
}

/// Expands a `use` tree (the tokens between `use` and `;`) into imports,
/// following `{...}` groups, `as` renames, `self` and globs.
fn parse_use(tokens: &[Token]) -> Vec<Import<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    parse_tree(tokens, &mut pos, Vec::new(), &mut out);
    out
}

fn parse_tree<'a>(tokens: &'a [Token], pos: &mut usize, prefix: Vec<&'a Token>, out: &mut Vec<Import<'a>>) {
    let mut path = prefix;
    while *pos < tokens.len() {
        let t = &tokens[*pos];
        if t.is("{") {
            *pos += 1;
            loop {
                parse_tree(tokens, pos, path.clone(), out);
                match tokens.get(*pos).map(|t| t.text.as_str()) {
                    Some(",") => *pos += 1,
                    Some("}") => {
                        *pos += 1;
                        break;
                    }
                    _ => break,
                }
                if tokens.get(*pos).is_some_and(|t| t.is("}")) {
                    *pos += 1;
                    break;
                }
            }
            return;
        } else if t.is(",") || t.is("}") {
            break;
        } else if t.is("as") {
            let alias = tokens.get(*pos + 1).map(|a| a.text.clone());
            *pos += 2;
            // `time::{self as tm}` renames the module itself.
            if path.last().is_some_and(|t| t.is("self")) {
                path.pop();
            }
            out.push(Import { path, alias });
            return;
        } else {
            if !t.is("::") || path.is_empty() {
                path.push(t);
            }
            *pos += 1;
        }
    }
    // `self` in a group names the module itself.
    if path.last().is_some_and(|t| t.is("self")) {
        path.pop();
    }
    if !path.is_empty() {
        out.push(Import { path, alias: None });
    }
}

/// The allow-list: for each file, the findings (by `what`) it may have.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AllowList {
    pub entries: BTreeMap<PathBuf, BTreeSet<String>>,
}

impl AllowList {
    /// Parses lines of `path: what[, what...]: why`; `#` starts a comment line.
    pub fn parse(text: &str) -> Result<AllowList, String> {
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, ": ");
            let (Some(path), Some(whats), Some(why)) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!(
                    "ci/host-clock-allow.txt:{}: expected `path: clock[, clock]: why`",
                    n + 1
                ));
            };
            if why.trim().is_empty() {
                return Err(format!("ci/host-clock-allow.txt:{}: give the reason", n + 1));
            }
            let whats = whats
                .split(',')
                .map(|w| w.trim().to_string())
                .filter(|w| !w.is_empty());
            entries.insert(PathBuf::from(path.trim()), whats.collect());
        }
        Ok(AllowList { entries })
    }

    /// Whether `finding` is sanctioned for its file.
    pub fn allows(&self, finding: &Finding) -> bool {
        self.entries
            .get(&finding.path)
            .is_some_and(|whats| whats.contains(&finding.what))
    }
}

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
    fn other_crates_instants_are_not_std_clocks() {
        let src = "use tokio::time::Instant;\nfn a() { Instant::now(); my::time::Instant::now(); }";
        assert_eq!(found(src, Lang::Rust), Vec::<String>::new());
    }

    #[test]
    fn findings_print_path_line_col_what_and_why() {
        let f = scan(
            Path::new("code/x/x.cu"),
            "int a;\n  gettimeofday(&t, 0);",
            Lang::C,
        );
        let line = f[0].to_string();
        assert!(
            line.starts_with("code/x/x.cu:2:3: gettimeofday: host clocks time"),
            "{line}"
        );
        assert!(line.contains("CUDA-CODE-STYLE.md rule 1"), "{line}");
    }

    #[test]
    fn an_allowed_file_may_use_only_its_own_clock() {
        let allow =
            AllowList::parse("# comment\ncode/d9/t.cu: clock_gettime, <ctime>: Day 9 shows why\n").unwrap();
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
        assert!(AllowList::parse("a.cu: clock_gettime").is_err());
        assert!(AllowList::parse("a.cu: clock_gettime: ").is_err());
    }
}
