//! The README's side of a lesson's causes (`crate::why`): every
//! explanation paragraph of its README names one of its cause checks, in
//! backticks, and every check it names exists. Each lesson's conformance
//! tests run it ([`crate::conformance_tests!`]).
//!
//! Not for: the checks themselves (`crate::Why`, judged by `evidence`).

/// Whether `word` has the shape of a cause check's id: lowercase words and
/// digits, with `-why-` after the first.
pub fn is_why_id(word: &str) -> bool {
    let Some((prefix, rest)) = word.split_once("-why-") else {
        return false;
    };
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !s.starts_with('-')
            && !s.ends_with('-')
    };
    ok(prefix) && ok(rest)
}

/// One paragraph of a Markdown text: a block of lines between blank lines,
/// or one list item; its first line (1-based), and its prose, with HTML
/// comments (figure queries) taken out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paragraph {
    pub line: usize,
    pub text: String,
    /// Under a heading that starts with `Why`, at any depth.
    pub in_why_section: bool,
}

/// Whether a paragraph explains a number: every paragraph of a section
/// headed `Why ...`, and any other that gives a cause with `because`.
pub fn explains(p: &Paragraph) -> bool {
    p.in_why_section || p.text.to_lowercase().contains("because")
}

/// The prose paragraphs of `markdown`: code blocks, tables, images,
/// headings and blocks that are only an HTML comment are left out.
pub fn paragraphs(markdown: &str) -> Vec<Paragraph> {
    let mut out: Vec<Paragraph> = Vec::new();
    let mut fenced = false;
    // The level of the `Why` heading we are under, if any.
    let mut why_level: Option<usize> = None;
    // Whether the line before was one of the last paragraph's.
    let mut open = false;
    for (i, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            (fenced, open) = (!fenced, false);
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(level) = heading_level(line) {
            if why_level.is_some_and(|l| level <= l) {
                why_level = None;
            }
            if why_level.is_none() && line[level..].trim().starts_with("Why") {
                why_level = Some(level);
            }
            open = false;
            continue;
        }
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        let item = line.starts_with("- ") || numbered_item(line);
        match out.last_mut().filter(|_| open && !item) {
            Some(p) => p.text += &format!("\n{line}"),
            None => out.push(Paragraph {
                line: i + 1,
                text: line.to_string(),
                in_why_section: why_level.is_some(),
            }),
        }
        open = true;
    }
    out.retain_mut(|p| {
        let first = p.text.trim_start();
        let prose = !first.starts_with('|') && !first.starts_with("![");
        p.text = without_comments(&p.text);
        prose && !p.text.trim().is_empty()
    });
    out
}

fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    (hashes > 0 && line[hashes..].starts_with(' ')).then_some(hashes)
}

fn numbered_item(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(". ")
}

