//! kernel-timer: the instrument on any kernel. A `.cu` (compiled by the
//! nvcc the lessons find), PTX or a cubin; a kernel by name; its grid,
//! block, dynamic shared memory and arguments. It prints a Markdown block
//! for a bug report and, with `--json`, every sample; with a B side it
//! times A and B in turns in one process and labels B against A.
//!
//! Not for: the instrument's own suite (`instrument-suite`), or the course's
//! timing of a lesson (`time-kernel`).

mod args;
mod bug_report;
mod module;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};
use clap::Parser;
use cudarc::driver::CudaContext;
use instrument::json_out::JsonOut;
use instrument::report::DeviceInfo;
use instrument::sampling::{positive, Budget};
use instrument::session::{AbResult, Session};
use instrument::{Mode, Traffic};

use args::{check_fit, ArgSpec, Dim3};
use bug_report::{ab_block, block, shell_line, Run};
use module::{Image, Kernel, Shape, Workload};

const EXAMPLES: &str = "\
Examples:
  # A kernel of your own: 4096 x 4096 floats transposed, 32 x 8 threads a block
  kernel-timer transpose.cu transpose_naive --grid 128x128 --block 32x8 \\
      --arg 'f32[4096*4096]' --arg 'f32[4096*4096]=random:1' --arg i32=4096 \\
      --bytes-read 67108864 --bytes-written 67108864

  # A PTX or cubin file, a C++ kernel by its plain name, 16 KiB of dynamic shared memory
  kernel-timer reduce.cubin block_sum --grid 1024 --block 256 --shared 16384 \\
      --arg 'f32[262144]=seq' --arg 'f32[1024]' --arg u32=262144

  # A/B in one process: a second build of the same kernel, A, B, A, B on the same buffers
  kernel-timer loop.cu fma_loop --grid 132 --block 256 --arg 'f32[33792]' --arg i32=4096 \\
      --nvcc-arg=-DEXTRA=0 --b-nvcc-arg=-DEXTRA=2

  # Plain launches for Nsight Compute
  ncu --clock-control none --metrics gpu__time_duration.sum kernel-timer ... --launch-only 20

An argument is TYPE=VALUE (a scalar) or TYPE[COUNT] or TYPE[COUNT]=FILL (a device
buffer; the kernel gets its address). TYPE is f32, f64, i8, u8, i32, u32, i64 or u64;
COUNT a whole number or a product (4096*4096); FILL zeros (the default), seq (0, 1, 2, ...),
random:SEED (uniform in [0, 1) for floats, [0, 100) for integers) or a number.

