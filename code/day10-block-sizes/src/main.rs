//! Day 10 in Rust: block sizes, measured without fooling yourself, the twin
//! of `blocks.cu`.
//!
//! The same kernels and occupancy queries (linked from blocks.cu through
//! blocks.h), the same configurations in the same order, each timed five
//! times by `time-kernel`, the same report (rendered by the report package)
//! and the same checks and exit codes.
//!
//! Read it beside blocks.cu: [`lesson`] is blocks.cu's `main` and
//! [`measure`] its `measure`.
//!
//! Run: `cargo run --release -p day10-block-sizes` (see README.md).

mod ffi;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::{CudaContext, CudaStream};
use day10_block_sizes_report::{Measured, Report, Table, VECTOR_ADD_BYTES_PER_ELEMENT};
use ffi::Kernel;
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use result_check::{first_mismatch, g9};
use time_kernel::KernelTimer;

/// blocks.cu's constants. The test `constants_are_blocks_cus_own` holds each
/// to the value blocks.cu itself compiles with.
const ELEMS: usize = 16 * 1024 * 1024 + 611;
const REPEATS: u32 = 5;
const REL_TOLERANCE: f32 = 1e-5;
const BLOCK_SIZES: [u32; 11] = [32, 64, 96, 100, 128, 192, 256, 384, 512, 768, 1024];
const FMA_CHAINS: u32 = 8;
const FMA_STEPS: u32 = 256;
const FMA_PERIOD: usize = 1024;
const FMA_FLOPS_PER_ELEMENT: u32 = 2 * FMA_CHAINS * FMA_STEPS;

/// Block sizes, measured without fooling yourself (the Rust twin of blocks.cu)
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Prints the lesson's report; exits 1 if a kernel's result is wrong."
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

/// blocks.cu's `main`, step for step.
fn lesson(args: Args) -> anyhow::Result<()> {
    let device = lesson_cli::open_device(args.device)?;
    let gpu = device.described();
    let ctx = device.ctx;
    let (sms, max_threads_per_sm, max_blocks_per_sm) = ffi::sm_limits(args.device.ordinal)?;

    let mut host = HostArrays::filled();
    let mut dev = DeviceArrays::upload(&ctx, &host)?;
    // The legacy default stream, where blocks.cu's launches go.
    let stream = ctx.default_stream();
    let timer = KernelTimer::default();
    let mut m = Measurer {
        timer: &timer,
        stream: &stream,
        max_warps_per_sm: max_threads_per_sm / 32,
        dev: &mut dev,
        host: &mut host,
    };

    let vector_add = m.table(Kernel::DAY10_VECTOR_ADD)?;
    let fma = m.table(Kernel::DAY10_FMA_CHAINS)?;
    drop(dev);

    let report = Report {
        gpu,
        sms,
        max_threads_per_sm,
        max_blocks_per_sm,
        elems: ELEMS,
        repeats: REPEATS,
        runs: timer.runs(),
        warmups: timer.warmups(),
        vector_add,
        fma_chains: FMA_CHAINS,
        fma_steps: FMA_STEPS,
        fma,
    };
    let printed = report.render();
    print!("{printed}");
    print_claims::<Report>(args.claims, &printed, report.gpu_name())?;
    Ok(())
}

/// blocks.cu's host vectors: the inputs, the GPU's result and the CPU's
/// references for both kernels.
struct HostArrays {
    a: Vec<f32>,
    b: Vec<f32>,
    out: Vec<f32>,
    want: Vec<f32>,
    fma_table: Vec<f32>,
}

impl HostArrays {
    fn filled() -> Self {
        let a: Vec<f32> = (0..ELEMS).map(|i| (i % 97) as f32 * 0.5).collect();
        let b: Vec<f32> = (0..ELEMS).map(|i| (i % 13) as f32).collect();
        let mut want = vec![-1.0f32; ELEMS];
        ffi::vector_add_cpu(&a, &b, &mut want);
        HostArrays {
            a,
            b,
            out: vec![-1.0f32; ELEMS],
            want,
            fma_table: ffi::fma_reference(),
        }
    }
}

/// The device buffers every configuration shares.
struct DeviceArrays {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
}

impl DeviceArrays {
    fn upload(ctx: &Arc<CudaContext>, host: &HostArrays) -> Result<Self, CudaError> {
        let mut dev = DeviceArrays {
            a: check!(DeviceBuffer::alloc(ctx, ELEMS))?,
            b: check!(DeviceBuffer::alloc(ctx, ELEMS))?,
            out: check!(DeviceBuffer::alloc(ctx, ELEMS))?,
        };
        check!(dev.a.copy_from_host(&host.a))?;
        check!(dev.b.copy_from_host(&host.b))?;
        Ok(dev)
    }

    /// Queues one launch of `kernel` over every element.
    fn launch(&mut self, kernel: Kernel, threads: u32, stream: &CudaStream) -> Result<(), CudaError> {
        match kernel {
            Kernel::DAY10_VECTOR_ADD => {
                ffi::vector_add(&self.a, &self.b, &mut self.out, ELEMS, threads, stream)
            }
            Kernel::DAY10_FMA_CHAINS => ffi::fma_chains(&mut self.out, ELEMS, threads, stream),
        }
    }
}

