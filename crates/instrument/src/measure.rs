//! The measurement instrument: adaptive sampling in one of six modes, with
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
//! - [`Mode::Isolated`]: one launch alone on a clean L2, with no launch
//!   latency and none of its own write-back in the sample: the conditions of
//!   Nsight Compute's `gpu__time_duration`. Each sample is the difference
//!   between a replay of [L2 flush, then the launch through a programmatic
//!   edge] and a replay of the flush alone, each after an untimed flush
//!   (Hopper and later). The subtraction also takes out the flush's own
//!   completion, which the first replay overlaps with the launch; on the
//!   H200 the result sits within 0.4% of ncu's (evidence/instrument/).
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
    Isolated,
    Cupti,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hot => "hot",
            Mode::ColdCache => "cold-cache",
            Mode::Graph => "graph",
            Mode::GraphPdl => "graph-pdl",
            Mode::Isolated => "isolated",
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

/// How one mode takes its samples: the mode's prepared state, and one round
/// of sampling that returns the samples it took, in ms per launch.
enum Sampler {
    Hot {
        batch: usize,
    },
    Cupti {
        batch: usize,
        trace: KernelTrace,
    },
    ColdCache {
        flush: L2Flush,
        flush_start: CudaEvent,
    },
    Graph {
        batch: usize,
        graph: CapturedGraph,
    },
    Isolated {
        /// Kept alive for the graphs, which launch its kernel.
        _flush: L2Flush,
        flush_only: CapturedGraph,
        flush_then_launch: CapturedGraph,
    },
}

impl Sampler {
    fn launches_per_sample(&self) -> usize {
        match self {
            Sampler::Hot { batch } | Sampler::Graph { batch, .. } => *batch,
            Sampler::Cupti { .. } | Sampler::ColdCache { .. } | Sampler::Isolated { .. } => 1,
        }
    }

    fn take(
        &mut self,
        stream: &CudaStream,
        events: &Events,
        launch: &mut impl Launch,
        gpu_ms: &mut f64,
    ) -> Result<Vec<f64>, CudaError> {
        let batch_of = |batch: usize, launch: &mut dyn FnMut(&CudaStream) -> Result<(), CudaError>| {
            events.time(stream, || {
                for _ in 0..batch {
                    launch(stream)?;
                }
                Ok(())
            })
        };
        match self {
            Sampler::Hot { batch } => {
                let total = batch_of(*batch, launch)?;
                *gpu_ms += total;
                Ok(vec![total / *batch as f64])
            }
            Sampler::Cupti { batch, trace } => {
                *gpu_ms += batch_of(*batch, launch)?;
                per_launch_ms(&trace.take()?, *batch)
                    .map_err(|why| CudaError::refused(file!(), line!(), "KernelTrace::take", why))
            }
            Sampler::ColdCache { flush, flush_start } => {
                // The flush is queued just before the start event and not
                // waited for: the device stays busy while the host queues the
                // launch, so the sample holds the kernel on a cold L2 and no
                // host latency.
                check!(flush_start.record(stream))?;
                flush.queue(stream)?;
                let total = events.time(stream, || launch(stream))?;
                // The flush is outside the timed region, but GPU time all the same.
                *gpu_ms += total + f64::from(check!(flush_start.elapsed_ms(&events.start))?);
                Ok(vec![total])
            }
            Sampler::Graph { batch, graph } => {
                let total = events.time(stream, || graph.launch(stream))?;
                *gpu_ms += total;
                Ok(vec![total / *batch as f64])
            }
            Sampler::Isolated {
                flush_only,
                flush_then_launch,
                ..
            } => {
                // Each timed replay follows an untimed flush, queued just
                // before it so the device never idles: both start on an L2
                // that holds only the flush's clean lines, with whatever the
                // previous launch left dirty already written back. What
                // differs is the launch after the timed flush, which starts
                // as the flush's last block exits (a programmatic edge) and
                // whose own dirty lines are left in the L2 when the clock
                // stops.
                flush_only.launch(stream)?;
                let without = events.time(stream, || flush_only.launch(stream))?;
                flush_only.launch(stream)?;
                let with = events.time(stream, || flush_then_launch.launch(stream))?;
                // The untimed flushes take as long as the timed one.
                *gpu_ms += 3.0 * without + with;
                Ok(vec![with - without])
            }
        }
    }
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
        let trace = match mode {
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
        let mut sampler = match mode {
            Mode::Hot => Sampler::Hot {
                batch: per_launch(self.target_sample_ms),
            },
            Mode::Cupti => {
                let Some(mut trace) = trace else {
                    return Err(CudaError::refused(
                        file!(),
                        line!(),
                        "Instrument::measure",
                        "the kernel trace was not started",
                    ));
                };
                trace.discard()?;
                Sampler::Cupti {
                    batch: per_launch(self.target_sample_ms),
                    trace,
                }
            }
            Mode::ColdCache => Sampler::ColdCache {
                flush: L2Flush::new(ctx)?,
                flush_start: check!(ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))?,
            },
            Mode::Graph | Mode::GraphPdl => {
                let dependencies = if mode == Mode::GraphPdl {
                    Dependencies::Programmatic
                } else {
                    Dependencies::Full
                };
                let batch = per_launch(self.target_graph_ms);
                let graph = CapturedGraph::capture(stream, batch, dependencies, launch)?;
                // Replays have their own first-time costs: warm those too.
                gpu_ms += events.time(stream, || graph.launch(stream))?;
                Sampler::Graph { batch, graph }
            }
            Mode::Isolated => {
                let flush = L2Flush::new(ctx)?;
                let flush_only =
                    CapturedGraph::capture(stream, 1, Dependencies::Full, &mut |s| flush.queue(s))?;
                let flush_then_launch =
                    CapturedGraph::capture(stream, 1, Dependencies::Programmatic, &mut |s| {
                        flush.queue(s)?;
                        launch(s)
                    })?;
                if !flush_then_launch.first_edge_programmatic {
                    return Err(CudaError::refused(
                        file!(),
                        line!(),
                        "Instrument::measure",
                        "isolated mode needs a launch that starts with a kernel launch (the flush joins it through a programmatic edge)",
                    ));
                }
                for g in [&flush_only, &flush_then_launch] {
                    gpu_ms += events.time(stream, || g.launch(stream))?;
                }
                Sampler::Isolated {
                    _flush: flush,
                    flush_only,
                    flush_then_launch,
                }
            }
        };

