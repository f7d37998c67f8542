//! What the instrument can resolve, measured in the process that measures:
//! the event timer's resolution, the floors of an empty launch and an empty
//! graph replay, the host's wake-up from a synchronise, the device-to-device
//! copy rate, and the memory's peak from the device's attributes. [`flags`]
//! holds a result against them: a median under ten timer ticks, or traffic
//! faster than the memory ceiling, is not trusted silently.

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::{timing_event, BlockingStream, DeviceBuffer, EventPair, LoadedKernel};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaStream};
use robust_stats::stats::summarize;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::modes::setup::timed_ms;
use crate::reject::DOCUMENTED_EVENT_RESOLUTION_MS;
use crate::replay::{CapturedGraph, Dependencies};

/// An empty kernel for the launch floors.
const EMPTY_PTX: &std::ffi::CStr = c"
.version 7.0
.target sm_70
.address_size 64

.visible .entry calibrate_empty()
{
    ret;
}
";

/// Event pairs per floor; enough distinct readings to see the timer's tick.
const PAIRS: usize = 200;
/// The bytes the cudaMemcpy rate copies: several times the L2 of any GPU here.
const CEILING_BYTES: usize = 512 << 20;

/// The process's own view of what it can resolve. Times are in ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// The smallest step between distinct event readings seen here, or the
    /// documented 0.5 us where every reading was the same.
    pub event_resolution_ms: f64,
    /// Whether `event_resolution_ms` was measured here (not documented).
    pub resolution_measured: bool,
    /// Median of event pairs around one launch of an empty one-block kernel.
    /// Measured after the samples ([`after_samples`]), 0 until then.
    pub empty_launch_ms: f64,
    /// Median of event pairs around one replay of a graph of that launch.
    pub graph_launch_ms: f64,
    /// Median time on the GPU between an event the host synchronised on and
    /// the next event the host recorded: its wake-up plus one submission.
    /// Measured after the samples, 0 until then.
    pub sync_wakeup_ms: f64,
    /// Device-to-device copy rate (cudaMemcpy), read plus written, in GB/s.
    /// Not a ceiling on its own: a kernel's vectorised copy can beat it (the
    /// suite's copy-1gib does, in the recorded `modes` transcripts).
    /// Measured after the samples, 0 until then.
    pub copy_ceiling_gb_s: f64,
    /// The memory's theoretical peak, memory clock x bus width x 2 (double
    /// data rate), in GB/s: `None` where the device reports no clock or width.
    pub memory_peak_gb_s: Option<f64>,
}

impl Calibration {
    /// The rate no traffic can exceed: the memory's peak, or the measured
    /// copy where the device gives no peak (or, should the attributes
    /// understate it, the copy when it is faster).
    pub fn ceiling_gb_s(&self) -> f64 {
        self.memory_peak_gb_s
            .map_or(self.copy_ceiling_gb_s, |p| p.max(self.copy_ceiling_gb_s))
    }
}

/// The theoretical peak of a memory clocked at `clock_khz` (as
/// `CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE` gives it) on a bus of `bus_bits`:
/// two transfers a clock, in GB/s. `None` when either is zero.
pub fn memory_peak_gb_s(clock_khz: u64, bus_bits: u64) -> Option<f64> {
    (clock_khz > 0 && bus_bits > 0).then(|| clock_khz as f64 * 1e3 * 2.0 * (bus_bits as f64 / 8.0) / 1e9)
}

/// A result the calibration says not to trust as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flag {
    /// The median is under ten ticks of the event timer.
    BelowTenTimerTicks,
    /// The declared traffic at the median moves faster than the memory
    /// ceiling ([`Calibration::ceiling_gb_s`]).
    AboveMemoryCeiling,
}

impl Flag {
    pub fn text(self) -> &'static str {
        match self {
            Flag::BelowTenTimerTicks => "under 10 timer ticks",
            Flag::AboveMemoryCeiling => "above the memory ceiling",
        }
    }
}

/// The flags a median of `median_ms` earns against `calibration`, moving
/// `gb_s` at that median when the caller declared its traffic.
pub fn flags(median_ms: f64, gb_s: Option<f64>, calibration: &Calibration) -> Vec<Flag> {
    let mut out = Vec::new();
    if median_ms.is_nan() || median_ms < 10.0 * calibration.event_resolution_ms {
        out.push(Flag::BelowTenTimerTicks);
    }
    if gb_s.is_some_and(|g| g > calibration.ceiling_gb_s()) {
        out.push(Flag::AboveMemoryCeiling);
    }
    out
}

