//! The measurement instrument: adaptive sampling in one of three modes, with
//! every sample kept, statistics, clock checks, and the GPU time it spent.
//!
//! - [`Mode::Hot`]: batches of back-to-back launches between two events, as
//!   the course times (its mean of 10 is one such batch).
//! - [`Mode::ColdCache`]: one launch per sample after the L2 has been flushed
//!   by reading a buffer twice its size ([`crate::flush`]), so it holds none
//!   of the kernel's data and nothing dirty; the flush is outside the timed
//!   region.
//! - [`Mode::Graph`]: a batch of launches captured once in a CUDA graph and
//!   replayed, which removes the host's part of the gaps between launches.
//! - [`Mode::GraphPdl`]: the same graph with its kernel-to-kernel edges made
//!   programmatic ([`crate::replay`]), so each kernel's set-up overlaps the
//!   previous kernel's run while its blocks still start only after every
//!   block of the previous one has finished (Hopper and later).
//! - [`Mode::Cupti`]: batches as in hot mode, but each launch's time is its
//!   kernels' start-to-end as CUPTI's activity records give it
//!   ([`crate::trace`]), the numbers Nsight Systems shows. Needs libcupti
//!   from the CUDA toolkit. Tracing adds work around each kernel on the GPU,
//!   so these durations come out longer than untraced ones; the mode is
//!   there to compare with a trace, not to be the reference.
//!
//! A first launch is measured on its own by [`first_launch`]; it happens once
//! per kernel per process and no sampling can repeat it.

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cuda_objects::{BlockingStream, DeviceBuffer};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};
use serde::Serialize;

use crate::clocks::{ClockMonitor, ClockReading};
use crate::flush::L2Flush;
use crate::replay::{CapturedGraph, Dependencies};
use crate::sampling::{Budget, Stop, Warmup};
use crate::stats::{summarize, Summary};
use crate::trace::{per_launch_ms, KernelTrace};

/// How samples are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    Hot,
    ColdCache,
    Graph,
    GraphPdl,
    Cupti,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hot => "hot",
            Mode::ColdCache => "cold-cache",
            Mode::Graph => "graph",
            Mode::GraphPdl => "graph-pdl",
            Mode::Cupti => "cupti",
        }
    }
}

/// One sample: milliseconds per launch, and the card's state after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sample {
    pub ms: f64,
    pub clocks: Option<ClockReading>,
    /// Left out of the statistics because the card was throttling.
    pub dropped: bool,
}

/// What one mode measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    pub mode: Mode,
    pub launches_per_sample: usize,
    pub warmup: Warmup,
    pub budget: Budget,
    pub samples: Vec<Sample>,
    /// Statistics of the samples that were not dropped.
    pub summary: Summary,
    pub stop: Stop,
    pub dropped: usize,
    /// GPU time spent: warm-up, timed samples and cache flushes, in ms.
    pub gpu_ms_spent: f64,
    /// Why the samples carry no clock readings, if they carry none.
    pub clocks_unavailable: Option<String>,
}

/// The first launch of a kernel in the process: one number, never a sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FirstLaunch {
    pub ms: f64,
}

/// Settings for [`Instrument::measure`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Instrument {
    pub warmup: Warmup,
    pub budget: Budget,
    /// The GPU time a hot sample should last, which sets how many launches
    /// it batches; at least 1 and at most 1000 launches.
    pub target_sample_ms: f64,
    /// The same for a graph: longer, because each replay has a fixed start-up
    /// cost that only a long graph spreads thin.
    pub target_graph_ms: f64,
    /// Leave out samples taken while the card was throttling.
    pub drop_throttled: bool,
}

impl Default for Instrument {
    fn default() -> Self {
        Instrument {
            warmup: Warmup::Millis(50.0),
            budget: Budget::default(),
            target_sample_ms: 0.5,
            target_graph_ms: 5.0,
            drop_throttled: true,
        }
    }
}

/// A launch the instrument can repeat: it queues one launch on the stream
/// it is given (the instrument's own, so it can capture it into a graph).
pub trait Launch: FnMut(&CudaStream) -> Result<(), CudaError> {}
impl<F: FnMut(&CudaStream) -> Result<(), CudaError>> Launch for F {}

struct Events {
    start: CudaEvent,
    stop: CudaEvent,
}

impl Events {
    fn new(ctx: &Arc<CudaContext>) -> Result<Events, CudaError> {
        let timed = Some(CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Events {
            start: check!(ctx.new_event(timed))?,
            stop: check!(ctx.new_event(timed))?,
        })
    }

