//! Day 53 in Rust: pinned memory and async copies, the twin of `pinned.cu`.
//!
//! The same three parts in the same order, the same correctness gates before
//! anything is timed, the same NVTX range labels, the same printed lines and
//! exit codes. Memory is made the way pinned.cu makes it (`cuda-objects`):
//! `cuMemAlloc` for device buffers, plain page-locked host memory (not
//! cudarc's write-combined default) and mapped host memory for zero-copy.
//!
//! Read it beside pinned.cu: [`lesson`] is pinned.cu's `main`, and each step
//! it calls is one block or part of that `main`, in the same order.
//!
//! Run: `cargo run --release -p day53-pinned` (see README.md).

mod ffi;
use day53_pinned_report::render as report;
use day53_pinned_report::Report;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, runtime, CudaError};
use cuda_objects::{BlockingStream, DeviceBuffer, DeviceMemory, Mapping, PinnedHost};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::CudaContext;
use ffi::CU;
use host_clock::now_ms;
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, Device, DeviceArg, Printed};
use time_kernel::KernelTimer;

/// A mebibyte, as pinned.cu's sizes count them.
const MIB: usize = 1024 * 1024;

/// Parts 1 and 2 copy from these two sources, in this order.
const SOURCE_NAMES: [&str; 2] = ["pageable", "pinned"];
/// Part 3's two inputs, in this order.
const VARIANTS: [&str; 2] = ["device-resident", "zero-copy"];

/// Pinned memory and async copies (the Rust twin of pinned.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Part 1: host-to-device cudaMemcpy bandwidth, pageable vs pinned, 1 to 256 MiB.\n\
                  Part 2: how long cudaMemcpyAsync holds the host, pageable vs pinned.\n\
                  Part 3: a kernel reading device memory vs mapped host memory (zero-copy).\n\
                  Exits 1 if a copy or a kernel result is wrong."
)]
struct Args {
    #[command(flatten)]
    device: DeviceArg,

    #[command(flatten)]
    claims: ClaimsArg,
}

fn main() -> ExitCode {
    lesson_cli::run(lesson)
}

/// pinned.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    // What is printed is kept, so that --claims reads the report as printed.
    let mut out = Printed::default();
    let ctx = open_device(args.device, &mut out)?;
    let mut host = HostMemory::filled(&ctx)?;
    let mut dev = DeviceSide::alloc(&ctx)?;
    // Everything above is freed by its owner on every way out of this
    // function, and not before its end: the device reads host.mapped until
    // Part 3 is done.

    gate_both_copy_paths(&mut host, &mut dev)?;
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;
    part1_bandwidth(&ctx, &timer, &host, &mut dev, &mut out)?;
    part2_async_call_vs_completion(&timer, &host, &mut dev, &mut out)?;
    part3_resident_vs_zero_copy(&ctx, &timer, &mut host, &mut dev, &mut out)?;
    print_claims::<Report>(args.claims, out.text(), &check!(ctx.name())?)
}

/// The device, its GPU line, and whether it can map host memory at all.
///
/// pinned.cu first calls cudaSetDeviceFlags(cudaDeviceMapHost). The driver
/// API has no such step: every context since CUDA 3.2 maps host memory,
/// CU_CTX_MAP_HOST has had no effect since CUDA 11, and CUDA 13's
/// cuDevicePrimaryCtxSetFlags rejects it as an invalid value (seen on the
/// H200, evidence/day53-pinned/2026-11-29T222958Z-h200-rust.txt). What
/// remains is the device's ability to map, checked here as pinned.cu checks
/// it.
fn open_device(device: DeviceArg, out: &mut Printed) -> anyhow::Result<Arc<CudaContext>> {
    let Device {
        ctx,
        name,
        compute_capability,
    } = lesson_cli::open_device(device)?;
    out.line(report::gpu_line(&name, compute_capability));
    let can_map = check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY))?;
    if can_map == 0 {
        return Err(
            CheckFailed("this device cannot map host memory; part 3 is impossible here".into()).into(),
        );
    }
    Ok(ctx)
}

/// pinned.cu's host memory: pageable, pinned and mapped, plus the buffers
/// results come back into.
struct HostMemory {
    /// Ordinary memory the OS may move, so the driver stages copies from it
    /// through a pinned buffer of its own.
    pageable: Vec<f32>,
    /// Page-locked, with the same contents, so both sides move the same bytes.
    pinned: PinnedHost<f32>,
    /// Mapped page-locked memory, which Part 3's kernel reads directly.
    mapped: PinnedHost<f32>,
    back: Vec<f32>,
    out: Vec<f32>,
    want: Vec<f32>,
}

