//! instrument-suite: the measurement instrument on a suite of six kernels,
//! from the launch floor to a 10 ms kernel, each in the mode the instrument
//! recommends (or in the `--mode`s given, each in turn in one process, CUPTI's
//! among them), with the process's own calibration; `compare` labels two
//! runs kernel by kernel, allowing for the spread between processes;
//! `launch` launches the kernels plainly for Nsight
//! Compute; `cubin` writes the suite's sm_90 cubin for nvbench's driver.
//!
//! Not for: one kernel in every mode (Day 9's `--stats`).

mod compare_files;
mod kernels;
mod run;
mod suite_report;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use cudarc::driver::CudaContext;
use instrument::compare::DEFAULT_BAND;
use instrument::json_out::JsonOut;
use instrument::sampling::positive;
use instrument::Mode;
use lesson_cli::DeviceArg;

use kernels::Kernel;
use suite_report::suite_table;

/// The measurement instrument on a suite of kernels
#[derive(Debug, Parser)]
#[command(name = "instrument-suite", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

/// Which kernels, at which size, on which GPU: a run's and `launch`'s.
#[derive(Debug, clap::Args)]
struct Target {
    #[command(flatten)]
    device: DeviceArg,
    /// Only this kernel (default: the whole suite)
    #[arg(long, value_enum)]
    kernel: Option<Kernel>,
    /// Do this many times the kernel's standard work (elements, vectors or FMA steps)
    // allow_negative_numbers: so `--scale -1` reaches `positive` and is told
    // why, instead of clap taking `-1` for an unknown flag.
    #[arg(long, default_value_t = 1.0, value_parser = positive, allow_negative_numbers = true)]
    scale: f64,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    #[command(flatten)]
    target: Target,
    /// Measure in this mode (hot, cold-cache, graph, graph-pdl, isolated, serial or cupti) instead of the recommended one; given several
    /// times, each kernel in each of them in turn, in this one process
    /// (`--mode graph --mode cupti`: graph replay beside CUPTI's records)
    #[arg(long)]
    mode: Vec<Mode>,
    /// Write every measurement, every sample and the calibration as JSON
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Label each kernel of run B against run A: SAME, FASTER, SLOWER or UNSURE
    Compare {
        a: PathBuf,
        b: PathBuf,
        /// Differences within this many percent of A's median are SAME
        #[arg(long, default_value_t = 100.0 * DEFAULT_BAND, value_parser = positive, allow_negative_numbers = true)]
        band_percent: f64,
        /// A/A runs (the same code, separate processes, at least 3) to measure each kernel's spread between processes from; without them, the suite's H200 figures
        #[arg(long, value_name = "RUN.json", num_args = 1..)]
        spread_from: Vec<PathBuf>,
    },
    /// Launch each kernel COUNT times, untimed (for Nsight Compute)
    Launch {
        #[command(flatten)]
        target: Target,
        #[arg(long, default_value_t = 20)]
        count: usize,
    },
    /// Write the suite's sm_90 cubin (the same kernels, for nvbench)
    Cubin { path: PathBuf },
}

/// The suite's cubin, compiled by build.rs from suite/suite.cu.
const CUBIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/suite.cubin"));

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    let args = cli_exit::parse::<Args>();
    cli_exit::finish(dispatch(args).map(|()| ExitCode::SUCCESS))
}

