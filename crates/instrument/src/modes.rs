//! One sampler per mode, each with its own setup and its own way of taking a
//! sample (nvbench keeps one per mode the same way). [`Sampler`] picks one
//! for a [`Mode`] and hands each round to it; the modes themselves are
//! described on [`Mode`].
//!
//! Not for: warming up, deciding when to stop, or statistics
//! ([`crate::measure`], [`crate::sampling`], [`crate::stats`]).

use std::sync::Arc;

use cuda_check::{check, runtime, CudaError};
use cuda_objects::{event, timing_event, EventPair};
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};

use crate::flush::L2Flush;
use crate::measure::{Launch, Mode};
use crate::replay::{CapturedGraph, Dependencies};

/// Most launches one sample batches, however short the kernel.
const MAX_BATCH: usize = 1000;

/// How many launches make a sample of about `target_ms` of GPU time, when
/// one launch takes `one_launch_ms`: at least 1 and at most [`MAX_BATCH`].
pub(crate) fn batch_for(target_ms: f64, one_launch_ms: f64) -> usize {
    ((target_ms / one_launch_ms.max(1e-6)).ceil() as usize).clamp(1, MAX_BATCH)
}

/// A measurement the instrument refuses to make, or a mode it cannot run
/// as asked, said in one line.
pub(crate) fn refused(why: impl Into<String>) -> CudaError {
    CudaError::refused(file!(), line!(), "Instrument::measure", why)
}

/// Milliseconds of GPU time that `work` queues on `stream`, between the
/// measurement's two events, widened to the instrument's f64.
pub(crate) fn timed_ms(
    events: &EventPair,
    stream: &CudaStream,
    work: impl FnOnce() -> Result<(), CudaError>,
) -> Result<f64, CudaError> {
    Ok(f64::from(events.time(stream, work)?))
}

/// What the mode-specific setup may use: the measurement's context, stream
/// and events, and the launch it measures.
pub(crate) struct Setup<'a, L: Launch> {
    pub(crate) ctx: &'a Arc<CudaContext>,
    pub(crate) stream: &'a CudaStream,
    pub(crate) events: &'a EventPair,
    pub(crate) launch: &'a mut L,
}

/// Times `batch` launches back to back between the two events.
fn time_batch(setup: &mut Setup<'_, impl Launch>, batch: usize) -> Result<f64, CudaError> {
    let (stream, launch) = (setup.stream, &mut *setup.launch);
    timed_ms(setup.events, stream, || {
        for _ in 0..batch {
            launch(stream)?;
        }
        Ok(())
    })
}

/// Replays each of `graphs` once, before any sample: a replay has
/// first-time costs of its own, which no sample should hold. Their GPU time
/// is added to `gpu_ms`.
fn warm_replays(
    events: &EventPair,
    stream: &CudaStream,
    graphs: &[&CapturedGraph],
    gpu_ms: &mut f64,
) -> Result<(), CudaError> {
    for g in graphs {
        *gpu_ms += timed_ms(events, stream, || g.launch(stream))?;
    }
    Ok(())
}

/// Hot: `batch` back-to-back launches between two events per sample.
pub(crate) struct Hot {
    batch: usize,
}

impl Hot {
    fn take(&self, setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let total = time_batch(setup, self.batch)?;
        *gpu_ms += total;
        Ok(total / self.batch as f64)
    }
}

/// Cold-cache: one launch per sample, after an L2 flush outside the timed
/// region.
pub(crate) struct ColdCache {
    flush: L2Flush,
    flush_start: CudaEvent,
}

impl ColdCache {
    fn new(ctx: &Arc<CudaContext>) -> Result<ColdCache, CudaError> {
        Ok(ColdCache {
            flush: L2Flush::new(ctx)?,
            flush_start: timing_event(ctx)?,
        })
    }

    fn take(&self, setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let (stream, events, launch) = (setup.stream, setup.events, &mut *setup.launch);
        // The flush is queued just before the start event and not waited
        // for: the device stays busy while the host queues the launch, so the
        // sample holds the kernel on a cold L2 and no host latency.
        check!(self.flush_start.record(stream))?;
        self.flush.queue(stream)?;
        let total = timed_ms(events, stream, || launch(stream))?;
        // The flush is outside the timed region, but GPU time all the same.
        *gpu_ms += total + f64::from(check!(self.flush_start.elapsed_ms(&events.start))?);
        Ok(total)
    }
}

