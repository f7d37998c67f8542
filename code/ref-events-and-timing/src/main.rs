//! The page "Events and Timing" measured in Rust: the twin of `events.cu`.
//!
//! The same eight parts in the same order, the same kernels (events.cu's own,
//! through events.h), the same printed lines, verdicts and exit codes. Events
//! and streams are the driver's, through cudarc: events are recorded and
//! waited on with the driver calls themselves, so a part that times an API
//! call from the host (Parts 4 and 5) times that call and nothing of
//! cudarc's. Host clocks come from `host-clock`, as events.cu reads its own.
//!
//! Read it beside events.cu: [`lesson`] is events.cu's `main`, and each
//! `partN` function is events.cu's function of the same name.
//!
//! Run: `cargo run --release -p ref-events-and-timing` (see README.md).

mod ffi;
mod stats;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, runtime, CudaError};
// cudaEventRecord and cudaStreamWaitEvent, the driver calls alone, without
// cudarc's context bind.
use cuda_objects::event::{record, wait};
use cuda_objects::{timing_event, BlockingStream, DeviceBuffer};
use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};
use ffi::CU;
use host_clock::{now_ms, process_cpu_ms};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg, Printed};
use ref_events_and_timing_report::parts::{
    Case, Inside, Launch, LaunchRow, Part1, Part2, Part3, Part4, Part5, Part6, Part7, Part8, Wait,
};
use ref_events_and_timing_report::{render, Report};
use stats::{median, spread};
use time_kernel::KernelTimer;

/// The claims of the reference page "Events and Timing", measured (the Rust twin of events.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Part 1: a host clock around a launch, without and with a sync.\n\
                  Part 2: the spread of event timing against a host clock plus sync.\n\
                  Part 3: CPU time and wake-up latency of spinning and blocking waits.\n\
                  Part 4: the cost of timing and DisableTiming events.\n\
                  Part 5: a cross-stream dependency through cudaStreamWaitEvent.\n\
                  Part 6: what an event interval holds.\n\
                  Part 7: launches after idle, beside the kernel's own time, the launch call and NVML's SM clock.\n\
                  Part 8: the page's timing pattern against timeKernel.\n\
                  Exits 1 if a result is wrong or a measurement cannot be trusted."
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

/// The streams and the timing event pair events.cu's `main` makes.
struct Gpu {
    ctx: Arc<CudaContext>,
    /// The legacy default stream, where events.cu's plain launches go.
    default: Arc<CudaStream>,
    a: BlockingStream,
    b: BlockingStream,
    /// Part 6's competing stream. Non-blocking, or the timed kernel on the
    /// legacy default stream would wait for it by rule, not by need.
    other: Arc<CudaStream>,
    start: CudaEvent,
    stop: CudaEvent,
}

impl Gpu {
    fn open(ctx: &Arc<CudaContext>) -> Result<Gpu, CudaError> {
        Ok(Gpu {
            ctx: ctx.clone(),
            default: ctx.default_stream(),
            a: check!(BlockingStream::create(ctx))?,
            b: check!(BlockingStream::create(ctx))?,
            other: check!(ctx.new_stream())?,
            start: timing_event(ctx)?,
            stop: timing_event(ctx)?,
        })
    }

    /// cudaDeviceSynchronize, then the last launch error.
    fn sync(&self) -> Result<(), CudaError> {
        check!(self.ctx.synchronize())?;
        check!(runtime::last_error())
    }
}

/// events.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    let device = lesson_cli::open_device(args.device)?;
    // What is printed is kept, so that --claims reads the report as printed.
    let mut out = Printed::default();
    let name = device.name;
    out.line(render::gpu_line(&name, device.compute_capability));
    let gpu = Gpu::open(&device.ctx)?;

    // events.cu's loadEveryKernel: each kernel's lazy load paid before
    // anything is timed.
    ffi::load_every_kernel(&gpu.default)?;

    out.line(render::part1(&part1(&gpu)?));
    out.line(render::part2(&part2(&gpu)?));
    out.line(render::part3(&part3(&gpu)?));
    out.line(render::part4(&part4(&gpu)?));
    out.line(render::part5(&part5(&gpu)?));
    out.line(render::part6(&part6(&gpu)?));
    out.line(render::part7(&part7(&gpu)?));
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;
    let pattern = part8(&gpu, &timer)?;
    out.line(render::part8(
        &pattern,
        CU.part8_iters,
        timer.warmups(),
        timer.runs(),
    ));
    print_claims::<Report>(args.claims, out.text(), &name)
}

