//! Day 9 in Rust: one vector add timed five ways, the twin of `timing.cu`.
//!
//! The same kernels (linked from timing.cu through timing.h), the same
//! measurements in the same order, the same report and the same checks and
//! exit codes. The Rust side drives CUDA through cudarc, with memory made the
//! way `cudaMalloc` makes it (`cuda-objects`), kernels timed by `time-kernel`
//! and the lesson's deliberate host-clock readings taken from `host-clock`.
//!
//! Run: `cargo run --release -p day09-timing` (see README.md).

mod ffi;

mod stats;

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaStream};
use day09_timing_report::{Report, SweepRow};
use host_clock::now_ms;
use lesson_cli::{CheckFailed, Options};
use result_check::{first_mismatch, g9};
use time_kernel::KernelTimer;

/// timing.cu's constants. The element count and block size are asserted
/// against the .cu's own grid below, so the two cannot drift apart silently.
const ELEMS: usize = 16 * 1024 * 1024 + 611;
const THREADS_PER_BLOCK: u32 = 256;
const REL_TOLERANCE: f32 = 1e-5;
const SWEEP: [usize; 4] = [1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024];

const _: () = assert!(
    !ELEMS.is_multiple_of(THREADS_PER_BLOCK as usize),
    "n must leave a partial block"
);
const _: () = assert!(
    SWEEP[SWEEP.len() - 1] <= ELEMS,
    "the sweep reuses the full-size buffers"
);

const USAGE: &str = "\
day09-timing: one vector add timed five ways (the Rust twin of timing.cu)

Usage: day09-timing [--device N] [--stats] [--json PATH]

  --device N   the CUDA device to run on (default 0)
  --stats      after the course's report, time vectorAdd with the measurement
               instrument (hot, cold-cache and graph modes; programmatic
               graph and isolated modes on compute capability 9.0+; CUPTI's
               where libcupti is found; adaptive sampling, clock checks) and
               print its table
  --json PATH  write the instrument's measurements, every sample, as JSON
  -h, --help   print this help

Prints the lesson's report; exits 1 if a result or a consistency check is wrong.
Try it with CUDA_MODULE_LOADING=EAGER too, and see where the cold costs go.
";

fn main() -> ExitCode {
    lesson_cli::run(USAGE, lesson_cli::Extras { stats: true }, lesson)
}

/// The device buffers every measurement shares.
struct Buffers {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
}

/// One round trip, timed as timing.cu's timeRoundTrip: both inputs up with
/// pageable copies, one launch, the result back; warm-ups, then the mean.
fn time_round_trip(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    host: (&[f32], &[f32], &mut [f32]),
    dev: &mut Buffers,
    n: usize,
) -> Result<f32, CudaError> {
    let (h_a, h_b, h_out) = host;
    let timing = timer.time(stream, || {
        check!(dev.a.copy_from_host(&h_a[..n]))?;
        check!(dev.b.copy_from_host(&h_b[..n]))?;
        ffi::vector_add(&dev.a, &dev.b, &mut dev.out, n, stream)?;
        check!(dev.out.copy_to_host(&mut h_out[..n]))
    })?;
    Ok(timing.mean_ms())
}