/// Graph and graph-pdl: `batch` launches captured once and replayed per
/// sample.
pub(crate) struct Graph {
    batch: usize,
    graph: CapturedGraph,
}

impl Graph {
    fn new(
        setup: &mut Setup<'_, impl Launch>,
        batch: usize,
        dependencies: Dependencies,
        gpu_ms: &mut f64,
    ) -> Result<Graph, CudaError> {
        let graph = CapturedGraph::capture(setup.stream, batch, dependencies, setup.launch)?;
        warm_replays(setup.events, setup.stream, &[&graph], gpu_ms)?;
        Ok(Graph { batch, graph })
    }

    fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let stream = setup.stream;
        let total = timed_ms(setup.events, stream, || self.graph.launch(stream))?;
        *gpu_ms += total;
        Ok(total / self.batch as f64)
    }
}

/// Serial: a replay of `batch` launches, each followed by an event record,
/// less a replay of the event records alone, per launch.
///
/// An event is recorded only once the work before it has drained, and the
/// launch after it is set up only then: the records keep the GPU from
/// setting up one launch while the previous one runs, as back-to-back
/// launches (and graph replays) do. What each launch adds is then its own
/// set-up, run and drain, one at a time, the span Nsight Compute's
/// serialised replay reports as `gpu__time_duration`, less the record
/// itself, which the baseline replay takes out.
pub(crate) struct Serial {
    batch: usize,
    with_launches: CapturedGraph,
    records_only: CapturedGraph,
    /// Recorded by both graphs; kept alive for them.
    _marker: CudaEvent,
}

impl Serial {
    fn new(setup: &mut Setup<'_, impl Launch>, batch: usize, gpu_ms: &mut f64) -> Result<Serial, CudaError> {
        let (stream, launch) = (setup.stream, &mut *setup.launch);
        let marker = timing_event(setup.ctx)?;
        let with_launches = CapturedGraph::capture(stream, batch, Dependencies::Full, &mut |s| {
            launch(s)?;
            event::record_external(&marker, s)
        })?;
        let records_only = CapturedGraph::capture(stream, batch, Dependencies::Full, &mut |s| {
            event::record_external(&marker, s)
        })?;
        warm_replays(setup.events, stream, &[&with_launches, &records_only], gpu_ms)?;
        Ok(Serial {
            batch,
            with_launches,
            records_only,
            _marker: marker,
        })
    }

    fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let (stream, events) = (setup.stream, setup.events);
        let without = timed_ms(events, stream, || self.records_only.launch(stream))?;
        let with = timed_ms(events, stream, || self.with_launches.launch(stream))?;
        *gpu_ms += without + with;
        Ok((with - without) / self.batch as f64)
    }
}

/// Isolated: a replay of [flush, then the launch] less a replay of the flush
/// alone, each after an untimed flush, with the start and stop events
/// recorded by the graphs themselves.
///
/// Where the host records the events and queues the timed replay behind an
/// untimed flush, the flush's ~30 us is all that keeps the GPU from idling
/// inside the timed span: a host late by more than that (a descheduled
/// thread, a slow graph launch) stretches whichever replay it delays, and a
/// stretched flush-only replay makes the difference smaller than the kernel
/// can be. The recorded Day 9 sessions show both ends (json-1b45835-a's
/// -0.1318 ms, json-0334369's 0.0383 ms against a 0.0578 ms median, beside
/// highs of 0.109 ms). With the untimed flush, both records and the timed
/// work in one graph, the whole span is queued at once and no host delay
/// can land between the records.
pub(crate) struct Isolated {
    /// Kept alive for the graphs, which launch its kernel.
    _flush: L2Flush,
    /// Recorded by both graphs' event nodes, read after each replay.
    span: EventPair,
    flush_only: CapturedGraph,
    flush_then_launch: CapturedGraph,
}

/// Where the timed flush sits in an isolated graph's chain: after the
/// untimed flush (0) and the start record (1).
const TIMED_FLUSH: usize = 2;

