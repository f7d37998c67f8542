//! Day 30 in Rust, the twin of `crossover.cu`: the same constants measured
//! the same way, the same model, the same five kernels (linked from
//! crossover.cu through crossover.h) against the same CPU loops (written in
//! Rust the same way: one thread, scalar, `cpu.rs`), the same report, checks
//! and exit codes.
//!
//! Read it beside crossover.cu: [`lesson`] is crossover.cu's `main`, and each
//! step it calls is one part of that `main`, in the same order.
//!
//! Run: `cargo run --release -p day30-crossover -- [--bytes-per-element B
//! --ops-per-element F]` (see README.md).

mod cpu;
mod ffi;
mod model;

use day30_crossover_report::{
    Cell, Constants, CopyCost, Crossover, KernelBlock, Learner, LearnerRow, Report, SizeRow,
};

use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, runtime, CudaError};
use cuda_objects::{event, DeviceBuffer, EventPair, Mapping, PinnedHost};
use cudarc::driver::{CudaContext, CudaStream};
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use time_kernel::KernelTimer;

use ffi::CU;
use model::{cpu_line, crossover, fit_copy, gpu_line, measured_crossover, Copies, Machine};

const MIB: usize = 1024 * 1024;

/// Predict the CPU/GPU crossover from measured constants (the Rust twin of crossover.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Part 1: the machine's constants, measured in this process.\n\
                  Part 2: the model's crossover against the measured one for five kernels.\n\
                  Part 3: the predicted crossover of your kernel, from its two counts.\n\
                  Exits 1 if a kernel's result is wrong."
)]
struct Args {
    /// Your kernel's DRAM bytes read + written per element (Part 3).
    #[arg(long, value_name = "B", value_parser = count)]
    bytes_per_element: Option<f64>,

    /// Your kernel's floating-point operations per element, an FMA as 2 (Part 3).
    #[arg(long, value_name = "F", value_parser = count)]
    ops_per_element: Option<f64>,

    #[command(flatten)]
    device: DeviceArg,

    #[command(flatten)]
    claims: ClaimsArg,
}

/// A flag's value: a finite number, zero or more.
fn count(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a finite number of zero or more")),
    }
}

fn main() -> std::process::ExitCode {
    lesson_cli::run(lesson)
}

/// crossover.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    let bytes = args.bytes_per_element.unwrap_or(CU.example_bytes);
    let ops = args.ops_per_element.unwrap_or(CU.example_ops);
    let device = lesson_cli::open_device(args.device)?;
    let ctx = &device.ctx;
    let mut buf = Buffers::alloc(ctx)?;
    // The legacy default stream, where crossover.cu's launches and copies go.
    let stream = ctx.default_stream();

    let (machine, constants) = part1_constants(ctx, &stream, &mut buf)?;
    let kernels = part2_sweep(ctx, &stream, &machine, &mut buf)?;
    let learner = part3_your_kernel(&machine, bytes, ops);

    let report = Report {
        gpu: device.described(),
        constants,
        sweep_min: CU.sweep_min,
        sweep_max: CU.sweep_max,
        kernels,
        learner,
    };
    let printed = report.render();
    print!("{printed}");
    print_claims::<Report>(args.claims, &printed, &device.name)
}

/// crossover.cu's host and device memory: pageable inputs (x, y), their
/// pinned copies, the outputs, and the device's buffers, all of the sweep's
/// largest size.
struct Buffers {
    x: Vec<f32>,
    y: Vec<f32>,
    out: Vec<f32>,
    want: Vec<f32>,
    px: PinnedHost<f32>,
    py: PinnedHost<f32>,
    pout: PinnedHost<f32>,
    dx: DeviceBuffer<f32>,
    dy: DeviceBuffer<f32>,
    dout: DeviceBuffer<f32>,
}

impl Buffers {
    fn alloc(ctx: &Arc<CudaContext>) -> anyhow::Result<Self> {
        let n = CU.sweep_max;
        let x: Vec<f32> = (0..n).map(|i| ((i % 7) as i32 - 3) as f32 * 0.25).collect();
        let y: Vec<f32> = (0..n).map(|i| ((i % 5) as i32 - 2) as f32 * 0.5).collect();
        let mut px = check!(PinnedHost::<f32>::alloc(ctx, n, Mapping::Unmapped))?;
        let mut py = check!(PinnedHost::<f32>::alloc(ctx, n, Mapping::Unmapped))?;
        px.copy_from_slice(&x);
        py.copy_from_slice(&y);
        Ok(Buffers {
            x,
            y,
            out: vec![0.0; n],
            want: vec![0.0; n],
            px,
            py,
            pout: check!(PinnedHost::<f32>::alloc(ctx, n, Mapping::Unmapped))?,
            dx: check!(DeviceBuffer::alloc(ctx, n))?,
            dy: check!(DeviceBuffer::alloc(ctx, n))?,
            dout: check!(DeviceBuffer::alloc(ctx, n))?,
        })
    }
}

