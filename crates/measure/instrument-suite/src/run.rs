//! Timing the suite: the process's calibration first, then each kernel in
//! the mode the instrument recommends for it; and the plain launches
//! Nsight Compute profiles.
//!
//! Not for: the kernels (kernels.rs) or comparing runs (compare_files.rs).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::{free_memory, DeviceFacts};
use cudarc::driver::CudaContext;
use instrument::calibrate::{calibrate, Calibration};
use instrument::measure::{pilot, Instrument, Measurement};
use instrument::recommend::recommend;
use instrument::reject::{MemoryFloor, Rejection};
use instrument::report::DeviceInfo;
use instrument::sampling::{Budget, Warmup};
use instrument::{has_programmatic_launch, Mode};

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
/// enough to leave most of [`SUITE_BUDGET`] to the samples.
const SUITE_WARMUP: Warmup = Warmup::Millis(25.0);

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
/// `modes` in turn or, where none is given, the mode [`recommend`] picks
/// from a short hot pilot: one result per kernel and mode, in that order.
pub fn measure_suite(
    ctx: &Arc<CudaContext>,
    kernels: &[Kernel],
    scale: f64,
    modes: &[Mode],
) -> Result<SuiteReport, instrument::Error> {
    // The driver's version first, before any graph is captured: it decides
    // whether the programmatic modes can run at all.
    let facts = DeviceFacts::query(ctx)?;
    let programmatic = has_programmatic_launch(facts.compute_capability)
        && instrument::driver::runs(Mode::GraphPdl, facts.driver);
    let calibration = calibrate(ctx)?;
    let device = device_info(facts, &calibration, modes.contains(&Mode::Cupti));
    let suite = Suite {
        ctx,
        instrument: Instrument {
            warmup: SUITE_WARMUP,
            budget: SUITE_BUDGET,
            rejection: Rejection {
                floor_ms: calibration.event_resolution_ms,
                ..Rejection::default()
            },
            ..Instrument::default()
        },
        calibration: &calibration,
        l2_bytes: device.l2_bytes,
        programmatic,
        scale,
    };
    let modes: Vec<Option<Mode>> = if modes.is_empty() {
        vec![None]
    } else {
        modes.iter().copied().map(Some).collect()
    };
    let results = kernels
        .iter()
        .flat_map(|&kernel| modes.iter().map(move |&mode| (kernel, mode)))
        .map(|(kernel, mode)| suite.measure(kernel, mode))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SuiteReport {
        device: DeviceInfo {
            clocks_unavailable: results
                .iter()
                .find_map(|k| k.measurement.clocks_unavailable.clone()),
            ..device
        },
        calibration,
        kernels: results,
    })
}

/// What every kernel of one suite run is measured with.
struct Suite<'a> {
    ctx: &'a Arc<CudaContext>,
    instrument: Instrument,
    calibration: &'a Calibration,
    l2_bytes: u64,
    programmatic: bool,
    scale: f64,
}

impl Suite<'_> {
    /// One kernel in `mode`, or the one [`recommend`] picks, its samples
    /// spread over [`buffer_sets`] allocations of its buffers and pooled.
    fn measure(&self, kernel: Kernel, mode: Option<Mode>) -> Result<KernelResult, instrument::Error> {
        let sets = buffer_sets(self.ctx, kernel, self.scale)?;
        let mut workloads = (0..sets)
            .map(|_| Workload::new(self.ctx, kernel, self.scale))
            .collect::<Result<Vec<_>, _>>()?;
        let traffic = kernel.traffic(workloads[0].size);
        let mode = match mode {
            Some(m) => m,
            None => {
                let pilot_ms = pilot(self.ctx, &mut |s: &_| workloads[0].launch(s))?;
                recommend(
                    pilot_ms,
                    traffic.map(|t| t.total()),
                    self.l2_bytes,
                    self.programmatic,
                )
            }
        };
        let share = budget_share(sets);
        // A sample faster than the kernel's bytes can cross the memory is
        // rejected, as one below the timer's tick is.
        let memory_floor = traffic.map(|traffic| MemoryFloor {
            traffic,
            l2_bytes: self.l2_bytes,
            peak_gb_s: self.calibration.ceiling_gb_s(),
        });
        let mut parts = Vec::with_capacity(sets);
        for (i, workload) in workloads.iter_mut().enumerate() {
            let part = Instrument {
                budget: share,
                warmup: if i == 0 { SUITE_WARMUP } else { Warmup::Count(3) },
                memory_floor,
                ..self.instrument
            };
            parts.push(part.measure(self.ctx, mode, &mut |s: &_| workload.launch(s))?);
        }
        let samples = parts.iter().map(|p| p.samples.len()).sum();
        let Some(measurement) = Measurement::pooled(parts, SUITE_BUDGET) else {
            return Err(instrument::Error::AllThrottled { samples });
        };
        let mut result = KernelResult::new(
            kernel.name().to_string(),
            self.scale,
            traffic,
            measurement,
            self.calibration,
        );
        result.buffer_sets = sets;
        Ok(result)
    }
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

fn device_info(facts: DeviceFacts, calibration: &Calibration, cupti: bool) -> DeviceInfo {
    DeviceInfo::new(
        facts,
        calibration.copy_ceiling_gb_s,
        None,
        (!cupti).then(|| "not asked for (--mode cupti measures it)".into()),
    )
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