impl Isolated {
    fn new(setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<Isolated, CudaError> {
        let (stream, launch) = (setup.stream, &mut *setup.launch);
        let flush = L2Flush::new(setup.ctx)?;
        let span = EventPair::new(setup.ctx)?;
        // Each graph: untimed flush, start record, then what is timed, then
        // the stop record.
        let timed = |s: &CudaStream, then: &mut dyn FnMut(&CudaStream) -> Result<(), CudaError>| {
            flush.queue(s)?;
            event::record_external(&span.start, s)?;
            flush.queue(s)?;
            then(s)?;
            event::record_external(&span.stop, s)
        };
        let flush_only =
            CapturedGraph::capture(stream, 1, Dependencies::Full, &mut |s| timed(s, &mut |_| Ok(())))?;
        let flush_then_launch = CapturedGraph::capture(stream, 1, Dependencies::Programmatic, &mut |s| {
            timed(s, &mut *launch)
        })?;
        if !flush_then_launch.programmatic_after.contains(&TIMED_FLUSH) {
            return Err(refused(
                "isolated mode needs a launch that starts with a kernel launch (the flush joins it through a programmatic edge)",
            ));
        }
        let isolated = Isolated {
            _flush: flush,
            span,
            flush_only,
            flush_then_launch,
        };
        // A replay has first-time costs of its own, which no sample should
        // hold. Each replay's untimed flush is GPU time as long as a timed
        // flush alone.
        let flush_ms = isolated.replay_ms(&isolated.flush_only, stream)?;
        let with_ms = isolated.replay_ms(&isolated.flush_then_launch, stream)?;
        *gpu_ms += 3.0 * flush_ms + with_ms;
        Ok(isolated)
    }

    /// Replays `graph` and reads the span its own event nodes recorded.
    fn replay_ms(&self, graph: &CapturedGraph, stream: &CudaStream) -> Result<f64, CudaError> {
        graph.launch(stream)?;
        check!(self.span.stop.synchronize())?;
        check!(runtime::last_error())?;
        Ok(f64::from(check!(self.span.start.elapsed_ms(&self.span.stop))?))
    }

    fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let stream = setup.stream;
        // Both timed spans start on an L2 that holds only the untimed
        // flush's clean lines, with whatever the previous launch left dirty
        // already written back. What differs is the launch after the timed
        // flush, which starts as the flush's last block exits (a programmatic
        // edge) and whose own dirty lines are left in the L2 when the clock
        // stops.
        let without = self.replay_ms(&self.flush_only, stream)?;
        let with = self.replay_ms(&self.flush_then_launch, stream)?;
        // The two untimed flushes take as long as the timed one.
        *gpu_ms += 3.0 * without + with;
        Ok(with - without)
    }
}

/// What a mode turns on before the warm-up, so the warm-up covers it too:
/// CUPTI's trace, whose set-up on the first traced launch must not land in a
/// sample.
pub(crate) enum Early {
    Nothing,
    #[cfg(feature = "cupti")]
    Trace(crate::trace::KernelTrace),
}

impl Early {
    pub(crate) fn start(mode: Mode, stream: &CudaStream) -> Result<Early, CudaError> {
        match mode {
            #[cfg(feature = "cupti")]
            Mode::Cupti => Ok(Early::Trace(crate::trace::KernelTrace::start(stream)?)),
            #[cfg(not(feature = "cupti"))]
            Mode::Cupti => {
                let _ = stream;
                Err(refused(crate::CuptiUnavailable::NotBuilt.to_string()))
            }
            _ => Ok(Early::Nothing),
        }
    }
}

/// CUPTI: batches as in hot mode, each launch timed by its kernels' records.
#[cfg(feature = "cupti")]
pub(crate) struct Cupti {
    batch: usize,
    trace: crate::trace::KernelTrace,
}

#[cfg(feature = "cupti")]
impl Cupti {
    fn new(mut trace: crate::trace::KernelTrace, batch: usize) -> Result<Cupti, CudaError> {
        // The warm-up's records are not samples.
        trace.discard()?;
        Ok(Cupti { batch, trace })
    }

