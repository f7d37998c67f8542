//! Outside references recorded beside a lesson: PyTorch's pinned copy
//! (`tools/reference/torch_h2d_reference.py` in the lesson directory).

use serde::Serialize;

use lesson_spec::{number, Cursor, Lines, ParseFailure};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PinnedCopy {
    pub tool: String,
    pub mib: u64,
    pub ms: f64,
    pub gb_s: f64,
}

impl lesson_spec::ReferenceOutput for PinnedCopy {
    /// Reads the reference tool's output; errors name the line.
    fn parse(lines: &Lines<'_>) -> Result<Self, ParseFailure> {
        let mut c = Cursor::new(lines);
        let (_, tool) = c.expect("PyTorch ")?;
        c.expect("pinned ")?;
        let (n, row) = c.next("the measurement")?;
        let w: Vec<&str> = row.split_whitespace().collect();
        if w.len() != 6 || w[1] != "MiB" || w[3] != "ms" || w[5] != "GB/s" {
            return Err(ParseFailure::at(
                n,
                format!("expected `<size> MiB <ms> ms <GB/s> GB/s`, got {row:?}"),
            ));
        }
        Ok(PinnedCopy {
            tool: format!("PyTorch {}", tool.split(',').next().unwrap_or("")),
            mib: number(n, w[0], "size")?,
            ms: number(n, w[2], "ms")?,
            gb_s: number(n, w[4], "GB/s")?,
        })
    }

    fn figures(&self) -> Vec<(String, f64)> {
        vec![(format!("{} MiB pinned, GB/s", self.mib), self.gb_s)]
    }
}
