//! `--device N`, the one flag every lesson takes, and [`open_device`], the
//! preamble every lesson runs on the device it names before it measures
//! ([`open_device_timed`] where the lesson times its first CUDA call).

use std::sync::Arc;

use cuda_check::{check, runtime};
use cudarc::driver::CudaContext;

/// Which CUDA device the lesson runs on. Flatten it into a lesson's own
/// `Args` with `#[command(flatten)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct DeviceArg {
    /// The CUDA device to run on, as numbered by the driver
    #[arg(long = "device", value_name = "N", default_value_t = 0)]
    pub ordinal: usize,
}

/// The device a lesson runs on, open: its context current and the CUDA
/// runtime bound to it, as the C++ program's first `cudaSetDevice` leaves it.
#[derive(Debug)]
pub struct Device {
    pub ctx: Arc<CudaContext>,
    pub name: String,
    pub compute_capability: (i32, i32),
}

impl Device {
    /// `NVIDIA H200 (compute capability 9.0)`: the GPU as a report names it.
    pub fn described(&self) -> String {
        described(&self.name, self.compute_capability)
    }
}

fn described(name: &str, (major, minor): (i32, i32)) -> String {
    format!("{name} (compute capability {major}.{minor})")
}

/// Every lesson's device preamble: the driver looked for, the device's
/// primary context retained (what `cudaSetDevice` does in the `.cu`) and
/// the runtime bound to it, then the GPU's name and compute capability.
pub fn open_device(device: DeviceArg) -> anyhow::Result<Device> {
    // No clock: a lesson that does not time its first call reads no host
    // clock for it.
    open_device_timed(device, || 0.0).map(|(device, _)| device)
}

/// [`open_device`], with the first CUDA call (the context and the binding,
/// which the `.cu`'s `cudaSetDevice` does at once) timed on `clock` in
/// milliseconds, so the context's cost has a name in the twin as in the
/// `.cu` (Day 9's context line). The driver check stays outside the timed
/// region.
pub fn open_device_timed(device: DeviceArg, clock: fn() -> f64) -> anyhow::Result<(Device, f64)> {
    // cudarc panics without libcuda; say so in one line instead.
    cuda_check::require_driver()?;
    let start = clock();
    let ctx = check!(CudaContext::new(device.ordinal))?;
    check!(runtime::bind_to_current_context())?;
    let first_call_ms = clock() - start;
    let device = Device {
        name: check!(ctx.name())?,
        compute_capability: check!(ctx.compute_capability())?,
        ctx,
    };
    Ok((device, first_call_ms))
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
    fn a_gpu_is_described_as_the_reports_first_line_names_it() {
        assert_eq!(
            described("NVIDIA H200", (9, 0)),
            "NVIDIA H200 (compute capability 9.0)"
        );
        assert_eq!(described("Tesla T4", (7, 5)), "Tesla T4 (compute capability 7.5)");
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
