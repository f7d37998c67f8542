//! What a finished check found: the counts, and each problem with a page.

use std::fmt;
use std::path::PathBuf;

/// What a finished check found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Pages read.
    pub pages: usize,
    /// `<a href>` elements on them.
    pub links: usize,
    /// `<img>` elements on them.
    pub images: usize,
    /// The pages the browser visited, in the order visited.
    pub browsed: Vec<String>,
    /// Every problem, by page (the pages in name order; a page's own in
    /// the order found: its HTML's, then the browser's).
    pub problems: Vec<Problem>,
    /// The screenshots written, in the order asked.
    pub screenshots: Vec<PathBuf>,
}

/// One thing wrong with one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The page, relative to the site folder, with `/` between folders.
    pub page: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.page, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_reads_page_then_message() {
        let p = Problem {
            page: "a/b.html".into(),
            message: "broken link to c.html".into(),
        };
        assert_eq!(p.to_string(), "a/b.html: broken link to c.html");
    }
}