/// cudaEventElapsedTime, widened as events.cu widens its float.
fn elapsed_ms(start: &CudaEvent, stop: &CudaEvent) -> Result<f64, CudaError> {
    Ok(f64::from(check!(start.elapsed_ms(stop))?))
}

/// The median of samples the parts always have.
fn med(samples: &[f64]) -> f64 {
    median(samples).unwrap_or(f64::NAN)
}

/// events.cu's `impossible`: a measurement this program cannot trust.
fn impossible(what: &str) -> anyhow::Error {
    CheckFailed(what.to_string()).into()
}

/// Part 1: a host clock around the launch alone, then around launch + sync.
fn part1(g: &Gpu) -> anyhow::Result<Part1> {
    let mut rows = Vec::new();
    for &kernel_ms in &CU.part1_kernel_ms {
        let (mut launch_us, mut sync_us) = (Vec::new(), Vec::new());
        for _ in 0..CU.part1_reps {
            let t0 = now_ms();
            ffi::spin(kernel_ms, &g.default)?;
            let t1 = now_ms(); // the launch call has returned
            g.sync()?;
            launch_us.push((t1 - t0) * 1.0e3);
        }
        for _ in 0..CU.part1_reps {
            let t0 = now_ms();
            ffi::spin(kernel_ms, &g.default)?;
            g.sync()?;
            let t1 = now_ms(); // the kernel has finished
            sync_us.push((t1 - t0) * 1.0e3);
        }
        let row = LaunchRow {
            kernel_ms,
            launch_us: med(&launch_us),
            sync_us: med(&sync_us),
        };
        if row.sync_us < kernel_ms * 1.0e3 {
            return Err(impossible(
                "part 1: launch + sync took less than the kernel's spin; the device timer spin is broken",
            ));
        }
        rows.push(row);
    }
    Ok(Part1 {
        reps: CU.part1_reps,
        rows,
    })
}

/// Part 2: one kernel timed three ways. Events queued back to back, so each
/// start event waits behind the previous kernel and no interval holds a host
/// gap; events with a sync after each pair, so each start event finds the
/// stream idle and its interval also holds the host's launch; and a host
/// clock around launch + sync.
fn part2(g: &Gpu) -> anyhow::Result<Part2> {
    let pairs: Vec<(CudaEvent, CudaEvent)> = (0..CU.part2_reps)
        .map(|_| Ok((timing_event(&g.ctx)?, timing_event(&g.ctx)?)))
        .collect::<Result<_, CudaError>>()?;
    for (start, stop) in &pairs {
        record(start, &g.default)?;
        ffi::spin(CU.part2_kernel_ms, &g.default)?;
        record(stop, &g.default)?;
    }
    g.sync()?;
    let queued = pairs
        .iter()
        .map(|(start, stop)| elapsed_ms(start, stop))
        .collect::<Result<Vec<f64>, CudaError>>()?;
    drop(pairs);
    let (mut synced, mut host) = (Vec::new(), Vec::new());
    for _ in 0..CU.part2_reps {
        record(&g.start, &g.default)?;
        ffi::spin(CU.part2_kernel_ms, &g.default)?;
        record(&g.stop, &g.default)?;
        check!(g.stop.synchronize())?;
        synced.push(elapsed_ms(&g.start, &g.stop)?);
    }
    for _ in 0..CU.part2_reps {
        let t0 = now_ms();
        ffi::spin(CU.part2_kernel_ms, &g.default)?;
        g.sync()?;
        host.push(now_ms() - t0);
    }
    let spread = |samples: &[f64]| spread(samples).ok_or_else(|| impossible("part 2: no timings"));
    Ok(Part2 {
        kernel_ms: CU.part2_kernel_ms,
        reps: CU.part2_reps,
        events: spread(&queued)?,
        events_sync: spread(&synced)?,
        host: spread(&host)?,
    })
}

