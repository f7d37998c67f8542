//! The graph and graph-pdl modes: `batch` launches captured once, with
//! ordinary or programmatic dependencies ([`crate::replay`]), replayed per
//! sample.

use cuda_check::CudaError;

use super::setup::{timed_ms, warm_replays, Setup};
use crate::error::Error;
use crate::mode::Launch;
use crate::replay::{CapturedGraph, Dependencies};

pub(crate) struct Graph {
    pub(super) batch: usize,
    graph: CapturedGraph,
}

impl Graph {
    pub(super) fn new(
        setup: &mut Setup<'_, impl Launch>,
        batch: usize,
        dependencies: Dependencies,
        gpu_ms: &mut f64,
    ) -> Result<Graph, Error> {
        let graph = CapturedGraph::capture(setup.stream, batch, dependencies, setup.launch)?;
        warm_replays(setup.events, setup.stream, &[&graph], gpu_ms)?;
        Ok(Graph { batch, graph })
    }

    pub(super) fn take(&self, setup: &Setup<'_, impl Launch>, gpu_ms: &mut f64) -> Result<f64, CudaError> {
        let stream = setup.stream;
        let total = timed_ms(setup.events, stream, || self.graph.launch(stream))?;
        *gpu_ms += total;
        Ok(total / self.batch as f64)
    }
}