fn lesson(options: &Options) -> Result<(), Box<dyn Error>> {
    // The instrument's output file is claimed before anything is measured,
    // so a path that cannot be written fails now, not after the measurement
    // (and outside row 1, which timing.cu does not spend on a file).
    let json = options
        .json
        .as_deref()
        .map(instrument::json_out::JsonOut::create)
        .transpose()?;

    // Row 1 starts here, as early as the program can read a clock.
    let process_start = now_ms();

    // cudarc panics without libcuda; say so in one line instead.
    cuda_check::require_driver()?;

    // The first CUDA call: retaining the primary context (what cudaSetDevice
    // does in timing.cu) and binding the runtime to it, timed together so
    // the context's cost has a name here as it does there.
    let ctx_start = now_ms();
    let ctx = check!(CudaContext::new(options.device))?;
    check!(runtime::bind_to_current_context())?;
    let context_ms = now_ms() - ctx_start;

    let gpu_name = check!(ctx.name())?;
    let compute_capability = check!(ctx.compute_capability())?;
    let blocks = ffi::blocks_for(ELEMS);

    // Filled with a non-zero value so every page is written, and so mapped,
    // now. `vec![0.0; n]` gets lazily mapped zero pages from the allocator,
    // and the first pass to write them (the timed CPU loop) would pay one page
    // fault per 4 KiB; timing.cu's std::vector writes its elements up front.
    let mut h_a = vec![-1.0f32; ELEMS];
    let mut h_b = vec![-1.0f32; ELEMS];
    let mut h_out = vec![-1.0f32; ELEMS];
    let mut h_want = vec![-1.0f32; ELEMS];
    for i in 0..ELEMS {
        h_a[i] = (i % 97) as f32 * 0.5;
        h_b[i] = (i % 13) as f32;
    }

    let mut dev = Buffers {
        a: check!(DeviceBuffer::alloc(&ctx, ELEMS))?,
        b: check!(DeviceBuffer::alloc(&ctx, ELEMS))?,
        out: check!(DeviceBuffer::alloc(&ctx, ELEMS))?,
    };
    check!(dev.a.copy_from_host(&h_a))?;
    check!(dev.b.copy_from_host(&h_b))?;

    // The legacy default stream, where timing.cu's launches and copies go.
    let stream = ctx.default_stream();
    let timed = Some(CUevent_flags::CU_EVENT_DEFAULT);
    let start = check!(ctx.new_event(timed))?;
    let stop = check!(ctx.new_event(timed))?;

    // Row 3 first: vectorAdd's first launch in the process, which pays its
    // module load. The events see the gap the load leaves on the device.
    check!(start.record(&stream))?;
    ffi::vector_add(&dev.a, &dev.b, &mut dev.out, ELEMS, &stream)?;
    check!(stop.record(&stream))?;
    check!(stop.synchronize())?;
    check!(runtime::last_error())?;
    let cold_ms = check!(start.elapsed_ms(&stop))?;

    // Row 2: a host clock around the launch call, then the same clock after a
    // sync. The launch status is checked after the clock, as timing.cu does.
    let launch_start = now_ms();
    let launched = ffi::vector_add(&dev.a, &dev.b, &mut dev.out, ELEMS, &stream);
    let launch_end = now_ms();
    launched?;
    check!(ctx.synchronize())?;
    let launch_only_ms = launch_end - launch_start;
    let launch_plus_sync_ms = now_ms() - launch_start;

    // Row 4: the kernel, warmed up, mean of ten.
    let timer = KernelTimer::default();
    let warm_ms = timer
        .time(&stream, || {
            ffi::vector_add(&dev.a, &dev.b, &mut dev.out, ELEMS, &stream)
        })?
        .mean_ms();

    // Row 5: the same kernel with the copies in the region.
    let round_trip_ms = time_round_trip(&timer, &stream, (&h_a, &h_b, &mut h_out), &mut dev, ELEMS)?;

    // The CPU on the same data, with timing.cu's own loop (see ffi.rs); this
    // pass also fills h_want for the check.
    let cpu_start = now_ms();
    ffi::vector_add_cpu(&h_a, &h_b, &mut h_want);
    let cpu_ms = now_ms() - cpu_start;

    // Checked while h_out still holds the last full round trip.
    let bad = first_mismatch(&h_out, &h_want, REL_TOLERANCE);

    // The second kernel, cold and then warm.
    check!(start.record(&stream))?;
    ffi::vector_scale(&dev.a, &mut dev.out, ELEMS, &stream)?;
    check!(stop.record(&stream))?;
    check!(stop.synchronize())?;
    check!(runtime::last_error())?;
    let scale_cold_ms = check!(start.elapsed_ms(&stop))?;
    let scale_warm_ms = timer
        .time(&stream, || {
            ffi::vector_scale(&dev.a, &mut dev.out, ELEMS, &stream)
        })?
        .mean_ms();

    // The crossover sweep on prefixes of the same buffers.
    let mut sweep = Vec::with_capacity(SWEEP.len());
    for &n in &SWEEP {
        let t0 = now_ms();
        ffi::vector_add_cpu(&h_a[..n], &h_b[..n], &mut h_want[..n]);
        let cpu_ms = now_ms() - t0;
        let kernel_ms = timer
            .time(&stream, || {
                ffi::vector_add(&dev.a, &dev.b, &mut dev.out, n, &stream)
            })?
            .mean_ms();
        let round_trip_ms = time_round_trip(&timer, &stream, (&h_a, &h_b, &mut h_out), &mut dev, n)?;
        sweep.push(SweepRow {
            n,
            cpu_ms,
            kernel_ms,
            round_trip_ms,
        });
    }

    // Freed before row 1 ends, as timing.cu frees before its clock stops.
    drop((start, stop, dev));

    if let Some(i) = bad {
        return Err(CheckFailed(format!(
            "vectorAdd wrong at {i}: got {}, want {}",
            g9(h_out[i]),
            g9(h_want[i])
        ))
        .into());
    }

    let whole_ms = now_ms() - process_start;

    let report = Report {
        device: options.device,
        gpu_name,
        compute_capability,
        elems: ELEMS,
        threads_per_block: THREADS_PER_BLOCK,
        blocks,
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
    print!("{}", report.render());
    if let Some(message) = report.consistency_failure() {
        return Err(CheckFailed(message).into());
    }
    if options.stats || options.json.is_some() {
        let course = stats::CourseNumbers {
            first_launch_ms: cold_ms,
            mean_of_10_ms: warm_ms,
        };
        stats::run(&ctx, options.stats, json, (&h_a, &h_b), ELEMS, course)?;
    }
    Ok(())
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
    fn sizes_match_the_lesson() {
        assert_eq!(ELEMS, 16_777_827);
        assert_eq!(ELEMS.div_ceil(THREADS_PER_BLOCK as usize), 65_539);
    }
}
