//! A batch of launches captured once into a CUDA graph, to be replayed.
//!
//! Replaying a graph takes the host out of the gaps between launches: the
//! whole batch reaches the GPU at once. What is left between two kernels is
//! the GPU's own hand-over: the first kernel drains, then the second's grid
//! is set up. With [`Dependencies::Programmatic`] the edges between captured
//! kernels become programmatic dependencies (Hopper's programmatic dependent
//! launch), so the second kernel's set-up overlaps the first kernel's run,
//! while none of its blocks starts before every block of the first has
//! finished (none of the captured kernels triggers early, so each block's
//! exit is its trigger). What is left between replays is then close to the
//! kernel's own start-to-end time, the span Nsight Compute reports.
//!
//! Edges that do not join two kernels (a memset, a copy) stay ordinary.

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{
    self, CUgraph, CUgraphDependencyType, CUgraphEdgeData, CUgraphExec, CUgraphNode, CUgraphNodeType,
    CUstreamCaptureMode,
};
use cudarc::driver::CudaStream;

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
    graph: CUgraph,
    exec: CUgraphExec,
    /// Kernel-to-kernel edges made programmatic.
    pub programmatic_edges: usize,
    /// Whether the edge out of the first captured node is one of them, so the
    /// second launch starts as the first one's blocks exit.
    pub first_edge_programmatic: bool,
}

impl CapturedGraph {
    /// Captures `launches` calls of `launch` on `stream` and instantiates the
    /// graph. The stream must be one capture can use (not the legacy default).
    pub fn capture(
        stream: &CudaStream,
        launches: usize,
        dependencies: Dependencies,
        launch: &mut impl FnMut(&CudaStream) -> Result<(), CudaError>,
    ) -> Result<CapturedGraph, CudaError> {
        check!(stream.context().bind_to_thread())?;
        let s = stream.cu_stream();
        let mode = CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
        // SAFETY: a live stream; capture is ended below on every path.
        check!(unsafe { sys::cuStreamBeginCapture_v2(s, mode) }.result())?;
        let mut captured = Ok(());
        for _ in 0..launches {
            captured = launch(stream);
            if captured.is_err() {
                break;
            }
        }
        let mut graph: CUgraph = std::ptr::null_mut();
        // SAFETY: ends the capture begun above; writes one handle.
        let ended = check!(unsafe { sys::cuStreamEndCapture(s, &mut graph) }.result());
        // From here the graph, if any, is owned and destroyed by Drop.
        let mut owned = CapturedGraph {
            graph,
            exec: std::ptr::null_mut(),
            programmatic_edges: 0,
            first_edge_programmatic: false,
        };
        captured?;
        ended?;
        if owned.graph.is_null() {
            return Err(CudaError::refused(
                file!(),
                line!(),
                "cuStreamEndCapture",
                "the graph capture recorded no work",
            ));
        }
        if dependencies == Dependencies::Programmatic {
            (owned.programmatic_edges, owned.first_edge_programmatic) =
                owned.make_kernel_edges_programmatic()?;
        }
        // SAFETY: a complete graph; writes one handle.
        check!(unsafe { sys::cuGraphInstantiateWithFlags(&mut owned.exec, owned.graph, 0) }.result())?;
        // SAFETY: the executable graph and stream are live.
        check!(unsafe { sys::cuGraphUpload(owned.exec, s) }.result())?;
        Ok(owned)
    }

