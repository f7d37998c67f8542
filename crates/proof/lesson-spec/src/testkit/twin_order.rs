//! The `.cu` and its Rust twin read side by side: the blocks the `.cu`'s
//! `main` labels "Row N" or "Part N" come in the same order in the twin's
//! `lesson`, each as a function named after it (`row3_first_launch`,
//! `part2_mallocs`) or, where the twin keeps it inline as the `.cu` does, a
//! comment that starts with the same label. [`crate::conformance_tests!`]
//! runs the check for every lesson.
//!
//! A label is the first word pair of a comment block (`// Row 3 comes first
//! ...`, `// Part 2: ...`; not `// Part 2's sizes`, which names a part
//! rather than starting one) or an identifier that starts with `rowN` or
//! `partN` (`part1()`, `row4_ms`). Each label counts at its first sight.

use regex::{Captures, Regex};

/// The labels of the `.cu`'s `int main(` body, in order.
pub fn cu_labels(cu: &str) -> Vec<String> {
    labels(body(cu, "int main("))
}

/// The labels of the twin's `fn lesson(` body, in order.
pub fn twin_labels(main_rs: &str) -> Vec<String> {
    labels(body(main_rs, "fn lesson("))
}

/// The labels of the twin's functions named after a block (`fn rowN...`,
/// `fn partN...`), in the order they are defined.
pub fn twin_function_labels(main_rs: &str) -> Vec<String> {
    let defined = Regex::new(r"^fn (row|part)(\d+)(?:_|\b)").expect("a valid pattern");
    let mut out = Vec::new();
    for c in main_rs.lines().filter_map(|l| defined.captures(l)) {
        push_new(&mut out, label(&c));
    }
    out
}

/// The lines from the one that starts with `opening` to the next closing
/// brace in the first column.
fn body<'a>(text: &'a str, opening: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(opening))
        .take_while(|l| *l != "}")
        .collect()
}

fn labels(lines: Vec<&str>) -> Vec<String> {
    let comment = Regex::new(r"^(Row|Part) (\d+)(?:[^'\d]|$)").expect("a valid pattern");
    let identifier = Regex::new(r"\b(row|part)(\d+)(?:_|\b)").expect("a valid pattern");
    let mut out = Vec::new();
    let mut in_comment = false;
    for line in lines {
        let trimmed = line.trim_start();
        if let Some(text) = trimmed.strip_prefix("//") {
            if let Some(c) = comment.captures(text.trim_start()).filter(|_| !in_comment) {
                push_new(&mut out, label(&c));
            }
            in_comment = true;
            continue;
        }
        in_comment = false;
        for c in identifier.captures_iter(trimmed) {
            push_new(&mut out, label(&c));
        }
    }
    out
}

/// `Row 3` from a match of `row` or `Row` and `3`.
fn label(c: &Captures) -> String {
    let word = &c[1];
    format!("{}{} {}", word[..1].to_uppercase(), &word[1..], &c[2])
}

fn push_new(out: &mut Vec<String>, label: String) {
    if !out.contains(&label) {
        out.push(label);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CU: &str = "\
// Row 9 outside main is not main's.
int main() {
    // Row 1 starts here.
    // Row 2 in the same comment block is not a start.
    double t = clock();

    // Part 2's buffer is named, not started.

    // Row 3 comes first on purpose.
    launch();
    // Row 2. Then this one.
    part4();
    row1Ms = 0;  // Row 5 after code is not a block's start
}
";

    #[test]
    fn a_cus_labels_are_main_blocks_and_calls_in_order() {
        assert_eq!(cu_labels(CU), ["Row 1", "Row 3", "Row 2", "Part 4"]);
    }

    #[test]
    fn a_twins_labels_are_its_lessons_calls_and_comments() {
        let rs = "\
fn lesson(args: Args) -> Result<()> {
    // Row 1 starts here.
    let cold = row3_first_launch()?;
    let rows = partial(row2_clock()?);
    // Row 1 ends here.
}

fn row3_first_launch() {}
fn row2_clock() {}
fn time_round_trip() {}
";
        assert_eq!(twin_labels(rs), ["Row 1", "Row 3", "Row 2"]);
        assert_eq!(twin_function_labels(rs), ["Row 3", "Row 2"]);
    }
}
