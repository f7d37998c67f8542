//! The measurement instrument: adaptive sampling in one of seven modes, with
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
//!   H200 the result sits within 0.4% of ncu's (evidence/instrument/). The
//!   untimed flush and both event records are nodes of each replayed graph,
//!   so no host delay can fall inside a timed span (issue 36: one that did
//!   made a sample 2.2 times faster than the memory allows).
//! - [`Mode::Serial`]: a graph of launches each followed by an event
//!   record, less the same graph of records alone, per launch. A record is
//!   written only once the work before it has drained, so launches do not
//!   overlap: each one's set-up, run and drain, the span Nsight Compute
//!   times for a single launch. Near the launch floor its medians land near
//!   ncu's but move 3 to 21% from process to process on the H200
//!   (evidence/instrument/nvbench.md), so it is never recommended.
//! - [`Mode::Cupti`]: batches as in hot mode, but each launch's time is its
//!   kernels' start-to-end as CUPTI's activity records give it
//!   (`crate::trace`), the numbers Nsight Systems shows. Needs libcupti
//!   from the CUDA toolkit and the `cupti` feature (on by default). Tracing adds work around each kernel on the GPU,
//!   so these durations come out longer than untraced ones; the mode is
//!   there to compare with a trace, not to be the reference.
//!
//! Each mode's own setup and sample live in `modes`; here are the steps every
//! mode shares: warm-up, rounds of samples until the budget's stopping rule
//! ([`Budget::stop_after`]) says stop, and the summary. A first launch is
//! measured on its own by [`first_launch`]; it happens once per kernel per
//! process and no sampling can repeat it.
//!
//! Not for: the course's own warm-up-and-mean timing (`time-kernel`).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cuda_objects::{BlockingStream, DeviceBuffer, DriverVersion, EventPair};
use cudarc::driver::{CudaContext, CudaStream};
use serde::Serialize;

use crate::clocks::{ClockMonitor, ClockReading};
use crate::modes::{refused, timed_ms, Early, Sampler, Setup, Targets};
use crate::reject::{MemoryFloor, Rejection};
use crate::sampling::{Budget, Stop, Warmup};
use crate::stats::{summarize, Summary};

/// How samples are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    Hot,
    ColdCache,
    Graph,
    GraphPdl,
    Isolated,
    Serial,
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
            Mode::Serial => "serial",
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
    /// Left out of the statistics because no launch can take this long
    /// ([`crate::reject`]).
    pub rejected: bool,
    /// Rejected because it is faster than the kernel's declared traffic can
    /// cross the memory ([`MemoryFloor`]); counted among the rejected too.
    pub below_floor: bool,
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
    /// Samples rejected as impossible, and the rule that rejected them.
    pub rejected: usize,
    pub rejection: Rejection,
    /// Of the rejected, those faster than the memory allows, and that floor
    /// in ms per launch in this mode (`None` where the caller declared no
    /// traffic).
    pub below_floor: usize,
    pub floor_ms: Option<f64>,
    /// More samples were impossible than the rule allows: the summary is
    /// not a measurement of the kernel, and the table prints no median.
    pub too_many_rejected: bool,
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
    /// Which samples are impossible, and how many a mode may reject.
    pub rejection: Rejection,
    /// The launch's declared traffic against the memory's peak: samples
    /// faster than that are rejected too. `None` for a kernel whose traffic
    /// the caller does not declare.
    pub memory_floor: Option<MemoryFloor>,
}

impl Default for Instrument {
    fn default() -> Self {
        Instrument {
            warmup: Warmup::Millis(50.0),
            budget: Budget::default(),
            target_sample_ms: 0.5,
            target_graph_ms: 5.0,
            drop_throttled: true,
            rejection: Rejection::default(),
            memory_floor: None,
        }
    }
}

/// A launch the instrument can repeat: it queues one launch on the stream
/// it is given (the instrument's own, so it can capture it into a graph).
pub trait Launch: FnMut(&CudaStream) -> Result<(), CudaError> {}
impl<F: FnMut(&CudaStream) -> Result<(), CudaError>> Launch for F {}