/// Part 3: the wait on a long kernel through an event of each kind. CPU time
/// and the host clock are read before the launch and after the wait; the
/// wake-up latency is the host's wait less the kernel's event time. The host
/// clock is read once more when every call has returned: `after calls` is
/// the wait from there, less the kernel's event time (events.cu's part3 says
/// why the true wake-up lies between the two).
fn part3(g: &Gpu) -> anyhow::Result<Part3> {
    let spinning = timing_event(&g.ctx)?;
    let blocking = check!(g.ctx.new_event(Some(CUevent_flags::CU_EVENT_BLOCKING_SYNC)))?;
    let mut waits = Vec::new();
    for stop in [&spinning, &blocking] {
        let (mut wait_ms, mut cpu_ms, mut latency_us) = (Vec::new(), Vec::new(), Vec::new());
        let mut after_calls_us = Vec::new();
        for _ in 0..CU.part3_reps {
            let t0 = now_ms();
            let c0 = process_cpu_ms();
            record(&g.start, &g.default)?;
            ffi::spin(CU.part3_kernel_ms, &g.default)?;
            record(stop, &g.default)?;
            let t_calls = now_ms(); // every call has returned
            check!(stop.synchronize())?;
            let c1 = process_cpu_ms();
            let t1 = now_ms();
            let kernel_ms = elapsed_ms(&g.start, stop)?;
            if kernel_ms < 0.95 * CU.part3_kernel_ms {
                return Err(impossible(
                    "part 3: the kernel's event time is shorter than its spin; the device timer spin is broken",
                ));
            }
            wait_ms.push(t1 - t0);
            cpu_ms.push(c1 - c0);
            latency_us.push((t1 - t0 - kernel_ms) * 1.0e3);
            after_calls_us.push((t1 - t_calls - kernel_ms) * 1.0e3);
        }
        waits.push(Wait {
            wait_ms: med(&wait_ms),
            cpu_ms: med(&cpu_ms),
            latency_us: med(&latency_us),
            after_calls_us: Some(med(&after_calls_us)),
        });
    }
    let blocking = waits.pop().ok_or_else(|| impossible("part 3: no waits"))?;
    let spin = waits.pop().ok_or_else(|| impossible("part 3: no waits"))?;
    Ok(Part3 {
        kernel_ms: CU.part3_kernel_ms,
        reps: CU.part3_reps,
        spin,
        blocking,
    })
}

/// Part 4's host cost: kPart4Ops record + wait pairs on `e`, per pair in us.
fn record_wait_us(g: &Gpu, e: &CudaEvent) -> Result<f64, CudaError> {
    let (a, b) = (g.a.stream(), g.b.stream());
    let t0 = now_ms();
    for _ in 0..CU.part4_ops {
        record(e, a)?;
        wait(b, e)?;
    }
    let t1 = now_ms();
    g.sync()?;
    Ok((t1 - t0) * 1.0e3 / f64::from(CU.part4_ops))
}

/// Part 4's device cost: a chain of empty kernels on stream A, each followed
/// by a record of `e` (none for `None`), timed by the outer event pair; per
/// link in us.
fn chain_us(g: &Gpu, e: Option<&CudaEvent>) -> Result<f64, CudaError> {
    let a = g.a.stream();
    record(&g.start, a)?;
    for _ in 0..CU.part4_chain {
        ffi::spin(0.0, a)?;
        if let Some(e) = e {
            record(e, a)?;
        }
    }
    record(&g.stop, a)?;
    check!(g.stop.synchronize())?;
    Ok(elapsed_ms(&g.start, &g.stop)? * 1.0e3 / f64::from(CU.part4_chain))
}

fn part4(g: &Gpu) -> anyhow::Result<Part4> {
    let timing = timing_event(&g.ctx)?;
    let bare = check!(g.ctx.new_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING)))?;
    // One untimed round of everything first, so no first-use cost lands in
    // a measured round.
    record_wait_us(g, &timing)?;
    record_wait_us(g, &bare)?;
    chain_us(g, None)?;
    chain_us(g, Some(&timing))?;
    chain_us(g, Some(&bare))?;
    let (mut host, mut chain) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new(), Vec::new()]);
    for _ in 0..CU.part4_rounds {
        host[0].push(record_wait_us(g, &timing)?);
        host[1].push(record_wait_us(g, &bare)?);
        chain[0].push(chain_us(g, None)?);
        chain[1].push(chain_us(g, Some(&timing))?);
        chain[2].push(chain_us(g, Some(&bare))?);
    }
    Ok(Part4 {
        rounds: CU.part4_rounds,
        ops: CU.part4_ops,
        chain: CU.part4_chain,
        host_timing_us: med(&host[0]),
        host_disabled_us: med(&host[1]),
        chain_none_us: med(&chain[0]),
        chain_timing_us: med(&chain[1]),
        chain_disabled_us: med(&chain[2]),
    })
}

