//! The isolated mode ([`crate::Mode::Isolated`]): one launch alone on a
//! clean L2, as Nsight Compute times a kernel.

use cuda_check::{check, runtime, CudaError};
use cuda_objects::{event, EventPair};
use cudarc::driver::CudaStream;

use super::setup::Setup;
use crate::error::Error;
use crate::flush::L2Flush;
use crate::mode::Launch;
use crate::replay::{CapturedGraph, Dependencies};

/// Isolated: a replay of [flush, then the launch] less a replay of the flush
/// alone, each after two untimed flushes, with the start and stop events
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

/// Untimed flushes before each graph's start record. One is not enough: the
/// previous replay's launch leaves up to the L2's size of dirty lines, and
/// their write-back, started by the first untimed flush, was still running
/// into the timed flush of the next replay, the flush-only one, so the
/// difference read low in proportion to what the kernel writes. Measured on
/// the H200 at a176ff9 (evidence/instrument/*-kt-z-*): transpose-shared,
/// which writes 256 MiB, at 0.9882 and 0.9925 of ncu with one untimed flush,
/// 0.9991 and 1.0002 with two.
const UNTIMED_FLUSHES: usize = 2;

/// Where the timed flush sits in an isolated graph's chain: after the
/// untimed flushes and the start record.
const TIMED_FLUSH: usize = UNTIMED_FLUSHES + 1;

/// A sample's GPU time in timed flushes, the launch left out: the flush-only
/// span and both replays' untimed flushes, each as long as a timed one.
const UNTIMED_GPU_SHARE: f64 = (1 + 2 * UNTIMED_FLUSHES) as f64;

impl Isolated {
    pub(super) fn new(setup: &mut Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<Isolated, Error> {
        let (stream, launch) = (setup.stream, &mut *setup.launch);
        let flush = L2Flush::new(setup.ctx)?;
        let span = EventPair::new(setup.ctx)?;
        // Each graph: untimed flushes, start record, then what is timed, then
        // the stop record.
        let timed = |s: &CudaStream, then: &mut dyn FnMut(&CudaStream) -> Result<(), CudaError>| {
            for _ in 0..UNTIMED_FLUSHES {
                flush.queue(s)?;
            }
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
            return Err(Error::IsolatedNeedsKernel);
        }
        let isolated = Isolated {
            _flush: flush,
            span,
            flush_only,
            flush_then_launch,
        };
        // A replay has first-time costs of its own, which no sample should
        // hold: one untimed sample.
        isolated.take(setup, gpu_ms)?;
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
        // flushes' clean lines, with whatever the previous launch left dirty
        // already written back ([`UNTIMED_FLUSHES`]). What differs is the
        // launch after the timed flush, which starts as the flush's last
        // block exits (a programmatic edge) and whose own dirty lines are
        // left in the L2 when the clock stops.
        let without = self.replay_ms(&self.flush_only, stream)?;
        let with = self.replay_ms(&self.flush_then_launch, stream)?;
        *gpu_ms += UNTIMED_GPU_SHARE * without + with;
        Ok(with - without)
    }
}
