//! `cargo xtask new-lesson`: a new lesson from one command.
//!
//! It writes `code/<lesson>/` from the templates in `new_lesson/templates/`
//! (the `.cu` carrying the course's verbatim blocks, copied from the lessons
//! that already carry them, rule 8), then adds the lesson's line to the
//! registry (`lessons::registry_manifest`) and to the map in the repository's
//! README. The skeleton times one kernel and builds, passes its command-line
//! and conformance tests and every repository check as it stands; the
//! lesson's own kernels, claims and README replace its parts.
//!
//! `--remove` takes back a lesson the command made, while every file is as
//! it wrote it; an edited lesson is refused, so no work is lost.
//!
//! Not for: the lesson's content (its kernels, claims, causes and prose),
//! recording its evidence (`ci/gpu-session.sh`), or checking a lesson (the
//! rest of this crate and its report package's tests do).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::rules::blocks::{self, Kind};
use crate::rules::{lessons, read_text, verbatim, Problem};

/// The repository README, whose map lists every lesson.
pub const README: &str = "README.md";

/// `cargo xtask new-lesson`'s command line.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The lesson: `dayNN-topic` (a day of the course) or `ref-topic` (a
    /// reference page), lower case, words joined by hyphens.
    #[arg(value_name = "LESSON", value_parser = Name::parse)]
    pub lesson: Name,
    /// Its C++ program: PROGRAM.cu, PROGRAM.h and the binary PROGRAM
    /// [default: the topic's first word].
    #[arg(long, value_name = "PROGRAM", value_parser = parse_program)]
    pub program: Option<String>,
    /// Remove the lesson instead, with its registry and map lines: only a
    /// lesson still exactly as this command made it.
    #[arg(long)]
    pub remove: bool,
}

/// A lesson's name, as the course spells them: `day09-timing`, `ref-warm-up`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub name: String,
    /// The day's digits as written (`09`), for a `dayNN-` lesson.
    pub day: Option<String>,
    pub topic: String,
}

/// The longest lesson name and program name, so that every generated line
/// that holds one stays within rustfmt's widths as written, and the lesson
/// is `cargo fmt`-clean whatever its names.
pub const MAX_NAME: usize = 30;
pub const MAX_PROGRAM: usize = 16;

impl Name {
    /// `dayNN-topic` (two or three digits) or `ref-topic`, each topic word
    /// lower-case letters and digits, at most [`MAX_NAME`] characters.
    pub fn parse(text: &str) -> Result<Name, NotALessonName> {
        let bad = || NotALessonName(text.to_string());
        if text.len() > MAX_NAME {
            return Err(bad());
        }
        let (head, topic) = text.split_once('-').ok_or_else(bad)?;
        let words_ok = topic
            .split('-')
            .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        let day = match head.strip_prefix("day") {
            Some(digits) if (2..=3).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) => {
                Some(digits.to_string())
            }
            _ if head == "ref" => None,
            _ => return Err(bad()),
        };
        if !words_ok || !topic.starts_with(|c: char| c.is_ascii_lowercase()) {
            return Err(bad());
        }
        Ok(Name {
            name: text.to_string(),
            day,
            topic: topic.to_string(),
        })
    }
}

/// A name that is not `dayNN-topic` or `ref-topic`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a lesson name: expected `dayNN-topic` or `ref-topic` (lower case, words joined by hyphens, at most {MAX_NAME} characters, e.g. day12-shared-memory)")]
pub struct NotALessonName(pub String);

/// A program name that is not a lower-case C identifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a program name: lower-case letters, digits and `_`, starting with a letter, at most {MAX_PROGRAM} characters")]
pub struct NotAProgramName(pub String);

/// A C++ program's name: a C identifier in lower case, at most
/// [`MAX_PROGRAM`] characters.
fn parse_program(text: &str) -> Result<String, NotAProgramName> {
    let ok = text.len() <= MAX_PROGRAM
        && text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    match ok {
        true => Ok(text.to_string()),
        false => Err(NotAProgramName(text.to_string())),
    }
}

