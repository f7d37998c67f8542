//! Day 9 in Rust: one vector add timed five ways, the twin of `timing.cu`.
//!
//! The same kernels (linked from timing.cu through timing.h), the same
//! measurements in the same order, the same report and the same checks and
//! exit codes. The Rust side drives CUDA through cudarc, with memory made the
//! way `cudaMalloc` makes it (`cuda-objects`), kernels timed by `time-kernel`
//! and the lesson's deliberate host-clock readings taken from `host-clock`.
//!
//! Read it beside timing.cu: [`lesson`] is timing.cu's `main`, and each step
//! it calls is one block of that `main`, in the same order.
//!
//! Run: `cargo run --release -p day09-timing` (see README.md).

mod ffi;

mod stats;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, EventPair};
use cudarc::driver::{CudaContext, CudaStream};
use day09_timing_report::{Report, SweepRow};
use ffi::CU;
use host_clock::now_ms;
use instrument::json_out::JsonOut;
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use time_kernel::KernelTimer;

/// One vector add timed five ways (the Rust twin of timing.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Prints the lesson's report; exits 1 if a result or a consistency check is wrong.\n\
                  Try it with CUDA_MODULE_LOADING=EAGER too, and see where the cold costs go."
)]
struct Args {
    #[command(flatten)]
    device: DeviceArg,

    #[command(flatten)]
    claims: ClaimsArg,

    /// After the course's report, time vectorAdd with the measurement
    /// instrument (hot, cold-cache and graph modes; programmatic graph and
    /// isolated modes on compute capability 9.0+; CUPTI's where libcupti is
    /// found; adaptive sampling, clock checks) and print its table
    #[arg(long)]
    stats: bool,

    /// Write the instrument's measurements, every sample, as JSON
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
}

fn main() -> ExitCode {
    lesson_cli::run(lesson)
}

/// timing.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    // The instrument's output file is claimed before anything is measured,
    // so a path that cannot be written fails now, not after the measurement
    // (and outside row 1, which timing.cu does not spend on a file).
    let json = args.json.as_deref().map(JsonOut::create).transpose()?;

    // Row 1 starts here, as early as the program can read a clock.
    let process_start = now_ms();

    // The first CUDA call, timed on the host clock as timing.cu times its
    // cudaSetDevice, so the context's cost has a name here as it does there.
    let (device, context_ms) = lesson_cli::open_device_timed(args.device, now_ms)?;
    let (ctx, gpu_name, compute_capability) = (device.ctx, device.name, device.compute_capability);

    let mut host = HostArrays::filled();
    let mut dev = DeviceArrays::upload(&ctx, &host)?;
    // The legacy default stream, where timing.cu's launches and copies go.
    let stream = ctx.default_stream();
    let events = EventPair::new(&ctx)?;
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;

    let cold_ms = row3_first_launch(&events, &stream, &mut dev)?;
    let (launch_only_ms, launch_plus_sync_ms) = row2_host_clock_around_a_launch(&ctx, &stream, &mut dev)?;
    let warm_ms = row4_kernel_after_warm_up(&timer, &stream, &mut dev)?;
    // Row 5: the same kernel with the copies back in the region, timed by
    // timing.cu's timeRoundTrip, which the sweep uses too.
    let round_trip_ms = time_round_trip(&timer, &stream, &mut host, &mut dev, CU.elems)?;
    let cpu_ms = time_cpu_reference(&mut host, CU.elems);
    // Checked now, while host.out still holds the last full round trip; the
    // sweep below overwrites its front.
    let bad = first_mismatch(&host.out, &host.want, CU.rel_tolerance);
    let (scale_cold_ms, scale_warm_ms) = second_kernel_cold_then_warm(&events, &timer, &stream, &mut dev)?;
    let sweep = crossover_sweep(&timer, &stream, &mut host, &mut dev)?;

    // Freed before row 1 ends, as timing.cu frees before its clock stops.
    drop((events, dev));
    if let Some(i) = bad {
        return Err(mismatch(&host, i).into());
    }
    // Row 1 ends here: everything above, none of the printing below.
    let whole_ms = now_ms() - process_start;

    let report = Report {
        gpu_name,
        compute_capability,
        device: args.device.ordinal,
        elems: CU.elems,
        threads_per_block: CU.threads_per_block,
        blocks: ffi::blocks_for(CU.elems),
        warmups: timer.warmups(),
        runs: timer.runs(),
        context_ms,
        whole_ms,
        launch_only_ms,
        launch_plus_sync_ms,
        cold_ms,
        warm_ms,
        round_trip_ms,
        cpu_ms,
        scale_cold_ms,
        scale_warm_ms,
        sweep,
    };
    let printed = report.render();
    print!("{printed}");
    if let Some(message) = report.consistency_failure() {
        return Err(CheckFailed(message).into());
    }
    print_claims::<Report>(args.claims, &printed, &report.gpu_name)?;
    if args.stats || args.json.is_some() {
        instrument_view(&ctx, args.stats, json, &host, (cold_ms, warm_ms))?;
    }
    Ok(())
}