    /// Milliseconds of GPU time that `work` queues on `stream`.
    fn time(
        &self,
        stream: &CudaStream,
        work: impl FnOnce() -> Result<(), CudaError>,
    ) -> Result<f64, CudaError> {
        check!(self.start.record(stream))?;
        work()?;
        check!(self.stop.record(stream))?;
        check!(self.stop.synchronize())?;
        check!(runtime::last_error())?;
        Ok(f64::from(check!(self.start.elapsed_ms(&self.stop))?))
    }
}

/// Times the first launch of a kernel: one event pair, no warm-up. Call it
/// before anything else launches that kernel.
pub fn first_launch(stream: &Arc<CudaStream>, launch: &mut impl Launch) -> Result<FirstLaunch, CudaError> {
    let events = Events::new(stream.context())?;
    Ok(FirstLaunch {
        ms: events.time(stream, || launch(stream))?,
    })
}

/// The device-to-device copy rate, counting bytes read plus bytes written:
/// the memory ceiling a memory-bound kernel is held against, measured in the
/// same process. Median of 20 copies of `bytes` after 3 warm-ups, in GB/s.
pub fn copy_ceiling_gb_s(ctx: &Arc<CudaContext>, bytes: usize) -> Result<f64, CudaError> {
    let src = check!(DeviceBuffer::<u8>::alloc(ctx, bytes))?;
    let dst = check!(DeviceBuffer::<u8>::alloc(ctx, bytes))?;
    let stream = ctx.default_stream();
    let copy = || {
        // SAFETY: both buffers hold `bytes` bytes and outlive the copy.
        check!(unsafe {
            cudarc::driver::result::memcpy_dtod_async(
                dst.device_ptr(),
                src.device_ptr(),
                bytes,
                stream.cu_stream(),
            )
        })
    };
    for _ in 0..3 {
        copy()?;
    }
    let events = Events::new(ctx)?;
    let mut ms = Vec::with_capacity(20);
    for _ in 0..20 {
        ms.push(events.time(&stream, copy)?);
    }
    let median = summarize(&ms).map_or(f64::NAN, |s| s.median);
    Ok(2.0 * bytes as f64 / (median * 1e-3) / 1e9)
}

impl Instrument {
    /// Measures `launch` in `mode` until the budget says stop.
    pub fn measure(
        &self,
        ctx: &Arc<CudaContext>,
        mode: Mode,
        launch: &mut impl Launch,
    ) -> Result<Measurement, CudaError> {
        if let Err(e) = self.budget.validate() {
            return Err(CudaError::refused(file!(), line!(), "Instrument::measure", e));
        }
        let owned = check!(BlockingStream::create(ctx))?;
        let stream = owned.stream();
        let events = Events::new(ctx)?;
        let monitor = ClockMonitor::new(&check!(ctx.uuid())?.bytes.map(|b| b as u8));
        let mut gpu_ms = 0.0;
        // On before the warm-up, so whatever CUPTI sets up on the first
        // traced launch is warmed up too.
        let mut trace = match mode {
            Mode::Cupti => Some(KernelTrace::start(stream)?),
            _ => None,
        };

        // Warm up, and learn one launch's time to size the batches.
        let mut one = events.time(stream, || launch(stream))?;
        gpu_ms += one;
        match self.warmup {
            Warmup::Count(n) => {
                for _ in 1..n {
                    one = events.time(stream, || launch(stream))?;
                    gpu_ms += one;
                }
            }
            Warmup::Millis(limit) => {
                let mut spent = one;
                while spent < limit {
                    one = events.time(stream, || launch(stream))?;
                    spent += one;
                }
                gpu_ms += spent - one;
            }
        }
        let per_launch = |target: f64| ((target / one.max(1e-6)).ceil() as usize).clamp(1, 1000);
        let batch = match mode {
            Mode::ColdCache => 1,
            Mode::Hot | Mode::Cupti => per_launch(self.target_sample_ms),
            Mode::Graph | Mode::GraphPdl => per_launch(self.target_graph_ms),
        };
        if let Some(t) = &mut trace {
            t.discard()?;
        }

        // Mode-specific preparation.
        let flush = match mode {
            Mode::ColdCache => Some(L2Flush::new(ctx)?),
            _ => None,
        };
        let graph = match mode {
            Mode::Graph | Mode::GraphPdl => {
                let dependencies = if mode == Mode::GraphPdl {
                    Dependencies::Programmatic
                } else {
                    Dependencies::Full
                };
                let graph = CapturedGraph::capture(stream, batch, dependencies, launch)?;
                // Replays have their own first-time costs: warm those too.
                gpu_ms += events.time(stream, || graph.launch(stream))?;
                Some(graph)
            }
            _ => None,
        };

        let flush_start = check!(ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))?;
        let mut samples: Vec<Sample> = Vec::new();
        let mut kept: Vec<f64> = Vec::new();
        let stop = loop {
            // The flush is queued just before the start event and not waited
            // for: the device stays busy while the host queues the launch, so
            // the sample holds the kernel on a cold L2 and no host latency.
            if let Some(f) = &flush {
                check!(flush_start.record(stream))?;
                f.queue(stream)?;
            }
            let total = match &graph {
                Some(g) => events.time(stream, || g.launch(stream))?,
                None => events.time(stream, || {
                    for _ in 0..batch {
                        launch(stream)?;
                    }
                    Ok(())
                })?,
            };
            if flush.is_some() {
                // Outside the timed region, but GPU time all the same.
                gpu_ms += f64::from(check!(flush_start.elapsed_ms(&events.start))?);
            }
            gpu_ms += total;
            let clocks = monitor.read();
            let dropped = self.drop_throttled && clocks.as_ref().is_some_and(|c| c.throttled);
            // One sample per batch, its mean; with CUPTI, one per launch.
            let batch_ms = match &mut trace {
                Some(t) => per_launch_ms(&t.take()?, batch)
                    .map_err(|why| CudaError::refused(file!(), line!(), "KernelTrace::take", why))?,
                None => vec![total / batch as f64],
            };
            for ms in batch_ms {
                if !dropped {
                    kept.push(ms);
                }
                samples.push(Sample {
                    ms,
                    clocks: clocks.clone(),
                    dropped,
                });
            }
            // Every sample counts against the budgets, kept or not.
            if let Some(stop) = self.budget.decide(&kept, gpu_ms) {
                break stop;
            }
            if samples.len() >= self.budget.max_samples {
                break Stop::SampleBudget;
            }
        };
        drop(trace);
        let dropped = samples.iter().filter(|s| s.dropped).count();
        let Some(summary) = summarize(&kept) else {
            return Err(CudaError::refused(
                file!(),
                line!(),
                "Instrument::measure",
                format!(
                    "all {} samples were taken while the GPU was throttling",
                    samples.len()
                ),
            ));
        };
        Ok(Measurement {
            mode,
            launches_per_sample: if mode == Mode::Cupti { 1 } else { batch },
            warmup: self.warmup,
            budget: self.budget,
            samples,
            summary,
            stop,
            dropped,
            gpu_ms_spent: gpu_ms,
            clocks_unavailable: monitor.unavailable.clone(),
        })
    }
}

