//! Day 11 in Rust: where row 4 went, the twin of `row4.cu`.
//!
//! The same kernels (linked from row4.cu through row4.h), the same memory
//! facts, the same measurements in the same order, timed by `time-kernel`
//! (and, for the cold-L2 rows, one event pair per launch as row4.cu's
//! `timeEachLaunch`), the same report and the same checks and exit codes.
//!
//! Read it beside row4.cu: [`lesson`] is row4.cu's `main`.
//!
//! Run: `cargo run --release -p day11-row4` (see README.md).

mod ffi;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, runtime, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaStream};
use day11_row4_report::{gb_s, Peak, Rate, Report, SweepRow, ADD_BYTES_PER_ELEMENT, COPY_BYTES_PER_ELEMENT};
use ffi::CU;
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use time_kernel::KernelTimer;

const MIB: f64 = 1024.0 * 1024.0;

/// Where row 4 went (the Rust twin of row4.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Prints the lesson's report; exits 1 if a result is wrong or a rate measured on\n\
                  buffers larger than the L2 exceeds the memory's theoretical peak."
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

/// row4.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    let device = lesson_cli::open_device(args.device)?;
    let gpu = device.described();
    let ctx = device.ctx;
    let facts = ffi::memory_facts(args.device.ordinal)?;

    let mut host = HostArrays::filled();
    let mut dev = DeviceArrays::upload(&ctx, &host, facts.flush_bytes)?;
    // The legacy default stream, where row4.cu's launches go.
    let stream = ctx.default_stream();
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;

    // The check first, and with it vectorAdd's first launch, at full n (the
    // ncu phase profiles the first 14 vectorAdd launches: this and row 4's).
    dev.vector_add(CU.elems, &stream)?;
    check_result("vectorAdd", &dev.out, &host.want, &mut host.got)?;

    let row4_ms = timer
        .time(&stream, || dev.vector_add(CU.elems, &stream))?
        .mean_ms();
    let (memcpy_ms, copy_ms) = copy_reference(&timer, &stream, &mut dev, &mut host)?;
    let add4_ms = float4_vector_add(&timer, &stream, &mut dev, &mut host)?;
    let sweep_ms = CU
        .sweep
        .iter()
        .map(|&n| Ok(timer.time(&stream, || dev.vector_add(n, &stream))?.mean_ms()))
        .collect::<Result<Vec<f32>, CudaError>>()?;
    let each_ms = time_each_launch(&ctx, &stream, &mut dev, false, facts.flush_bytes)?;
    let cold_ms = time_each_launch(&ctx, &stream, &mut dev, true, facts.flush_bytes)?;
    check_result("vectorAdd", &dev.out, &host.want, &mut host.got)?;
    drop(dev);

    let l2_bytes = facts.l2_bytes.max(0) as usize;
    let add = |ms: f32| Rate {
        ms: f64::from(ms),
        gb_s: gb_s(ADD_BYTES_PER_ELEMENT, CU.elems, ms),
    };
    let copy = |ms: f32| Rate {
        ms: f64::from(ms),
        gb_s: gb_s(COPY_BYTES_PER_ELEMENT, CU.elems, ms),
    };
    let report = Report {
        gpu,
        elems: CU.elems,
        threads_per_block: CU.threads_per_block,
        l2_mib: l2_bytes as f64 / MIB,
        runs: timer.runs(),
        warmups: timer.warmups(),
        peak: (facts.peak_gb_s > 0.0).then(|| Peak {
            memory_clock_mhz: (facts.memory_clock_khz / 1000).max(0) as u32,
            bus_width_bits: facts.bus_width_bits.max(0) as u32,
            gb_s: facts.peak_gb_s,
        }),
        row4: add(row4_ms),
        memcpy: copy(memcpy_ms),
        copy: copy(copy_ms),
        add4: add(add4_ms),
        sweep: CU
            .sweep
            .iter()
            .zip(sweep_ms)
            .map(|(&n, ms)| {
                let arrays = 3 * n * std::mem::size_of::<f32>();
                SweepRow {
                    n,
                    arrays_mib: arrays as f64 / MIB,
                    in_l2: arrays <= l2_bytes,
                    ms: f64::from(ms),
                    gb_s: gb_s(ADD_BYTES_PER_ELEMENT, n, ms),
                }
            })
            .collect(),
        flush_mib: facts.flush_bytes as f64 / MIB,
        each: add(each_ms),
        cold: add(cold_ms),
        ncu: None,
    };
    let printed = report.render();
    print!("{printed}");
    if let Some(message) = report.peak_failure() {
        return Err(CheckFailed(message).into());
    }
    print_claims::<Report>(args.claims, &printed, report.gpu_name())?;
    Ok(())
}

/// row4.cu's host vectors: the inputs, the CPU's reference and a buffer
/// for each result copied back.
struct HostArrays {
    a: Vec<f32>,
    b: Vec<f32>,
    want: Vec<f32>,
    got: Vec<f32>,
}

impl HostArrays {
    fn filled() -> Self {
        let a: Vec<f32> = (0..CU.elems).map(|i| (i % 97) as f32 * 0.5).collect();
        let b: Vec<f32> = (0..CU.elems).map(|i| (i % 13) as f32).collect();
        let mut want = vec![-1.0f32; CU.elems];
        ffi::vector_add_cpu(&a, &b, &mut want);
        HostArrays {
            a,
            b,
            want,
            got: vec![-1.0f32; CU.elems],
        }
    }
}

