//! The JSON file a measurement goes to, opened before the measurement starts,
//! so a bad path fails before any GPU time is spent.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

/// A JSON output that cannot be created or written, naming its path and
/// the reason. The reason is part of the message and not a separate source,
/// so a binary that prints an error with its sources says it once.
#[derive(Debug, thiserror::Error)]
pub enum JsonOutError {
    #[error("cannot create {}: {reason}", path.display())]
    Create { path: PathBuf, reason: io::Error },
    #[error("cannot write {}: {reason}", path.display())]
    Write { path: PathBuf, reason: io::Error },
}

/// A file opened for a report's JSON, waiting for the report.
#[derive(Debug)]
pub struct JsonOut {
    file: File,
    path: PathBuf,
}

impl JsonOut {
    /// Creates (or truncates) the file at `path` now. A run that fails
    /// after this leaves the file empty.
    pub fn create(path: &Path) -> Result<JsonOut, JsonOutError> {
        let path = path.to_path_buf();
        match File::create(&path) {
            Ok(file) => Ok(JsonOut { file, path }),
            Err(reason) => Err(JsonOutError::Create { path, reason }),
        }
    }

    /// Writes `report` as pretty JSON and closes the file.
    pub fn write(mut self, report: &impl Serialize) -> Result<(), JsonOutError> {
        let written = serde_json::to_string_pretty(report)
            .map_err(io::Error::other)
            .and_then(|json| self.file.write_all((json + "\n").as_bytes()))
            .and_then(|()| self.file.flush());
        match written {
            Ok(()) => Ok(()),
            Err(reason) => Err(JsonOutError::Write {
                path: self.path,
                reason,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::Mode;
    use crate::report::{DeviceInfo, Report};

    fn a_report() -> Report {
        Report {
            kernel: "vectorAdd, n = 4".into(),
            device: DeviceInfo {
                name: "a GPU".into(),
                compute_capability: (9, 0),
                driver_cuda_version: "13.0".into(),
                l2_bytes: 60 << 20,
                copy_ceiling_gb_s: 1000.0,
                clocks_unavailable: None,
                cupti_unavailable: Some("not asked".into()),
                modes_unavailable: None,
            },
            traffic: None,
            first_launch: None,
            course_mean_of_10_ms: Some(0.25),
            measurements: Vec::new(),
            recommended: Mode::Hot,
        }
    }

    /// A fresh directory of this test's own, removed with the guard.
    fn scratch_dir() -> tempfile::TempDir {
        tempfile::tempdir().expect("a scratch directory")
    }

    #[test]
    fn a_path_in_a_missing_directory_fails_at_create_and_names_the_path() {
        let dir = scratch_dir();
        let path = dir.path().join("no-such-dir").join("x.json");
        let err = JsonOut::create(&path).expect_err("the directory does not exist");
        assert!(matches!(err, JsonOutError::Create { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("cannot create {}: ", path.display())),
            "{text}"
        );
    }

    #[test]
    fn the_reason_is_said_once_in_the_whole_chain() {
        let dir = scratch_dir();
        let path = dir.path().join("no-such-dir").join("x.json");
        let err = JsonOut::create(&path).expect_err("the directory does not exist");
        // What a binary prints: the error and each of its sources.
        let mut chain = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(s) = source {
            chain += &format!(": {s}");
            source = s.source();
        }
        assert_eq!(chain.matches("No such file or directory").count(), 1, "{chain}");
    }

    #[test]
    fn a_good_path_is_created_at_once_and_later_holds_the_reports_json() {
        let dir = scratch_dir();
        let path = dir.path().join("x.json");
        let out = JsonOut::create(&path).unwrap();
        assert!(path.is_file(), "created before any measurement");
        out.write(&a_report()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(json["kernel"], "vectorAdd, n = 4");
        assert_eq!(json["recommended"], "Hot");
        assert_eq!(json["course_mean_of_10_ms"], 0.25);
        assert!(text.ends_with("}\n"), "one newline at the end");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
