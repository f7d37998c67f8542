//! Rule 1, "No host clocks": finds host clock use in code, not in comments or
//! string literals, in C, C++, CUDA, Rust, Python and shell files.
//!
//! The banned forms are a table (`names`), listed form by form in
//! CUDA-CODE-STYLE.md; `cxx` and `rust` find them in each language's code,
//! `hidden` in the assembly, name strings and clock files the lexer blanks,
//! and `script` in Python and shell scripts; `scan` runs the ones a file's
//! language needs, and each reports a `finding`. `project` says which files
//! are read, in which language, including Rust brought in by `include!` or
//! `#[path]`. An allow-list (`allow_list`: `ci/host-clock-allow.txt` for the
//! shared files, and a lesson's own `code/<lesson>/host-clock-allow.txt` for
//! its files) names each file that may read a host clock and exactly which
//! findings it may have; anything else in that file is still reported.

mod allow_list;
mod cxx;
mod finding;
mod hidden;
mod names;
mod project;
mod rust;
mod scan;
mod script;

pub use allow_list::AllowList;
pub use finding::Finding;
pub use project::{brought_in, lang_of, scan_project, source_of};
pub use scan::{scan, Source};
pub use script::Script;

#[cfg(test)]
mod planted;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::lexer::Lang;
    use crate::problem::Problem;

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