/// Part 5: producer on stream A, consumer on stream B behind
/// cudaStreamWaitEvent; a wrong consumer result ends the program.
fn part5(g: &Gpu) -> anyhow::Result<Part5> {
    let ready = timing_event(&g.ctx)?;
    let consumer_start = timing_event(&g.ctx)?;
    let mut buf = check!(DeviceBuffer::<i32>::alloc(&g.ctx, CU.part5_elems))?;
    let mut out = check!(DeviceBuffer::<i32>::alloc(&g.ctx, CU.part5_elems))?;
    let zeros = vec![0i32; CU.part5_elems];
    let mut h_out = vec![0i32; CU.part5_elems];
    let (a, b) = (g.a.stream(), g.b.stream());
    let (mut issue_ms, mut gap_ms) = (Vec::new(), Vec::new());
    for _ in 0..CU.part5_reps {
        // Zeros first: a consumer that ran early would read them.
        check!(buf.copy_from_host(&zeros))?;
        check!(out.copy_from_host(&zeros))?;
        g.sync()?;
        let t0 = now_ms();
        ffi::produce(&mut buf, CU.part5_elems, CU.part5_producer_ms, a)?;
        record(&ready, a)?;
        wait(b, &ready)?;
        record(&consumer_start, b)?;
        ffi::consume(&buf, &mut out, CU.part5_elems, b)?;
        let t1 = now_ms(); // every call has returned
        g.sync()?;
        issue_ms.push(t1 - t0);
        gap_ms.push(elapsed_ms(&ready, &consumer_start)?);
        check!(out.copy_to_host(&mut h_out))?;
        if let Some(i) = first_wrong_consumer_value(&h_out) {
            return Err(CheckFailed(format!(
                "part 5: consumer wrong at {i}: got {}, want {}",
                h_out[i],
                consumer_value(i)
            ))
            .into());
        }
    }
    Ok(Part5 {
        producer_ms: CU.part5_producer_ms,
        reps: CU.part5_reps,
        issue_ms: med(&issue_ms),
        gap_ms: gap_ms.iter().copied().fold(f64::INFINITY, f64::min),
    })
}

/// What consume writes at `i` once produce has written: 2 (3i + 1) + 1.
fn consumer_value(i: usize) -> i64 {
    6 * i as i64 + 3
}

/// The first index where the consumer's output is not what it should be.
fn first_wrong_consumer_value(out: &[i32]) -> Option<usize> {
    out.iter()
        .enumerate()
        .position(|(i, &v)| i64::from(v) != consumer_value(i))
}

/// Part 6: the interval around a kernel in three situations.
fn part6(g: &Gpu) -> anyhow::Result<Part6> {
    let d = &g.default;
    let interval = |before_kernel: &dyn Fn() -> Result<(), CudaError>| -> Result<f64, CudaError> {
        before_kernel()?;
        ffi::spin(CU.part6_kernel_ms, d)?;
        record(&g.stop, d)?;
        check!(g.stop.synchronize())?;
        elapsed_ms(&g.start, &g.stop)
    };
    let (mut queued, mut delayed, mut competing) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..CU.part6_reps {
        // Work ahead of the start event, on the same stream.
        queued.push(interval(&|| {
            ffi::spin(CU.part6_queued_ms, d)?;
            record(&g.start, d)
        })?);
        // The host waits between the start event and the launch.
        delayed.push(interval(&|| {
            record(&g.start, d)?;
            let t0 = now_ms();
            while now_ms() - t0 < CU.part6_delay_ms {}
            Ok(())
        })?);
        // Another stream fills every SM just before the start event.
        competing.push(interval(&|| {
            ffi::hog(CU.part6_hog_ms, &g.other)?;
            record(&g.start, d)
        })?);
        g.sync()?;
    }
    let case = |extra_ms: f64, samples: &[f64]| Case {
        extra_ms,
        interval_ms: med(samples),
    };
    let p = Part6 {
        kernel_ms: CU.part6_kernel_ms,
        reps: CU.part6_reps,
        queued: case(CU.part6_queued_ms, &queued),
        delayed: case(CU.part6_delay_ms, &delayed),
        competing: case(CU.part6_hog_ms, &competing),
    };
    let shortest = [&p.queued, &p.delayed, &p.competing]
        .iter()
        .map(|c| c.interval_ms)
        .fold(f64::INFINITY, f64::min);
    if shortest < 0.95 * CU.part6_kernel_ms {
        return Err(impossible(
            "part 6: an interval is shorter than the kernel inside it; the device timer spin is broken",
        ));
    }
    Ok(p)
}

/// The device's PCI address as NVML reads it (domain:bus:device.function).
fn pci_bus_id(ctx: &CudaContext) -> Result<String, CudaError> {
    let attr = |a| check!(ctx.attribute(a));
    Ok(format!(
        "{:08x}:{:02x}:{:02x}.0",
        attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
        attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?
    ))
}

