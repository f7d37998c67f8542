//! The warm-up post re-run, in Rust: the twin of `warmup.cu`.
//!
//! The same five parts in the same order, the same checks and exit codes,
//! the same report (rendered by the report package). The first call is made
//! by warmup.cu's own code through warmup.h, so both programs make the very
//! same call; afterwards cudarc retains the primary context that call made,
//! memory comes from `cuda-objects` and the post's kernels launch through
//! warmup.h. The host clock, read on purpose as in the post, is `host-clock`.
//!
//! Read it beside warmup.cu: [`lesson`] is warmup.cu's `main`, and each step
//! it calls is one part of that `main`, in the same order.
//!
//! Run: `cargo run --release -p ref-warm-up -- --first malloc` (see README.md).

mod ffi;

use std::process::ExitCode;
use std::sync::Arc;

use clap::{CommandFactory, Parser, ValueEnum};
use cuda_check::{check, runtime, CudaError};
use cuda_objects::{timing_event, DeviceBuffer};
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};
use ffi::CU;
use ffi::{warmup_first_call_kind as Kind, PostKernel};
use host_clock::now_ms;
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use ref_warm_up_report::{
    first_call_text, FirstCall, KernelRows, MallocRow, MallocRun, Report, RunCall, Setup, CALLS,
};
use time_kernel::KernelTimer;

/// The CUDA call that comes first in the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum First {
    /// cudaSetDevice(N), the post's own first call
    SetDevice,
    /// cudaMalloc of the post's 40000 bytes
    Malloc,
    /// a launch of an empty kernel
    Launch,
}

impl First {
    fn name(self) -> &'static str {
        match self {
            First::SetDevice => "set-device",
            First::Malloc => "malloc",
            First::Launch => "launch",
        }
    }

    fn kind(self) -> Kind {
        match self {
            First::SetDevice => Kind::WARMUP_FIRST_SET_DEVICE,
            First::Malloc => Kind::WARMUP_FIRST_MALLOC,
            First::Launch => Kind::WARMUP_FIRST_LAUNCH,
        }
    }
}

/// The warm-up post's first-call experiment on today's GPU (the Rust twin of warmup.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Part 1: the first CUDA call of the process (--first), host clock.\n\
                  Part 2: the first, second and tenth cudaMalloc with the context made.\n\
                  Part 3: the post's kernels, four calls each, host clock and events.\n\
                  Part 4: the post's loop without and with a synchronise.\n\
                  Part 5: a run of the post's small cudaMalloc, each timed, with its address.\n\
                  Try CUDA_MODULE_LOADING=EAGER, and CUDA_VISIBLE_DEVICES=0 on a machine with several GPUs.\n\
                  Exits 1 on a wrong kernel result or an impossible measurement."
)]
struct Args {
    #[command(flatten)]
    device: DeviceArg,

    #[command(flatten)]
    claims: ClaimsArg,

    /// Which CUDA call comes first in the process
    #[arg(long, value_enum, default_value_t = First::SetDevice)]
    first: First,
}

impl Args {
    /// Only cudaSetDevice picks a device; the other first calls land on the
    /// runtime's default device, 0, as they do in warmup.cu.
    fn conflict(&self) -> Option<clap::Error> {
        (self.first != First::SetDevice && self.device.ordinal != 0).then(|| {
            Args::command().error(
                clap::error::ErrorKind::ArgumentConflict,
                "--device other than 0 needs --first set-device: the other first calls use device 0",
            )
        })
    }
}

fn main() -> ExitCode {
    lesson_cli::run(lesson)
}

