//! Timing the suite: the process's calibration first, then each kernel in
//! the mode the instrument recommends for it; and the plain launches
//! Nsight Compute profiles.
//!
//! Not for: the kernels (kernels.rs) or comparing runs (compare_files.rs).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::free_memory;
use cudarc::driver::CudaContext;
use instrument::measure::Measurement;
use instrument::report::DeviceInfo;
use instrument::sampling::{Budget, Warmup};
use instrument::session::Session;
use instrument::Mode;

use crate::kernels::{Kernel, Workload};
use crate::suite_report::{KernelResult, SuiteReport};

/// The suite's limits per kernel: sampling stops when the median is known to
/// within +-0.1%, or when the kernel has used 150 ms of GPU time, warm-up,
/// flushes and replays' set-up included. nvbench's defaults spend about a
/// second per kernel (half a second each of cold and batch samples, not
/// counting its flushes), and the comparison holds the instrument to a
/// fifth of that; 150 ms leaves room for the last sample of a 10 ms kernel.
/// A kernel that cheap to sample stops at the noise target first.
const SUITE_BUDGET: Budget = Budget {
    min_samples: 10,
    max_samples: 5000,
    max_gpu_ms: 150.0,
    noise_target: 0.001,
};

/// Warm-up per kernel: long enough for the replays' and flushes' first-time
/// costs to pass (they are warmed again by the modes' own set-up), short
/// enough to leave most of [`SUITE_BUDGET`] to the samples. 50 ms, as
/// kernel-timer warms up: after 25 ms (two launches of fma-10ms) a process's
/// first samples could still be 0.1 to 0.3% slow (44028e1's sitting,
/// evidence/instrument/*-kt-y-suite-fma-10ms-7), which moved a median of
/// nine.
const SUITE_WARMUP: Warmup = Warmup::Millis(50.0);

/// How many allocations of a memory-bound kernel's buffers the suite spreads
/// its samples over. Where a process's buffers land in HBM moves a
/// memory-bound kernel's time by up to 1% from one process to the next (the
/// exploration call at e240e4a: vector-add's isolated median at 0.0570 or
/// 0.0576 ms in consecutive processes, each known to about +-0.2%), more than a
/// 2% change less its interval can stand; over four allocations a process
/// holds an average placement instead of one draw.
const BUFFER_SETS: usize = 4;

/// [`BUFFER_SETS`] for a kernel that moves memory, as many as fit in half
/// the free device memory (at least one); one for a kernel that does not.
fn buffer_sets(ctx: &Arc<CudaContext>, kernel: Kernel, scale: f64) -> Result<usize, CudaError> {
    let size = kernel.size(scale);
    if kernel.traffic(size).is_none() {
        return Ok(1);
    }
    let free = free_memory(ctx)?;
    let per_set = kernel.buffer_sizes(size).iter().sum::<usize>().max(1);
    Ok((free / 2 / per_set).clamp(1, BUFFER_SETS))
}

/// Calibrates, then measures `kernels` at `scale`, each in every one of
/// `modes` in turn or, where none is given, the mode the instrument
/// recommends from a short hot pilot: one result per kernel and mode.
pub fn measure_suite(
    ctx: &Arc<CudaContext>,
    kernels: &[Kernel],
    scale: f64,
    modes: &[Mode],
) -> Result<SuiteReport, instrument::Error> {
    let mut session = Session::new(ctx, SUITE_BUDGET)?;
    let modes: Vec<Option<Mode>> = if modes.is_empty() {
        vec![None]
    } else {
        modes.iter().copied().map(Some).collect()
    };
    let results = kernels
        .iter()
        .flat_map(|&kernel| modes.iter().map(move |&mode| (kernel, mode)))
        .map(|(kernel, mode)| measure(&session, kernel, mode, scale))
        .collect::<Result<Vec<_>, _>>()?;
    // After the samples, so that their graphs replay at the floor
    // (instrument's calibrate).
    session.after_samples()?;
    let cupti =
        (!modes.contains(&Some(Mode::Cupti))).then(|| "not asked for (--mode cupti measures it)".into());
    let clocks = results
        .iter()
        .find_map(|k| k.measurement.clocks_unavailable.clone());
    Ok(SuiteReport {
        device: DeviceInfo::new(
            session.facts,
            session.calibration.copy_ceiling_gb_s,
            clocks,
            cupti,
        ),
        calibration: session.calibration,
        kernels: results,
    })
}

/// One kernel in `mode`, or the one the instrument recommends, its samples
/// spread over [`buffer_sets`] allocations of its buffers and pooled.
fn measure(
    session: &Session,
    kernel: Kernel,
    mode: Option<Mode>,
    scale: f64,
) -> Result<KernelResult, instrument::Error> {
    let ctx = &session.ctx;
    let sets = buffer_sets(ctx, kernel, scale)?;
    let mut workloads = (0..sets)
        .map(|_| Workload::new(ctx, kernel, scale))
        .collect::<Result<Vec<_>, _>>()?;
    let traffic = kernel.traffic(workloads[0].size);
    let mode = session
        .choose(mode, traffic, &mut |s: &_| workloads[0].launch(s))?
        .mode;
    let mut parts = Vec::with_capacity(sets);
    for (i, workload) in workloads.iter_mut().enumerate() {
        let warmup = if i == 0 { SUITE_WARMUP } else { Warmup::Count(3) };
        let part = session.instrument(budget_share(sets), warmup, traffic);
        parts.push(part.measure(ctx, mode, &mut |s: &_| workload.launch(s))?);
    }
    let measurement = Measurement::pooled_or_throttled(parts, SUITE_BUDGET)?;
    let mut result = KernelResult::new(
        kernel.name().to_string(),
        scale,
        traffic,
        measurement,
        &session.calibration,
    );
    result.buffer_sets = sets;
    Ok(result)
}

/// Each of `sets` allocations' share of the suite's budget, so that together
/// they spend what one would; the first warms up the kernel, the others
/// only their own buffers and replays.
fn budget_share(sets: usize) -> Budget {
    Budget {
        min_samples: SUITE_BUDGET.min_samples.div_ceil(sets),
        max_samples: SUITE_BUDGET.max_samples / sets,
        max_gpu_ms: SUITE_BUDGET.max_gpu_ms / sets as f64,
        noise_target: SUITE_BUDGET.noise_target * (sets as f64).sqrt(),
    }
}

/// Launches each of `kernels` `count` times back to back on the legacy
/// default stream, untimed, and waits: the launches Nsight Compute
/// profiles, in this order.
pub fn launch_plainly(
    ctx: &Arc<CudaContext>,
    kernels: &[Kernel],
    scale: f64,
    count: usize,
) -> Result<(), CudaError> {
    let stream = ctx.default_stream();
    for &kernel in kernels {
        let mut workload = Workload::new(ctx, kernel, scale)?;
        for _ in 0..count {
            workload.launch(&stream)?;
        }
        check!(stream.synchronize())?;
    }
    Ok(())
}