/// timing.cu's four host vectors: the inputs, the GPU's result and the
/// CPU's reference.
struct HostArrays {
    a: Vec<f32>,
    b: Vec<f32>,
    out: Vec<f32>,
    want: Vec<f32>,
}

impl HostArrays {
    fn filled() -> Self {
        // Filled with a non-zero value so every page is written, and so
        // mapped, now. `vec![0.0; n]` gets lazily mapped zero pages from the
        // allocator, and the first pass to write them (the timed CPU loop)
        // would pay one page fault per 4 KiB; timing.cu's std::vector writes
        // its elements up front.
        let mut host = HostArrays {
            a: vec![-1.0f32; CU.elems],
            b: vec![-1.0f32; CU.elems],
            out: vec![-1.0f32; CU.elems],
            want: vec![-1.0f32; CU.elems],
        };
        for i in 0..CU.elems {
            host.a[i] = (i % 97) as f32 * 0.5;
            host.b[i] = (i % 13) as f32;
        }
        host
    }
}

/// The device buffers every measurement shares, made by cudaMalloc's
/// equivalent and filled with the inputs once.
struct DeviceArrays {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
}

impl DeviceArrays {
    fn upload(ctx: &Arc<CudaContext>, host: &HostArrays) -> Result<Self, CudaError> {
        let mut dev = DeviceArrays {
            a: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            b: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            out: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
        };
        check!(dev.a.copy_from_host(&host.a))?;
        check!(dev.b.copy_from_host(&host.b))?;
        Ok(dev)
    }

    /// Queues vectorAdd over the first `n` elements.
    fn vector_add(&mut self, n: usize, stream: &CudaStream) -> Result<(), CudaError> {
        ffi::vector_add(&self.a, &self.b, &mut self.out, n, stream)
    }

    /// Queues vectorScale over all the elements.
    fn vector_scale(&mut self, stream: &CudaStream) -> Result<(), CudaError> {
        ffi::vector_scale(&self.a, &mut self.out, CU.elems, stream)
    }
}

/// Row 3, first on purpose: vectorAdd's first launch in the process, which
/// pays its module load. The events see the gap the load leaves on the
/// device.
fn row3_first_launch(
    events: &EventPair,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
) -> Result<f32, CudaError> {
    events.time(stream, || dev.vector_add(CU.elems, stream))
}

/// Row 2: a host clock around the launch call, then the same clock after a
/// sync. The launch status is checked after the clock, as timing.cu does.
/// Returns (launch only, launch plus sync) in milliseconds.
fn row2_host_clock_around_a_launch(
    ctx: &CudaContext,
    stream: &CudaStream,
    dev: &mut DeviceArrays,
) -> Result<(f64, f64), CudaError> {
    let launch_start = now_ms();
    let launched = dev.vector_add(CU.elems, stream);
    let launch_end = now_ms();
    launched?;
    check!(ctx.synchronize())?;
    let launch_only_ms = launch_end - launch_start;
    let launch_plus_sync_ms = now_ms() - launch_start;
    Ok((launch_only_ms, launch_plus_sync_ms))
}

/// Row 4: the kernel, warmed up, mean of ten, no copies in the region.
fn row4_kernel_after_warm_up(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
) -> Result<f32, CudaError> {
    Ok(timer.time(stream, || dev.vector_add(CU.elems, stream))?.mean_ms())
}

/// Row 5, timing.cu's timeRoundTrip: both inputs up with pageable copies,
/// one launch, the result back; warm-ups, then the mean. The sweep times its
/// prefixes of the buffers the same way.
fn time_round_trip(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    host: &mut HostArrays,
    dev: &mut DeviceArrays,
    n: usize,
) -> Result<f32, CudaError> {
    let timing = timer.time(stream, || {
        check!(dev.a.copy_from_host(&host.a[..n]))?;
        check!(dev.b.copy_from_host(&host.b[..n]))?;
        dev.vector_add(n, stream)?;
        check!(dev.out.copy_to_host(&mut host.out[..n]))
    })?;
    Ok(timing.mean_ms())
}

