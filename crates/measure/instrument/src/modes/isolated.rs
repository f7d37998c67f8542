//! The isolated mode ([`crate::Mode::Isolated`]): one launch alone on a
//! clean L2, timed as a replay of [flush, then the launch] less a replay of
//! the flush alone, as Nsight Compute times a kernel.

use cuda_check::{check, runtime, CudaError};
use cuda_objects::{event, EventPair};
use cudarc::driver::CudaStream;

use super::setup::Setup;
use crate::error::Error;
use crate::flush::L2Flush;
use crate::mode::Launch;
use crate::replay::{CapturedGraph, Dependencies};

/// Isolated: a replay of [flush, then the launch] less a replay of the flush
/// alone, each after an untimed flush, with the start and stop events
/// recorded by the graphs themselves. Recorded by the host instead, a host
/// late by more than the flush's ~30 us stretches whichever replay it delays
/// (the recorded Day 9 sessions: json-1b45835-a's -0.1318 ms, json-0334369's
/// 0.0383 ms against a 0.0578 ms median); in one graph, no host delay can
/// land between the records.
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
fn timed_flush() -> usize {
    TIMED_FLUSH + usize::from(std::env::var("INSTRUMENT_ISOLATED_UNTIMED").is_ok_and(|v| v == "2"))
}

impl Isolated {
    pub(super) fn new(setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<Isolated, Error> {
        let (stream, launch) = (setup.stream, &mut *setup.launch);
        let flush = L2Flush::new(setup.ctx)?;
        let span = EventPair::new(setup.ctx)?;
        // Each graph: untimed flush, start record, then what is timed, then
        // the stop record.
        // EXPERIMENT (issue 44): INSTRUMENT_ISOLATED_UNTIMED=2 queues two
        // untimed flushes, so what the previous replay left dirty is written
        // back before the start record.
        let untimed = if std::env::var("INSTRUMENT_ISOLATED_UNTIMED").is_ok_and(|v| v == "2") { 2 } else { 1 };
        let timed = |s: &CudaStream, then: &mut dyn FnMut(&CudaStream) -> Result<(), CudaError>| {
            for _ in 0..untimed {
                flush.queue(s)?;
            }
            event::record_external(&span.start, s)?;
            flush.queue(s)?;
            then(s)?;
            event::record_external(&span.stop, s)
        };
        let flush_only =
            CapturedGraph::capture(stream, 1, Dependencies::Full, &mut |s| timed(s, &mut |_| Ok(())))?;
        // EXPERIMENT (issue 44): INSTRUMENT_ISOLATED_EDGE=full joins the timed
        // flush to the launch by an ordinary edge.
        let ordinary = std::env::var("INSTRUMENT_ISOLATED_EDGE").is_ok_and(|v| v == "full");
        let deps = if ordinary { Dependencies::Full } else { Dependencies::Programmatic };
        let flush_then_launch = CapturedGraph::capture(stream, 1, deps, &mut |s| timed(s, &mut *launch))?;
        if !ordinary && !flush_then_launch.programmatic_after.contains(&timed_flush()) {
            return Err(Error::IsolatedNeedsKernel);
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

    pub(super) fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
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