fn dispatch(args: Args) -> anyhow::Result<()> {
    match args.command {
        None => measure(args.run),
        Some(Command::Compare {
            a,
            b,
            band_percent,
            spread_from,
        }) => {
            let (a, b) = (compare_files::read(&a)?, compare_files::read(&b)?);
            let spread_runs = spread_from
                .iter()
                .map(|p| compare_files::read(p))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let band = band_percent / 100.0;
            print!(
                "{}",
                compare_files::table(&compare_files::rows(&a, &b, band, &spread_runs), band)
            );
            Ok(())
        }
        Some(Command::Launch { target, count }) => {
            let ctx = context(target.device.ordinal)?;
            let kernels = chosen(target.kernel);
            let names: Vec<&str> = kernels.iter().map(|k| k.name()).collect();
            eprintln!(
                "launching {count} times each, in this order: {}",
                names.join(", ")
            );
            run::launch_plainly(&ctx, &kernels, target.scale, count).context("launching the suite")
        }
        Some(Command::Cubin { path }) => {
            std::fs::write(&path, CUBIN).with_context(|| format!("writing {}", path.display()))
        }
    }
}

fn chosen(kernel: Option<Kernel>) -> Vec<Kernel> {
    kernel.map_or(Kernel::value_variants().to_vec(), |k| vec![k])
}

fn context(device: usize) -> anyhow::Result<std::sync::Arc<CudaContext>> {
    // cudarc panics without libcuda; say so in one line instead.
    cuda_check::require_driver()?;
    Ok(cuda_check::check!(CudaContext::new(device))?)
}

fn measure(run: RunArgs) -> anyhow::Result<()> {
    // Claimed before any GPU time is spent, so a bad path costs none.
    let json = run.json.as_deref().map(JsonOut::create).transpose()?;
    let modes = run.mode;
    // Asked before any GPU time is spent: CUPTI ships with the toolkit, not
    // the driver, and may be missing where the rest runs.
    if modes.contains(&Mode::Cupti) {
        instrument::cupti_available().context("the cupti mode")?;
    }
    let ctx = context(run.target.device.ordinal)?;
    let report = run::measure_suite(&ctx, &chosen(run.target.kernel), run.target.scale, &modes)
        .context("measuring the suite")?;
    print!("{}", suite_table(&report));
    if let Some(json) = json {
        json.write(&report)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_takes_a_kernel_a_scale_and_a_json_path() {
        let a = Args::try_parse_from([
            "s",
            "--kernel",
            "vector-add",
            "--scale",
            "1.02",
            "--json",
            "x.json",
        ])
        .unwrap();
        assert_eq!(a.run.target.kernel, Some(Kernel::VectorAdd));
        assert_eq!(a.run.target.scale, 1.02);
        assert!(a.command.is_none());
        assert!(a.run.mode.is_empty(), "the recommended mode");
        let both = Args::try_parse_from(["s", "--mode", "graph", "--mode", "cupti"]).unwrap();
        assert_eq!(both.run.mode, [Mode::Graph, Mode::Cupti], "in the order given");
        for bad in [
            &["s", "--scale", "0"][..],
            &["s", "--scale", "-1"],
            &["s", "--kernel", "nope"],
        ] {
            assert_eq!(Args::try_parse_from(bad).unwrap_err().exit_code(), 2, "{bad:?}");
        }
    }

    #[test]
    fn a_negative_scale_or_band_is_said_to_be_not_positive_not_an_unknown_flag() {
        for bad in [
            &["s", "--scale", "-1"][..],
            &["s", "--scale", "nan"],
            &["s", "launch", "--scale", "-0.5"],
            &["s", "compare", "a.json", "b.json", "--band-percent", "-1"],
        ] {
            let e = Args::try_parse_from(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
            let text = e.to_string();
            assert!(text.contains("is not a positive number"), "{bad:?}: {text}");
            assert!(!text.contains("unexpected argument"), "{bad:?}: {text}");
        }
    }

    #[test]
    fn compare_takes_two_files() {
        let a = Args::try_parse_from(["s", "compare", "a.json", "b.json"]).unwrap();
        assert!(matches!(a.command, Some(Command::Compare { band_percent, .. }) if band_percent == 1.0));
        assert!(Args::try_parse_from(["s", "compare", "a.json"]).is_err());
    }

    #[test]
    fn the_cubin_is_an_elf_file() {
        assert_eq!(&CUBIN[..4], b"\x7fELF");
    }
}