/// One call's microseconds as the GPU's events see it, the median of
/// `CU.timed_calls`: warm-up calls first, then each call alone between two
/// events, waited for before the next (crossover.cu's medianCallUs).
fn median_call_us(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    mut call: impl FnMut() -> Result<(), CudaError>,
) -> Result<f64, CudaError> {
    let events = EventPair::new(ctx)?;
    for _ in 0..CU.warmup_runs {
        call()?;
    }
    check!(ctx.synchronize())?;
    check!(runtime::last_error())?;
    let mut ms = Vec::with_capacity(CU.timed_calls as usize);
    for _ in 0..CU.timed_calls {
        // The driver's record alone, as cudaEventRecord: nothing else lands
        // between the events and the call.
        event::record(&events.start, stream)?;
        call()?;
        event::record(&events.stop, stream)?;
        check!(events.stop.synchronize())?;
        check!(runtime::last_error())?;
        ms.push(check!(events.start.elapsed_ms(&events.stop))?);
    }
    ms.sort_by(f32::total_cmp);
    Ok(f64::from(ms[ms.len() / 2]) * 1e3)
}

/// Part 1: the constants, each measured here on kernels and loops that are
/// not the lesson's five.
fn part1_constants(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    buf: &mut Buffers,
) -> anyhow::Result<(Machine, Constants)> {
    let floor_us = median_call_us(ctx, stream, || ffi::empty(stream))?;
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;
    let (dram_gb_s, gpu_gops) = {
        let mut bw_in = check!(DeviceBuffer::<f32>::alloc(ctx, CU.bw_elems))?;
        let mut bw_out = check!(DeviceBuffer::<f32>::alloc(ctx, CU.bw_elems))?;
        check!(bw_in.zero())?;
        let ms = timer
            .time(stream, || ffi::copy(&bw_in, &mut bw_out, CU.bw_elems, stream))?
            .mean_ms();
        let dram = 2.0 * (CU.bw_elems * 4) as f64 / (f64::from(ms) * 1e6);
        let rate_ms = timer
            .time(stream, || ffi::fma_rate(&mut bw_out, CU.rate_threads, stream))?
            .mean_ms();
        let ops = 2.0 * f64::from(CU.rate_chains) * f64::from(CU.rate_iters) * CU.rate_threads as f64;
        (dram, ops / (f64::from(rate_ms) * 1e6))
    };

    // [pinned, pageable] each way, fitted from a small and a large copy.
    let (small, large) = (CU.copy_small_bytes, CU.copy_large_bytes);
    let mut h2d = Vec::new();
    let mut d2h = Vec::new();
    for pinned in [true, false] {
        let mut us = [[0.0f64; 2]; 2];
        for (s, bytes) in [small, large].into_iter().enumerate() {
            let elems = bytes / 4;
            let Buffers {
                x,
                out,
                px,
                pout,
                dx,
                dout,
                ..
            } = &mut *buf;
            let src: &[f32] = if pinned { &px[..elems] } else { &x[..elems] };
            us[0][s] = median_call_us(ctx, stream, || check!(dx.copy_from_host(src)))?;
            let dst: &mut [f32] = if pinned {
                &mut pout[..elems]
            } else {
                &mut out[..elems]
            };
            us[1][s] = median_call_us(ctx, stream, || check!(dout.copy_to_host(dst)))?;
        }
        h2d.push(fit_copy(small, large, us[0][0], us[0][1]));
        d2h.push(fit_copy(small, large, us[1][0], us[1][1]));
    }

    let input = vec![1.0f32; CU.cpu_bw_elems];
    let mut copied = vec![0.0f32; CU.cpu_bw_elems];
    let us = cpu::us_per_call(|| cpu::copy(&input, &mut copied));
    let cpu_gb_s = 2.0 * (CU.cpu_bw_elems * 4) as f64 / (us * 1e3);
    let ring: Vec<f32> = (0..CU.cpu_ring).map(|i| i as f32 / CU.cpu_ring as f32).collect();
    let mut ring_out = vec![0.0f32; CU.cpu_ring];
    let rate_us = cpu::us_per_call(|| cpu::rate(&ring, &mut ring_out, CU.cpu_rate_elems));
    let cpu_gops = 2.0 * f64::from(CU.cpu_chain) * CU.cpu_rate_elems as f64 / (rate_us * 1e3);

    let machine = Machine {
        floor_us,
        dram_gb_s,
        gpu_gops,
        h2d: [h2d[0], h2d[1]],
        d2h: [d2h[0], d2h[1]],
        cpu_gb_s,
        cpu_gops,
    };
    let cost = |c: model::CopyCost| CopyCost {
        fixed_us: c.fixed_us,
        gb_s: c.gb_s,
    };
    let constants = Constants {
        floor_us,
        floor_calls: CU.timed_calls,
        gpu_gb_s: dram_gb_s,
        gpu_bw_mib: CU.bw_elems * 4 / MIB,
        gpu_gops,
        gpu_rate_chains: CU.rate_chains,
        // The report's order: H2D pinned, D2H pinned, H2D pageable, D2H pageable.
        copies: vec![cost(h2d[0]), cost(d2h[0]), cost(h2d[1]), cost(d2h[1])],
        copy_small_kib: small / 1024,
        copy_large_mib: large / MIB,
        cpu_gb_s,
        cpu_bw_mib: CU.cpu_bw_elems * 4 / MIB,
        cpu_gops,
        cpu_chain: CU.cpu_chain,
    };
    Ok((machine, constants))
}

