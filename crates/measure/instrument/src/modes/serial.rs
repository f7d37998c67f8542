//! The serial mode ([`crate::Mode::Serial`]): launches that cannot overlap.

use cuda_check::CudaError;
use cuda_objects::{event, timing_event};
use cudarc::driver::CudaEvent;

use super::setup::{timed_ms, warm_replays, Setup};
use crate::error::Error;
use crate::mode::Launch;
use crate::replay::{CapturedGraph, Dependencies};

/// Serial: a replay of `batch` launches, each followed by an event record,
/// less a replay of the records alone, per launch. A record waits for the
/// work before it to drain, and the next launch is set up only then, so
/// each launch adds its own set-up, run and drain, one at a time: the span
/// Nsight Compute's serialised replay reports.
pub(crate) struct Serial {
    pub(super) batch: usize,
    with_launches: CapturedGraph,
    records_only: CapturedGraph,
    /// Recorded by both graphs; kept alive for them.
    _marker: CudaEvent,
}

impl Serial {
    pub(super) fn new(
        setup: &mut Setup<'_, impl Launch>,
        batch: usize,
        gpu_ms: &mut f64,
    ) -> Result<Serial, Error> {
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

    pub(super) fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let (stream, events) = (setup.stream, setup.events);
        let without = timed_ms(events, stream, || self.records_only.launch(stream))?;
        let with = timed_ms(events, stream, || self.with_launches.launch(stream))?;
        *gpu_ms += without + with;
        Ok((with - without) / self.batch as f64)
    }
}