The mode is the instrument's recommendation unless --mode says otherwise: isolated
(one launch alone on a clean L2, as Nsight Compute's gpu__time_duration times it) on a
GPU with programmatic launch, graph replay near the launch floor (under 10 us), and
cold-cache, graph or hot without programmatic launch. The block says which and why.";

/// Time any kernel with the instrument, for a bug report
#[derive(Debug, Parser)]
#[command(name = "kernel-timer", version, after_help = EXAMPLES)]
struct Cli {
    /// A .cu source, a PTX file or a cubin
    file: PathBuf,
    /// The kernel's name (a C++ kernel's plain name will do)
    kernel: String,
    /// Blocks: X, XxY or XxYxZ
    #[arg(long, default_value = "1")]
    grid: Dim3,
    /// Threads a block: X, XxY or XxYxZ
    #[arg(long, default_value = "1")]
    block: Dim3,
    /// Dynamic shared memory per block, in bytes
    #[arg(long, default_value_t = 0)]
    shared: u32,
    /// The kernel's arguments in order (see below)
    #[arg(long = "arg", value_name = "SPEC")]
    args: Vec<ArgSpec>,
    /// Bytes one launch reads, for its rate against the memory's ceiling
    #[arg(long)]
    bytes_read: Option<u64>,
    /// Bytes one launch writes
    #[arg(long)]
    bytes_written: Option<u64>,
    /// Operations one launch does, for its rate
    #[arg(long)]
    ops: Option<u64>,
    /// Measure in this mode (hot, cold-cache, graph, graph-pdl, isolated, serial or cupti) instead of the recommended one
    #[arg(long)]
    mode: Option<Mode>,
    /// GPU time the measurement may use, in ms (warm-up and flushes not counted)
    #[arg(long, default_value_t = 1000.0, value_parser = positive)]
    budget_ms: f64,
    /// Write the run and every sample as JSON
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// The GPU to use
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Compile a .cu for this architecture (default: the GPU's, e.g. sm_90)
    #[arg(long)]
    arch: Option<String>,
    /// An extra nvcc argument for a .cu (repeat for more)
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    nvcc_arg: Vec<String>,
    /// Earlier runs of this command (their --json, each its own process):
    /// the block gives the spread of their medians and this one's
    #[arg(long, value_name = "RUN.json", num_args = 1.., conflicts_with_all = ["b_kernel", "b_file", "b_nvcc_arg"])]
    spread_from: Vec<PathBuf>,
    /// Launch the kernel this many times untimed and stop (for Nsight Compute)
    #[arg(long, value_name = "N")]
    launch_only: Option<usize>,
    /// A/B: B is this kernel (default: A's name)
    #[arg(long)]
    b_kernel: Option<String>,
    /// A/B: B comes from this file (default: A's file)
    #[arg(long)]
    b_file: Option<PathBuf>,
    /// A/B: B's nvcc arguments for a .cu, in place of A's (repeat for more)
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    b_nvcc_arg: Vec<String>,
    /// A/B: turns of A then B, each with a share of the budget
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,
    /// A/B: compare this many times in the process, one label each
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
}

impl Cli {
    fn is_ab(&self) -> bool {
        self.b_kernel.is_some() || self.b_file.is_some() || !self.b_nvcc_arg.is_empty()
    }

    fn traffic(&self) -> Option<Traffic> {
        (self.bytes_read.is_some() || self.bytes_written.is_some()).then(|| Traffic {
            bytes_read: self.bytes_read.unwrap_or(0),
            bytes_written: self.bytes_written.unwrap_or(0),
        })
    }

    /// B's file, kernel and nvcc arguments, each A's where not given.
    fn b_side(&self) -> Option<(&Path, &str, &[String])> {
        let nvcc_args = match self.b_nvcc_arg.is_empty() {
            true => &self.nvcc_arg,
            false => &self.b_nvcc_arg,
        };
        let file = self.b_file.as_deref().unwrap_or(&self.file);
        let kernel = self.b_kernel.as_deref().unwrap_or(&self.kernel);
        self.is_ab().then_some((file, kernel, nvcc_args))
    }
}

fn main() -> ExitCode {
    cli_exit::quiet_on_closed_pipe();
    let cli = cli_exit::parse::<Cli>();
    cli_exit::finish(run(cli).map(|()| ExitCode::SUCCESS))
}

/// One side's module, read now where no GPU is needed to compile it (a `.cu`
/// without `--arch` waits for the GPU's architecture).
struct Side<'a> {
    file: &'a Path,
    kernel: &'a str,
    nvcc_args: &'a [String],
    image: Option<Image>,
}

impl<'a> Side<'a> {
    fn new(
        (file, kernel, nvcc_args): (&'a Path, &'a str, &'a [String]),
        arch: Option<&str>,
    ) -> anyhow::Result<Self> {
        if !file.is_file() {
            bail!("{} is not a file", file.display());
        }
        let image = match (file.extension().is_some_and(|e| e == "cu"), arch) {
            (true, None) => None,
            _ => Some(Image::read(file, arch.unwrap_or("-"), nvcc_args)?),
        };
        if let Some(image) = &image {
            image.find(kernel)?;
        }
        Ok(Side {
            file,
            kernel,
            nvcc_args,
            image,
        })
    }

    fn load(
        self,
        ctx: &Arc<CudaContext>,
        arch: &str,
        args: &[ArgSpec],
    ) -> anyhow::Result<(Kernel, Option<String>)> {
        let image = match self.image {
            Some(image) => image,
            None => Image::read(self.file, arch, self.nvcc_args)?,
        };
        let kernel = Kernel::load(ctx, &image, self.kernel)?;
        // Where the driver cannot tell the parameters' sizes, the block says so.
        let unchecked = match kernel.param_sizes() {
            Some(sizes) => check_fit(&kernel.name, &sizes, args)
                .map(|()| None)
                .map_err(anyhow::Error::msg)?,
            None => Some("this driver has no cuFuncGetParamInfo (CUDA 12.4 and later)".into()),
        };
        Ok((kernel, unchecked))
    }
}

/// What built the module, for the report.
fn toolkit(file: &Path) -> String {
    match file.extension().and_then(|e| e.to_str()) {
        Some("cu") => module::nvcc()
            .ok()
            .and_then(|nvcc| {
                let out = std::process::Command::new(&nvcc).arg("--version").output().ok()?;
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                let release = text.lines().find(|l| l.contains("release"))?.to_string();
                Some(format!("{release} ({})", nvcc.display()))
            })
            .unwrap_or_else(|| "nvcc (version unknown)".into()),
        Some("ptx") => "PTX, compiled for the GPU by the driver".into(),
        _ => "a cubin, built elsewhere".into(),
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    // Everything that needs no GPU first: the JSON path, the files, the names.
    let json = cli.json.as_deref().map(JsonOut::create).transpose()?;
    let texts = cli
        .spread_from
        .iter()
        .map(|p| {
            Ok((
                p.display().to_string(),
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            ))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let other_medians = bug_report::medians_of_runs(&texts).map_err(anyhow::Error::msg)?;
    let a = Side::new((&cli.file, &cli.kernel, &cli.nvcc_arg), cli.arch.as_deref())?;
    let b = cli
        .b_side()
        .map(|b| Side::new(b, cli.arch.as_deref()))
        .transpose()?;
    if cli.mode == Some(Mode::Cupti) {
        instrument::cupti_available().context("the cupti mode")?;
    }
    cuda_check::require_driver()?;
    let ctx = cuda_check::check!(CudaContext::new(cli.device)).context("opening the GPU")?;
    let cc = cuda_objects::DeviceFacts::query(&ctx)?.compute_capability;
    let arch = cli.arch.clone().unwrap_or(format!("sm_{}{}", cc.0, cc.1));

    let (kernel_a, unchecked) = a.load(&ctx, &arch, &cli.args)?;
    let kernel_b = b
        .map(|b| b.load(&ctx, &arch, &cli.args))
        .transpose()?
        .map(|(k, _)| k);
    let shape = Shape {
        grid: cli.grid,
        block: cli.block,
        shared: cli.shared,
    };
    let mut workload = Workload::new(&ctx, &cli.args).context("allocating the arguments")?;
    let stream = ctx.default_stream();
    for k in std::iter::once(&kernel_a).chain(&kernel_b) {
        k.allow_shared(shape.shared)?;
        // One launch, waited for: a launch that fails is said here, naming
        // the kernel, before any time is spent on it.
        let done = workload
            .launch(k, shape, &stream)
            .and_then(|()| cuda_check::check!(stream.synchronize()));
        if let Err(e) = done {
            bail!(
                "kernel `{}` failed on its first launch ({}): {e}",
                k.name,
                describe(shape)
            );
        }
    }
    if let Some(n) = cli.launch_only {
        for _ in 0..n {
            workload.launch(&kernel_a, shape, &stream)?;
        }
        return Ok(cuda_check::check!(stream.synchronize())?);
    }

    let budget = Budget {
        max_gpu_ms: cli.budget_ms,
        ..Budget::default()
    };
    let mut session = Session::new(&ctx, budget).context("calibrating")?;
    let traffic = cli.traffic();
    let mut launch_a = |s: &_| workload.launch(&kernel_a, shape, s);
    let choice = session
        .choose(cli.mode, traffic, &mut launch_a)
        .context("the pilot")?;
    let mode = choice.mode;
    let kernel = if kernel_a.symbol == kernel_a.name {
        kernel_a.name.clone()
    } else {
        format!("{} ({})", kernel_a.name, kernel_a.symbol)
    };
    let cupti = (mode != Mode::Cupti).then(|| "not asked for".into());
    let mut run = Run {
        kernel,
        file: cli.file.display().to_string(),
        toolkit: toolkit(&cli.file),
        device: DeviceInfo::new(
            session.facts.clone(),
            session.calibration.copy_ceiling_gb_s,
            None,
            cupti,
        ),
        launch: format!("{}, {} arguments", describe(shape), cli.args.len()),
        choice,
        calibration: session.calibration.clone(),
        traffic,
        ops: cli.ops,
        command: shell_line(std::env::args()),
        params_unchecked: unchecked,
        other_medians,
    };
    let Some(kernel_b) = kernel_b else {
        let (k, budget) = (&run.kernel, cli.budget_ms);
        eprintln!(
            "kernel-timer: timing `{k}` in {} mode, up to {budget} ms of GPU time",
            mode.name()
        );
        let m = session.measure(mode, traffic, &mut launch_a)?;
        // After the samples, so that their graphs replay at the floor
        // (instrument's calibrate).
        after_samples_into(&mut session, &mut run)?;
        print!("{}", block(&run, &m));
        if let Some(json) = json {
            json.write(&serde_json::json!({ "run": run, "measurement": m }))?;
        }
        return Ok(());
    };
    // A/B prints a block per comparison as it goes: the whole calibration
    // first (two kernels are two kinds of work anyway: instrument's calibrate).
    after_samples_into(&mut session, &mut run)?;
    // A/B: the same workload for both (A's closure is done with it).
    let cell = RefCell::new(workload);
    let mut a = |s: &_| cell.borrow_mut().launch(&kernel_a, shape, s);
    let mut b = |s: &_| cell.borrow_mut().launch(&kernel_b, shape, s);
    let rounds = cli.rounds as usize;
    let mut results: Vec<AbResult> = Vec::new();
    for i in 1..=cli.repeat {
        eprintln!(
            "kernel-timer: A/B {i} of {}: `{}` then `{}` in {} mode, {rounds} rounds, up to {} ms of GPU time",
            cli.repeat,
            run.kernel,
            kernel_b.name,
            mode.name(),
            cli.budget_ms
        );
        let r = session.ab(mode, rounds, traffic, &mut a, &mut b)?;
        print!(
            "{}",
            ab_block(&run, &kernel_b.name, rounds, (&r.a, &r.b), r.comparison.as_ref())
        );
        results.push(r);
    }
    println!("{}", tally(&results));
    if let Some(json) = json {
        json.write(&serde_json::json!({ "run": run, "b_kernel": kernel_b.name, "rounds": cli.rounds, "ab": results }))?;
    }
    Ok(())
}

/// Measures the rest of the calibration and puts it in the run's
/// calibration and device, which were made before it was known.
fn after_samples_into(session: &mut Session, run: &mut Run) -> anyhow::Result<()> {
    session.after_samples().context("calibrating after the samples")?;
    run.calibration = session.calibration.clone();
    run.device.copy_ceiling_gb_s = session.calibration.copy_ceiling_gb_s;
    Ok(())
}

/// The labels of every A/B comparison, counted.
fn tally(results: &[AbResult]) -> String {
    let labels: Vec<&str> = results
        .iter()
        .map(|r| r.comparison.map_or("NONE", |c| c.label.name()))
        .collect();
    let count = |l: &str| labels.iter().filter(|&&x| x == l).count();
    format!(
        "labels: {} (SAME {}, FASTER {}, SLOWER {}, UNSURE {}, no label {})",
        labels.join(" "),
        count("SAME"),
        count("FASTER"),
        count("SLOWER"),
        count("UNSURE"),
        count("NONE")
    )
}

fn describe(shape: Shape) -> String {
    format!(
        "grid {}, block {}, {} B dynamic shared memory",
        shape.grid, shape.block, shape.shared
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_takes_a_file_a_kernel_its_shape_and_arguments() {
        let c = Cli::try_parse_from([
            "kt",
            "t.cu",
            "transpose",
            "--grid",
            "128x128",
            "--block",
            "32x8",
            "--arg",
            "f32[16]",
            "--arg",
            "i32=4",
            "--nvcc-arg",
            "-DX=1",
            "--mode",
            "graph",
        ])
        .unwrap();
        assert_eq!((c.grid, c.block), (Dim3(128, 128, 1), Dim3(32, 8, 1)));
        assert_eq!(c.args.len(), 2);
        assert_eq!(c.nvcc_arg, ["-DX=1"]);
        assert_eq!(c.mode, Some(Mode::Graph));
        assert!(!c.is_ab());
        assert_eq!(c.traffic(), None);
        let ab = Cli::try_parse_from(["kt", "t.cu", "k", "--b-nvcc-arg=-DX=2", "--bytes-read", "8"]).unwrap();
        assert!(ab.is_ab());
        assert_eq!(ab.traffic().map(|t| t.total()), Some(8));
    }

    #[test]
    fn bad_values_are_usage_errors_that_say_why() {
        for (bad, says) in [
            (&["kt", "t.cu", "k", "--grid", "0"][..], "is not a size"),
            (&["kt", "t.cu", "k", "--arg", "f16[4]"], "unknown type `f16`"),
            (&["kt", "t.cu", "k", "--mode", "fast"], "is no mode"),
            (
                &["kt", "t.cu", "k", "--budget-ms", "0"],
                "is not a positive number",
            ),
            (&["kt", "t.cu", "k", "--rounds", "0"], "0"),
            (&["kt", "t.cu"], "KERNEL"),
            (
                &["kt", "t.cu", "k", "--spread-from", "a.json", "--b-kernel", "j"],
                "cannot be used with",
            ),
        ] {
            let e = Cli::try_parse_from(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
            assert!(e.to_string().contains(says), "{bad:?}: {e}");
        }
    }
}