/// The CPU on the same data, with timing.cu's own loop (see ffi.rs), over
/// the first `n` elements; the full pass also fills `want` for the check.
fn time_cpu_reference(host: &mut HostArrays, n: usize) -> f64 {
    let (a, b, want) = (&host.a[..n], &host.b[..n], &mut host.want[..n]);
    let start = now_ms();
    ffi::vector_add_cpu(a, b, want);
    now_ms() - start
}

/// The second kernel, cold and then warm, long after start-up. Returns
/// (first launch, after warm-up) in milliseconds.
fn second_kernel_cold_then_warm(
    events: &EventPair,
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
) -> Result<(f32, f32), CudaError> {
    let cold_ms = events.time(stream, || dev.vector_scale(stream))?;
    let warm_ms = timer.time(stream, || dev.vector_scale(stream))?.mean_ms();
    Ok((cold_ms, warm_ms))
}

/// The crossover sweep: the CPU, the kernel alone and the round trip at
/// each size, all on prefixes of the same buffers.
fn crossover_sweep(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    host: &mut HostArrays,
    dev: &mut DeviceArrays,
) -> Result<Vec<SweepRow>, CudaError> {
    let mut sweep = Vec::with_capacity(CU.sweep.len());
    for &n in &CU.sweep {
        let cpu_ms = time_cpu_reference(host, n);
        let kernel_ms = timer.time(stream, || dev.vector_add(n, stream))?.mean_ms();
        let round_trip_ms = time_round_trip(timer, stream, host, dev, n)?;
        sweep.push(SweepRow {
            n,
            cpu_ms,
            kernel_ms,
            round_trip_ms,
        });
    }
    Ok(sweep)
}

/// timing.cu's line for a wrong result at index `i`.
fn mismatch(host: &HostArrays, i: usize) -> CheckFailed {
    CheckFailed(format!(
        "vectorAdd wrong at {i}: got {}, want {}",
        g9(host.out[i]),
        g9(host.want[i])
    ))
}

/// `--stats` and `--json`: the measurement instrument's view, after the
/// course's report. `course` is (row 3, row 4) in milliseconds.
fn instrument_view(
    ctx: &Arc<CudaContext>,
    print_table: bool,
    json: Option<JsonOut>,
    host: &HostArrays,
    course: (f32, f32),
) -> anyhow::Result<()> {
    let course = stats::CourseNumbers {
        first_launch_ms: course.0,
        mean_of_10_ms: course.1,
    };
    // A CUDA error keeps its own type, so it prints in the course's shape.
    stats::run(ctx, print_table, json, (&host.a, &host.b), CU.elems, course).map_err(|e| match e {
        stats::StatsError::Cuda(cuda) => anyhow::Error::from(cuda),
        other => anyhow::Error::from(other).context("the measurement instrument (--stats, --json)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_reference_from_timing_cu_adds_elementwise() {
        let mut out = [0.0; 4];
        ffi::vector_add_cpu(&[1.0, 2.5, -1.0, 9.0], &[2.0, 0.5, 1.0, 9.0], &mut out[..3]);
        assert_eq!(out, [3.0, 3.0, 0.0, 0.0], "three elements, the fourth untouched");
    }

    #[test]
    fn the_grid_is_timing_cus_own() {
        assert_eq!(ffi::blocks_for(CU.elems), 65_539);
        assert_eq!(ffi::blocks_for(1), 1);
    }

    #[test]
    fn the_command_line_keeps_the_lessons_flags() {
        let args =
            Args::try_parse_from(["day09-timing", "--device", "1", "--stats", "--json", "out.json"]).unwrap();
        assert_eq!(args.device.ordinal, 1);
        assert!(args.stats);
        assert_eq!(args.json, Some(PathBuf::from("out.json")));
        let plain = Args::try_parse_from(["day09-timing"]).unwrap();
        assert_eq!((plain.device.ordinal, plain.stats, plain.json), (0, false, None));
        let err = Args::try_parse_from(["day09-timing", "--json="]).unwrap_err();
        assert_eq!(err.exit_code(), 2, "an empty --json path: {err}");
    }
}