/// Which mode to trust for a kernel: cold-cache where the data the caller
/// declares fits in the L2, since a hot loop would then time the cache;
/// otherwise, under 1 ms, where launch gaps would be a visible share of each
/// launch, graph replay, with programmatic dependencies where the GPU has
/// them (compute capability 9.0 and later); hot back-to-back for longer
/// kernels. CUPTI's mode is never the pick: tracing adds work around every
/// kernel on the GPU (evidence/instrument/README.md has the measurements).
pub fn recommend(
    median_ms: f64,
    bytes_touched: Option<u64>,
    l2_bytes: u64,
    programmatic_launch: bool,
) -> Mode {
    match bytes_touched {
        Some(b) if b <= l2_bytes => Mode::ColdCache,
        _ if median_ms < 1.0 && programmatic_launch => Mode::GraphPdl,
        _ if median_ms < 1.0 => Mode::Graph,
        _ => Mode::Hot,
    }
}

/// Whether a device of this compute capability has programmatic dependent
/// launch, which [`Mode::GraphPdl`] needs.
pub fn has_programmatic_launch(compute_capability: (i32, i32)) -> bool {
    compute_capability.0 >= 9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_kernels_on_big_data_get_graph_replay_programmatic_where_possible() {
        assert_eq!(
            recommend(0.057, Some(201_000_000), 60 << 20, true),
            Mode::GraphPdl
        );
        assert_eq!(recommend(0.057, Some(201_000_000), 60 << 20, false), Mode::Graph);
        assert_eq!(recommend(0.01, None, 60 << 20, false), Mode::Graph);
    }

    #[test]
    fn long_kernels_get_hot_and_cache_sized_data_gets_cold() {
        assert_eq!(recommend(5.0, Some(1 << 30), 60 << 20, true), Mode::Hot);
        assert_eq!(recommend(5.0, None, 60 << 20, false), Mode::Hot);
        assert_eq!(recommend(0.01, Some(4 << 20), 60 << 20, true), Mode::ColdCache);
    }

    #[test]
    fn programmatic_launch_starts_with_hopper() {
        assert!(has_programmatic_launch((9, 0)));
        assert!(has_programmatic_launch((10, 0)));
        assert!(!has_programmatic_launch((8, 9)));
    }
}
