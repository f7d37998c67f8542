//! `--stats` and `--json`: vectorAdd at full n through the measurement
//! instrument (crates/measure/instrument), printed after the course's report, which
//! stays exactly the course's.
//!
//! Not for: the course's own timings (main.rs, with `time-kernel`), or
//! parsing the command line (main.rs claims the JSON file before the course's
//! report runs, so a bad path costs no GPU time).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, DeviceFacts};
use cudarc::driver::{CudaContext, CudaStream};
use instrument::calibrate::{copy_ceiling_gb_s, device_memory_peak_gb_s};
use instrument::json_out::{JsonOut, JsonOutError};
use instrument::measure::{FirstLaunch, Instrument, Measurement};
use instrument::recommend::recommend;
use instrument::reject::MemoryFloor;
use instrument::report::{table, DeviceInfo, Report};
use instrument::{has_programmatic_launch, Launch, Mode, Traffic};

use crate::ffi;

/// The course's single numbers this view is printed beside.
pub struct CourseNumbers {
    pub first_launch_ms: f32,
    pub mean_of_10_ms: f32,
}

/// Why the instrument's view could not be made: a CUDA call, the
/// instrument's own refusal, or the JSON file.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error(transparent)]
    Instrument(instrument::Error),
    #[error(transparent)]
    Json(#[from] JsonOutError),
}

impl From<instrument::Error> for StatsError {
    /// A CUDA call the instrument made keeps its own type, as the lesson's do.
    fn from(e: instrument::Error) -> StatsError {
        match e {
            instrument::Error::Cuda(cuda) => StatsError::Cuda(cuda),
            other => StatsError::Instrument(other),
        }
    }
}

/// Measures; prints the table when `print_table`; writes every sample as JSON
/// into `json`, a file its caller claimed before measuring, when given.
pub fn run(
    ctx: &Arc<CudaContext>,
    print_table: bool,
    json: Option<JsonOut>,
    host: (&[f32], &[f32]),
    elems: usize,
    course: CourseNumbers,
) -> Result<(), StatsError> {
    let (h_a, h_b) = host;
    let mut a = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    let mut b = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    let mut out = check!(DeviceBuffer::<f32>::alloc(ctx, elems))?;
    check!(a.copy_from_host(&h_a[..elems]))?;
    check!(b.copy_from_host(&h_b[..elems]))?;
    let device = Device::query(ctx)?;

    let bytes = (elems * std::mem::size_of::<f32>()) as u64;
    let traffic = Traffic {
        bytes_read: 2 * bytes,
        bytes_written: bytes,
    };
    // Samples faster than vectorAdd's bytes can cross the memory are
    // rejected (issue 36 found one at 2.2 times the H200's peak).
    let instrument = Instrument {
        memory_floor: Some(MemoryFloor {
            traffic,
            l2_bytes: device.facts.l2_bytes,
            peak_gb_s: device.peak_gb_s(),
        }),
        ..Instrument::default()
    };

    let mut launch = |s: &CudaStream| ffi::vector_add(&a, &b, &mut out, elems, s);
    let programmatic = programmatic_modes(&device.facts);
    let mut measurements = measure_modes(ctx, &instrument, programmatic, &mut launch)?;
    let cupti_unavailable = match measure_cupti(ctx, &instrument, &mut launch) {
        Ok(m) => {
            measurements.push(m);
            None
        }
        Err(why) => Some(why.to_string()),
    };

    let hot_median = measurements[0].summary.median;
    let l2_bytes = device.facts.l2_bytes;
    let report = Report {
        kernel: format!("vectorAdd, n = {elems}"),
        device: device.info(&measurements, cupti_unavailable),
        traffic: Some(traffic),
        first_launch: Some(FirstLaunch {
            ms: f64::from(course.first_launch_ms),
        }),
        course_mean_of_10_ms: Some(f64::from(course.mean_of_10_ms)),
        recommended: recommend(hot_median, Some(traffic.total()), l2_bytes, programmatic),
        measurements,
    };
    if print_table {
        println!("\nThe measurement instrument (--stats), vectorAdd at full n");
        print!("{}", table(&report));
    }
    if let Some(json) = json {
        json.write(&report)?;
    }
    Ok(())
}

/// What the report says about the device, asked before any measurement.
struct Device {
    facts: DeviceFacts,
    copy_ceiling_gb_s: f64,
    /// The memory's theoretical peak from the device's attributes.
    memory_peak_gb_s: Option<f64>,
}

impl Device {
    fn query(ctx: &Arc<CudaContext>) -> Result<Device, CudaError> {
        let facts = DeviceFacts::query(ctx)?;
        // The copy ceiling over 512 MiB, several times the L2 on any GPU here.
        let copy_ceiling_gb_s = copy_ceiling_gb_s(ctx, 512 << 20)?;
        Ok(Device {
            facts,
            copy_ceiling_gb_s,
            memory_peak_gb_s: device_memory_peak_gb_s(ctx)?,
        })
    }

    /// The rate no traffic can exceed: the peak, or the measured copy where
    /// that is faster or there is no peak (the calibration's rule).
    fn peak_gb_s(&self) -> f64 {
        self.memory_peak_gb_s
            .map_or(self.copy_ceiling_gb_s, |p| p.max(self.copy_ceiling_gb_s))
    }

    fn info(self, measurements: &[Measurement], cupti_unavailable: Option<String>) -> DeviceInfo {
        // The instrument already asked NVML; no need to ask again.
        let clocks_unavailable = measurements.iter().find_map(|m| m.clocks_unavailable.clone());
        DeviceInfo::new(
            self.facts,
            self.copy_ceiling_gb_s,
            clocks_unavailable,
            cupti_unavailable,
        )
    }
}

/// Whether to measure (and recommend) the programmatic modes: the GPU must
/// have programmatic launch and the driver the graph calls those modes make
/// (the driver version is asked before any graph is captured; the table's
/// last lines say which modes an older driver leaves out, and why).
fn programmatic_modes(facts: &DeviceFacts) -> bool {
    has_programmatic_launch(facts.compute_capability)
        && instrument::driver::runs(Mode::GraphPdl, facts.driver)
}

/// Hot, cold-cache and graph, and the programmatic modes where the GPU and
/// its driver have programmatic launch, in that order.
fn measure_modes(
    ctx: &Arc<CudaContext>,
    instrument: &Instrument,
    programmatic: bool,
    launch: &mut impl Launch,
) -> Result<Vec<Measurement>, instrument::Error> {
    let mut modes = vec![Mode::Hot, Mode::ColdCache, Mode::Graph];
    if programmatic {
        modes.extend([Mode::GraphPdl, Mode::Isolated]);
    }
    modes
        .into_iter()
        .map(|mode| instrument.measure(ctx, mode, launch))
        .collect()
}

/// CUPTI's mode is a comparison, not the measurement: where libcupti is
/// missing or refuses (a profiling permission, another tool attached), the
/// table says why and the rest stands.
fn measure_cupti(
    ctx: &Arc<CudaContext>,
    instrument: &Instrument,
    launch: &mut impl Launch,
) -> Result<Measurement, instrument::Error> {
    instrument::cupti_available()?;
    instrument.measure(ctx, Mode::Cupti, launch)
}