/// Times the first launch of a kernel: one event pair, no warm-up. Call it
/// before anything else launches that kernel.
pub fn first_launch(stream: &Arc<CudaStream>, launch: &mut impl Launch) -> Result<FirstLaunch, CudaError> {
    let events = EventPair::new(stream.context())?;
    Ok(FirstLaunch {
        ms: timed_ms(&events, stream, || launch(stream))?,
    })
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
    let median = summarize(&ms).map_or(f64::NAN, |s| s.median);
    Ok(2.0 * bytes as f64 / (median * 1e-3) / 1e9)
}

impl Sample {
    /// Whether the statistics use it: neither dropped nor rejected.
    fn is_kept(&self) -> bool {
        !self.dropped && !self.rejected
    }
}

/// Every sample a measurement took.
#[derive(Default)]
struct SampleLog {
    samples: Vec<Sample>,
}

impl SampleLog {
    /// Records one round's samples with the clock reading taken after it;
    /// with `drop_throttled`, a round the card was throttling in is kept in
    /// the log but left out of the statistics. A sample `rejection` calls
    /// impossible, for `launches` launches a sample, or one below `floor_ms`
    /// per launch (the memory's floor), is logged and never kept.
    fn record(
        &mut self,
        taken: Vec<f64>,
        clocks: Option<ClockReading>,
        drop_throttled: bool,
        rejection: (&Rejection, usize, Option<f64>),
    ) {
        let dropped = drop_throttled && clocks.as_ref().is_some_and(|c| c.throttled);
        let (rejection, launches, floor_ms) = rejection;
        for ms in taken {
            let below_floor = floor_ms.is_some_and(|floor| ms < floor);
            self.samples.push(Sample {
                ms,
                clocks: clocks.clone(),
                dropped,
                rejected: below_floor || rejection.is_impossible(ms, launches),
                below_floor,
            });
        }
    }

    /// The values of the samples the statistics use ([`Sample::is_kept`]).
    fn kept(&self) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|s| s.is_kept())
            .map(|s| s.ms)
            .collect()
    }

    fn dropped(&self) -> usize {
        self.samples.iter().filter(|s| s.dropped).count()
    }

    fn rejected(&self) -> usize {
        self.samples.iter().filter(|s| s.rejected).count()
    }

    fn below_floor(&self) -> usize {
        self.samples.iter().filter(|s| s.below_floor).count()
    }

    /// The statistics of the kept samples; where a mode rejected every
    /// sample, those of all it took, for the record (the measurement is then
    /// marked as having too many rejections). `None` when nothing is left:
    /// every sample was taken while throttling.
    fn summary(&self) -> Option<Summary> {
        summarize(&self.kept()).or_else(|| {
            let all: Vec<f64> = self.samples.iter().filter(|s| s.rejected).map(|s| s.ms).collect();
            summarize(&all)
        })
    }
}

