//! A clap value parser whose refusal is the parser's own message only.
//!
//! clap's message for a refused value repeats the value as typed
//! (`invalid value 'a<line break>b' for '--name <NAME>': ...`), so a line
//! break or another control character in it breaks the one line an error
//! is. [`OwnMessage`] wraps a parsing function whose error names the value
//! itself, quoted, and says only that, with clap's usage hint and exit
//! code 2 as before.

use std::ffi::OsStr;
use std::fmt::Display;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

/// A value parser from `fn(&str) -> Result<T, E>`, whose `E` says what
/// is wrong with the value and shows it quoted (`{value:?}`).
pub struct OwnMessage<T, E>(pub fn(&str) -> Result<T, E>);

// By hand: a fn pointer is Copy whatever T and E are; derive would ask
// them to be Clone too.
impl<T, E> Clone for OwnMessage<T, E> {
    fn clone(&self) -> Self {
        OwnMessage(self.0)
    }
}

impl<T, E> TypedValueParser for OwnMessage<T, E>
where
    T: Clone + Send + Sync + 'static,
    E: Display + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let arg = arg.map(|a| format!(" for '{a}'")).unwrap_or_default();
        let refused = |message: String| cmd.clone().error(ErrorKind::ValueValidation, message);
        let text = value
            .to_str()
            .ok_or_else(|| refused(format!("invalid value{arg}: {value:?} is not UTF-8")))?;
        (self.0)(text).map_err(|e| refused(format!("invalid value{arg}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, Command};

    fn no_spaces(text: &str) -> Result<String, String> {
        match text.contains(' ') {
            true => Err(format!("{text:?} holds a space")),
            false => Ok(text.to_string()),
        }
    }

    fn command() -> Command {
        Command::new("prog").arg(Arg::new("name").long("name").value_parser(OwnMessage(no_spaces)))
    }

    #[test]
    fn a_refused_value_is_shown_quoted_on_one_line_and_is_a_usage_error() {
        let e = command()
            .try_get_matches_from(["prog", "--name", "a b\nc"])
            .expect_err("a space");
        assert_eq!(e.kind(), ErrorKind::ValueValidation);
        assert_eq!(e.exit_code(), 2);
        let text = e.render().to_string();
        let first = text.lines().next().unwrap();
        assert_eq!(
            first,
            r#"error: invalid value for '--name <name>': "a b\nc" holds a space"#
        );
        assert!(text.contains("--help"), "{text}");
    }

    #[test]
    fn a_good_value_is_the_parser_s() {
        let m = command().try_get_matches_from(["prog", "--name", "ab"]).unwrap();
        assert_eq!(m.get_one::<String>("name").map(String::as_str), Some("ab"));
    }
}
