//! On a GPU: the timer warms up, times, and keeps per-launch data.
//! Run with `cargo test -- --ignored` where there is an NVIDIA GPU;
//! ci/gpu-session.sh runs these on the GPU machine.

use std::cell::Cell;

use cuda_check::check;
use cudarc::driver::{result, CudaContext};
use time_kernel::KernelTimer;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn it_runs_the_launch_warmups_plus_runs_times_and_keeps_per_launch_times() {
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

    let timer = KernelTimer::new(2, 8).unwrap().per_launch(true);
    let timing = timer.time(&stream, launch).unwrap();
    assert_eq!(calls.get(), 10, "2 warm-ups and 8 timed runs");
    assert_eq!(timing.per_launch_ms.len(), 8);
    assert!(timing.per_launch_ms.iter().all(|ms| *ms > 0.0));
    let sum: f32 = timing.per_launch_ms.iter().sum();
    assert!(
        (sum - timing.total_ms).abs() <= 0.01 * timing.total_ms,
        "{sum} vs {}",
        timing.total_ms
    );
    // 64 MiB written at no more than the card's few TB/s takes over 10 us.
    assert!(timing.mean_ms() > 0.01, "{}", timing.mean_ms());

    let plain = KernelTimer::default().time(&stream, launch).unwrap();
    assert!(plain.per_launch_ms.is_empty());
    // SAFETY: allocated above, freed once, nothing in flight after the sync.
    unsafe { result::free_sync(buf) }.unwrap();
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn an_error_inside_the_launch_stops_the_timing_and_names_the_call() {
    cuda_check::require_driver().expect("this test needs an NVIDIA driver");
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let err = KernelTimer::default()
        .time(&stream, || check!(cuda_check::RuntimeStatus::INVALID_VALUE))
        .unwrap_err();
    assert_eq!(err.name, "cudaErrorInvalidValue");
    assert!(err.to_string().contains("RuntimeStatus::INVALID_VALUE"), "{err}");
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn the_instrument_measures_in_every_mode_within_its_budget() {
    use time_kernel::instrument::{Instrument, Mode};
    use time_kernel::sampling::{Budget, Warmup};

    cuda_check::require_driver().expect("this test needs an NVIDIA driver");
    let ctx = CudaContext::new(0).unwrap();
    let bytes = 64 << 20;
    // SAFETY: freed below; only memset writes it.
    let buf = unsafe { result::malloc_sync(bytes) }.unwrap();
    let mut launch = |s: &cudarc::driver::CudaStream| {
        check!(unsafe { result::memset_d8_async(buf, 1, bytes, s.cu_stream()) })
    };
    let instrument = Instrument {
        warmup: Warmup::Count(3),
        budget: Budget {
            min_samples: 10,
            max_samples: 200,
            max_gpu_ms: 500.0,
            noise_target: 0.01,
        },
        target_sample_ms: 0.5,
        target_graph_ms: 2.0,
        drop_throttled: true,
    };
    for mode in [Mode::Hot, Mode::ColdCache, Mode::Graph] {
        let m = instrument.measure(&ctx, mode, &mut launch).unwrap();
        assert_eq!(m.mode, mode);
        assert!(
            m.samples.len() >= 10 && m.samples.len() <= 200,
            "{mode:?}: {}",
            m.samples.len()
        );
        assert!(m.summary.median > 0.0 && m.summary.min <= m.summary.median);
        assert!(
            m.gpu_ms_spent >= m.summary.median * m.summary.n as f64,
            "{mode:?}"
        );
        if mode == Mode::ColdCache {
            assert_eq!(m.launches_per_sample, 1);
        } else {
            assert!(m.launches_per_sample >= 1);
        }
    }
    // SAFETY: allocated above, nothing in flight after measure's syncs.
    unsafe { result::free_sync(buf) }.unwrap();
}