/// warmup.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    if let Some(usage) = args.conflict() {
        usage.exit();
    }
    // The report's rows have a column per call, as warmup.cu's printf lines
    // do: a kCalls the report was not written for is said, not misprinted.
    if CU.calls != CALLS {
        anyhow::bail!(
            "warmup.cu's kCalls is {}; the report prints {CALLS} calls per row",
            CU.calls
        );
    }
    // Part 1 is the process's first CUDA call, through the runtime, so the
    // driver is looked for before it (cudarc panics without libcuda; say so
    // in one line instead); open_device looks again, untimed.
    cuda_check::require_driver()?;
    let (first, _first_buffer) = part1_first_call(args.first, args.device.ordinal)?;
    let device = lesson_cli::open_device(args.device)?;
    let gpu = device.described();
    let (ctx, gpu_name) = (device.ctx, device.name);
    let visible_gpus = u32::try_from(check!(CudaContext::device_count())?)?;

    let (mallocs, blocks) = part2_mallocs()?;
    let init: Vec<f32> = (0..CU.elems).map(initial_value).collect();
    let mut d_a = check!(DeviceBuffer::<f32>::alloc(&ctx, CU.elems))?;
    let events = Events::create(&ctx)?;
    let stream = ctx.default_stream();
    let kernels = part3_post_kernels(&ctx, &stream, &events, &init, &mut d_a)?;
    let loops = part4_missing_sync(&ctx, &stream, &events, &init, &mut d_a)?;
    let (malloc_run, _run_blocks) = part5_malloc_run(
        blocks.first().map_or(0, ffi::RuntimeBuffer::address),
        d_a.device_ptr(),
    )?;

    let report = Report {
        gpu,
        visible_gpus,
        visible_devices: std::env::var("CUDA_VISIBLE_DEVICES").ok(),
        module_loading: std::env::var("CUDA_MODULE_LOADING").ok(),
        setup: Setup {
            elems: CU.elems as u32,
            timed_runs: CU.timed_runs,
            warmup_runs: CU.warmup_runs,
            part4_threads: CU.block_sizes[0] as u32,
        },
        first,
        mallocs,
        kernels,
        no_sync_host_ms: loops[0],
        no_sync_events_ms: loops[1],
        sync_host_ms: loops[2],
        sync_events_ms: loops[3],
        malloc_run: Some(malloc_run),
        then: CU.then(args.first.kind()),
    };
    let printed = report.render();
    print!("{printed}");
    print_claims::<Report>(args.claims, &printed, &gpu_name)
}

/// Part 1: the first CUDA call, timed with the host clock as the post did.
/// Nothing before it touches CUDA, not even a device count.
fn part1_first_call(first: First, device: usize) -> anyhow::Result<(FirstCall, ffi::RuntimeBuffer)> {
    let ordinal = i32::try_from(device)?;
    let start = now_ms();
    let buffer = ffi::first_call(first.kind(), ordinal)?;
    let ms = now_ms() - start;
    if !positive(ms) {
        return Err(impossible(format!("first call {ms} ms")).into());
    }
    let call = FirstCall {
        name: first.name().into(),
        call: first_call_text(first.name(), device, CU.malloc_bytes[0]),
        ms,
    };
    Ok((call, buffer))
}

/// Part 2: each size kMallocCount times, call and synchronise, every
/// allocation kept until the end so none reuses another's memory.
fn part2_mallocs() -> anyhow::Result<(Vec<MallocRow>, Vec<ffi::RuntimeBuffer>)> {
    let mut rows = Vec::new();
    let mut kept = Vec::new();
    for &bytes in &CU.malloc_bytes {
        let mut ms = vec![0.0f64; CU.malloc_count];
        for slot in &mut ms {
            let start = now_ms();
            let buffer = ffi::malloc(bytes)?;
            *slot = now_ms() - start;
            kept.push(buffer);
            if !positive(*slot) {
                return Err(impossible(format!("cudaMalloc {slot} ms")).into());
            }
        }
        rows.push(MallocRow {
            bytes: u64::try_from(bytes)?,
            first_ms: ms[0],
            second_ms: ms[1],
            tenth_ms: ms[CU.malloc_count - 1],
        });
    }
    Ok((rows, kept))
}

/// warmup.cu's inputs: values in (-1, 0), which a += a * a keeps finite.
fn initial_value(i: usize) -> f32 {
    -((i % 1000 + 1) as f32) / 1001.0
}

/// The CPU reference: `steps` steps of a += a * a as one fused multiply-add.
fn steps_cpu(a: &mut [f32], steps: u32) {
    for x in a.iter_mut() {
        for _ in 0..steps {
            *x = x.mul_add(*x, *x);
        }
    }
}

/// A time that is a positive number (NaN is not).
fn positive(ms: f64) -> bool {
    ms > 0.0
}

fn impossible(what: String) -> CheckFailed {
    CheckFailed(format!("impossible measurement: {what}"))
}

/// warmup.cu's `impossible`: a time that is not positive, or events that saw
/// more than the host clock around them (0.002 ms of slack for resolution).
fn is_impossible(host_ms: f64, event_ms: f64) -> bool {
    !positive(host_ms) || !positive(event_ms) || event_ms > host_ms + 0.002
}

/// CALLS pairs of timing events, as warmup.cu's start[] and stop[].
struct Events {
    start: Vec<CudaEvent>,
    stop: Vec<CudaEvent>,
}