/// Part 7: after an idle period, each launch timed alone, beside the
/// kernel's own duration (the device's global timer, read by the kernel),
/// the launch call's host time and the clock.
fn part7(g: &Gpu) -> anyhow::Result<Part7> {
    let no_nvml = || impossible("part 7: NVML (libnvidia-ml.so.1) cannot read this device's clocks");
    let nvml = nvml_wrapper::Nvml::init().map_err(|_| no_nvml())?;
    let device = nvml
        .device_by_pci_bus_id(pci_bus_id(&g.ctx)?)
        .map_err(|_| no_nvml())?;
    let sm_mhz = || {
        device
            .clock_info(nvml_wrapper::enum_wrappers::device::Clock::SM)
            .map_err(|_| impossible("part 7: NVML did not give the SM clock"))
    };
    let mut kernel_ns = check!(DeviceBuffer::<u64>::alloc(&g.ctx, CU.part7_launches))?;
    g.sync()?;
    // std's sleep sleeps on through EINTR, as events.cu's sleepMs does.
    std::thread::sleep(std::time::Duration::from_secs_f64(CU.part7_idle_ms / 1.0e3));
    let idle_mhz = sm_mhz()?;
    let mut timed = Vec::with_capacity(CU.part7_launches);
    for i in 0..CU.part7_launches {
        record(&g.start, &g.default)?;
        let t0 = now_ms();
        let launched = ffi::spin_cycles_timed(CU.part7_cycles, &mut kernel_ns, i, &g.default);
        let t1 = now_ms(); // the launch call has returned
        launched?;
        record(&g.stop, &g.default)?;
        check!(g.stop.synchronize())?;
        let ms = elapsed_ms(&g.start, &g.stop)?;
        timed.push((ms, (t1 - t0) * 1.0e3, sm_mhz()?));
    }
    let mut ns = vec![0u64; CU.part7_launches];
    check!(kernel_ns.copy_to_host(&mut ns))?;
    let launches = timed
        .into_iter()
        .zip(ns)
        .map(|((ms, call_us, mhz), ns)| Launch {
            ms,
            mhz,
            inside: Some(Inside {
                kernel_ms: ns as f64 * 1.0e-6,
                call_us,
            }),
        })
        .collect();
    Ok(Part7 {
        cycles: CU.part7_cycles,
        idle_ms: CU.part7_idle_ms,
        idle_mhz,
        launches,
    })
}

/// Part 8: the page's pattern and timeKernel on the same kernel.
fn part8(g: &Gpu, timer: &KernelTimer) -> anyhow::Result<Part8> {
    let d = &g.default;
    let (start, stop) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
    ffi::spin_cycles(CU.part7_cycles, d)?; // warm-up
    g.sync()?;
    record(&start, d)?;
    for _ in 0..CU.part8_iters {
        ffi::spin_cycles(CU.part7_cycles, d)?;
    }
    record(&stop, d)?;
    check!(stop.synchronize())?;
    // events.cu divides the float milliseconds by the count in float.
    let page_ms = f64::from(check!(start.elapsed_ms(&stop))? / CU.part8_iters as f32);
    let course = timer.time(d, || ffi::spin_cycles(CU.part7_cycles, d))?;
    Ok(Part8 {
        cycles: CU.part7_cycles,
        page_ms,
        time_kernel_ms: f64::from(course.mean_ms()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_consumer_check_finds_the_first_wrong_value() {
        let mut out: Vec<i32> = (0..5).map(|i| 6 * i + 3).collect();
        assert_eq!(first_wrong_consumer_value(&out), None);
        // What a consumer that ran before the producer would read: zeros.
        out[3] = 1;
        out[4] = 1;
        assert_eq!(first_wrong_consumer_value(&out), Some(3));
    }

    #[test]
    fn nanoseconds_round_to_the_nearest() {
        assert_eq!(ffi::ns_from_ms(0.010), 10_000);
        assert_eq!(ffi::ns_from_ms(50.0), 50_000_000);
        assert_eq!(ffi::ns_from_ms(0.0), 0);
    }

    #[test]
    fn the_command_line_is_device_and_claims() {
        let parse = |args: &[&str]| Args::try_parse_from(args).map(|a| a.device.ordinal);
        assert_eq!(parse(&["ref-events-and-timing"]).unwrap(), 0);
        assert_eq!(parse(&["ref-events-and-timing", "--device=1"]).unwrap(), 1);
        assert!(parse(&["ref-events-and-timing", "--quick"]).is_err());
        let claims = Args::try_parse_from(["ref-events-and-timing", "--claims"]).unwrap();
        assert!(claims.claims.claims);
    }
}