        let mut samples: Vec<Sample> = Vec::new();
        let mut kept: Vec<f64> = Vec::new();
        let stop = loop {
            let taken = sampler.take(stream, &events, launch, &mut gpu_ms)?;
            let clocks = monitor.read();
            let dropped = self.drop_throttled && clocks.as_ref().is_some_and(|c| c.throttled);
            for ms in taken {
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
        let launches_per_sample = sampler.launches_per_sample();
        drop(sampler);
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
            launches_per_sample,
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

/// Which mode to trust for a kernel. With programmatic dependent launch
/// (compute capability 9.0 and later), kernels under 1 ms get the isolated
/// mode: the kernel alone on a clean L2, as Nsight Compute times it, where
/// launch gaps and the previous launch's write-back would otherwise be a
/// visible share of each sample. Without it: cold-cache where the data the
/// caller declares fits in the L2 (a hot loop would time the cache), graph
/// replay under 1 ms, hot back-to-back for longer kernels, where the gaps
/// are a small share. CUPTI's mode is never the pick: tracing adds work
/// around every kernel on the GPU (evidence/instrument/README.md).
pub fn recommend(
    median_ms: f64,
    bytes_touched: Option<u64>,
    l2_bytes: u64,
    programmatic_launch: bool,
) -> Mode {
    let fits_l2 = bytes_touched.is_some_and(|b| b <= l2_bytes);
    match () {
        _ if programmatic_launch && (median_ms < 1.0 || fits_l2) => Mode::Isolated,
        _ if fits_l2 => Mode::ColdCache,
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
    fn short_kernels_get_the_isolated_mode_where_there_is_programmatic_launch() {
        assert_eq!(
            recommend(0.057, Some(201_000_000), 60 << 20, true),
            Mode::Isolated
        );
        assert_eq!(recommend(0.01, None, 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(4 << 20), 60 << 20, true), Mode::Isolated);
    }

    #[test]
    fn without_it_short_kernels_get_graph_replay_and_cache_sized_data_cold_cache() {
        assert_eq!(recommend(0.057, Some(201_000_000), 60 << 20, false), Mode::Graph);
        assert_eq!(recommend(0.01, None, 60 << 20, false), Mode::Graph);
        assert_eq!(recommend(0.01, Some(4 << 20), 60 << 20, false), Mode::ColdCache);
    }

    #[test]
    fn long_kernels_on_big_data_get_hot() {
        assert_eq!(recommend(5.0, Some(1 << 30), 60 << 20, true), Mode::Hot);
        assert_eq!(recommend(5.0, None, 60 << 20, false), Mode::Hot);
    }

    #[test]
    fn programmatic_launch_starts_with_hopper() {
        assert!(has_programmatic_launch((9, 0)));
        assert!(has_programmatic_launch((10, 0)));
        assert!(!has_programmatic_launch((8, 9)));
    }
}