impl Events {
    fn create(ctx: &Arc<CudaContext>) -> Result<Self, CudaError> {
        let mut events = Events {
            start: Vec::new(),
            stop: Vec::new(),
        };
        for _ in 0..CALLS {
            events.start.push(timing_event(ctx)?);
            events.stop.push(timing_event(ctx)?);
        }
        // The events' own first use, so it is not inside a timed call.
        check!(events.start[0].record(&ctx.default_stream()))?;
        check!(events.start[0].synchronize())?;
        Ok(events)
    }

    fn elapsed_ms(&self, c: usize) -> Result<f64, CudaError> {
        Ok(f64::from(check!(self.start[c].elapsed_ms(&self.stop[c]))?))
    }
}

/// One call timed both ways, as warmup.cu's timeOneCall: the host clock
/// around launch and synchronise, the events around the launch alone.
fn time_one_call(
    ctx: &CudaContext,
    stream: &Arc<CudaStream>,
    events: &Events,
    c: usize,
    launch: impl FnOnce() -> Result<(), CudaError>,
) -> anyhow::Result<(f64, f64)> {
    let t0 = now_ms();
    check!(events.start[c].record(stream))?;
    launch()?;
    check!(events.stop[c].record(stream))?;
    check!(ctx.synchronize())?;
    let t1 = now_ms();
    check!(runtime::last_error())?;
    let (host, event) = (t1 - t0, events.elapsed_ms(c)?);
    if is_impossible(host, event) {
        return Err(impossible(format!("call #{c}, host {host} ms, events {event} ms")).into());
    }
    Ok((host, event))
}

/// Fills the device array with the initial values again.
fn reset_input(d_a: &mut DeviceBuffer<f32>, init: &[f32]) -> Result<(), CudaError> {
    check!(d_a.copy_from_host(init))
}

/// Fails unless d_a holds init after `steps` steps.
fn check_result(d_a: &DeviceBuffer<f32>, init: &[f32], steps: u32, what: &str) -> anyhow::Result<()> {
    let mut got = vec![0.0f32; init.len()];
    check!(d_a.copy_to_host(&mut got))?;
    let mut want = init.to_vec();
    steps_cpu(&mut want, steps);
    if let Some(i) = first_mismatch(&got, &want, CU.rel_tolerance) {
        return Err(CheckFailed(format!(
            "{what} wrong at {i}: got {}, want {}",
            g9(got[i]),
            g9(want[i])
        ))
        .into());
    }
    Ok(())
}

/// Part 3: the post's kernels in its configuration, then at 256 threads;
/// each checked after its four calls, then timed warm the course's way.
fn part3_post_kernels(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    events: &Events,
    init: &[f32],
    d_a: &mut DeviceBuffer<f32>,
) -> anyhow::Result<Vec<KernelRows>> {
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;
    let mut rows = Vec::new();
    for &threads in &CU.block_sizes {
        for (kernel, name, steps) in [
            (PostKernel::Simple, "simple", 1),
            (PostKernel::Complex, "complex", CU.complex_steps),
        ] {
            reset_input(d_a, init)?;
            let (mut host_ms, mut events_ms) = ([0.0; CALLS], [0.0; CALLS]);
            for c in 0..CALLS {
                (host_ms[c], events_ms[c]) = time_one_call(ctx, stream, events, c, || {
                    ffi::launch(kernel, d_a, threads, stream)
                })?;
            }
            check_result(d_a, init, CALLS as u32 * steps, name)?;
            let warm = timer.time(stream, || ffi::launch(kernel, d_a, threads, stream))?;
            rows.push(KernelRows {
                kernel: name.into(),
                threads: u32::try_from(threads)?,
                host_ms,
                events_ms,
                warm_ms: f64::from(warm.mean_ms()),
            });
        }
    }
    Ok(rows)
}

