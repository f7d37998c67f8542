//! One sampler per mode, each in a file of its own, as nvbench keeps one per
//! mode (`measure_cold.cuh`, `measure_hot.cuh`); [`Sampler`] picks one for a
//! [`Mode`], sizes its batches and hands each round to it.

mod cold;
#[cfg(feature = "cupti")]
mod cupti;
mod graph;
mod hot;
mod isolated;
mod serial;
pub(crate) mod setup;

use cudarc::driver::CudaStream;

use self::cold::ColdCache;
#[cfg(feature = "cupti")]
use self::cupti::Cupti;
use self::graph::Graph;
use self::hot::Hot;
use self::isolated::Isolated;
use self::serial::Serial;
use self::setup::Setup;
use crate::error::Error;
use crate::mode::{Launch, Mode};
use crate::replay::Dependencies;

/// Most launches one sample batches, however short the kernel.
const MAX_BATCH: usize = 1000;

/// How many launches make a sample of about `target_ms` of GPU time, when
/// one launch takes `one_launch_ms`: at least 1 and at most [`MAX_BATCH`].
fn batch_for(target_ms: f64, one_launch_ms: f64) -> usize {
    ((target_ms / one_launch_ms.max(1e-6)).ceil() as usize).clamp(1, MAX_BATCH)
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
    pub(crate) fn start(mode: Mode, stream: &CudaStream) -> Result<Early, Error> {
        match mode {
            #[cfg(feature = "cupti")]
            Mode::Cupti => Ok(Early::Trace(crate::trace::KernelTrace::start(stream)?)),
            #[cfg(not(feature = "cupti"))]
            Mode::Cupti => {
                let _ = stream;
                Err(crate::libcupti::CuptiUnavailable::NotBuilt.into())
            }
            _ => Ok(Early::Nothing),
        }
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
    ) -> Result<Sampler, Error> {
        let sample_batch = batch_for(targets.sample_ms, targets.one_launch_ms);
        let graph_batch = batch_for(targets.graph_ms, targets.one_launch_ms);
        Ok(match mode {
            Mode::Hot => Sampler::Hot(Hot { batch: sample_batch }),
            #[cfg(feature = "cupti")]
            Mode::Cupti => {
                let trace = match early {
                    Early::Trace(trace) => trace,
                    // Early::start, which a measurement calls before its
                    // warm-up, starts it for this mode; started this late
                    // it still measures, with CUPTI's set-up in the first
                    // sample.
                    Early::Nothing => crate::trace::KernelTrace::start(setup.stream)?,
                };
                Sampler::Cupti(Cupti::new(trace, sample_batch)?)
            }
            #[cfg(not(feature = "cupti"))]
            Mode::Cupti => {
                let Early::Nothing = early;
                return Err(crate::libcupti::CuptiUnavailable::NotBuilt.into());
            }
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
    ) -> Result<Vec<f64>, Error> {
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
