//! `--stats` and `--json`: vectorAdd at full n through the measurement
//! instrument (crates/instrument), printed after the course's
//! report, which stays exactly the course's.

use std::error::Error;
use std::sync::Arc;

use cuda_check::check;
use cuda_objects::DeviceBuffer;
use cudarc::driver::sys::{self, CUdevice_attribute};
use cudarc::driver::CudaContext;
use lesson_cli::Options;
use instrument::measure::{
    copy_ceiling_gb_s, has_programmatic_launch, recommend, FirstLaunch, Instrument, Mode,
};
use instrument::report::{table, DeviceInfo, Report, Traffic};

use crate::ffi;

/// The course's single numbers this view is printed beside.
pub struct CourseNumbers {
    pub first_launch_ms: f32,
    pub mean_of_10_ms: f32,
}

/// Measures, prints the table, and writes JSON where asked.
pub fn run(
    ctx: &Arc<CudaContext>,
    options: &Options,
    host: (&[f32], &[f32]),
    elems: usize,
    course: CourseNumbers,
) -> Result<(), Box<dyn Error>> {
    let (h_a, h_b) = host;
    let mut a = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    let mut b = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    let mut out = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    check!(a.copy_from_host(&h_a[..elems]))?;
    check!(b.copy_from_host(&h_b[..elems]))?;

    let l2 = check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE))? as u64;
    let mut driver = 0;
    // SAFETY: writes one int.
    check!(unsafe { sys::cuDriverGetVersion(&mut driver) }.result())?;
    // The copy ceiling over 512 MiB, several times the L2 on any GPU here.
    let ceiling = copy_ceiling_gb_s(ctx, 512 << 20)?;

    let instrument = Instrument::default();
    let mut launch = |s: &cudarc::driver::CudaStream| ffi::vector_add(&a, &b, &mut out, elems, s);
    // The programmatic modes where the GPU has programmatic launch.
    let compute_capability = check!(ctx.compute_capability())?;
    let programmatic = has_programmatic_launch(compute_capability);
    let mut modes = vec![Mode::Hot, Mode::ColdCache, Mode::Graph];
    if programmatic {
        modes.extend([Mode::GraphPdl, Mode::Isolated]);
    }
    let mut measurements = Vec::new();
    for mode in modes {
        measurements.push(instrument.measure(ctx, mode, &mut launch)?);
    }
    // CUPTI's mode is a comparison, not the measurement: where libcupti is
    // missing or refuses (a profiling permission, another tool attached),
    // the table says why and the rest stands.
    let cupti = instrument::trace::available().and_then(|()| {
        instrument
            .measure(ctx, Mode::Cupti, &mut launch)
            .map_err(|e| e.to_string())
    });
    let cupti_unavailable = match cupti {
        Ok(m) => {
            measurements.push(m);
            None
        }
        Err(why) => Some(why),
    };

    let bytes = (elems * std::mem::size_of::<f32>()) as u64;
    let traffic = Traffic {
        bytes_read: 2 * bytes,
        bytes_written: bytes,
    };
    let hot_median = measurements[0].summary.median;
    let report = Report {
        kernel: format!("vectorAdd, n = {elems}"),
        device: DeviceInfo {
            name: check!(ctx.name())?,
            compute_capability,
            driver_cuda_version: format!("{}.{}", driver / 1000, (driver % 1000) / 10),
            l2_bytes: l2,
            copy_ceiling_gb_s: ceiling,
            // The instrument already asked NVML; no need to ask again.
            clocks_unavailable: measurements.iter().find_map(|m| m.clocks_unavailable.clone()),
            cupti_unavailable,
        },
        traffic: Some(traffic),
        first_launch: Some(FirstLaunch {
            ms: f64::from(course.first_launch_ms),
        }),
        course_mean_of_10_ms: Some(f64::from(course.mean_of_10_ms)),
        measurements,
        recommended: recommend(hot_median, Some(traffic.total()), l2, programmatic),
    };
    if options.stats {
        println!("\nThe measurement instrument (--stats), vectorAdd at full n");
        print!("{}", table(&report));
    }
    if let Some(path) = &options.json {
        std::fs::write(path, report.to_json() + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
