//! `course-rules`: the course's rules, run by hand.
//!
//! ```text
//! course-rules check [--no-build]   every rule; exit 1 on any finding
//! course-rules snippet FILE#NAME    print one snippet
//! course-rules sync                 rewrite every quote in the Markdown files
//! ```

use std::process::ExitCode;

use course_rules::{files, quotes, read_text, repository_root};

const USAGE: &str = "usage: course-rules check [--no-build] | snippet FILE#NAME | sync";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = repository_root();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["check"] => check(&root, true),
        ["check", "--no-build"] => check(&root, false),
        ["snippet", target] => match target.split_once('#') {
            Some((file, name)) => quotes::snippet(&root, file, name).map(|text| print!("{text}")),
            None => Err(format!("`{target}`: expected FILE#NAME")),
        },
        ["sync"] => sync(&root),
        ["-h"] | ["--help"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn check(root: &std::path::Path, build: bool) -> Result<(), String> {
    let nvcc = if build {
        Some(course_rules::find_nvcc(root)?)
    } else {
        None
    };
    let mut problems = course_rules::check_host_clocks(root);
    problems.extend(course_rules::check_verbatim(root));
    problems.extend(course_rules::check_snippets(root));
    problems.extend(course_rules::check_lessons(root, nvcc.as_deref()));
    for p in &problems {
        println!("{p}");
    }
    match problems.len() {
        0 => Ok(()),
        n => Err(format!("{n} finding(s)")),
    }
}

fn sync(root: &std::path::Path) -> Result<(), String> {
    for rel in files::project_files(root) {
        if rel.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let path = root.join(&rel);
        let text = read_text(&path)?;
        let synced = quotes::sync(root, &text).map_err(|e| format!("{}: {e}", rel.display()))?;
        if synced != text {
            std::fs::write(&path, synced).map_err(|e| format!("{}: {e}", rel.display()))?;
            println!("rewrote {}", rel.display());
        }
    }
    Ok(())
}