/// The device buffers: the inputs, vectorAdd's output, the copies'
/// destination, the flush buffer (zeroed) and the flush kernel's sink.
struct DeviceArrays {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
    copy: DeviceBuffer<f32>,
    flush: DeviceBuffer<f32>,
    sink: DeviceBuffer<f32>,
}

impl DeviceArrays {
    fn upload(ctx: &Arc<CudaContext>, host: &HostArrays, flush_bytes: usize) -> Result<Self, CudaError> {
        let mut dev = DeviceArrays {
            a: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            b: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            out: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            copy: check!(DeviceBuffer::alloc(ctx, CU.elems))?,
            flush: check!(DeviceBuffer::alloc(ctx, flush_bytes / std::mem::size_of::<f32>()))?,
            sink: check!(DeviceBuffer::alloc(ctx, 1))?,
        };
        ffi::fill_bytes(&mut dev.flush, 0)?;
        check!(dev.a.copy_from_host(&host.a))?;
        check!(dev.b.copy_from_host(&host.b))?;
        Ok(dev)
    }

    /// Queues vectorAdd over the first `n` elements.
    fn vector_add(&mut self, n: usize, stream: &CudaStream) -> Result<(), CudaError> {
        ffi::vector_add(&self.a, &self.b, &mut self.out, n, stream)
    }
}

/// Copies `got` back and compares it with `want`, in row4.cu's words on a
/// mismatch.
fn check_result(what: &str, got: &DeviceBuffer<f32>, want: &[f32], host: &mut [f32]) -> anyhow::Result<()> {
    check!(got.copy_to_host(host))?;
    match first_mismatch(host, want, CU.rel_tolerance) {
        None => Ok(()),
        Some(i) => Err(CheckFailed(format!(
            "{what} wrong at {i}: got {}, want {}",
            g9(host[i]),
            g9(want[i])
        ))
        .into()),
    }
}

/// The copy reference: cudaMemcpy device to device, then the float4 copy
/// kernel, each into a destination set to NaN first. Returns (cudaMemcpy,
/// copy kernel) in ms.
fn copy_reference(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
    host: &mut HostArrays,
) -> anyhow::Result<(f32, f32)> {
    ffi::fill_bytes(&mut dev.copy, 0xFF)?;
    let memcpy_ms = timer
        .time(stream, || ffi::copy_device(&mut dev.copy, &dev.a, CU.elems))?
        .mean_ms();
    check_result("cudaMemcpy", &dev.copy, &host.a, &mut host.got)?;
    ffi::fill_bytes(&mut dev.copy, 0xFF)?;
    let copy_ms = timer
        .time(stream, || ffi::copy4(&dev.a, &mut dev.copy, CU.elems, stream))?
        .mean_ms();
    check_result("copy4", &dev.copy, &host.a, &mut host.got)?;
    Ok((memcpy_ms, copy_ms))
}

/// vectorAdd with float4 loads and stores, into an output set to NaN first.
fn float4_vector_add(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
    host: &mut HostArrays,
) -> anyhow::Result<f32> {
    ffi::fill_bytes(&mut dev.out, 0xFF)?;
    let ms = timer
        .time(stream, || {
            ffi::vector_add4(&dev.a, &dev.b, &mut dev.out, CU.elems, stream)
        })?
        .mean_ms();
    check_result("vectorAdd4", &dev.out, &host.want, &mut host.got)?;
    Ok(ms)
}

/// row4.cu's `timeEachLaunch`: full-n vectorAdd, one event pair around each
/// launch, the mean of the timed runs after the warm-ups. With `flush`, the
/// flush kernel is queued before each start event, so the start event
/// completes only after it: the flush stays outside every timed span.
fn time_each_launch(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    dev: &mut DeviceArrays,
    flush: bool,
    flush_bytes: usize,
) -> Result<f32, CudaError> {
    let timed = Some(CUevent_flags::CU_EVENT_DEFAULT);
    let start = check!(ctx.new_event(timed))?;
    let stop = check!(ctx.new_event(timed))?;
    let (warmups, runs) = (CU.warmup_runs, CU.timed_runs);
    let mut total = 0.0f32;
    for i in 0..warmups + runs {
        if flush {
            ffi::read_to_flush(&dev.flush, flush_bytes, &mut dev.sink, stream)?;
        }
        check!(start.record(stream))?;
        dev.vector_add(CU.elems, stream)?;
        check!(stop.record(stream))?;
        check!(stop.synchronize())?;
        check!(runtime::last_error())?;
        let ms = check!(start.elapsed_ms(&stop))?;
        if i >= warmups {
            total += ms;
        }
    }
    Ok(total / runs as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_row4_cus_own() {
        assert_eq!(ffi::blocks_for(CU.elems), 65_539);
        assert_eq!(ffi::blocks_for(1), 1);
    }

    #[test]
    fn the_cpu_reference_from_row4_cu_adds_elementwise() {
        let mut out = [0.0; 4];
        ffi::vector_add_cpu(&[1.0, 2.5, -1.0, 9.0], &[2.0, 0.5, 1.0, 9.0], &mut out[..3]);
        assert_eq!(out, [3.0, 3.0, 0.0, 0.0], "three elements, the fourth untouched");
    }

    #[test]
    fn the_command_line_keeps_the_lessons_flags() {
        let args = Args::try_parse_from(["day11-row4", "--device", "1", "--claims"]).unwrap();
        assert_eq!(args.device.ordinal, 1);
        assert!(args.claims.claims);
        let err = Args::try_parse_from(["day11-row4", "--bogus"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