/// Part 4: the post's last loop, complex kernel at 4 threads, without the
/// synchronise, then with it. Without it, the host clock reads the launch
/// call alone, and each event pair times kernel c as it ran queued behind
/// kernel c - 1 (call #0's start event finds the stream idle, so its
/// interval also holds the launch). Returns without-sync host and events,
/// with-sync host and events.
fn part4_missing_sync(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    events: &Events,
    init: &[f32],
    d_a: &mut DeviceBuffer<f32>,
) -> anyhow::Result<[[f64; CALLS]; 4]> {
    let threads = CU.block_sizes[0];
    reset_input(d_a, init)?;
    let mut loops = [[0.0; CALLS]; 4];
    let [no_sync_host, no_sync_events, sync_host, sync_events] = &mut loops;
    for (c, host) in no_sync_host.iter_mut().enumerate() {
        check!(events.start[c].record(stream))?;
        let t0 = now_ms();
        let launched = ffi::launch(PostKernel::Complex, d_a, threads, stream);
        let t1 = now_ms();
        launched?;
        check!(events.stop[c].record(stream))?;
        *host = t1 - t0;
    }
    check!(ctx.synchronize())?;
    check!(runtime::last_error())?;
    for (c, (event, host)) in no_sync_events.iter_mut().zip(no_sync_host.iter()).enumerate() {
        *event = events.elapsed_ms(c)?;
        if !positive(*host) {
            return Err(impossible(format!("Part 4 call #{c}")).into());
        }
    }
    for (c, (host, event)) in sync_host.iter_mut().zip(sync_events.iter_mut()).enumerate() {
        (*host, *event) = time_one_call(ctx, stream, events, c, || {
            ffi::launch(PostKernel::Complex, d_a, threads, stream)
        })?;
    }
    check_result(d_a, init, 2 * CALLS as u32 * CU.complex_steps, "complex (Part 4)")?;
    Ok(loops)
}

/// Part 5: kMallocRun more allocations of the post's size, each call and
/// synchronise timed, each kept; the addresses are read after the run.
/// `part2_first` is Part 2's first allocation of that size, `before` the
/// last allocation made before the run (Part 3's array).
fn part5_malloc_run(part2_first: u64, before: u64) -> anyhow::Result<(MallocRun, Vec<ffi::RuntimeBuffer>)> {
    let mut calls = Vec::with_capacity(CU.malloc_run);
    let mut kept = Vec::with_capacity(CU.malloc_run);
    for _ in 0..CU.malloc_run {
        let start = now_ms();
        let buffer = ffi::malloc(CU.malloc_bytes[0])?;
        let ms = now_ms() - start;
        calls.push(RunCall {
            ms,
            address: buffer.address(),
        });
        kept.push(buffer);
        if !positive(ms) {
            return Err(impossible(format!("Part 5 cudaMalloc {ms} ms")).into());
        }
    }
    let run = MallocRun {
        bytes: u64::try_from(CU.malloc_bytes[0])?,
        part2_first,
        before,
        calls,
    };
    Ok((run, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_reference_steps_a_plus_a_squared() {
        let mut a = [-0.5f32, 0.0, 1.0];
        steps_cpu(&mut a, 2);
        // -0.5 -> -0.25 -> -0.1875; 0 stays; 1 -> 2 -> 6.
        assert_eq!(a, [-0.1875, 0.0, 6.0]);
    }

    #[test]
    fn inputs_stay_inside_minus_one_to_zero() {
        assert_eq!(initial_value(999), -1000.0 / 1001.0);
        assert_eq!(initial_value(1000), -1.0 / 1001.0);
        let mut a: Vec<f32> = (0..CU.elems).map(initial_value).collect();
        steps_cpu(&mut a, 8 * CU.complex_steps);
        assert!(a.iter().all(|x| (-1.0..0.0).contains(x)), "{:?}", &a[..4]);
    }

    #[test]
    fn impossible_measurements_are_named() {
        assert!(!is_impossible(0.010, 0.008));
        assert!(!is_impossible(0.010, 0.0115));
        assert!(is_impossible(0.010, 0.013));
        assert!(is_impossible(0.0, 0.001));
        assert!(is_impossible(f64::NAN, 0.001));
    }

    #[test]
    fn first_takes_the_three_calls_and_device_needs_set_device() {
        let parse =
            |args: &[&str]| Args::try_parse_from(std::iter::once("ref-warm-up").chain(args.iter().copied()));
        assert_eq!(parse(&[]).unwrap().first, First::SetDevice);
        for (flag, first) in [
            ("set-device", First::SetDevice),
            ("malloc", First::Malloc),
            ("launch", First::Launch),
        ] {
            let args = parse(&["--first", flag]).unwrap();
            assert_eq!((args.first, args.first.name()), (first, flag));
            assert!(args.conflict().is_none());
        }
        assert!(parse(&["--first", "memcpy"]).is_err());
        assert!(parse(&["--device", "1"]).unwrap().conflict().is_none());
        let conflict = parse(&["--device", "1", "--first", "malloc"])
            .unwrap()
            .conflict()
            .unwrap();
        assert_eq!(conflict.exit_code(), 2);
    }
}