/// The smallest positive step between distinct `readings`: the tick of the
/// clock they were read from, given enough of them. `None` when they hold
/// fewer than two distinct values.
pub fn resolution(readings: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = readings.iter().copied().filter(|x| x.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    sorted
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|&gap| gap > 0.0)
        .min_by(f64::total_cmp)
}

/// Measures what the samples need on `ctx`'s device: the timer's tick, from
/// a few hundred replays of a graph of one empty launch, well under a
/// second; and reads the memory's clock and bus width. The rest waits for
/// [`after_samples`]: on the H200, a process that has submitted two kinds of
/// work outside graphs (an empty kernel's launches, another kernel's, a
/// copy) replays every graph 0.17 us a launch slower from then on
/// (kernel-timer's gpu/floor-gap.cu and README), so before its samples the
/// process submits nothing outside graphs but the caller's kernel.
pub fn calibrate(ctx: &Arc<CudaContext>) -> Result<Calibration, Error> {
    let bench = Bench::new(ctx)?;
    let stream = bench.owned.stream();
    let graph = CapturedGraph::capture(stream, 1, Dependencies::Full, &mut |s| bench.launch(s))?;
    let replays = repeat(|| timed_ms(&bench.events, stream, || graph.launch(stream)))?;
    let measured = resolution(&replays);
    Ok(Calibration {
        event_resolution_ms: measured.unwrap_or(DOCUMENTED_EVENT_RESOLUTION_MS),
        resolution_measured: measured.is_some(),
        empty_launch_ms: 0.0,
        graph_launch_ms: median(&replays),
        sync_wakeup_ms: 0.0,
        copy_ceiling_gb_s: 0.0,
        memory_peak_gb_s: device_memory_peak_gb_s(ctx)?,
    })
}

/// Measures into `calibration` what [`calibrate`] leaves for after the
/// samples: an empty launch's floor and the host's wake-up (each from
/// [`PAIRS`] readings) and twenty 512 MiB copies.
pub fn after_samples(ctx: &Arc<CudaContext>, calibration: &mut Calibration) -> Result<(), Error> {
    let bench = Bench::new(ctx)?;
    let stream = bench.owned.stream();
    calibration.empty_launch_ms = median(&repeat(|| {
        timed_ms(&bench.events, stream, || bench.launch(stream))
    })?);
    calibration.sync_wakeup_ms = median(&repeat(|| sync_wakeup(ctx, stream, &mut |s| bench.launch(s)))?);
    calibration.copy_ceiling_gb_s = copy_ceiling_gb_s(ctx, CEILING_BYTES)?;
    Ok(())
}

/// What both halves of the calibration time with: a blocking stream of
/// their own, the empty kernel and an event pair.
struct Bench {
    owned: BlockingStream,
    empty: LoadedKernel,
    events: EventPair,
}

impl Bench {
    fn new(ctx: &Arc<CudaContext>) -> Result<Bench, Error> {
        let owned = check!(BlockingStream::create(ctx))?;
        check!(ctx.bind_to_thread())?;
        Ok(Bench {
            owned,
            empty: LoadedKernel::from_ptx(ctx, EMPTY_PTX, c"calibrate_empty")?,
            events: EventPair::new(ctx)?,
        })
    }

    /// One launch of the empty kernel on `stream`.
    fn launch(&self, stream: &CudaStream) -> Result<(), CudaError> {
        // SAFETY: the kernel takes no parameters.
        unsafe { self.empty.launch(1, 32, &mut [], stream) }
    }
}

/// The device-to-device copy rate, counting bytes read plus bytes written:
/// the memory ceiling a memory-bound kernel is held against, measured in the
/// same process. Median of 20 copies of `bytes` after 3 warm-ups, in GB/s.
pub fn copy_ceiling_gb_s(ctx: &Arc<CudaContext>, bytes: usize) -> Result<f64, CudaError> {
    let src = check!(DeviceBuffer::<u8>::alloc(ctx, bytes))?;
    let mut dst = check!(DeviceBuffer::<u8>::alloc(ctx, bytes))?;
    let stream = ctx.default_stream();
    let mut copy = || check!(dst.copy_from_device_async(&src, &stream));
    for _ in 0..3 {
        copy()?;
    }
    let events = EventPair::new(ctx)?;
    let mut ms = Vec::with_capacity(20);
    for _ in 0..20 {
        ms.push(timed_ms(&events, &stream, &mut copy)?);
    }
    Ok(2.0 * bytes as f64 / (median(&ms) * 1e-3) / 1e9)
}

/// [`memory_peak_gb_s`] of `ctx`'s device, from its memory clock and bus
/// width attributes.
pub fn device_memory_peak_gb_s(ctx: &Arc<CudaContext>) -> Result<Option<f64>, CudaError> {
    Ok(memory_peak_gb_s(
        attribute(ctx, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)?,
        attribute(
            ctx,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
        )?,
    ))
}