impl HostMemory {
    fn filled(ctx: &Arc<CudaContext>) -> Result<Self, CudaError> {
        let max_elems = CU.max_sweep_bytes / std::mem::size_of::<f32>();
        let pageable: Vec<f32> = (0..max_elems).map(|i| (i % 977) as f32 * 0.25).collect();
        let back = vec![0.0f32; max_elems];
        let out = vec![0.0f32; CU.kernel_elems];
        let want = vec![0.0f32; CU.kernel_elems];
        let mut pinned = check!(PinnedHost::<f32>::alloc(ctx, max_elems, Mapping::Unmapped))?;
        pinned.copy_from_slice(&pageable);
        let mut mapped = check!(PinnedHost::<f32>::alloc(ctx, CU.kernel_elems, Mapping::Mapped))?;
        for (i, x) in mapped.iter_mut().enumerate() {
            *x = (i % 353) as f32 - 176.0;
        }
        Ok(HostMemory {
            pageable,
            pinned,
            mapped,
            back,
            out,
            want,
        })
    }
}

/// pinned.cu's device buffer for the copies (and Part 3's resident input),
/// the kernel's output, and the stream of Part 2.
struct DeviceSide {
    buf: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
    stream: BlockingStream,
}

impl DeviceSide {
    fn alloc(ctx: &Arc<CudaContext>) -> Result<Self, CudaError> {
        let max_elems = CU.max_sweep_bytes / std::mem::size_of::<f32>();
        Ok(DeviceSide {
            buf: check!(DeviceBuffer::<f32>::alloc(ctx, max_elems))?,
            out: check!(DeviceBuffer::<f32>::alloc(ctx, CU.kernel_elems))?,
            stream: check!(BlockingStream::create(ctx))?,
        })
    }
}

/// The gate: both copy paths really copy, at the full size, before any
/// timing. A fast copy that moved nothing would top every table below.
fn gate_both_copy_paths(host: &mut HostMemory, dev: &mut DeviceSide) -> anyhow::Result<()> {
    let sources: [&[f32]; 2] = [&host.pageable, &host.pinned];
    for (name, src) in SOURCE_NAMES.iter().zip(sources) {
        check!(dev.buf.copy_from_host(src))?;
        check!(dev.buf.copy_to_host(&mut host.back))?;
        if let Some(i) = first_mismatch(&host.back, src, 0.0) {
            return Err(CheckFailed(format!(
                "{name} H2D copy wrong at {i}: got {}, want {}",
                g9(host.back[i]),
                g9(src[i])
            ))
            .into());
        }
    }
    Ok(())
}

/// Part 1: blocking copies from each source at each size, on the default
/// stream, timed like kernels.
fn part1_bandwidth(
    ctx: &Arc<CudaContext>,
    timer: &KernelTimer,
    host: &HostMemory,
    dev: &mut DeviceSide,
    out: &mut Printed,
) -> Result<(), CudaError> {
    let sources: [&[f32]; 2] = [&host.pageable, &host.pinned];
    let default_stream = ctx.default_stream();
    out.line(report::part1_header(timer.runs(), timer.warmups()));
    for &mib in &CU.sweep_mib {
        let elems = mib * MIB / std::mem::size_of::<f32>();
        let mut ms = [0.0f64; 2];
        for (s, src) in sources.iter().enumerate() {
            let range = nvtx_range(&format!("h2d-{}-{mib}MiB", SOURCE_NAMES[s]));
            let timing = timer.time(&default_stream, || check!(dev.buf.copy_from_host(&src[..elems])))?;
            drop(range);
            ms[s] = f64::from(timing.mean_ms());
        }
        out.line(report::part1_row(mib, ms[0], ms[1]));
    }
    Ok(())
}

/// Part 2: cudaMemcpyAsync from each source on a stream of its own. The
/// host clock is read only after the call returned, and after the stream
/// synchronised.
fn part2_async_call_vs_completion(
    timer: &KernelTimer,
    host: &HostMemory,
    dev: &mut DeviceSide,
    out: &mut Printed,
) -> Result<(), CudaError> {
    let sources: [&[f32]; 2] = [&host.pageable, &host.pinned];
    let runs = timer.runs();
    out.line(report::part2_header(runs));
    let probe_elems = CU.probe_bytes / std::mem::size_of::<f32>();
    let stream = dev.stream.stream();
    let raw_stream = stream.cu_stream();
    for (s, src) in sources.iter().enumerate() {
        let src = &src[..probe_elems];
        // SAFETY (all copies below): src outlives the copy, and the stream is
        // synchronised before src is touched again.
        check!(unsafe { dev.buf.copy_from_host_async(src, raw_stream) })?;
        check!(stream.synchronize())?; // the warm-up, untimed
        let range = nvtx_range(&format!("async-{}", SOURCE_NAMES[s]));
        let (mut call_sum, mut total_sum) = (0.0f64, 0.0f64);
        for _ in 0..runs {
            let t0 = now_ms();
            check!(unsafe { dev.buf.copy_from_host_async(src, raw_stream) })?;
            // The call has returned: how long did it hold this thread?
            let t1 = now_ms();
            check!(stream.synchronize())?;
            // The stream has drained: the copy is certainly done.
            let t2 = now_ms();
            call_sum += t1 - t0;
            total_sum += t2 - t0;
        }
        drop(range);
        let call_ms = call_sum / f64::from(runs);
        let total_ms = total_sum / f64::from(runs);
        out.line(report::part2_row(SOURCE_NAMES[s], call_ms, total_ms));
    }
    Ok(())
}

