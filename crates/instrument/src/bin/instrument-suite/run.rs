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
use instrument::measure::{has_programmatic_launch, recommend, Instrument, Mode};
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
    let mut results = Vec::with_capacity(kernels.len());
    for &kernel in kernels {
        let mut workload = Workload::new(ctx, kernel, scale)?;
        let traffic = kernel.traffic(workload.size);
        let mut launch = |s: &_| workload.launch(s);
        let mode = match mode {
            Some(m) => m,
            None => {
                let pilot_ms = pilot(ctx, &mut launch)?;
                recommend(
                    pilot_ms,
                    traffic.map(|t| t.total()),
                    device.l2_bytes,
                    programmatic,
                )
            }
        };
        let measurement = instrument.measure(ctx, mode, &mut launch)?;
        results.push(KernelResult::new(
            kernel.name().to_string(),
            scale,
            traffic,
            measurement,
            &calibration,
        ));
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