/// Why the command made or removed nothing.
#[derive(Debug, thiserror::Error)]
pub enum NewLessonError {
    #[error("{} already exists; choose another name, or take back a lesson this command made with --remove", dir.display())]
    Exists { dir: PathBuf },
    #[error("{} already registers {lesson}; remove its line first", manifest.display())]
    Registered { lesson: String, manifest: PathBuf },
    #[error("{} already names a package `{package}`, which the lesson would make again; choose another name", manifest.display())]
    PackageTaken { package: String, manifest: PathBuf },
    #[error("there is no lesson {lesson} to remove ({} does not exist)", dir.display())]
    NoLesson { lesson: String, dir: PathBuf },
    #[error("{} is not as new-lesson wrote it; remove the lesson by hand (git rm, git clean) if you mean to lose that work", path.display())]
    Edited { path: PathBuf },
    #[error("the topic's first word is no program name ({why}); name the program with --program")]
    NoProgram { why: NotAProgramName },
    #[error("no registered lesson's .cu carries the verbatim block `{name}` to copy")]
    NoVerbatim { name: String },
    #[error("{}: no map to add the lesson to (a line `code/` in a ``` block)", path.display())]
    NoMap { path: PathBuf },
    #[error(transparent)]
    Lessons(#[from] lessons::LessonError),
    #[error(transparent)]
    Read(#[from] Problem),
    #[error("writing {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl NewLessonError {
    /// The command line asked for something that cannot be: clap's usage
    /// error and exit code 2, rather than a failure to run.
    fn is_usage(&self) -> bool {
        matches!(
            self,
            NewLessonError::Exists { .. }
                | NewLessonError::Registered { .. }
                | NewLessonError::PackageTaken { .. }
                | NewLessonError::NoLesson { .. }
                | NewLessonError::NoProgram { .. }
        )
    }
}

/// What the lesson is, every file and line the command writes for it.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `code/<lesson>`, relative to the root.
    pub dir: PathBuf,
    /// Each file, relative to the lesson's directory, and its text.
    pub files: Vec<(PathBuf, String)>,
    /// The registry manifest, relative to the root, and the lesson's line in it.
    pub registry: (PathBuf, String),
    /// The lesson's line in the README's map.
    pub map_line: String,
}

/// `(path, template)` for each of `paths`, read from `new_lesson/templates/<path>.tmpl`.
macro_rules! templates {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("new_lesson/templates/", $path, ".tmpl")))),*]
    };
}

/// Every template, by the path it is written to (`PROGRAM` is the program's name).
const TEMPLATES: &[(&str, &str)] = templates![
    "PROGRAM.cu",
    "PROGRAM.h",
    "build.rs",
    "Cargo.toml",
    "README.md",
    "src/main.rs",
    "tests/lesson.rs",
    "tools/Cargo.toml",
    "tools/README.md",
    "tools/src/lib.rs",
];

/// The lesson `name` with the program `program`, as the checkout at `root`
/// would get it: the verbatim blocks come from its registered lessons.
pub fn plan(root: &Path, name: &Name, program: &str) -> Result<Plan, NewLessonError> {
    let lesson = name.name.as_str();
    let (title, prefix, claim) = match &name.day {
        Some(day) => (
            format!("Day {}", day.trim_start_matches('0')),
            format!("day{day}_"),
            format!("d{day}"),
        ),
        None => (lesson.to_string(), format!("{program}_"), program.to_string()),
    };
    let mut keys: Vec<(String, String)> = vec![
        ("lesson".into(), lesson.into()),
        ("program".into(), program.into()),
        ("prefix".into(), prefix),
        (
            "guard".into(),
            format!("{}_H", lesson.replace('-', "_").to_uppercase()),
        ),
        ("crate".into(), format!("{}_report", lesson.replace('-', "_"))),
        ("title".into(), title),
        ("claim".into(), claim),
    ];
    for (block, _) in verbatim::DECLARED {
        keys.push((format!("verbatim:{block}"), verbatim_block(root, block)?));
    }
    let files = TEMPLATES
        .iter()
        .map(|(path, template)| {
            (
                PathBuf::from(path.replace("PROGRAM", program)),
                fill(template, &keys),
            )
        })
        .collect();
    let manifest = ::lessons::registry_manifest(Path::new(""));
    let up = "../".repeat(manifest.parent().map_or(0, |d| d.components().count()));
    let name_col = format!("{lesson}/");
    Ok(Plan {
        dir: Path::new("code").join(lesson),
        files,
        registry: (
            manifest,
            format!("{lesson}-report = {{ path = \"{up}code/{lesson}/tools\" }}"),
        ),
        map_line: format!(
            "  {name_col}{:pad$}the lesson in a few words (to write): {program}.cu, {program}.h, Rust twin, tools/, README",
            "",
            pad = 20usize.saturating_sub(name_col.len()).max(2)
        ),
    })
}

