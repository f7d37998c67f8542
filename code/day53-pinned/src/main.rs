//! Day 53 in Rust: pinned memory and async copies, the twin of `pinned.cu`.
//!
//! The same three parts in the same order, the same correctness gates before
//! anything is timed, the same NVTX range labels, the same printed lines and
//! exit codes. Memory is made the way pinned.cu makes it (`cuda-objects`):
//! `cuMemAlloc` for device buffers, plain page-locked host memory (not
//! cudarc's write-combined default) and mapped host memory for zero-copy.
//!
//! Run: `cargo run --release -p day53-pinned` (see README.md).

mod ffi;
use day53_pinned_report::render as report;

use std::error::Error;
use std::process::ExitCode;

use cuda_check::{check, runtime};
use cuda_objects::{BlockingStream, DeviceBuffer, Mapping, PinnedHost};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::CudaContext;
use ffi::Input;
use host_clock::now_ms;
use lesson_cli::{CheckFailed, Options};
use result_check::{first_mismatch, g9};
use time_kernel::KernelTimer;

const MIB: usize = 1024 * 1024;
const SWEEP_MIB: [usize; 5] = [1, 4, 16, 64, 256];
const MAX_SWEEP_BYTES: usize = 256 * MIB;
const PROBE_BYTES: usize = 64 * MIB;
const KERNEL_ELEMS: usize = 16 * 1024 * 1024 + 611;
const THREADS_PER_BLOCK: usize = 256;
const SCALE: f32 = 2.0;
const REL_TOLERANCE: f32 = 1e-5;

const _: () = assert!(
    PROBE_BYTES <= MAX_SWEEP_BYTES,
    "Part 2 copies into the sweep's buffer"
);
const _: () = assert!(
    KERNEL_ELEMS * 4 <= MAX_SWEEP_BYTES,
    "Part 3 stages its input in the sweep's buffer"
);
const _: () = assert!(
    !KERNEL_ELEMS.is_multiple_of(THREADS_PER_BLOCK),
    "n must leave a partial block"
);

const USAGE: &str = "\
day53-pinned: pinned memory and async copies (the Rust twin of pinned.cu)

Usage: day53-pinned [--device N]

  --device N   the CUDA device to run on (default 0)
  -h, --help   print this help

Part 1: host-to-device cudaMemcpy bandwidth, pageable vs pinned, 1 to 256 MiB.
Part 2: how long cudaMemcpyAsync holds the host, pageable vs pinned.
Part 3: a kernel reading device memory vs mapped host memory (zero-copy).
Exits 1 if a copy or a kernel result is wrong.
";

fn main() -> ExitCode {
    lesson_cli::run(USAGE, lesson_cli::Extras::default(), lesson)
}

/// The CPU reference for scaleCopy.
fn scale_copy_cpu(input: &[f32], out: &mut [f32]) {
    for (o, x) in out.iter_mut().zip(input) {
        *o = SCALE * x;
    }
}