/// What every configuration is measured with.
struct Measurer<'a> {
    timer: &'a KernelTimer,
    stream: &'a Arc<CudaStream>,
    max_warps_per_sm: u32,
    dev: &'a mut DeviceArrays,
    host: &'a mut HostArrays,
}

impl Measurer<'_> {
    /// One kernel's table: every block size, then the occupancy API's
    /// suggestion, in blocks.cu's order.
    fn table(&mut self, kernel: Kernel) -> anyhow::Result<Table> {
        let rows = BLOCK_SIZES
            .iter()
            .map(|&threads| self.measure(kernel, threads))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let suggested = self.measure(kernel, ffi::suggested_block_size(kernel)?)?;
        Ok(Table::from_measured(&rows, &suggested))
    }

    /// blocks.cu's `measure`: occupancy, REPEATS timings, then the result
    /// checked against the CPU's, the output set to NaN first so a grid
    /// that missed an element cannot pass on an earlier configuration's
    /// results.
    fn measure(&mut self, kernel: Kernel, threads: u32) -> anyhow::Result<Measured> {
        let blocks_per_sm = ffi::blocks_per_sm(kernel, threads)?;
        let occupancy = f64::from(blocks_per_sm * threads.div_ceil(32)) / f64::from(self.max_warps_per_sm);
        ffi::fill_bytes(&mut self.dev.out, 0xFF)?;
        let mut timings = Vec::with_capacity(REPEATS as usize);
        for _ in 0..REPEATS {
            let dev = &mut *self.dev;
            let stream = self.stream;
            timings.push(
                self.timer
                    .time(stream, || dev.launch(kernel, threads, stream))?
                    .mean_ms(),
            );
        }
        check!(self.dev.out.copy_to_host(&mut self.host.out))?;
        self.check_result(kernel, threads)?;
        let work = match kernel {
            Kernel::DAY10_VECTOR_ADD => VECTOR_ADD_BYTES_PER_ELEMENT,
            Kernel::DAY10_FMA_CHAINS => f64::from(FMA_FLOPS_PER_ELEMENT),
        };
        Ok(Measured::from_timings(
            threads,
            blocks_per_sm,
            occupancy,
            &timings,
            work,
            ELEMS,
        ))
    }

    /// The result against the CPU's, in blocks.cu's words on a mismatch.
    fn check_result(&self, kernel: Kernel, threads: u32) -> Result<(), CheckFailed> {
        let (name, bad) = match kernel {
            Kernel::DAY10_VECTOR_ADD => (
                "vectorAdd",
                first_mismatch(&self.host.out, &self.host.want, REL_TOLERANCE)
                    .map(|i| (i, self.host.want[i])),
            ),
            Kernel::DAY10_FMA_CHAINS => ("fmaChains", self.fma_mismatch()),
        };
        match bad {
            None => Ok(()),
            Some((i, want)) => Err(CheckFailed(format!(
                "{name} wrong at {i} with {threads} threads per block: got {}, want {}",
                g9(self.host.out[i]),
                g9(want)
            ))),
        }
    }

    /// The first element of fmaChains' result that is not its period's
    /// reference value, with that value.
    fn fma_mismatch(&self) -> Option<(usize, f32)> {
        let table = &self.host.fma_table;
        self.host
            .out
            .chunks(FMA_PERIOD)
            .enumerate()
            .find_map(|(k, chunk)| {
                first_mismatch(chunk, &table[..chunk.len()], REL_TOLERANCE)
                    .map(|at| (k * FMA_PERIOD + at, table[at]))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_blocks_cus_own() -> Result<(), lesson_testkit::constants::ConstantsMismatch> {
        let timer = KernelTimer::default();
        lesson_testkit::constants_match!(ffi::lesson_constants(), {
            elems: ELEMS,
            warmup_runs: timer.warmups(),
            timed_runs: timer.runs(),
            repeats: REPEATS,
            rel_tolerance: REL_TOLERANCE,
            block_sizes[num_block_sizes]: BLOCK_SIZES,
            fma_chains: FMA_CHAINS,
            fma_steps: FMA_STEPS,
            fma_period: FMA_PERIOD,
            fma_flops_per_element: FMA_FLOPS_PER_ELEMENT,
        })
    }

    #[test]
    fn the_cpu_references_from_blocks_cu() {
        let mut out = [0.0; 3];
        ffi::vector_add_cpu(&[1.0, 2.5, -1.0], &[2.0, 0.5, 1.0], &mut out);
        assert_eq!(out, [3.0, 3.0, 0.0]);
        let table = ffi::fma_reference();
        assert_eq!(table.len(), FMA_PERIOD);
        // Each chain tends to add / (1 - mul) = 1 from its start; eight
        // chains started at 0..7 plus i/1024 and shrunk by 0.999^256.
        let shrink = 0.999f64.powi(256);
        let expect = |p: usize| {
            (0..8)
                .map(|c| 1.0 + (p as f64 / 1024.0 + c as f64 - 1.0) * shrink)
                .sum::<f64>()
        };
        for p in [0, 1, 511, 1023] {
            let got = f64::from(table[p]);
            assert!((got - expect(p)).abs() < 1e-3, "{p}: {got} vs {}", expect(p));
        }
    }

    #[test]
    fn the_command_line_keeps_the_lessons_flags() {
        let args = Args::try_parse_from(["day10-block-sizes", "--device", "1", "--claims"]).unwrap();
        assert_eq!(args.device.ordinal, 1);
        assert!(args.claims.claims);
    }
}
