//! Timing the suite: the process's calibration first, then each kernel in
//! the mode the instrument recommends for it; and the plain launches
//! Nsight Compute profiles.
//!
//! Not for: the kernels (kernels.rs) or comparing runs (compare_files.rs).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::CudaContext;
use instrument::calibrate::{calibrate, Calibration};
use instrument::measure::{has_programmatic_launch, recommend, Instrument, Measurement, Mode, Sampling};
use instrument::reject::Rejection;
use instrument::report::DeviceInfo;
use instrument::sampling::{Budget, Warmup};
use instrument::suite_report::{KernelResult, SuiteReport};

use crate::kernels::{Kernel, Workload};

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
/// 0.0576 ms in consecutive processes, each known to +-0.15%), more than a
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
    check!(ctx.bind_to_thread())?;
    let (free, _total) = check!(cudarc::driver::result::mem_get_info())?;
    let per_set = kernel.buffer_sizes(size).iter().sum::<usize>().max(1);
    Ok((free / 2 / per_set).clamp(1, BUFFER_SETS))
}

/// Calibrates, then measures `kernels` at `scale`, each in `mode` or, where
/// none is given, the mode [`recommend`] picks from a short hot pilot.
pub fn measure_suite(
    ctx: &Arc<CudaContext>,
    kernels: &[Kernel],
    scale: f64,
    mode: Option<Mode>,
) -> Result<SuiteReport, CudaError> {
    let calibration = calibrate(ctx)?;
    let instrument = Instrument {
        warmup: SUITE_WARMUP,
        budget: SUITE_BUDGET,
        rejection: Rejection {
            floor_ms: calibration.event_resolution_ms,
            ..Rejection::default()
        },
        ..Instrument::default()
    };
    let device = device_info(ctx, &calibration)?;
    let programmatic = has_programmatic_launch(device.compute_capability);
    // Every kernel's buffers first, then each kernel's mode from its pilot.
    let mut workloads = Vec::with_capacity(kernels.len());
    for &kernel in kernels {
        let sets = buffer_sets(ctx, kernel, scale)?;
        workloads.push(
            (0..sets)
                .map(|_| Workload::new(ctx, kernel, scale))
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    let mut modes = Vec::with_capacity(kernels.len());
    for (&kernel, sets) in kernels.iter().zip(&mut workloads) {
        modes.push(match mode {
            Some(m) => m,
            None => {
                let pilot_ms = pilot(ctx, &mut |s: &_| sets[0].launch(s))?;
                recommend(
                    pilot_ms,
                    kernel.traffic(sets[0].size).map(|t| t.total()),
                    device.l2_bytes,
                    programmatic,
                )
            }
        });
    }
    // One measurement per buffer set, each with its share of the kernel's
    // budget; the first warms the kernel up, the others only their own
    // buffers and replays.
    let mut launches: Vec<Vec<_>> = workloads
        .iter_mut()
        .map(|sets| sets.iter_mut().map(|w| move |s: &_| w.launch(s)).collect())
        .collect();
    let mut parts = Vec::new();
    for ((kernel_index, sets), &mode) in launches.iter_mut().enumerate().zip(&modes) {
        let n = sets.len();
        let share = Budget {
            min_samples: SUITE_BUDGET.min_samples.div_ceil(n),
            max_samples: SUITE_BUDGET.max_samples / n,
            max_gpu_ms: SUITE_BUDGET.max_gpu_ms / n as f64,
            noise_target: SUITE_BUDGET.noise_target * (n as f64).sqrt(),
        };
        for (i, launch) in sets.iter_mut().enumerate() {
            let part = Instrument {
                budget: share,
                warmup: if i == 0 { SUITE_WARMUP } else { Warmup::Count(3) },
                ..instrument
            };
            parts.push((kernel_index, part.start(ctx, mode, launch)?));
        }
    }
    sample_in_turn(&mut parts)?;
    let mut pooled: Vec<Vec<Measurement>> = kernels.iter().map(|_| Vec::new()).collect();
    for (kernel_index, part) in parts {
        pooled[kernel_index].push(part.finish()?);
    }
    let mut results = Vec::with_capacity(kernels.len());
    for ((&kernel, parts), sets) in kernels.iter().zip(pooled).zip(&workloads) {
        let buffer_sets = parts.len();
        let Some(measurement) = Measurement::pooled(parts, SUITE_BUDGET) else {
            return Err(CudaError::refused(
                file!(),
                line!(),
                "Measurement::pooled",
                "every sample was taken while the GPU was throttling",
            ));
        };
        let traffic = kernel.traffic(sets[0].size);
        let mut result = KernelResult::new(kernel.name().to_string(), scale, traffic, measurement, &calibration);
        result.buffer_sets = buffer_sets;
        results.push(result);
    }
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

/// Takes the rounds of every measurement in turn until each has stopped,
/// always the one that has spent the smallest share of its GPU-time budget
/// next. So each kernel's samples are spread over the whole run instead of
/// one window of it: a spell of a few hundred milliseconds in which the GPU
/// runs slow (the recorded runs at baa718e show them on fma-10ms, a whole
/// process's nine samples 0.3% slow with the SM clock at 1980 MHz) then
/// lands in a few samples of every kernel, not in all of one kernel's.
fn sample_in_turn<L: instrument::measure::Launch>(
    parts: &mut [(usize, Sampling<'_, L>)],
) -> Result<(), CudaError> {
    let mut open: Vec<usize> = (0..parts.len()).collect();
    while !open.is_empty() {
        let next = open
            .iter()
            .copied()
            .min_by(|&a, &b| parts[a].1.budget_spent().total_cmp(&parts[b].1.budget_spent()))
            .unwrap_or(open[0]);
        if parts[next].1.take_round()?.is_some() {
            open.retain(|&i| i != next);
        }
    }
    Ok(())
}

/// A hot median of five short samples after one warm-up launch: enough to
/// tell a 10 us kernel from a 10 ms one, which is all [`recommend`] needs.
fn pilot(ctx: &Arc<CudaContext>, launch: &mut impl instrument::measure::Launch) -> Result<f64, CudaError> {
    let quick = Instrument {
        warmup: Warmup::Count(1),
        budget: Budget {
            min_samples: 5,
            max_samples: 5,
            max_gpu_ms: f64::INFINITY,
            noise_target: 1e-9,
        },
        ..Instrument::default()
    };
    Ok(quick.measure(ctx, Mode::Hot, launch)?.summary.median)
}

fn device_info(ctx: &Arc<CudaContext>, calibration: &Calibration) -> Result<DeviceInfo, CudaError> {
    let mut driver = 0;
    // SAFETY: writes one int.
    check!(unsafe { sys::cuDriverGetVersion(&mut driver) }.result())?;
    Ok(DeviceInfo {
        name: check!(ctx.name())?,
        compute_capability: check!(ctx.compute_capability())?,
        driver_cuda_version: format!("{}.{}", driver / 1000, (driver % 1000) / 10),
        l2_bytes: check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE))? as u64,
        copy_ceiling_gb_s: calibration.copy_ceiling_gb_s,
        clocks_unavailable: None,
        cupti_unavailable: Some("the suite measures in the recommended mode only".into()),
    })
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