/// Part 2: for each kernel, the sweep measured (the CPU, then the GPU's
/// result checked against it, then the GPU alone, with pinned and with
/// pageable copies), and the model's predictions beside it.
fn part2_sweep(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    m: &Machine,
    buf: &mut Buffers,
) -> anyhow::Result<Vec<KernelBlock>> {
    let sizes: Vec<usize> = std::iter::successors(Some(CU.sweep_min), |n| Some(n * 2))
        .take_while(|&n| n <= CU.sweep_max)
        .collect();
    let mut blocks = Vec::new();
    for (k, info) in CU.kernels.iter().enumerate() {
        let mut cpu_us = Vec::new();
        let mut gpu_us: [Vec<f64>; 3] = Default::default();
        for &n in &sizes {
            let out_elems = if info.name == "dot" { 1 } else { n };
            let Buffers {
                x,
                y,
                out,
                want,
                px,
                py,
                pout,
                dx,
                dy,
                dout,
            } = &mut *buf;
            cpu_us.push(cpu::us_per_call(|| {
                cpu::run(&info.name, info.degree, x, y, want, n)
            }));

            // Correct before timed: one call, checked against the CPU's.
            check!(dx.copy_from_host(&x[..n]))?;
            check!(dy.copy_from_host(&y[..n]))?;
            check!(dout.zero())?;
            ffi::launch(k, dx, dy, dout, n, stream)?;
            check!(ctx.synchronize())?;
            check!(runtime::last_error())?;
            check!(dout.copy_to_host(&mut out[..out_elems]))?;
            if let Some(i) = first_mismatch(&out[..out_elems], &want[..out_elems], CU.rel_tolerance) {
                return Err(CheckFailed(format!(
                    "{} wrong at n = {n}, element {i}: got {}, want {}",
                    info.name,
                    g9(out[i]),
                    g9(want[i])
                ))
                .into());
            }

            gpu_us[0].push(median_call_us(ctx, stream, || {
                ffi::launch(k, dx, dy, dout, n, stream)
            })?);
            for pinned in [true, false] {
                let (ins, dst): ([&[f32]; 2], &mut [f32]) = if pinned {
                    ([&px[..n], &py[..n]], &mut pout[..out_elems])
                } else {
                    ([&x[..n], &y[..n]], &mut out[..out_elems])
                };
                let us = median_call_us(ctx, stream, || {
                    for (j, src) in ins.iter().enumerate().take(info.h2d_calls as usize) {
                        let d = if j == 0 { &mut *dx } else { &mut *dy };
                        check!(d.copy_from_host(src))?;
                    }
                    ffi::launch(k, dx, dy, dout, n, stream)?;
                    check!(dout.copy_to_host(dst))
                })?;
                gpu_us[if pinned { 1 } else { 2 }].push(us);
            }
        }
        blocks.push(kernel_block(m, info, &sizes, &cpu_us, &gpu_us));
    }
    Ok(blocks)
}

