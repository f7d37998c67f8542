//! What every lesson tells the shared tools about itself.
//!
//! A lesson's pure-Rust report package (`code/<lesson>/tools`) implements
//! [`LessonReport`]: how its report prints and parses, the page's claims
//! and the figures each reads, the causes its README gives ([`why`]), its
//! charts and its recording recipe. The twin renders its report with it;
//! `evidence` parses, checks, compares and plots transcripts with it, seeing
//! every lesson through [`Lesson`] (made by [`Entry`]), so it holds no
//! lesson's name or numbers.
//!
//! A report package's renderer prints each line from a [`layout`] template
//! ([`fill`]) and its parser reads the same template back ([`Cursor::read`]),
//! so the two cannot drift apart; a parser's failure names its line
//! ([`ParseFailure`]). What every impl would write alike is
//! [`lesson_items!`].
//!
//! Not for: CUDA (nothing here links it, so the tools build without nvcc),
//! or reading transcript headers (`evidence`'s). Holding a lesson to this
//! contract in its tests is [`testkit`]'s, behind the `testkit` feature.

pub mod chart;
pub mod claims;
pub mod figure_blocks;
pub mod layout;
mod lesson;
pub mod lines;
pub mod nvcc_line;
pub mod on_this_gpu;
pub mod recipe;
mod report;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod why;

pub use chart::{Chart, Mark, Series};
pub use claims::{
    every, figure_matches, judged, median, planted, verdict, yes_no, Claim, ClaimInfo, ExpectedFailures,
    Margin, Outcome, Run, State,
};
pub use figure_blocks::Figure;
pub use layout::{fill, labelled, read, Fields};
pub use lesson::{Entry, Lesson, Parsed};
pub use lines::{ms_at_end, number, numbered_output, quoted, Cursor, Lines, ParseFailure};
pub use on_this_gpu::{claims_block, ClaimsBlock, ClaimsBlockError};
pub use recipe::{Recipe, Reference, Variant};
pub use report::{LessonReport, NoReference, PageRun, ReferenceOutput};
pub use why::{Source, Why};

/// A committed transcript's text by the name every tool gives it
/// (`…/<name>.txt`): that file, or `<name>.txt.gz` as `evidence merge`
/// commits it (every gzip member read, as `zcat` reads them).
pub fn read_transcript(path: &std::path::Path) -> std::io::Result<String> {
    let mut gz = path.as_os_str().to_owned();
    gz.push(".gz");
    if path.exists() || !std::path::Path::new(&gz).is_file() {
        return std::fs::read_to_string(path);
    }
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz)?),
        &mut text,
    )?;
    Ok(text)
}

/// The items of a [`LessonReport`] impl that every lesson writes alike:
/// its name, parser, claims, causes and `expected-failures.txt` (in its
/// `tools/`, or given as text).
///
/// ```ignore
/// impl LessonReport for Report {
///     lesson_spec::lesson_items!(lesson: "day09-timing", parse: parse, claims: claims::CLAIMS, whys: why::WHYS);
///     type Reference = NoReference;
///     fn recipe() -> Recipe { ... }
///     // figures, charts
/// }
/// ```
#[macro_export]
macro_rules! lesson_items {
    (lesson: $lesson:literal, parse: $parse:path, claims: $claims:path, whys: $whys:path $(,)?) => {
        $crate::lesson_items!(
            lesson: $lesson,
            parse: $parse,
            claims: $claims,
            whys: $whys,
            expected_failures: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/expected-failures.txt"))
        );
    };
    // A lesson with no expected failure yet (new-lesson's skeleton) gives its
    // list as text, so it needs no file until it has one.
    (lesson: $lesson:literal, parse: $parse:path, claims: $claims:path, whys: $whys:path,
     expected_failures: $failures:expr $(,)?) => {
        const LESSON: &'static str = $lesson;

        fn parse(body: &$crate::Lines<'_>) -> Result<Self, $crate::ParseFailure> {
            $parse(body)
        }

        fn claims() -> &'static [$crate::Claim<Self>] {
            $claims
        }

        fn whys() -> &'static [$crate::Why] {
            $whys
        }

        fn expected_failures() -> &'static str {
            $failures
        }
    };
}