/// `template` with every `{{key}}` replaced by its value.
fn fill(template: &str, keys: &[(String, String)]) -> String {
    keys.iter().fold(template.to_string(), |text, (key, value)| {
        text.replace(&format!("{{{{{key}}}}}"), value)
    })
}

/// The verbatim block `name`, markers and all, as the first registered
/// lesson that carries it has it: the copy rule 8 holds every other to.
fn verbatim_block(root: &Path, name: &str) -> Result<String, NewLessonError> {
    for lesson in lessons::lessons(root)? {
        let text = read_text(&lesson.cu)?;
        let Ok(found) = blocks::parse(&lesson.cu, &text, Kind::Verbatim) else {
            continue;
        };
        if let Some(block) = found.into_iter().find(|b| b.name == name) {
            let mut out = format!("// verbatim: {name}\n");
            for line in &block.lines {
                out.push_str(line);
                out.push('\n');
            }
            out.push_str("// end verbatim");
            return Ok(out);
        }
    }
    Err(NewLessonError::NoVerbatim { name: name.into() })
}

/// The command: makes the lesson, or with `--remove` takes it back. A usage
/// error prints as clap prints one and exits 2.
pub fn run(root: &Path, args: &Args) -> anyhow::Result<ExitCode> {
    let done = match args.remove {
        false => create(root, args),
        true => remove(root, args),
    };
    match done {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) if e.is_usage() => {
            let mut command = <Args as clap::Args>::augment_args(clap::Command::new("xtask new-lesson"));
            // Printing to stderr can only fail where nothing could be said.
            let _ = command.error(clap::error::ErrorKind::ValueValidation, e).print();
            Ok(ExitCode::from(2))
        }
        Err(e) => Err(e).with_context(|| match args.remove {
            false => format!("making the lesson {}", args.lesson.name),
            true => format!("removing the lesson {}", args.lesson.name),
        }),
    }
}

/// The program's name: `--program`, or the topic's first word where that
/// is a program name.
fn program_of(args: &Args) -> Result<String, NewLessonError> {
    match &args.program {
        Some(program) => Ok(program.clone()),
        None => {
            let word = args.lesson.topic.split('-').next().unwrap_or_default();
            parse_program(word).map_err(|why| NewLessonError::NoProgram { why })
        }
    }
}

fn create(root: &Path, args: &Args) -> Result<Vec<String>, NewLessonError> {
    let lesson = &args.lesson.name;
    let rel = Path::new("code").join(lesson);
    if root.join(&rel).exists() {
        return Err(NewLessonError::Exists { dir: rel });
    }
    // The lesson makes two packages, `<lesson>` and `<lesson>-report`; a
    // name another package has (`day09-timing-report` is Day 9's tools)
    // would leave a workspace no cargo command reads.
    for package in [lesson.clone(), format!("{lesson}-report")] {
        if let Some(manifest) = package_manifest(root, &package) {
            return Err(NewLessonError::PackageTaken { package, manifest });
        }
    }
    let dir = root.join(rel);
    let plan = plan(root, &args.lesson, &program_of(args)?)?;
    let manifest = root.join(&plan.registry.0);
    let registry = read_text(&manifest)?;
    if ::lessons::report_packages(&registry).contains(lesson) {
        return Err(NewLessonError::Registered {
            lesson: lesson.clone(),
            manifest: plan.registry.0,
        });
    }
    let readme_path = root.join(README);
    let readme = with_map_line(&readme_path, &read_text(&readme_path)?, &plan.map_line)?;
    let registry = with_registry_line(&registry, &plan.registry.1);
    for (path, text) in &plan.files {
        write(&dir.join(path), text)?;
    }
    write(&manifest, &registry)?;
    write(&readme_path, &readme)?;
    Ok(vec![
        format!(
            "made {lesson}: {} ({} files), its line in {} and in {README}'s map",
            plan.dir.display(),
            plan.files.len(),
            plan.registry.0.display()
        ),
        format!("build and test it: cargo build -p {lesson} && cargo nextest run -p {lesson} -p {lesson}-report"),
        format!("then write its .cu, claims and README (README.md, \"Adding a lesson\"); take it back unedited with: cargo xtask new-lesson {lesson} --remove"),
    ])
}

