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
