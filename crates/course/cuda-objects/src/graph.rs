//! A CUDA graph captured from a stream, shaped as cudarc's `safe/graph.rs`:
//! one owner of the graph and its executable (module `owner`). Unlike
//! cudarc's `end_capture`, capture here stops short of instantiating, so
//! the captured edges can be rewired first (programmatic dependent launch).
//!
//! Not for: deciding what to capture or how to time its replays (the
//! instrument's `replay` and `modes`).

use std::sync::Arc;

use cuda_check::{check, CudaError};
use cudarc::driver::sys::{
    self, CUgraph, CUgraphDependencyType, CUgraphEdgeData, CUgraphExec, CUgraphNode, CUgraphNodeType,
    CUstreamCaptureMode,
};
use cudarc::driver::{CudaContext, CudaStream};

use crate::owner::release;

/// A node of a [`Graph`], as an identity only: edges can be compared and
/// followed, never handed back to the driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId(usize);

/// One dependency of a graph: `to` waits for `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
}

/// A captured graph, and once [`Graph::instantiate`]d its executable.
pub struct Graph {
    graph: CUgraph,
    exec: CUgraphExec,
    /// The context of the stream it was captured on, which made both.
    ctx: Arc<CudaContext>,
}

/// An edge as the driver lists it.
struct RawEdge {
    from: CUgraphNode,
    to: CUgraphNode,
    data: CUgraphEdgeData,
}

impl Graph {
    /// Captures what `work` queues on `stream` (thread-local capture mode,
    /// so other threads' CUDA calls are not caught up in it), or `None` when
    /// it queued nothing. The capture is ended on every path, also when
    /// `work` fails. The stream must be one capture can use (not the legacy
    /// default stream).
    pub fn capture(
        stream: &CudaStream,
        work: impl FnOnce(&CudaStream) -> Result<(), CudaError>,
    ) -> Result<Option<Graph>, CudaError> {
        check!(stream.context().bind_to_thread())?;
        let s = stream.cu_stream();
        let mode = CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
        // SAFETY: a live stream; the capture is ended below on every path.
        check!(unsafe { sys::cuStreamBeginCapture_v2(s, mode) }.result())?;
        let captured = work(stream);
        let mut graph: CUgraph = std::ptr::null_mut();
        // SAFETY: ends the capture begun above; writes one handle.
        let ended = check!(unsafe { sys::cuStreamEndCapture(s, &mut graph) }.result());
        // From here the graph, if any, is owned and destroyed by Drop.
        let owned = Graph {
            graph,
            exec: std::ptr::null_mut(),
            ctx: stream.context().clone(),
        };
        captured?;
        ended?;
        Ok((!owned.graph.is_null()).then_some(owned))
    }

    /// Every dependency in the graph.
    pub fn edges(&self) -> Result<Vec<Edge>, CudaError> {
        Ok(self
            .raw_edges()?
            .iter()
            .map(|e| Edge {
                from: id(e.from),
                to: id(e.to),
            })
            .collect())
    }

    /// Rewires every kernel-to-kernel edge as a programmatic dependency:
    /// the second kernel's set-up may overlap the first's run, while none of
    /// its blocks starts before every block of the first has finished.
    /// Edges that do not join two kernels stay as they are. Returns the
    /// edges it rewired. Refused once the graph is instantiated, whose
    /// executable would not see the change.
    pub fn make_kernel_edges_programmatic(&mut self) -> Result<Vec<Edge>, CudaError> {
        if !self.exec.is_null() {
            return Err(CudaError::refused(
                file!(),
                line!(),
                "Graph::make_kernel_edges_programmatic",
                "the graph is already instantiated",
            ));
        }
        let programmatic = edge_data(
            sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
            CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC,
        );
        let mut rewired = Vec::new();
        for e in self.raw_edges()? {
            if !(is_kernel(e.from)? && is_kernel(e.to)?) {
                continue;
            }
            // SAFETY: the edge exists as read above, with this data.
            check!(
                unsafe { sys::cuGraphRemoveDependencies_v2(self.graph, &e.from, &e.to, &e.data, 1) }.result()
            )?;
            // SAFETY: both nodes are kernel nodes of this graph.
            check!(
                unsafe { sys::cuGraphAddDependencies_v2(self.graph, &e.from, &e.to, &programmatic, 1) }
                    .result()
            )?;
            rewired.push(Edge {
                from: id(e.from),
                to: id(e.to),
            });
        }
        Ok(rewired)
    }

    /// Makes the executable graph (`cuGraphInstantiateWithFlags`, no flags).
    pub fn instantiate(&mut self) -> Result<(), CudaError> {
        if self.exec.is_null() {
            // SAFETY: a complete graph; writes one handle.
            check!(unsafe { sys::cuGraphInstantiateWithFlags(&mut self.exec, self.graph, 0) }.result())?;
        }
        Ok(())
    }

    /// Uploads the executable to the device on `stream`, so the first
    /// launch pays no upload.
    pub fn upload(&self, stream: &CudaStream) -> Result<(), CudaError> {
        let exec = self.exec("Graph::upload")?;
        // SAFETY: the executable graph and stream are live.
        check!(unsafe { sys::cuGraphUpload(exec, stream.cu_stream()) }.result())
    }

    /// Queues one replay of the whole graph on `stream`.
    pub fn launch(&self, stream: &CudaStream) -> Result<(), CudaError> {
        let exec = self.exec("Graph::launch")?;
        // SAFETY: the executable graph and stream are live.
        check!(unsafe { sys::cuGraphLaunch(exec, stream.cu_stream()) }.result())
    }

    fn exec(&self, call: &'static str) -> Result<CUgraphExec, CudaError> {
        if self.exec.is_null() {
            return Err(CudaError::refused(
                file!(),
                line!(),
                call,
                "the graph is not instantiated",
            ));
        }
        Ok(self.exec)
    }

    fn raw_edges(&self) -> Result<Vec<RawEdge>, CudaError> {
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
        // A graph of one node has no edges; asked for them through arrays of
        // none, the driver answers CUDA_ERROR_INVALID_VALUE (the recorded
        // suite sessions' `modes-graph-pdl` transcripts, where fma-10ms's
        // graph is one launch), so do not ask.
        if count == 0 {
            return Ok(Vec::new());
        }
        let mut from: Vec<CUgraphNode> = vec![std::ptr::null_mut(); count];
        let mut to: Vec<CUgraphNode> = vec![std::ptr::null_mut(); count];
        let mut data = vec![edge_data(0, CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT); count];
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
        let count = count.min(from.len());
        Ok((0..count)
            .map(|i| RawEdge {
                from: from[i],
                to: to[i],
                data: data[i],
            })
            .collect())
    }
}

fn id(node: CUgraphNode) -> NodeId {
    NodeId(node as usize)
}

fn edge_data(from_port: u8, kind: CUgraphDependencyType) -> CUgraphEdgeData {
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

impl Drop for Graph {
    fn drop(&mut self) {
        let (exec, graph) = (self.exec, self.graph);
        // The executable first, as cudarc's CudaGraph does: it was made from
        // the graph.
        release(&*self.ctx, |keep| {
            if !exec.is_null() {
                // SAFETY: instantiated once, destroyed once.
                keep(unsafe { sys::cuGraphExecDestroy(exec) }.result());
            }
            if !graph.is_null() {
                // SAFETY: made by the capture, destroyed once.
                keep(unsafe { sys::cuGraphDestroy(graph) }.result());
            }
        });
    }
}
