//! On a GPU: the course's timer warms up, times, and stops at an error
//! inside the launch.
//! Run with `cargo test -- --ignored` where there is an NVIDIA GPU;
//! ci/gpu-session.sh runs these on the GPU machine.

use std::cell::Cell;

use cuda_check::check;
use cudarc::driver::{result, CudaContext};
use time_kernel::KernelTimer;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn it_runs_the_launch_warmups_plus_runs_times() {
    cuda_check::require_driver().expect("this test needs an NVIDIA driver");
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let bytes = 64 << 20;
    // SAFETY: freed below; memset writes every byte before anything reads.
    let buf = unsafe { result::malloc_sync(bytes) }.unwrap();
    let calls = Cell::new(0u32);
    let launch = || {
        calls.set(calls.get() + 1);
        // A 64 MiB memset: real device work of a known, steady size.
        check!(unsafe { result::memset_d8_async(buf, 7, bytes, stream.cu_stream()) })
    };

    let timing = KernelTimer::new(2, 8).unwrap().time(&stream, launch).unwrap();
    assert_eq!(calls.get(), 10, "2 warm-ups and 8 timed runs");
    // 64 MiB written at no more than the card's few TB/s takes over 10 us.
    assert!(timing.mean_ms() > 0.01, "{}", timing.mean_ms());
    // SAFETY: allocated above, freed once, nothing in flight after the sync.
    unsafe { result::free_sync(buf) }.unwrap();
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn an_error_inside_the_launch_stops_the_timing_and_names_the_call() {
    cuda_check::require_driver().expect("this test needs an NVIDIA driver");
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let err = KernelTimer::new(3, 10)
        .unwrap()
        .time(&stream, || check!(cuda_check::RuntimeStatus::INVALID_VALUE))
        .unwrap_err();
    assert_eq!(err.name, "cudaErrorInvalidValue");
    assert!(err.to_string().contains("RuntimeStatus::INVALID_VALUE"), "{err}");
}
