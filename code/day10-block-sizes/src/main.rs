//! Day 10 in Rust: block sizes, measured without fooling yourself, the twin
//! of `blocks.cu`.
//!
//! The same kernels and occupancy queries (linked from blocks.cu through
//! blocks.h), the same configurations in the same order, each timed five
//! times by `time-kernel`, the same report (rendered by the report package)
//! and the same checks and exit codes.
//!
//! Read it beside blocks.cu: [`lesson`] is blocks.cu's `main`,
//! [`Measurer::measure`] its `measure`, and [`table`] its `Row`,
//! `timeRepeats` and `printTable`. Every constant is the .cu's own
//! ([`ffi::Constants`]), so an edit of blocks.cu is one the twin follows.
//!
//! Run: `cargo run --release -p day10-block-sizes` (see README.md).

mod ffi;
mod table;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cuda_check::{check, CudaError};
use cuda_objects::DeviceBuffer;
use cudarc::driver::{CudaContext, CudaStream};
use day10_block_sizes_report::{Report, Table, VECTOR_ADD_BYTES_PER_ELEMENT};
use ffi::{Constants, Kernel};
use lesson_cli::check::{first_mismatch, g9};
use lesson_cli::{print_claims, CheckFailed, ClaimsArg, DeviceArg};
use table::{print_table, Measured};
use time_kernel::KernelTimer;

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
    let c = Constants::of_the_cu();

    let mut host = HostArrays::filled(&c);
    let mut dev = DeviceArrays::upload(&ctx, &host, c.elems)?;
    // The legacy default stream, where blocks.cu's launches go.
    let stream = ctx.default_stream();
    let timer = KernelTimer::new(c.warmup_runs, c.timed_runs)?;
    let mut m = Measurer {
        c: &c,
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
        elems: c.elems,
        repeats: c.repeats,
        runs: timer.runs(),
        warmups: timer.warmups(),
        vector_add,
        fma_chains: c.fma_chains,
        fma_steps: c.fma_steps,
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
    fn filled(c: &Constants) -> Self {
        let a: Vec<f32> = (0..c.elems).map(|i| (i % 97) as f32 * 0.5).collect();
        let b: Vec<f32> = (0..c.elems).map(|i| (i % 13) as f32).collect();
        let mut want = vec![-1.0f32; c.elems];
        ffi::vector_add_cpu(&a, &b, &mut want);
        HostArrays {
            a,
            b,
            out: vec![-1.0f32; c.elems],
            want,
            fma_table: ffi::fma_reference(c),
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
    fn upload(ctx: &Arc<CudaContext>, host: &HostArrays, elems: usize) -> Result<Self, CudaError> {
        let mut dev = DeviceArrays {
            a: check!(DeviceBuffer::alloc(ctx, elems))?,
            b: check!(DeviceBuffer::alloc(ctx, elems))?,
            out: check!(DeviceBuffer::alloc(ctx, elems))?,
        };
        check!(dev.a.copy_from_host(&host.a))?;
        check!(dev.b.copy_from_host(&host.b))?;
        Ok(dev)
    }

    /// Queues one launch of `kernel` over every element.
    fn launch(&mut self, kernel: Kernel, threads: u32, stream: &CudaStream) -> Result<(), CudaError> {
        let n = self.out.len();
        match kernel {
            Kernel::DAY10_VECTOR_ADD => ffi::vector_add(&self.a, &self.b, &mut self.out, n, threads, stream),
            Kernel::DAY10_FMA_CHAINS => ffi::fma_chains(&mut self.out, n, threads, stream),
        }
    }
}

/// What every configuration is measured with.
struct Measurer<'a> {
    c: &'a Constants,
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
        let rows = self
            .c
            .block_sizes
            .iter()
            .map(|&threads| self.measure(kernel, threads))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let suggested = self.measure(kernel, ffi::suggested_block_size(kernel)?)?;
        Ok(print_table(&rows, &suggested))
    }

    /// blocks.cu's `measure`: occupancy, kRepeats timings, then the result
    /// checked against the CPU's, the output set to NaN first so a grid
    /// that missed an element cannot pass on an earlier configuration's
    /// results.
    fn measure(&mut self, kernel: Kernel, threads: u32) -> anyhow::Result<Measured> {
        let blocks_per_sm = ffi::blocks_per_sm(kernel, threads)?;
        let occupancy = f64::from(blocks_per_sm * threads.div_ceil(32)) / f64::from(self.max_warps_per_sm);
        ffi::fill_bytes(&mut self.dev.out, 0xFF)?;
        let c = self.c;
        let mut timings = Vec::with_capacity(c.repeats as usize);
        for _ in 0..c.repeats {
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
            Kernel::DAY10_FMA_CHAINS => f64::from(c.fma_flops_per_element),
        };
        Ok(Measured::from_timings(
            threads,
            blocks_per_sm,
            occupancy,
            &timings,
            work,
            c.elems,
        ))
    }

    /// The result against the CPU's, in blocks.cu's words on a mismatch.
    fn check_result(&self, kernel: Kernel, threads: u32) -> Result<(), CheckFailed> {
        let (name, bad) = match kernel {
            Kernel::DAY10_VECTOR_ADD => (
                "vectorAdd",
                first_mismatch(&self.host.out, &self.host.want, self.c.rel_tolerance)
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
        let (table, period) = (&self.host.fma_table, self.c.fma_period.max(1));
        self.host.out.chunks(period).enumerate().find_map(|(k, chunk)| {
            first_mismatch(chunk, &table[..chunk.len()], self.c.rel_tolerance)
                .map(|at| (k * period + at, table[at]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_references_from_blocks_cu() {
        let mut out = [0.0; 3];
        ffi::vector_add_cpu(&[1.0, 2.5, -1.0], &[2.0, 0.5, 1.0], &mut out);
        assert_eq!(out, [3.0, 3.0, 0.0]);
        let table = ffi::fma_reference(&Constants::of_the_cu());
        assert_eq!(table.len(), 1024);
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