fn lesson(options: &Options) -> Result<(), Box<dyn Error>> {
    cuda_check::require_driver()?;
    // pinned.cu first calls cudaSetDeviceFlags(cudaDeviceMapHost). The driver
    // API has no such step: every context since CUDA 3.2 maps host memory,
    // CU_CTX_MAP_HOST has had no effect since CUDA 11, and CUDA 13's
    // cuDevicePrimaryCtxSetFlags rejects it as an invalid value (seen on the
    // H200, evidence/day53-pinned/2026-11-29T222958Z-h200-rust.txt). What remains
    // is the device's ability to map, checked below as pinned.cu checks it.
    let ctx = check!(CudaContext::new(options.device))?;
    check!(runtime::bind_to_current_context())?;
    println!(
        "{}",
        report::gpu_line(&check!(ctx.name())?, check!(ctx.compute_capability())?)
    );
    let can_map = check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY))?;
    if can_map == 0 {
        return Err(
            CheckFailed("this device cannot map host memory; part 3 is impossible here".into()).into(),
        );
    }

    let max_elems = MAX_SWEEP_BYTES / std::mem::size_of::<f32>();

    // Pageable memory: ordinary memory the OS may move, so the driver stages
    // copies from it through a pinned buffer of its own.
    let h_pageable: Vec<f32> = (0..max_elems).map(|i| (i % 977) as f32 * 0.25).collect();
    let mut h_back = vec![0.0f32; max_elems];
    let mut h_out = vec![0.0f32; KERNEL_ELEMS];
    let mut h_want = vec![0.0f32; KERNEL_ELEMS];

    // Pinned memory with the same contents, so both sides move the same bytes.
    let mut h_pinned = check!(PinnedHost::<f32>::alloc(&ctx, max_elems, Mapping::Unmapped))?;
    h_pinned.copy_from_slice(&h_pageable);

    // Mapped pinned memory for Part 3, and the address a kernel reads it by.
    let mut h_mapped = check!(PinnedHost::<f32>::alloc(&ctx, KERNEL_ELEMS, Mapping::Mapped))?;
    let d_mapped = check!(h_mapped.device_ptr())?;
    for (i, x) in h_mapped.iter_mut().enumerate() {
        *x = (i % 353) as f32 - 176.0;
    }

    let mut d_buf = check!(DeviceBuffer::<f32>::alloc(&ctx, max_elems))?;
    let mut d_out = check!(DeviceBuffer::<f32>::alloc(&ctx, KERNEL_ELEMS))?;
    let stream = check!(BlockingStream::create(&ctx))?;
    // Everything above is freed by its owner on every way out of this
    // function, and not before its end: the device reads h_mapped through
    // d_mapped until Part 3 is done.

    // Gate: both copy paths copy, at the full size, before any timing.
    let names = ["pageable", "pinned"];
    let sources: [&[f32]; 2] = [&h_pageable, &h_pinned];
    for (name, src) in names.iter().zip(sources) {
        check!(d_buf.copy_from_host(src))?;
        check!(d_buf.copy_to_host(&mut h_back))?;
        if let Some(i) = first_mismatch(&h_back, src, 0.0) {
            return Err(CheckFailed(format!(
                "{name} H2D copy wrong at {i}: got {}, want {}",
                g9(h_back[i]),
                g9(src[i])
            ))
            .into());
        }
    }

    // Part 1: blocking copies on the default stream, timed like kernels.
    let timer = KernelTimer::default();
    let default_stream = ctx.default_stream();
    println!("{}", report::part1_header(timer.runs(), timer.warmups()));
    for mib in SWEEP_MIB {
        let elems = mib * MIB / std::mem::size_of::<f32>();
        let mut ms = [0.0f64; 2];
        for (s, src) in sources.iter().enumerate() {
            let range = nvtx_range(&format!("h2d-{}-{mib}MiB", names[s]));
            let timing = timer.time(&default_stream, || check!(d_buf.copy_from_host(&src[..elems])))?;
            drop(range);
            ms[s] = f64::from(timing.mean_ms());
        }
        println!("{}", report::part1_row(mib, ms[0], ms[1]));
    }

    // Part 2: cudaMemcpyAsync on a stream of its own. The host clock is read
    // only after the call returned, and after the stream synchronised.
    let runs = timer.runs();
    println!("{}", report::part2_header(runs));
    let probe_elems = PROBE_BYTES / std::mem::size_of::<f32>();
    let raw_stream = stream.stream().cu_stream();
    for (s, src) in sources.iter().enumerate() {
        let src = &src[..probe_elems];
        // SAFETY (all copies below): src outlives the copy, and the stream is
        // synchronised before src is touched again.
        check!(unsafe { d_buf.copy_from_host_async(src, raw_stream) })?;
        check!(stream.stream().synchronize())?; // the warm-up, untimed
        let range = nvtx_range(&format!("async-{}", names[s]));
        let (mut call_sum, mut total_sum) = (0.0f64, 0.0f64);
        for _ in 0..runs {
            let t0 = now_ms();
            check!(unsafe { d_buf.copy_from_host_async(src, raw_stream) })?;
            // The call has returned: how long did it hold this thread?
            let t1 = now_ms();
            check!(stream.stream().synchronize())?;
            // The stream has drained: the copy is certainly done.
            let t2 = now_ms();
            call_sum += t1 - t0;
            total_sum += t2 - t0;
        }
        drop(range);
        let call_ms = call_sum / f64::from(runs);
        let total_ms = total_sum / f64::from(runs);
        println!("{}", report::part2_row(names[s], call_ms, total_ms));
    }

    // Part 3: one kernel, its input resident on the device or mapped from host.
    check!(d_buf.copy_from_host(&h_mapped))?;
    scale_copy_cpu(&h_mapped, &mut h_want);
    let inputs = [
        Input {
            ptr: d_buf.as_ptr(),
            len: d_buf.len(),
        },
        Input {
            ptr: d_mapped,
            len: h_mapped.len(),
        },
    ];
    let variants = ["device-resident", "zero-copy"];
    let mut kernel_ms = [0.0f32; 2];
    for (v, input) in inputs.into_iter().enumerate() {
        // Correct before timed: one launch, checked against the CPU.
        ffi::scale_copy(input, &mut d_out, KERNEL_ELEMS, &default_stream)?;
        check!(ctx.synchronize())?;
        check!(runtime::last_error())?;
        check!(d_out.copy_to_host(&mut h_out))?;
        if let Some(i) = first_mismatch(&h_out, &h_want, REL_TOLERANCE) {
            return Err(CheckFailed(format!(
                "{} wrong at {i}: got {}, want {}",
                variants[v],
                g9(h_out[i]),
                g9(h_want[i])
            ))
            .into());
        }
        let range = nvtx_range(variants[v]);
        kernel_ms[v] = timer
            .time(&default_stream, || {
                ffi::scale_copy(input, &mut d_out, KERNEL_ELEMS, &default_stream)
            })?
            .mean_ms();
        drop(range);
    }

    println!(
        "{}",
        report::part3_header(KERNEL_ELEMS, timer.runs(), timer.warmups())
    );
    for (variant, ms) in variants.iter().zip(kernel_ms) {
        println!("{}", report::part3_row(variant, KERNEL_ELEMS, ms));
    }
    let launches = timer.runs() + timer.warmups() + 1;
    println!("{}", report::part3_summary(kernel_ms[0], kernel_ms[1], launches));
    Ok(())
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
    fn sizes_match_the_lesson() {
        assert_eq!(KERNEL_ELEMS, 16_777_827);
        assert_eq!(SWEEP_MIB.iter().max(), Some(&(MAX_SWEEP_BYTES / MIB)));
    }
}