/// One kernel's predictions and measurements, as the report prints them.
fn kernel_block(
    m: &Machine,
    info: &ffi::KernelInfo,
    sizes: &[usize],
    cpu_us: &[f64],
    gpu_us: &[Vec<f64>; 3],
) -> KernelBlock {
    let copies = Copies {
        h2d_bytes: info.h2d_bytes,
        h2d_calls: info.h2d_calls,
        d2h_bytes: info.d2h_bytes,
        d2h_calls: info.d2h_calls,
        d2h_fixed: info.d2h_fixed,
    };
    let cpu = cpu_line(m, info.bytes, info.ops);
    let gpu = [
        gpu_line(m, info.bytes, info.ops, None),
        gpu_line(m, info.bytes, info.ops, Some((0, copies))),
        gpu_line(m, info.bytes, info.ops, Some((1, copies))),
    ];
    let crossovers = (0..3)
        .map(|v| Crossover {
            predicted: crossover(gpu[v], cpu),
            measured: measured_crossover(sizes, &gpu_us[v], cpu_us),
        })
        .collect();
    let cell = |measured_us: f64, model_us: f64| Cell {
        measured_us,
        model_us,
        error_percent: 100.0 * (measured_us / model_us - 1.0),
    };
    let rows = CU
        .report_sizes
        .iter()
        .filter_map(|&n| {
            let s = sizes.iter().position(|&size| size == n)?;
            let mut cells = vec![cell(cpu_us[s], cpu.at(n))];
            cells.extend((0..3).map(|v| cell(gpu_us[v][s], gpu[v].at(n))));
            Some(SizeRow { n, cells })
        })
        .collect();
    KernelBlock {
        name: info.name.clone(),
        bytes: info.bytes,
        ops: info.ops,
        h2d_bytes: info.h2d_bytes,
        h2d_calls: info.h2d_calls,
        d2h_bytes: info.d2h_bytes,
        d2h_fixed: info.d2h_fixed,
        d2h_calls: info.d2h_calls,
        crossovers,
        sizes: rows,
    }
}

/// Part 3: the learner's kernel, from its two counts alone. Its copies are
/// taken as all but 4 of its bytes in and 4 out (one float per element),
/// one call each way.
fn part3_your_kernel(m: &Machine, bytes: f64, ops: f64) -> Learner {
    let (in_bytes, out_bytes) = ((bytes - 4.0).max(0.0), bytes.min(4.0));
    let copies = Copies {
        h2d_bytes: in_bytes,
        h2d_calls: 1,
        d2h_bytes: out_bytes,
        d2h_calls: 1,
        d2h_fixed: 0.0,
    };
    let cpu = cpu_line(m, bytes, ops);
    let rows = [None, Some((0, copies)), Some((1, copies))]
        .into_iter()
        .map(|c| {
            let gpu = gpu_line(m, bytes, ops, c);
            LearnerRow {
                predicted: crossover(gpu, cpu),
                gpu_ns: gpu.us_per_elem * 1e3,
                cpu_ns: cpu.us_per_elem * 1e3,
            }
        })
        .collect();
    Learner {
        bytes,
        ops,
        in_bytes,
        out_bytes,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_takes_the_learners_two_counts() {
        let a = Args::try_parse_from([
            "day30-crossover",
            "--bytes-per-element",
            "12",
            "--ops-per-element",
            "2",
        ])
        .unwrap();
        assert_eq!((a.bytes_per_element, a.ops_per_element), (Some(12.0), Some(2.0)));
        let a = Args::try_parse_from(["day30-crossover"]).unwrap();
        assert_eq!((a.bytes_per_element, a.ops_per_element), (None, None));
        assert!(Args::try_parse_from(["day30-crossover", "--bytes-per-element", "-1"]).is_err());
        assert!(Args::try_parse_from(["day30-crossover", "--ops-per-element", "inf"]).is_err());
    }

    #[test]
    fn the_learners_copies_are_all_but_one_float_in_and_one_out() {
        let m = model::tests::machine();
        let l = part3_your_kernel(&m, 12.0, 2.0);
        assert_eq!((l.in_bytes, l.out_bytes), (8.0, 4.0));
        assert_eq!(l.rows.len(), 3);
        assert!(l.rows[0].predicted.unwrap() < l.rows[1].predicted.unwrap());
    }
}