/// A device attribute that is a count, a negative value read as zero.
fn attribute(ctx: &Arc<CudaContext>, which: CUdevice_attribute) -> Result<u64, CudaError> {
    Ok(u64::try_from(check!(ctx.attribute(which))?).unwrap_or(0))
}

/// [`PAIRS`] readings of `read`, after ten untimed ones.
fn repeat(mut read: impl FnMut() -> Result<f64, CudaError>) -> Result<Vec<f64>, CudaError> {
    for _ in 0..10 {
        read()?;
    }
    (0..PAIRS).map(|_| read()).collect()
}

fn median(values: &[f64]) -> f64 {
    summarize(values).map_or(f64::NAN, |s| s.median)
}

/// The GPU time from an event the host waited for to the next one it
/// records: the host's wake-up from the wait, and the record's trip back.
fn sync_wakeup(
    ctx: &Arc<CudaContext>,
    stream: &CudaStream,
    launch: &mut impl FnMut(&CudaStream) -> Result<(), CudaError>,
) -> Result<f64, CudaError> {
    let (waited, next) = (timing_event(ctx)?, timing_event(ctx)?);
    launch(stream)?;
    check!(waited.record(stream))?;
    check!(waited.synchronize())?;
    check!(next.record(stream))?;
    check!(next.synchronize())?;
    Ok(f64::from(check!(waited.elapsed_ms(&next))?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calibration() -> Calibration {
        Calibration {
            event_resolution_ms: 0.000032,
            resolution_measured: true,
            empty_launch_ms: 0.002,
            graph_launch_ms: 0.003,
            sync_wakeup_ms: 0.01,
            copy_ceiling_gb_s: 4000.0,
            memory_peak_gb_s: None,
        }
    }

    #[test]
    fn the_memory_peak_is_clock_times_bus_width_times_two() {
        // The H200's attributes: 3201 MHz (in kHz) on a 6144-bit bus.
        let peak = memory_peak_gb_s(3_201_000, 6144).unwrap();
        assert!((peak - 4916.7).abs() < 0.1, "{peak}");
        assert_eq!(memory_peak_gb_s(0, 6144), None, "no clock, no peak");
        assert_eq!(memory_peak_gb_s(3_201_000, 0), None);
    }

    #[test]
    fn a_copy_faster_than_cudamemcpy_but_under_the_peak_is_not_flagged() {
        // A vec4 copy faster than cudaMemcpy, as the suite's copy-1gib is on
        // the H200, with both under the memory's peak.
        let c = Calibration {
            copy_ceiling_gb_s: 4094.75,
            memory_peak_gb_s: Some(4916.7),
            ..calibration()
        };
        assert_eq!(c.ceiling_gb_s(), 4916.7);
        assert_eq!(flags(0.4988, Some(4305.0), &c), []);
        assert_eq!(flags(0.4988, Some(4916.8), &c), [Flag::AboveMemoryCeiling]);
        let measured_only = calibration();
        assert_eq!(measured_only.ceiling_gb_s(), 4000.0, "no peak: the copy");
    }

    #[test]
    fn the_resolution_is_the_smallest_step_between_distinct_readings() {
        let tick = 0.000032;
        let readings: Vec<f64> = [5u32, 9, 5, 7, 12, 6, 9]
            .iter()
            .map(|&k| f64::from(k) * tick)
            .collect();
        let r = resolution(&readings).unwrap();
        assert!((r - tick).abs() < 1e-12, "{r}");
        assert_eq!(resolution(&[0.002; 10]), None, "one distinct value shows no step");
        assert_eq!(resolution(&[]), None);
        assert_eq!(resolution(&[f64::NAN, 1.0]), None, "NaN is no reading");
    }

    #[test]
    fn a_median_under_ten_ticks_is_flagged() {
        let c = calibration();
        assert_eq!(flags(0.000319, None, &c), [Flag::BelowTenTimerTicks]);
        assert_eq!(flags(0.00032, None, &c), []);
        assert_eq!(flags(-0.1, None, &c), [Flag::BelowTenTimerTicks]);
        assert_eq!(flags(f64::NAN, None, &c), [Flag::BelowTenTimerTicks]);
    }

    #[test]
    fn faster_than_the_copy_ceiling_is_flagged() {
        let c = calibration();
        assert_eq!(flags(0.057, Some(4000.1), &c), [Flag::AboveMemoryCeiling]);
        assert_eq!(flags(0.057, Some(4000.0), &c), [], "at the ceiling is possible");
        assert_eq!(
            flags(0.0001, Some(9000.0), &c),
            [Flag::BelowTenTimerTicks, Flag::AboveMemoryCeiling]
        );
    }
}