    fn take(&mut self, setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<Vec<f64>, CudaError> {
        *gpu_ms += time_batch(setup, self.batch)?;
        crate::trace::per_launch_ms(&self.trace.take()?, self.batch)
            .map_err(|why| CudaError::refused(file!(), line!(), "KernelTrace::take", why.to_string()))
    }
}

/// The sampler of one mode, made once after the warm-up.
pub(crate) enum Sampler {
    Hot(Hot),
    ColdCache(ColdCache),
    Graph(Graph),
    Isolated(Isolated),
    Serial(Serial),
    #[cfg(feature = "cupti")]
    Cupti(Cupti),
}

/// How long the caller wants a sample of each kind to last, and what one
/// launch took at the end of the warm-up: together they size the batches.
pub(crate) struct Targets {
    pub(crate) sample_ms: f64,
    pub(crate) graph_ms: f64,
    pub(crate) one_launch_ms: f64,
}

impl Sampler {
    /// Sets `mode` up: flush buffers, captured graphs, the trace started in
    /// `early`. GPU time the setup spends is added to `gpu_ms`.
    pub(crate) fn prepare(
        mode: Mode,
        early: Early,
        targets: &Targets,
        setup: &mut Setup<'_, impl Launch>,
        gpu_ms: &mut f64,
    ) -> Result<Sampler, CudaError> {
        let sample_batch = batch_for(targets.sample_ms, targets.one_launch_ms);
        let graph_batch = batch_for(targets.graph_ms, targets.one_launch_ms);
        Ok(match mode {
            Mode::Hot => Sampler::Hot(Hot { batch: sample_batch }),
            Mode::Cupti => match early {
                #[cfg(feature = "cupti")]
                Early::Trace(trace) => Sampler::Cupti(Cupti::new(trace, sample_batch)?),
                _ => return Err(refused("the kernel trace was not started")),
            },
            Mode::ColdCache => Sampler::ColdCache(ColdCache::new(setup.ctx)?),
            Mode::Graph => Sampler::Graph(Graph::new(setup, graph_batch, Dependencies::Full, gpu_ms)?),
            Mode::GraphPdl => Sampler::Graph(Graph::new(
                setup,
                graph_batch,
                Dependencies::Programmatic,
                gpu_ms,
            )?),
            Mode::Isolated => Sampler::Isolated(Isolated::new(setup, gpu_ms)?),
            Mode::Serial => Sampler::Serial(Serial::new(setup, graph_batch, gpu_ms)?),
        })
    }

    pub(crate) fn launches_per_sample(&self) -> usize {
        match self {
            Sampler::Hot(Hot { batch })
            | Sampler::Graph(Graph { batch, .. })
            | Sampler::Serial(Serial { batch, .. }) => *batch,
            Sampler::ColdCache(_) | Sampler::Isolated(_) => 1,
            #[cfg(feature = "cupti")]
            Sampler::Cupti(_) => 1,
        }
    }

    /// One round of sampling: the samples it took, in ms per launch. GPU
    /// time it spent, timed or not, is added to `gpu_ms`.
    pub(crate) fn take(
        &mut self,
        setup: &mut Setup<'_, impl Launch>,
        gpu_ms: &mut f64,
    ) -> Result<Vec<f64>, CudaError> {
        Ok(match self {
            Sampler::Hot(hot) => vec![hot.take(setup, gpu_ms)?],
            Sampler::ColdCache(cold) => vec![cold.take(setup, gpu_ms)?],
            Sampler::Graph(graph) => vec![graph.take(setup, gpu_ms)?],
            Sampler::Isolated(isolated) => vec![isolated.take(setup, gpu_ms)?],
            Sampler::Serial(serial) => vec![serial.take(setup, gpu_ms)?],
            #[cfg(feature = "cupti")]
            Sampler::Cupti(cupti) => cupti.take(setup, gpu_ms)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_lasts_about_the_target_and_stays_between_1_and_1000_launches() {
        assert_eq!(batch_for(0.5, 0.057), 9, "ceil(0.5 / 0.057)");
        assert_eq!(batch_for(5.0, 0.057), 88);
        assert_eq!(batch_for(0.5, 2.0), 1, "a long launch is a batch of one");
        assert_eq!(batch_for(0.5, 0.0001), 1000, "a tiny launch hits the cap");
        assert_eq!(batch_for(0.5, 0.0), 1000, "a zero time cannot divide by zero");
    }
}