impl Measurement {
    /// One measurement of the samples of several, each of the same kernel in
    /// the same mode (on a different allocation of its buffers, say): their
    /// samples together, statistics of all the kept ones, GPU time summed,
    /// rejections and drops counted over all. `budget` is the one the parts
    /// shared out; the warm-up and the samples per launch are the first
    /// part's, the stopping reason the last one's. `None` for no parts, for
    /// parts of different modes, or where every sample was dropped.
    pub fn pooled(parts: Vec<Measurement>, budget: Budget) -> Option<Measurement> {
        let first = parts.first()?;
        if parts.iter().any(|p| p.mode != first.mode) {
            return None;
        }
        let (mode, launches_per_sample, warmup, rejection, floor_ms) = (
            first.mode,
            first.launches_per_sample,
            first.warmup,
            first.rejection,
            first.floor_ms,
        );
        let clocks_unavailable = parts.iter().find_map(|p| p.clocks_unavailable.clone());
        let stop = parts.last()?.stop;
        let gpu_ms_spent = parts.iter().map(|p| p.gpu_ms_spent).sum();
        let samples: Vec<Sample> = parts.into_iter().flat_map(|p| p.samples).collect();
        let log = SampleLog { samples };
        Some(Measurement {
            mode,
            launches_per_sample,
            warmup,
            budget,
            summary: log.summary()?,
            stop,
            dropped: log.dropped(),
            rejected: log.rejected(),
            rejection,
            below_floor: log.below_floor(),
            floor_ms,
            too_many_rejected: rejection.too_many(log.rejected(), log.samples.len()),
            samples: log.samples,
            gpu_ms_spent,
            clocks_unavailable,
        })
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
            return Err(refused(e.to_string()));
        }
        // Before any graph is captured: an old driver lacks the calls the
        // programmatic modes make, and cudarc would panic at the first one.
        crate::driver::check(mode, DriverVersion::query()?).map_err(refused)?;
        let owned = check!(BlockingStream::create(ctx))?;
        let stream = owned.stream();
        let events = EventPair::new(ctx)?;
        let monitor = ClockMonitor::new(&check!(ctx.uuid())?.bytes.map(|b| b as u8));
        let mut setup = Setup {
            ctx,
            stream,
            events: &events,
            launch,
        };
        let mut gpu_ms = 0.0;
        // Before the warm-up, so the warm-up covers it (CUPTI's trace).
        let early = Early::start(mode, stream)?;
        let one_launch_ms = self.warm_up(&mut setup, &mut gpu_ms)?;
        let targets = Targets {
            sample_ms: self.target_sample_ms,
            graph_ms: self.target_graph_ms,
            one_launch_ms,
        };
        let mut sampler = Sampler::prepare(mode, early, &targets, &mut setup, &mut gpu_ms)?;
        let floor_ms = self.memory_floor.map(|f| f.ms(mode));
        let (log, stop) = self.sample(&mut sampler, &mut setup, &monitor, (floor_ms, &mut gpu_ms))?;
        let launches_per_sample = sampler.launches_per_sample();
        drop(sampler);
        let Some(summary) = log.summary() else {
            return Err(refused(format!(
                "all {} samples were taken while the GPU was throttling",
                log.samples.len()
            )));
        };
        Ok(Measurement {
            mode,
            launches_per_sample,
            warmup: self.warmup,
            budget: self.budget,
            dropped: log.dropped(),
            rejected: log.rejected(),
            rejection: self.rejection,
            below_floor: log.below_floor(),
            floor_ms,
            too_many_rejected: self.rejection.too_many(log.rejected(), log.samples.len()),
            samples: log.samples,
            summary,
            stop,
            gpu_ms_spent: gpu_ms,
            clocks_unavailable: monitor.unavailable.clone(),
        })
    }

    /// Untimed launches as [`Warmup`] asks, each timed all the same: returns
    /// the last one's time, which sizes the batches.
    fn warm_up(&self, setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let (stream, events, launch) = (setup.stream, setup.events, &mut *setup.launch);
        let warm = warm_up_launches(self.warmup, || timed_ms(events, stream, || launch(stream)))?;
        *gpu_ms += warm.spent_ms;
        Ok(warm.last_ms)
    }

    /// Takes rounds of samples, reading the clocks after each, until the
    /// budget's stopping rule says stop.
    fn sample(
        &self,
        sampler: &mut Sampler,
        setup: &mut Setup<'_, impl Launch>,
        monitor: &ClockMonitor,
        (floor_ms, gpu_ms): (Option<f64>, &mut f64),
    ) -> Result<(SampleLog, Stop), CudaError> {
        let mut log = SampleLog::default();
        loop {
            let taken = sampler.take(setup, gpu_ms)?;
            let launches = sampler.launches_per_sample();
            log.record(
                taken,
                monitor.read(),
                self.drop_throttled,
                (&self.rejection, launches, floor_ms),
            );
            if let Some(stop) = self.budget.stop_after(&log.kept(), log.samples.len(), *gpu_ms) {
                return Ok((log, stop));
            }
        }
    }
}

/// What the warm-up took: its last launch, and all of its launches.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WarmedUp {
    last_ms: f64,
    spent_ms: f64,
}

/// Runs the warm-up's launches through `time_one` (one timed launch, in
/// ms), at least one whatever `warmup` says; apart from the GPU, so the
/// accounting can be checked with made-up times.
fn warm_up_launches<E>(warmup: Warmup, mut time_one: impl FnMut() -> Result<f64, E>) -> Result<WarmedUp, E> {
    let mut one = time_one()?;
    let mut spent_ms = one;
    match warmup {
        Warmup::Count(n) => {
            for _ in 1..n {
                one = time_one()?;
                spent_ms += one;
            }
        }
        Warmup::Millis(limit) => {
            while spent_ms < limit {
                one = time_one()?;
                spent_ms += one;
            }
        }
    }
    Ok(WarmedUp {
        last_ms: one,
        spent_ms,
    })
}

