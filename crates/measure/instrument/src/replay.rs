//! A batch of launches captured once into a CUDA graph and replayed, which
//! takes the host out of the gaps between launches. With
//! [`Dependencies::Programmatic`] the kernel-to-kernel edges become
//! programmatic (Hopper's programmatic dependent launch): the next kernel's
//! set-up overlaps the previous one's run, while none of its blocks starts
//! before every block of the previous has finished (none triggers early).
//! What is left between replays is close to the kernel's own span, as
//! Nsight Compute reports it. Other edges (a memset, a copy) stay ordinary.

use cuda_check::CudaError;
use cuda_objects::Graph;
use cudarc::driver::CudaStream;

use crate::error::Error;

/// How captured launches wait for each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dependencies {
    /// As captured: each launch waits for the previous one to complete.
    Full,
    /// Kernel to kernel, programmatic: set-up overlaps, execution does not.
    Programmatic,
}

/// A captured batch, instantiated and uploaded, ready to replay.
pub struct CapturedGraph {
    graph: Graph,
    /// Kernel-to-kernel edges made programmatic.
    pub programmatic_edges: usize,
    /// Whether the edge out of the first captured node is one of them, so the
    /// second launch starts as the first one's blocks exit.
    pub first_edge_programmatic: bool,
    /// The places in the captured chain (0 for the first node captured)
    /// whose edge to the next node was made programmatic.
    pub programmatic_after: Vec<usize>,
}

impl CapturedGraph {
    /// Captures `launches` calls of `launch` on `stream` and instantiates the
    /// graph. The stream must be one capture can use (not the legacy default).
    /// Refused ([`Error::EmptyCapture`]) where `launch` queued nothing.
    pub fn capture(
        stream: &CudaStream,
        launches: usize,
        dependencies: Dependencies,
        launch: &mut impl FnMut(&CudaStream) -> Result<(), CudaError>,
    ) -> Result<CapturedGraph, Error> {
        let captured = Graph::capture(stream, |s| (0..launches).try_for_each(|_| launch(s)))?;
        let Some(mut graph) = captured else {
            return Err(Error::EmptyCapture);
        };
        let (mut programmatic_edges, mut first_edge_programmatic) = (0, false);
        let mut programmatic_after = Vec::new();
        if dependencies == Dependencies::Programmatic {
            let edges: Vec<_> = graph.edges()?.iter().map(|e| (e.from, e.to)).collect();
            let first = first_node(&edges);
            let chain = chain_order(&edges);
            let rewired = graph.make_kernel_edges_programmatic()?;
            programmatic_edges = rewired.len();
            first_edge_programmatic = rewired.iter().any(|e| Some(e.from) == first);
            programmatic_after = rewired
                .iter()
                .filter_map(|e| chain.iter().position(|&n| n == e.from))
                .collect();
            programmatic_after.sort_unstable();
        }
        graph.instantiate()?;
        graph.upload(stream)?;
        Ok(CapturedGraph {
            graph,
            programmatic_edges,
            first_edge_programmatic,
            programmatic_after,
        })
    }

    /// Queues one replay of the whole batch on `stream`.
    pub fn launch(&self, stream: &CudaStream) -> Result<(), CudaError> {
        self.graph.launch(stream)
    }
}

/// The node of a graph's edges that no edge leads into: where a captured
/// chain starts. The first such node, if the edges hold several.
fn first_node<T: PartialEq + Copy>(edges: &[(T, T)]) -> Option<T> {
    edges
        .iter()
        .map(|&(from, _)| from)
        .find(|f| !edges.iter().any(|(_, to)| to == f))
}

/// The nodes of a captured chain in the order they were captured: from
/// [`first_node`], along the one edge out of each. Empty for edges that hold
/// no chain start; stops where a node has no edge out, or at a node already
/// seen.
fn chain_order<T: PartialEq + Copy>(edges: &[(T, T)]) -> Vec<T> {
    let mut chain: Vec<T> = first_node(edges).into_iter().collect();
    while let Some(&last) = chain.last() {
        match edges.iter().find(|(from, _)| *from == last) {
            Some(&(_, to)) if !chain.contains(&to) => chain.push(to),
            _ => break,
        }
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::{chain_order, first_node};

    #[test]
    fn a_chain_is_walked_in_capture_order() {
        assert_eq!(chain_order(&[(1, 4), (4, 2), (3, 1)]), [3, 1, 4, 2]);
        assert_eq!(chain_order::<u8>(&[]), Vec::<u8>::new());
        assert_eq!(
            chain_order(&[(1, 2), (2, 1)]),
            Vec::<i32>::new(),
            "a cycle has no start"
        );
    }

    #[test]
    fn a_chain_starts_where_no_edge_leads_in() {
        // Edges of the chain 3 -> 1 -> 4 -> 2, in the order a graph may list them.
        assert_eq!(first_node(&[(1, 4), (4, 2), (3, 1)]), Some(3));
        assert_eq!(first_node(&[(7, 8)]), Some(7));
        assert_eq!(first_node::<u8>(&[]), None, "a single node has no edges");
        assert_eq!(first_node(&[(1, 2), (2, 1)]), None, "a cycle has no start");
    }
}
