//! On a GPU: the objects behave like their CUDA runtime counterparts.
//! Run with `cargo test -- --ignored` where there is an NVIDIA GPU;
//! ci/gpu-session.sh runs these on the GPU machine.

use cuda_objects::{BlockingStream, DeviceBuffer, DeviceMemory, Mapping, PinnedHost};
use cudarc::driver::sys::cudaError_enum;
use cudarc::driver::CudaContext;

fn ctx() -> std::sync::Arc<CudaContext> {
    cuda_check::require_driver().expect("these tests need an NVIDIA driver");
    CudaContext::new(0).expect("device 0")
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_device_buffer_round_trips_host_data() {
    let ctx = ctx();
    let data: Vec<f32> = (0..100_003).map(|i| i as f32 * 0.5 - 7.0).collect();
    let mut dev = DeviceBuffer::<f32>::alloc(&ctx, data.len()).unwrap();
    dev.copy_from_host(&data).unwrap();
    let mut back = vec![f32::NAN; data.len()];
    dev.copy_to_host(&mut back).unwrap();
    assert_eq!(back, data);
    // A prefix copy touches only the front.
    dev.copy_from_host(&[1.0, 2.0]).unwrap();
    let mut front = [0.0; 3];
    dev.copy_to_host(&mut front).unwrap();
    assert_eq!(front, [1.0, 2.0, data[2]]);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn copies_past_the_end_are_refused_not_performed() {
    let ctx = ctx();
    let mut dev = DeviceBuffer::<f32>::alloc(&ctx, 4).unwrap();
    let err = dev.copy_from_host(&[0.0; 5]).unwrap_err();
    assert_eq!(err.0, cudaError_enum::CUDA_ERROR_INVALID_VALUE);
    let err = dev.copy_to_host(&mut [0.0; 5]).unwrap_err();
    assert_eq!(err.0, cudaError_enum::CUDA_ERROR_INVALID_VALUE);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn an_impossible_allocation_is_an_out_of_memory_error() {
    let ctx = ctx();
    let too_big = ctx.total_mem().unwrap() * 2;
    let err = DeviceBuffer::<u8>::alloc(&ctx, too_big)
        .err()
        .expect("twice the card cannot fit");
    assert_eq!(err.0, cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn pinned_memory_is_zeroed_and_only_mapped_memory_has_a_device_address() {
    let ctx = ctx();
    let plain = PinnedHost::<f32>::alloc(&ctx, 1 << 20, Mapping::Unmapped).unwrap();
    assert!(plain.iter().all(|x| *x == 0.0));
    assert!(plain.device_view().is_err());
    let mapped = PinnedHost::<f32>::alloc(&ctx, 1 << 20, Mapping::Mapped).unwrap();
    let view = mapped.device_view().unwrap();
    assert_ne!(view.device_address(), 0);
    assert_eq!(view.len(), mapped.len());
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn an_async_copy_on_a_blocking_stream_completes_after_synchronize() {
    let ctx = ctx();
    let stream = BlockingStream::create(&ctx).unwrap();
    let mut src = PinnedHost::<f32>::alloc(&ctx, 1 << 20, Mapping::Unmapped).unwrap();
    for (i, x) in src.iter_mut().enumerate() {
        *x = i as f32;
    }
    let mut dev = DeviceBuffer::<f32>::alloc(&ctx, src.len()).unwrap();
    // SAFETY: src lives until after the synchronize below.
    unsafe { dev.copy_from_host_async(&src, stream.stream().cu_stream()) }.unwrap();
    stream.stream().synchronize().unwrap();
    let mut back = vec![0.0; src.len()];
    dev.copy_to_host(&mut back).unwrap();
    assert_eq!(&back[..], &src[..]);
}

/// A kernel that does nothing, as PTX the driver compiles for any GPU here.
const EMPTY_PTX: &std::ffi::CStr = c"
.version 7.0
.target sm_70
.address_size 64

.visible .entry empty()
{
    ret;
}
";

/// `launches` launches of the empty kernel captured on a stream of their
/// own (capture cannot use the legacy default stream); the kernel is kept
/// for as long as the graph, whose nodes launch its function.
fn captured_empty_launches(
    ctx: &std::sync::Arc<CudaContext>,
    launches: usize,
) -> (
    std::sync::Arc<cudarc::driver::CudaStream>,
    cuda_objects::LoadedKernel,
    cuda_objects::Graph,
) {
    let stream = ctx.new_stream().unwrap();
    let kernel = cuda_objects::LoadedKernel::from_ptx(ctx, EMPTY_PTX, c"empty").unwrap();
    // SAFETY: the kernel takes no parameters.
    let launch = |s: &cudarc::driver::CudaStream| unsafe { kernel.launch(1, 32, &mut [], s) };
    let graph = cuda_objects::Graph::capture(&stream, |s| (0..launches).try_for_each(|_| launch(s)))
        .unwrap()
        .expect("the launches were captured");
    (stream, kernel, graph)
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_graph_captures_replays_and_refuses_out_of_order_use() {
    let ctx = ctx();
    let (stream, _kernel, mut graph) = captured_empty_launches(&ctx, 3);
    // Three launches in a chain: two edges, each joining two kernels.
    assert_eq!(graph.edges().unwrap().len(), 2);
    let err = graph.launch(&stream).unwrap_err();
    assert!(err.message.contains("not instantiated"), "{err}");
    graph.instantiate().unwrap();
    let err = graph.make_kernel_edges_programmatic().unwrap_err();
    assert!(err.message.contains("already instantiated"), "{err}");
    graph.upload(&stream).unwrap();
    let pair = cuda_objects::EventPair::new(&ctx).unwrap();
    let ms = pair.time(&stream, || graph.launch(&stream)).unwrap();
    assert!(ms > 0.0, "{ms} ms");
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_graph_and_a_kernel_drop_in_their_own_context_and_leave_no_error_on_it() {
    let ctx = ctx();
    let (stream, kernel, mut graph) = captured_empty_launches(&ctx, 2);
    graph.instantiate().unwrap();
    graph.launch(&stream).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(ctx.check_err(), Ok(()), "nothing recorded before the drops");
    // No context current on this thread: each Drop must make its own
    // current (cuModuleUnload unloads from the current context, and fails
    // without one), and would record the failure on the context if it did not.
    // SAFETY: unbinds only; every handle above stays valid.
    unsafe { cudarc::driver::result::ctx::set_current(std::ptr::null_mut()) }.unwrap();
    drop(graph);
    drop(kernel);
    assert_eq!(ctx.check_err(), Ok(()), "no destroy call failed");
    // And the context is usable after them.
    ctx.synchronize().unwrap();
}

#[test]
#[ignore = "needs a GPU with programmatic dependent launch (compute capability 9.0+)"]
fn kernel_to_kernel_edges_become_programmatic_before_instantiation() {
    let ctx = ctx();
    let (stream, _kernel, mut graph) = captured_empty_launches(&ctx, 4);
    let edges = graph.edges().unwrap();
    let rewired = graph.make_kernel_edges_programmatic().unwrap();
    assert_eq!(rewired, edges, "every edge joins two kernels");
    graph.instantiate().unwrap();
    graph.launch(&stream).unwrap();
    stream.synchronize().unwrap();
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_zeroed_buffer_copies_on_the_device_and_the_facts_are_the_devices() {
    use cuda_objects::{DeviceFacts, DriverVersion};

    let ctx = ctx();
    let mut src = DeviceBuffer::<u32>::alloc(&ctx, 1000).unwrap();
    src.copy_from_host(&[7; 1000]).unwrap();
    src.zero().unwrap();
    let mut dst = DeviceBuffer::<u32>::alloc(&ctx, 1001).unwrap();
    dst.copy_from_host(&[9; 1001]).unwrap();
    let stream = ctx.default_stream();
    dst.copy_from_device_async(&src, &stream).unwrap();
    stream.synchronize().unwrap();
    let mut back = vec![1; 1001];
    dst.copy_to_host(&mut back).unwrap();
    assert!(back[..1000].iter().all(|&x| x == 0) && back[1000] == 9);
    let err = src.copy_from_device_async(&dst, &stream).unwrap_err();
    assert_eq!(
        err.0,
        cudaError_enum::CUDA_ERROR_INVALID_VALUE,
        "a longer source is refused"
    );

    let facts = DeviceFacts::query(&ctx).unwrap();
    assert!(!facts.name.is_empty() && facts.compute_capability.0 >= 7 && facts.l2_bytes > 0);
    assert_eq!(facts.driver, DriverVersion::query().unwrap());
    assert!(facts.driver.0 >= 12000, "{}", facts.driver);
    assert!(cuda_objects::free_memory(&ctx).unwrap() > 0);
}