/// `text` with every `<!-- ... -->` taken out (an unclosed one runs to
/// the end).
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start..].find("-->") {
            Some(end) => rest = &rest[start + end + 3..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The cause checks a paragraph names: every `` `id` `` in it shaped as one.
pub fn named(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| is_why_id(w))
        .collect()
}

/// What is wrong between `readme` (its name for messages is `file`) and
/// the checks `known`: an explanation paragraph ([`explains`]) that names
/// no check, a paragraph naming a check that does not exist, and a check
/// that no paragraph names; one line each, `file:LINE: ...`.
pub fn unnamed_causes(file: &str, readme: &str, known: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    let paragraphs = paragraphs(readme);
    for p in &paragraphs {
        let ids = named(&p.text);
        for id in &ids {
            if known.contains(id) {
                used.push(id);
            } else {
                problems.push(format!(
                    "{file}:{}: names `{id}`, which is no cause check of this lesson (known: {})",
                    p.line,
                    known.join(", ")
                ));
            }
        }
        if explains(p) && ids.is_empty() {
            let start: String = p.text.trim().chars().take(60).collect();
            problems.push(format!(
                "{file}:{}: an explanation paragraph names no cause check (\"{start}...\"); name the `<prefix>-why-<name>` check that measures it",
                p.line
            ));
        }
    }
    if !paragraphs.iter().any(|p| p.in_why_section) {
        problems.push(format!(
            "{file}: no section headed `Why ...` explains the numbers"
        ));
    }
    for id in known {
        if !used.contains(id) {
            problems.push(format!("{file}: no paragraph names the cause check `{id}`"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# Lesson\n\
        \n\
        Intro text, no cause given.\n\
        \n\
        ## Why it comes out this way\n\
        \n\
        Blocks start at a fixed rate (`d10-why-block-starts`).\n\
        \n\
        - **Large blocks.** Turnover is per block\n\
          (`d10-why-turnover`).\n\
        \n\
        <!-- figure x: {1} -->\n\
        \n\
        | a | b |\n\
        | --- | --- |\n\
        \n\
        ```sh\n\
        echo no check here\n\
        ```\n\
        \n\
        ## Exercises\n\
        \n\
        Try 48 threads.\n";
    const KNOWN: &[&str] = &["d10-why-block-starts", "d10-why-turnover"];

    #[test]
    fn ids_have_a_prefix_why_and_a_name() {
        assert!(is_why_id("d10-why-block-starts"));
        assert!(is_why_id("wu-why-pool"));
        assert!(!is_why_id("d10-memory-bound-plateau"));
        assert!(!is_why_id("d10-why-"));
        assert!(!is_why_id("D10-why-x"));
        assert!(!is_why_id("-why-x"));
    }

    #[test]
    fn a_readme_whose_explanations_all_name_checks_passes() {
        assert_eq!(unnamed_causes("README.md", GOOD, KNOWN), Vec::<String>::new());
    }

    #[test]
    fn paragraphs_skip_code_tables_and_comments_and_know_their_section() {
        let ps = paragraphs(GOOD);
        let lines: Vec<(usize, bool)> = ps.iter().map(|p| (p.line, p.in_why_section)).collect();
        assert_eq!(lines, [(3, false), (7, true), (9, true), (23, false)]);
    }

    #[test]
    fn planted_an_explanation_naming_no_check_fails() {
        let bad = GOOD.replace(" (`d10-why-block-starts`)", "");
        let problems = unnamed_causes("README.md", &bad, &["d10-why-turnover"]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("README.md:7: an explanation paragraph names no cause check"));
    }

    #[test]
    fn planted_a_check_that_does_not_exist_fails() {
        let bad = GOOD.replace("d10-why-turnover", "d10-why-turnvoer");
        let problems = unnamed_causes("README.md", &bad, KNOWN);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("README.md:9: names `d10-why-turnvoer`, which is no cause check"));
        // The real check is then named nowhere.
        assert_eq!(
            problems[1],
            "README.md: no paragraph names the cause check `d10-why-turnover`"
        );
    }

    #[test]
    fn planted_a_because_outside_the_why_section_must_name_a_check() {
        let bad = GOOD.replace("Try 48 threads.", "It is slow because of the blocks.");
        let problems = unnamed_causes("README.md", &bad, KNOWN);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("README.md:23: an explanation paragraph"));
    }

    #[test]
    fn planted_a_readme_without_a_why_section_fails() {
        let bad = GOOD.replace("## Why it comes out this way", "## Notes");
        let problems = unnamed_causes("README.md", &bad, KNOWN);
        assert!(problems.contains(&"README.md: no section headed `Why ...` explains the numbers".to_string()));
    }

    #[test]
    fn an_id_inside_a_figure_comment_names_nothing() {
        let bad = GOOD.replace(
            "Blocks start at a fixed rate (`d10-why-block-starts`).",
            "Blocks start <!-- `d10-why-block-starts` -->at a fixed rate.",
        );
        let problems = unnamed_causes("README.md", &bad, &["d10-why-turnover"]);
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn a_subsection_of_a_why_section_is_in_it_and_the_next_section_is_not() {
        let text = "## Why\n\n### Detail\n\nA (`a-why-b`).\n\n## Other\n\nB.\n";
        let ps = paragraphs(text);
        assert_eq!(
            ps.iter().map(|p| p.in_why_section).collect::<Vec<_>>(),
            [true, false]
        );
    }
}
