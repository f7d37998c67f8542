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
    let mut out = Vec::new();
    for line in main_rs.lines() {
        if let Some(name) = line.strip_prefix("fn ") {
            if let Some(label) = identifier_label(name) {
                push_new(&mut out, label);
            }
        }
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
    let mut out = Vec::new();
    let mut in_comment = false;
    for line in lines {
        let trimmed = line.trim_start();
        if let Some(comment) = trimmed.strip_prefix("//") {
            if !in_comment {
                if let Some(label) = comment_label(comment.trim_start()) {
                    push_new(&mut out, label);
                }
            }
            in_comment = true;
            continue;
        }
        in_comment = false;
        for (at, _) in trimmed.match_indices(['r', 'p']) {
            let starts_word = trimmed[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if let Some(label) = identifier_label(&trimmed[at..]).filter(|_| starts_word) {
                push_new(&mut out, label);
            }
        }
    }
    out
}

/// `Row 3 comes first` gives `Row 3`; `Part 2's sizes` gives nothing.
fn comment_label(text: &str) -> Option<String> {
    let (word, rest) = ["Row ", "Part "]
        .iter()
        .find_map(|w| text.strip_prefix(w).map(|rest| (w.trim_end(), rest)))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    (!digits.is_empty() && !after.starts_with('\'')).then(|| format!("{word} {digits}"))
}

/// `row3_first_launch` and `part1()` give `Row 3` and `Part 1`; `rows` or
/// `partial` give nothing.
fn identifier_label(text: &str) -> Option<String> {
    let (word, rest) = [("row", "Row"), ("part", "Part")]
        .iter()
        .find_map(|(w, label)| text.strip_prefix(w).map(|rest| (*label, rest)))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let next = rest[digits.len()..].chars().next();
    (!digits.is_empty() && next.is_none_or(|c| !c.is_alphanumeric())).then(|| format!("{word} {digits}"))
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
