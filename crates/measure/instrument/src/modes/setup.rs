//! What every mode's sampler works with ([`Setup`]: context, stream, events
//! and launch), and the timed spans its samples are made of.

use std::sync::Arc;

use cuda_check::CudaError;
use cuda_objects::EventPair;
use cudarc::driver::{CudaContext, CudaStream};

use crate::mode::Launch;
use crate::replay::CapturedGraph;

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
pub(crate) fn time_batch(setup: &mut Setup<'_, impl Launch>, batch: usize) -> Result<f64, CudaError> {
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
pub(crate) fn warm_replays(
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