/// Part 3: one kernel, its input resident on the device (filled by one
/// staging copy) or mapped from the host, so every launch, warm-ups
/// included, reads it over PCIe again. Each is checked before it is timed.
fn part3_resident_vs_zero_copy(
    ctx: &Arc<CudaContext>,
    timer: &KernelTimer,
    host: &mut HostMemory,
    dev: &mut DeviceSide,
    out: &mut Printed,
) -> anyhow::Result<()> {
    check!(dev.buf.copy_from_host(&host.mapped))?;
    scale_copy_cpu(&host.mapped, &mut host.want);
    // pinned.cu asks for this address at setup; here the view borrows the
    // pages it reaches, so it is taken where the kernel uses it.
    let mapped = check!(host.mapped.device_view())?;
    let inputs: [&dyn DeviceMemory<f32>; 2] = [&dev.buf, &mapped];
    let default_stream = ctx.default_stream();
    let mut kernel_ms = [0.0f32; 2];
    for (v, input) in inputs.into_iter().enumerate() {
        // Correct before timed: one launch, checked against the CPU.
        ffi::scale_copy(input, &mut dev.out, CU.kernel_elems, &default_stream)?;
        check!(ctx.synchronize())?;
        check!(runtime::last_error())?;
        check!(dev.out.copy_to_host(&mut host.out))?;
        if let Some(i) = first_mismatch(&host.out, &host.want, CU.rel_tolerance) {
            return Err(mismatch(VARIANTS[v], host, i).into());
        }
        let range = nvtx_range(VARIANTS[v]);
        kernel_ms[v] = timer
            .time(&default_stream, || {
                ffi::scale_copy(input, &mut dev.out, CU.kernel_elems, &default_stream)
            })?
            .mean_ms();
        drop(range);
    }
    print_part3(timer, kernel_ms, out);
    Ok(())
}

/// The CPU reference for scaleCopy.
fn scale_copy_cpu(input: &[f32], out: &mut [f32]) {
    let scale = CU.scale;
    for (o, x) in out.iter_mut().zip(input) {
        *o = scale * x;
    }
}

/// pinned.cu's line for a wrong kernel result at index `i`.
fn mismatch(variant: &str, host: &HostMemory, i: usize) -> CheckFailed {
    CheckFailed(format!(
        "{variant} wrong at {i}: got {}, want {}",
        g9(host.out[i]),
        g9(host.want[i])
    ))
}

/// Part 3's table and summary, printed once both variants are timed.
fn print_part3(timer: &KernelTimer, kernel_ms: [f32; 2], out: &mut Printed) {
    out.line(report::part3_header(
        CU.kernel_elems,
        timer.runs(),
        timer.warmups(),
    ));
    for (variant, ms) in VARIANTS.iter().zip(kernel_ms) {
        out.line(report::part3_row(variant, CU.kernel_elems, ms));
    }
    let launches = timer.runs() + timer.warmups() + 1;
    out.line(report::part3_summary(kernel_ms[0], kernel_ms[1], launches));
}

/// An NVTX range with pinned.cu's label, open until the value is dropped.
/// Without a profiler attached NVTX calls do nothing measurable.
fn nvtx_range(label: &str) -> nvtx::LocalRange {
    nvtx::LocalRange::new(nvtx::Str::from_str_lossy(label))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_reference_scales_by_two() {
        let mut out = [0.0; 3];
        scale_copy_cpu(&[1.0, -176.0, 0.25], &mut out);
        assert_eq!(out, [2.0, -352.0, 0.5]);
    }

    #[test]
    fn the_command_line_is_device_alone() {
        assert_eq!(Args::try_parse_from(["day53-pinned"]).unwrap().device.ordinal, 0);
        assert_eq!(
            Args::try_parse_from(["day53-pinned", "--device=1"])
                .unwrap()
                .device
                .ordinal,
            1
        );
        assert!(Args::try_parse_from(["day53-pinned", "--stats"]).is_err());
    }
}
