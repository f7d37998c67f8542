//! Day 30 in Rust, the twin of `crossover.cu`: the same kernel (linked
//! from crossover.cu through crossover.h), the same measurement, the same
//! report and the same check and exit code.
//!
//! Read it beside crossover.cu: [`lesson`] is crossover.cu's `main`, and each
//! step it calls is one block of that `main`, in the same order.
//!
//! Run: `cargo run --release -p day30-crossover` (see README.md).

use day30_crossover_report::Report;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::CudaStream;
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use time_kernel::KernelTimer;

use ffi::CU;

/// Day 30 (the Rust twin of crossover.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Prints the lesson's report; exits 1 if a result is wrong."
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

/// crossover.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    let device = lesson_cli::open_device(args.device)?;
    let elems = CU.elems;
    let input: Vec<f32> = (0..elems).map(|i| (i % 97) as f32 * 0.5).collect();
    let mut d_in = check!(DeviceBuffer::alloc(&device.ctx, elems))?;
    let mut d_out = check!(DeviceBuffer::alloc(&device.ctx, elems))?;
    check!(d_in.copy_from_host(&input))?;
    // The legacy default stream, where crossover.cu's launches go.
    let stream = device.ctx.default_stream();
    let timer = KernelTimer::new(CU.warmup_runs, CU.timed_runs)?;

    let scale_ms = part1_scale(&timer, &stream, &d_in, &mut d_out)?;

    // The result against the CPU's, before anything is printed.
    let want: Vec<f32> = input.iter().map(|x| CU.scale * x).collect();
    let mut got = vec![0.0f32; elems];
    check!(d_out.copy_to_host(&mut got))?;
    if let Some(i) = first_mismatch(&got, &want, CU.rel_tolerance) {
        let (got, want) = (g9(got[i]), g9(want[i]));
        return Err(CheckFailed(format!("scale wrong at {i}: got {got}, want {want}")).into());
    }

    let report = Report {
        gpu: device.described(),
        elems,
        threads_per_block: CU.threads_per_block,
        runs: timer.runs(),
        warmups: timer.warmups(),
        scale_ms: f64::from(scale_ms),
    };
    let printed = report.render();
    print!("{printed}");
    print_claims::<Report>(args.claims, &printed, &device.name)
}

/// Part 1: scale, warmed up, the mean of the timer's runs.
fn part1_scale(
    timer: &KernelTimer,
    stream: &Arc<CudaStream>,
    input: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
) -> Result<f32, CudaError> {
    let timing = timer.time(stream, || ffi::scale(input, out, CU.elems, stream))?;
    Ok(timing.mean_ms())
}

/// crossover.cu's kernel, launched through the C interface in
/// crossover.h, and its constants as the .cu compiles them.
mod ffi {
    // bindgen's items for the lesson's C header, raw and private: the safe
    // wrappers below are the only way in. C's names, as the header spells them.
    #[allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]
    mod sys {
        include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
    }

    use std::sync::LazyLock;

    use cuda_check::{check, within_buffers, CudaError};
    use cuda_objects::{runtime_stream, DeviceBuffer};
    use cudarc::driver::CudaStream;

    /// Queues scale over the first `n` elements on `stream`.
    pub fn scale(
        input: &DeviceBuffer<f32>,
        out: &mut DeviceBuffer<f32>,
        n: usize,
        stream: &CudaStream,
    ) -> Result<(), CudaError> {
        within_buffers("scale", n, &[input.len(), out.len()])?;
        let (input, out, stream) = (input.as_ptr(), out.as_mut_ptr(), runtime_stream(stream));
        // SAFETY: both buffers hold at least n floats on this context.
        check!(unsafe { sys::day30_scale(input, out, n, stream) })
    }

    /// crossover.cu's constants (crossover.h's `day30_constants`),
    /// read from the .cu this binary links, so an edit of the .cu is one
    /// the twin follows.
    pub struct Constants {
        pub elems: usize,
        pub threads_per_block: u32,
        pub warmup_runs: u32,
        pub timed_runs: u32,
        pub scale: f32,
        pub rel_tolerance: f32,
    }

    /// The .cu's constants, read once.
    pub static CU: LazyLock<Constants> = LazyLock::new(|| {
        // SAFETY: takes nothing and returns the struct by value.
        let c = unsafe { sys::day30_lesson_constants() };
        let count = |v: i32| u32::try_from(v).unwrap_or(0);
        Constants {
            elems: c.elems,
            threads_per_block: count(c.threads_per_block),
            warmup_runs: count(c.warmup_runs),
            timed_runs: count(c.timed_runs),
            scale: c.scale,
            rel_tolerance: c.rel_tolerance,
        }
    });
}
