//! `--device N`, the one flag every lesson takes.

/// Which CUDA device the lesson runs on. Flatten it into a lesson's own
/// `Args` with `#[command(flatten)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct DeviceArg {
    /// The CUDA device to run on, as numbered by the driver
    #[arg(long = "device", value_name = "N", default_value_t = 0)]
    pub ordinal: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;
    use clap::Parser;

    /// A lesson's command line with nothing but the shared flag.
    #[derive(Debug, Parser)]
    #[command(name = "lesson", version)]
    struct Args {
        #[command(flatten)]
        device: DeviceArg,
    }

    fn parse(args: &[&str]) -> Result<usize, clap::Error> {
        Args::try_parse_from(std::iter::once("lesson").chain(args.iter().copied())).map(|a| a.device.ordinal)
    }

    #[test]
    fn no_flag_runs_on_device_zero_as_the_course_does() {
        assert_eq!(parse(&[]).unwrap(), 0);
    }

    #[test]
    fn device_takes_a_separate_or_inline_value() {
        assert_eq!(parse(&["--device", "3"]).unwrap(), 3);
        assert_eq!(parse(&["--device=2"]).unwrap(), 2);
    }

    #[test]
    fn bad_values_are_usage_errors_with_exit_code_2() {
        for (args, kind) in [
            (&["--device"][..], ErrorKind::InvalidValue),
            (&["--device", "x"][..], ErrorKind::ValueValidation),
            (&["--device=-1"][..], ErrorKind::ValueValidation),
            (&["--fast"][..], ErrorKind::UnknownArgument),
            (&["extra"][..], ErrorKind::UnknownArgument),
        ] {
            let err = parse(args).unwrap_err();
            assert_eq!(err.kind(), kind, "{args:?}: {err}");
            assert_eq!(err.exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn help_and_version_exit_0_wherever_they_stand() {
        for (args, kind) in [
            (&["--help"][..], ErrorKind::DisplayHelp),
            (&["--device", "1", "-h"][..], ErrorKind::DisplayHelp),
            (&["--version"][..], ErrorKind::DisplayVersion),
        ] {
            let err = parse(args).unwrap_err();
            assert_eq!(err.kind(), kind, "{args:?}");
            assert_eq!(err.exit_code(), 0, "{args:?}");
        }
        let help = parse(&["--help"]).unwrap_err().to_string();
        assert!(help.contains("--device <N>"), "{help}");
        assert!(help.contains("[default: 0]"), "{help}");
    }
}