    /// Rewires every kernel-to-kernel edge as a programmatic dependency;
    /// returns how many it rewired, and whether the edge out of the graph's
    /// first node (the one nothing depends on before it) was one of them.
    fn make_kernel_edges_programmatic(&mut self) -> Result<(usize, bool), CudaError> {
        let mut count = 0usize;
        // SAFETY: null arrays ask for the count only.
        check!(unsafe {
            sys::cuGraphGetEdges_v2(
                self.graph,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                &mut count,
            )
        }
        .result())?;
        // A graph of one launch has no edges; asked for them through arrays
        // of none, the driver answers CUDA_ERROR_INVALID_VALUE (the recorded
        // suite sessions' `modes-graph-pdl` transcripts, where fma-10ms's
        // graph is one launch), so do not ask.
        if count == 0 {
            return Ok((0, false));
        }
        let mut from: Vec<CUgraphNode> = vec![std::ptr::null_mut(); count];
        let mut to: Vec<CUgraphNode> = vec![std::ptr::null_mut(); count];
        let mut data: Vec<CUgraphEdgeData> =
            vec![edge(0, CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT); count];
        // SAFETY: each array holds `count` entries.
        check!(unsafe {
            sys::cuGraphGetEdges_v2(
                self.graph,
                from.as_mut_ptr(),
                to.as_mut_ptr(),
                data.as_mut_ptr(),
                &mut count,
            )
        }
        .result())?;
        let programmatic = edge(
            sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
            CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC,
        );
        let count = count.min(from.len());
        let first = first_node(&from[..count], &to[..count]);
        let mut rewired = 0;
        let mut first_rewired = false;
        for i in 0..count {
            if !(is_kernel(from[i])? && is_kernel(to[i])?) {
                continue;
            }
            first_rewired |= Some(from[i]) == first;
            // SAFETY: the edge exists as read above, with this data.
            check!(
                unsafe { sys::cuGraphRemoveDependencies_v2(self.graph, &from[i], &to[i], &data[i], 1) }
                    .result()
            )?;
            // SAFETY: both nodes are kernel nodes of this graph.
            check!(unsafe {
                sys::cuGraphAddDependencies_v2(self.graph, &from[i], &to[i], &programmatic, 1)
            }
            .result())?;
            rewired += 1;
        }
        Ok((rewired, first_rewired))
    }

    /// Queues one replay of the whole batch on `stream`.
    pub fn launch(&self, stream: &CudaStream) -> Result<(), CudaError> {
        // SAFETY: the executable graph and stream are live.
        check!(unsafe { sys::cuGraphLaunch(self.exec, stream.cu_stream()) }.result())
    }
}

/// The node of a graph's edges that no edge leads into: where a captured
/// chain starts. The first such node, if the edges hold several.
fn first_node<T: PartialEq + Copy>(from: &[T], to: &[T]) -> Option<T> {
    from.iter().find(|f| !to.contains(f)).copied()
}

fn edge(from_port: u8, kind: CUgraphDependencyType) -> CUgraphEdgeData {
    CUgraphEdgeData {
        from_port,
        to_port: 0,
        type_: kind as u8,
        reserved: [0; 5],
    }
}

fn is_kernel(node: CUgraphNode) -> Result<bool, CudaError> {
    let mut kind = CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY;
    // SAFETY: a node of a live graph; writes one value.
    check!(unsafe { sys::cuGraphNodeGetType(node, &mut kind) }.result())?;
    Ok(kind == CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL)
}

impl Drop for CapturedGraph {
    fn drop(&mut self) {
        // Failures here have no one to report to; the handles are gone either way.
        if !self.exec.is_null() {
            // SAFETY: instantiated by capture, destroyed once.
            let _ = unsafe { sys::cuGraphExecDestroy(self.exec) };
        }
        if !self.graph.is_null() {
            // SAFETY: made by the capture, destroyed once.
            let _ = unsafe { sys::cuGraphDestroy(self.graph) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_node;

    #[test]
    fn a_chain_starts_where_no_edge_leads_in() {
        // Edges of the chain 3 -> 1 -> 4 -> 2, in the order a graph may list them.
        assert_eq!(first_node(&[1, 4, 3], &[4, 2, 1]), Some(3));
        assert_eq!(first_node(&[7], &[8]), Some(7));
        assert_eq!(first_node::<u8>(&[], &[]), None, "a single node has no edges");
        assert_eq!(first_node(&[1, 2], &[2, 1]), None, "a cycle has no start");
    }
}