fn remove(root: &Path, args: &Args) -> Result<Vec<String>, NewLessonError> {
    let lesson = &args.lesson.name;
    let rel = Path::new("code").join(lesson);
    if !root.join(&rel).is_dir() {
        return Err(NewLessonError::NoLesson {
            lesson: lesson.clone(),
            dir: rel,
        });
    }
    let dir = root.join(rel);
    // The program the lesson was made with: its one .cu, unless named.
    let program = match args.program.clone().or_else(|| lone_cu_stem(&dir)) {
        Some(program) => program,
        None => program_of(args)?,
    };
    let plan = plan(root, &args.lesson, &program)?;
    let planned: Vec<&PathBuf> = plan.files.iter().map(|(p, _)| p).collect();
    if let Some(extra) = crate::files::project_files(&dir)
        .iter()
        .find(|p| !planned.contains(p))
    {
        return Err(NewLessonError::Edited {
            path: plan.dir.join(extra),
        });
    }
    // A lesson made half (the command cut short) is taken back too: a file
    // it had not written yet is missing, and the one it was writing holds
    // the start of its text. Its registry and map lines come last, so they
    // may be missing as well.
    for (path, text) in &plan.files {
        let full = dir.join(path);
        if full.is_file() && !text.starts_with(&read_text(&full)?) {
            return Err(NewLessonError::Edited {
                path: plan.dir.join(path),
            });
        }
    }
    let manifest = root.join(&plan.registry.0);
    let registry = read_text(&manifest)?;
    let readme_path = root.join(README);
    let readme = read_text(&readme_path)?;
    // The lesson's lines, found by its name: the map line's words are the
    // author's to write, and go with the lesson.
    let without = |text: &str, is_its: &dyn Fn(&str) -> bool| {
        let kept: Vec<&str> = text.lines().filter(|l| !is_its(l)).collect();
        kept.join("\n") + if text.ends_with('\n') { "\n" } else { "" }
    };
    let registered = |l: &str| ::lessons::report_packages(l) == [lesson.as_str()];
    let mapped = |l: &str| l.starts_with(&format!("  {lesson}/ "));
    write(&manifest, &without(&registry, &registered))?;
    write(&readme_path, &without(&readme, &mapped))?;
    std::fs::remove_dir_all(&dir).map_err(|source| NewLessonError::Write { path: dir, source })?;
    Ok(vec![format!(
        "removed {lesson}: {}, its line in {} and in {README}'s map (Cargo.lock drops its packages at the next cargo build)",
        plan.dir.display(),
        plan.registry.0.display()
    )])
}

/// The stem of the one `.cu` at the top of `dir`, if there is one.
fn lone_cu_stem(dir: &Path) -> Option<String> {
    let cus: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    match cus.as_slice() {
        [one] => one.file_stem().map(|s| s.to_string_lossy().into_owned()),
        _ => None,
    }
}

/// `registry` with `line` among its registry lines, in name order (after
/// the last of them where it sorts last; at the end where there are none).
fn with_registry_line(registry: &str, line: &str) -> String {
    let mut lines: Vec<&str> = registry.lines().collect();
    let is_entry = |l: &&str| !::lessons::report_packages(l).is_empty();
    let at = lines
        .iter()
        .position(|l| is_entry(l) && *l > line)
        .or_else(|| lines.iter().rposition(is_entry).map(|i| i + 1))
        .unwrap_or(lines.len());
    lines.insert(at, line);
    lines.join("\n") + "\n"
}

/// `readme` with `line` among the map's lessons (the indented lines after
/// the map's `code/`), in name order.
fn with_map_line(path: &Path, readme: &str, line: &str) -> Result<String, NewLessonError> {
    let mut lines: Vec<&str> = readme.lines().collect();
    let code = lines
        .iter()
        .position(|l| *l == "code/")
        .ok_or_else(|| NewLessonError::NoMap {
            path: path.to_path_buf(),
        })?;
    let lessons_end = lines[code + 1..]
        .iter()
        .position(|l| !l.starts_with("  "))
        .map_or(lines.len(), |i| code + 1 + i);
    let at = lines[code + 1..lessons_end]
        .iter()
        .position(|l| l.trim_start() > line.trim_start())
        .map_or(lessons_end, |i| code + 1 + i);
    lines.insert(at, line);
    Ok(lines.join("\n") + "\n")
}