/// Below this pilot time (ms) a kernel is near the launch floor, and no mode
/// that takes one launch per sample resolves it. The isolated mode's sample
/// is the difference of two replays that each hold an L2 flush; that
/// difference jitters by about as much as a kernel of a few microseconds
/// takes, so such a kernel is a minority of its own sample, and too many
/// samples come out below the timer's tick (the recorded suite session's
/// `modes-isolated` transcript, evidence/instrument-suite/, gives the empty
/// kernel and vector-add-l2 no median for that reason). A looser rejection
/// rule would only print a median made of that jitter. Ten microseconds
/// keeps the kernel several times the jitter.
pub const NEAR_LAUNCH_FLOOR_MS: f64 = 0.01;

/// Which mode to trust for a kernel. Near the launch floor
/// ([`NEAR_LAUNCH_FLOOR_MS`]), graph replay on every device: a sample is a
/// batch of hundreds of launches, well above the timer's resolution, with no
/// subtraction and no host in the gaps; nothing it takes is impossible, so
/// the rejection rule never has to choose between noise and a real time.
/// (Cold-cache and isolated samples of such a kernel would be mostly event
/// overhead or mostly flush jitter.) Otherwise, with programmatic dependent
/// launch (compute capability 9.0 and later), every kernel gets the isolated
/// mode: the kernel alone on a clean L2, as Nsight Compute times it, with no
/// launch gap and none of the previous launch's write-back in the sample.
/// That holds for long kernels too: a hot sample of a kernel over 0.5 ms is
/// one launch between two events with the GPU idle before it, so it holds
/// the host's submission of the launch after the start event (the recorded
/// suite session's `modes` transcripts put hot further above ncu than
/// isolated on both fma kernels), while an isolated sample queues behind an
/// untimed flush that keeps the GPU busy. Without programmatic launch: cold-cache where the data the
/// caller declares fits in the L2 (a hot loop would time the cache), graph
/// replay under 1 ms, hot back-to-back for longer kernels, where the gaps
/// are a small share. CUPTI's mode is never the pick: tracing adds work
/// around every kernel on the GPU (evidence/instrument/README.md). Nor is
/// the serial mode, whose single-launch latency near the floor moves too
/// much between processes (evidence/instrument/nvbench.md).
pub fn recommend(
    median_ms: f64,
    bytes_touched: Option<u64>,
    l2_bytes: u64,
    programmatic_launch: bool,
) -> Mode {
    let fits_l2 = bytes_touched.is_some_and(|b| b <= l2_bytes);
    match () {
        _ if median_ms < NEAR_LAUNCH_FLOOR_MS => Mode::Graph,
        _ if programmatic_launch => Mode::Isolated,
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

    /// A warm-up over made-up launch times 1, 2, 3, ... ms: returns what it
    /// reported and how many launches it made.
    fn warm_up_over_counting(warmup: Warmup) -> (WarmedUp, u32) {
        let mut launches = 0;
        let warm = warm_up_launches(warmup, || {
            launches += 1;
            Ok::<f64, ()>(f64::from(launches))
        })
        .unwrap();
        (warm, launches)
    }

    #[test]
    fn a_warm_up_spends_each_of_its_launches_once_and_makes_at_least_one() {
        // Launches of 1, 2, 3 ms: three by count, and three by time, where
        // 1 + 2 + 3 = 6 ms is the first sum to reach the 5 ms limit.
        for (warmup, launches, last_ms, spent_ms) in [
            (Warmup::Count(3), 3, 3.0, 1.0 + 2.0 + 3.0),
            (Warmup::Millis(5.0), 3, 3.0, 1.0 + 2.0 + 3.0),
            (Warmup::Count(0), 1, 1.0, 1.0),
            (Warmup::Millis(0.0), 1, 1.0, 1.0),
        ] {
            let (warm, made) = warm_up_over_counting(warmup);
            assert_eq!(
                (made, warm),
                (launches, WarmedUp { last_ms, spent_ms }),
                "{warmup:?}"
            );
        }
    }

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
    fn kernels_near_the_launch_floor_get_graph_replay_in_any_case() {
        // Pilots of the suite's empty kernel and vector-add-l2, a few
        // microseconds, whose isolated samples fall below the timer's tick.
        assert_eq!(recommend(0.0019, None, 60 << 20, true), Mode::Graph);
        assert_eq!(recommend(0.0025, Some(786_432), 60 << 20, true), Mode::Graph);
        assert_eq!(recommend(0.0025, Some(786_432), 60 << 20, false), Mode::Graph);
        assert_eq!(
            recommend(NEAR_LAUNCH_FLOOR_MS, Some(786_432), 60 << 20, true),
            Mode::Isolated,
            "the bound itself is far enough from the floor"
        );
    }

    #[test]
    fn long_kernels_get_isolated_with_programmatic_launch_and_hot_without() {
        // Kernels like the suite's fma-1ms and copy-1gib (2 GiB moved).
        assert_eq!(recommend(1.26, None, 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(2 << 30), 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(1 << 30), 60 << 20, false), Mode::Hot);
        assert_eq!(recommend(5.0, None, 60 << 20, false), Mode::Hot);
    }

    fn reading(throttled: bool) -> Option<ClockReading> {
        Some(ClockReading {
            sm_mhz: 1980,
            memory_mhz: 3201,
            reasons: Vec::new(),
            throttled,
        })
    }

    #[test]
    fn a_throttled_round_is_logged_but_not_kept_when_asked() {
        let mut log = SampleLog::default();
        let r = Rejection::default();
        log.record(vec![1.0], reading(false), true, (&r, 1, None));
        log.record(vec![2.0, 3.0], reading(true), true, (&r, 1, None));
        log.record(vec![4.0], None, true, (&r, 1, None));
        assert_eq!(log.kept(), [1.0, 4.0], "no reading is no evidence of throttling");
        assert_eq!(log.samples.len(), 4);
        assert_eq!(log.dropped(), 2);
        assert!(log.samples[1].dropped && log.samples[1].clocks == reading(true));
    }

    #[test]
    fn without_drop_throttled_every_sample_is_kept() {
        let mut log = SampleLog::default();
        log.record(
            vec![2.0, 3.0],
            reading(true),
            false,
            (&Rejection::default(), 1, None),
        );
        assert_eq!(log.kept(), [2.0, 3.0]);
        assert_eq!(log.dropped(), 0);
    }

    #[test]
    fn an_impossible_sample_is_logged_counted_and_never_kept() {
        let mut log = SampleLog::default();
        // The isolated-mode sample json-1b45835-a/stats-5.json kept.
        log.record(
            vec![0.057, -0.1318, 0.058],
            None,
            true,
            (&Rejection::default(), 1, None),
        );
        log.record(vec![0.0], reading(true), true, (&Rejection::default(), 1, None));
        assert_eq!(log.kept(), [0.057, 0.058]);
        assert_eq!((log.samples.len(), log.rejected(), log.dropped()), (4, 2, 1));
        assert!(log.samples[1].rejected && !log.samples[1].dropped);
        assert_eq!(
            log.summary().map(|s| s.median),
            Some(0.0575),
            "the median of the kept two"
        );
    }

    #[test]
    fn a_sample_faster_than_the_memory_allows_is_rejected_counted_and_never_kept() {
        // Day 9's vectorAdd in isolated mode on the H200, with the sample
        // issue 36 found among its real ones: 0.01850 ms is 10.9 TB/s.
        let floor = MemoryFloor {
            traffic: crate::report::Traffic {
                bytes_read: 134_222_616,
                bytes_written: 67_111_308,
            },
            l2_bytes: 60 << 20,
            peak_gb_s: 4916.7,
        };
        let floor_ms = Some(floor.ms(Mode::Isolated));
        let mut log = SampleLog::default();
        let r = Rejection::default();
        log.record(vec![0.05776, 0.01850, 0.05781], None, true, (&r, 1, floor_ms));
        log.record(vec![0.05779], reading(true), true, (&r, 1, floor_ms));
        assert_eq!(
            log.kept(),
            [0.05776, 0.05781],
            "the planted sample and the throttled one are out"
        );
        assert_eq!((log.rejected(), log.below_floor(), log.dropped()), (1, 1, 1));
        assert!(log.samples[1].rejected && log.samples[1].below_floor);
        assert!(!log.samples[0].below_floor && !log.samples[3].below_floor);
        let s = log.summary().unwrap();
        assert_eq!((s.n, s.min), (2, 0.05776), "the minimum is a real sample");
        // Without a declared floor the same sample would have been kept.
        let mut blind = SampleLog::default();
        blind.record(vec![0.05776, 0.01850], None, true, (&r, 1, None));
        assert_eq!(blind.kept(), [0.05776, 0.01850]);
    }

    #[test]
    fn pooled_parts_count_their_samples_below_the_floor() {
        let mut a = measurement(Mode::Isolated, &[(0.057, false, false)], 1.0, Stop::NoiseTarget);
        a.samples.push(Sample {
            ms: 0.0185,
            clocks: None,
            dropped: false,
            rejected: true,
            below_floor: true,
        });
        a.floor_ms = Some(0.028);
        let b = measurement(Mode::Isolated, &[(0.058, false, false)], 1.0, Stop::NoiseTarget);
        let p = Measurement::pooled(vec![a, b], Budget::default()).unwrap();
        assert_eq!((p.rejected, p.below_floor, p.floor_ms), (1, 1, Some(0.028)));
        assert_eq!(p.summary.n, 2);
    }

    #[test]
    fn a_mode_that_rejects_everything_still_summarises_what_it_took() {
        let mut log = SampleLog::default();
        log.record(vec![-0.001, 0.0001], None, true, (&Rejection::default(), 1, None));
        assert!(log.kept().is_empty());
        let s = log.summary().expect("the rejected samples, for the record");
        assert_eq!((s.n, s.min, s.max), (2, -0.001, 0.0001));
        assert!(Rejection::default().too_many(log.rejected(), log.samples.len()));
    }

    fn measurement(mode: Mode, samples: &[(f64, bool, bool)], gpu_ms: f64, stop: Stop) -> Measurement {
        let samples: Vec<Sample> = samples
            .iter()
            .map(|&(ms, dropped, rejected)| Sample {
                ms,
                clocks: None,
                dropped,
                rejected,
                below_floor: false,
            })
            .collect();
        let kept: Vec<f64> = samples.iter().filter(|s| s.is_kept()).map(|s| s.ms).collect();
        Measurement {
            mode,
            launches_per_sample: 1,
            warmup: Warmup::Count(3),
            budget: Budget::default(),
            summary: summarize(&kept).unwrap(),
            stop,
            dropped: samples.iter().filter(|s| s.dropped).count(),
            rejected: samples.iter().filter(|s| s.rejected).count(),
            rejection: Rejection::default(),
            below_floor: 0,
            floor_ms: None,
            too_many_rejected: false,
            samples,
            gpu_ms_spent: gpu_ms,
            clocks_unavailable: None,
        }
    }

    #[test]
    fn pooled_parts_are_one_measurement_of_all_their_kept_samples() {
        let a = measurement(
            Mode::Isolated,
            &[(1.0, false, false), (1.1, false, false), (9.0, true, false)],
            10.0,
            Stop::NoiseTarget,
        );
        let b = measurement(
            Mode::Isolated,
            &[(1.2, false, false), (-0.5, false, true), (1.3, false, false)],
            20.0,
            Stop::TimeBudget,
        );
        let budget = Budget {
            max_gpu_ms: 30.0,
            ..Budget::default()
        };
        let p = Measurement::pooled(vec![a, b], budget).unwrap();
        assert_eq!(p.samples.len(), 6);
        assert_eq!(
            (p.summary.n, p.summary.median),
            (4, 1.15),
            "the median of 1.0, 1.1, 1.2 and 1.3"
        );
        assert_eq!((p.dropped, p.rejected), (1, 1));
        assert!(
            p.too_many_rejected,
            "one impossible sample in six is more than one in a hundred"
        );
        assert_eq!(p.gpu_ms_spent, 30.0);
        assert_eq!((p.stop, p.budget), (Stop::TimeBudget, budget));
    }

    #[test]
    fn parts_of_different_modes_or_none_do_not_pool() {
        let a = measurement(Mode::Isolated, &[(1.0, false, false)], 1.0, Stop::NoiseTarget);
        let b = measurement(Mode::Graph, &[(1.0, false, false)], 1.0, Stop::NoiseTarget);
        assert!(Measurement::pooled(vec![a, b], Budget::default()).is_none());
        assert!(Measurement::pooled(Vec::new(), Budget::default()).is_none());
    }

    #[test]
    fn programmatic_launch_starts_with_hopper() {
        assert!(has_programmatic_launch((9, 0)));
        assert!(has_programmatic_launch((10, 0)));
        assert!(!has_programmatic_launch((8, 9)));
    }
}
