//! A transcript's JSON twin: the run parsed, every number typed, derived
//! from the transcript whenever it is wanted (`evidence twin FILE...`) and
//! never committed: the transcript is the record, and nothing reads a twin.
//!
//! Not for: reading runs (that is [`crate::transcript`]).

use crate::transcript;

/// The twin of `text`, as pretty JSON ending in a line break: the parsed
/// transcript, its fields in the transcript's order (file, header,
/// sanitizer, body), or, for a file this tool cannot parse, the error
/// beside the file's name.
pub fn pretty(file: &str, text: &str) -> String {
    let made = match transcript::parse(file, text) {
        Ok(t) => serde_json::to_string_pretty(&t),
        Err(e) => {
            serde_json::to_string_pretty(&serde_json::json!({ "file": file, "parse_error": e.to_string() }))
        }
    };
    let mut pretty = made.unwrap_or_default();
    pretty.push('\n');
    pretty
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_keeps_the_transcripts_order_and_says_when_it_cannot_parse() {
        let text = "# lesson: diagnostics\n# date: 2026-01-02T03:04:05Z\n# gpu: g\n# driver: d\n\
                    # cuda runtime: r\n# nvcc: n\n# host: h\n# command: c\n# environment: e\n\
                    # commit: 0123456\n# exit code: 0\n# ---\nline\n";
        let written = pretty("diagnostics/2026-01-02T030405Z-t.txt", text);
        let at = |key: &str| written.find(&format!("\n  \"{key}\"")).unwrap();
        assert!(
            at("file") < at("header") && at("header") < at("sanitizer") && at("sanitizer") < at("body"),
            "{written}"
        );
        assert!(written.contains("\"exit_code\": 0"), "{written}");
        let broken = pretty("x.txt", "no header\n");
        assert!(
            broken.contains("\"parse_error\"") && broken.contains("no `# ---` line"),
            "{broken}"
        );
    }
}