/// The manifest, relative to `root`, of the project's package named `package`.
fn package_manifest(root: &Path, package: &str) -> Option<PathBuf> {
    let names = |text: String| {
        let doc: toml_edit::DocumentMut = text.parse().ok()?;
        Some(doc.get("package")?.get("name")?.as_str()? == package)
    };
    crate::files::project_files(root).into_iter().find(|rel| {
        rel.ends_with("Cargo.toml")
            && std::fs::read_to_string(root.join(rel)).ok().and_then(names) == Some(true)
    })
}

fn write(path: &Path, text: &str) -> Result<(), NewLessonError> {
    let wrote = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text));
    wrote.map_err(|source| NewLessonError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_names_are_the_courses_two_shapes() {
        let day = Name::parse("day12-shared-memory").unwrap();
        assert_eq!(
            (day.day.as_deref(), day.topic.as_str()),
            (Some("12"), "shared-memory")
        );
        let reference = Name::parse("ref-warm-up").unwrap();
        assert_eq!((reference.day, reference.topic.as_str()), (None, "warm-up"));
        for bad in [
            "day12",
            "Day12-x",
            "day1-x",
            "day1234-x",
            "day12-",
            "day12--x",
            "day12-X",
            "day12-x_y",
            "lesson-x",
            "ref-",
            "ref-9x",
            "dayab-x",
            "",
            "day12-a-name-longer-than-thirty1",
        ] {
            let err = Name::parse(bad).unwrap_err().to_string();
            assert!(
                err.contains("expected `dayNN-topic` or `ref-topic`"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn every_template_key_is_filled() {
        let name = Name::parse("day12-example").unwrap();
        let keys: Vec<(String, String)> = ["lesson", "program", "prefix", "guard", "crate", "title", "claim"]
            .iter()
            .map(|k| (k.to_string(), "x".to_string()))
            .chain(
                verbatim::DECLARED
                    .iter()
                    .map(|(b, _)| (format!("verbatim:{b}"), "x".to_string())),
            )
            .collect();
        for (path, template) in TEMPLATES {
            assert!(
                !fill(template, &keys).contains("{{"),
                "{path} has a key plan() does not fill"
            );
        }
        assert_eq!(name.name, "day12-example");
    }

    #[test]
    fn the_registry_line_goes_after_the_last_one_and_the_map_line_in_order() {
        let registry =
            "[dependencies]\na-report = { path = \"a\" }\nc-report = { path = \"c\" }\n\nanyhow = \"1\"\n";
        assert_eq!(
            with_registry_line(registry, "b-report = { path = \"b\" }"),
            "[dependencies]\na-report = { path = \"a\" }\nb-report = { path = \"b\" }\nc-report = { path = \"c\" }\n\nanyhow = \"1\"\n"
        );
        assert_eq!(
            with_registry_line(registry, "d-report = { path = \"d\" }"),
            "[dependencies]\na-report = { path = \"a\" }\nc-report = { path = \"c\" }\nd-report = { path = \"d\" }\n\nanyhow = \"1\"\n"
        );
        let readme = "# x\n\n```\ncode/\n  day09-timing/  a\n  ref-x/  b\nevidence/  e\n```\n";
        let added = with_map_line(Path::new("README.md"), readme, "  day12-example/  n").unwrap();
        assert_eq!(
            added,
            "# x\n\n```\ncode/\n  day09-timing/  a\n  day12-example/  n\n  ref-x/  b\nevidence/  e\n```\n"
        );
        let last = with_map_line(Path::new("README.md"), readme, "  ref-z/  z").unwrap();
        assert!(last.contains("  ref-x/  b\n  ref-z/  z\nevidence/"), "{last}");
        let err = with_map_line(Path::new("README.md"), "# no map\n", "  x/").unwrap_err();
        assert!(err.to_string().contains("no map"), "{err}");
    }
}
