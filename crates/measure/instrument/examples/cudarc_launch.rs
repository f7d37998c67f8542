//! Timing a kernel you launch with cudarc. The instrument's [`Launch`] is any
//! closure that queues one launch on the stream it is given, as nvbench's
//! `state.exec` takes a lambda: the instrument calls it for the warm-up, the
//! pilot and every sample, and captures it into graphs for the graph and
//! isolated modes, so it must launch on that stream and do nothing else.
//!
//!     cargo run --release -p instrument --example cudarc_launch
//!
//! It scales 16 Mi floats in place, picks the mode `recommend` trusts for it
//! from a short hot pilot, and prints the median with its 95% interval.
//!
//! [`Launch`]: instrument::Launch

use cudarc::driver::{CudaContext, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use instrument::measure::{pilot, Instrument};
use instrument::recommend::recommend;
use instrument::{has_programmatic_launch, Mode};

/// `x[i] *= a` for i < n, as PTX (nvcc -ptx of the three-line CUDA C
/// kernel), so the example needs no compiler: the driver compiles it.
const SCALE_PTX: &str = "
.version 7.0
.target sm_70
.address_size 64
.visible .entry scale(.param .u64 x_param, .param .f32 a_param, .param .u32 n_param)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [x_param];
    ld.param.f32 %f1, [a_param];
    ld.param.u32 %r1, [n_param];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f2, [%rd4];
    mul.f32 %f3, %f2, %f1;
    st.global.f32 [%rd4], %f3;
DONE:
    ret;
}
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // cudarc panics without libcuda; one line instead.
    cuda_check::require_driver()?;
    let ctx = CudaContext::new(0)?;
    // cudarc records an event on a buffer's stream around each use on
    // another stream; the instrument's stream is another one, and an event
    // from outside a graph capture would end the capture.
    // SAFETY: the buffer below is used on one stream at a time, and the
    // allocation is waited for before the first launch.
    unsafe { ctx.disable_event_tracking() };
    let module = ctx.load_module(Ptx::from_src(SCALE_PTX))?;
    let scale = module.load_function("scale")?;
    let n: u32 = 16 << 20;
    let mut x = ctx.default_stream().alloc_zeros::<f32>(n as usize)?;
    ctx.default_stream().synchronize()?;
    let a = 1.0001f32;

    // The Launch: one launch on the stream the instrument gives.
    let mut launch = |stream: &CudaStream| {
        let mut builder = stream.launch_builder(&scale);
        builder.arg(&mut x).arg(&a).arg(&n);
        // SAFETY: the parameters are the kernel's: a float buffer of n
        // elements, a float and an unsigned int.
        cuda_check::check!(unsafe { builder.launch(LaunchConfig::for_num_elems(n)) }).map(|_| ())
    };

    let pilot_ms = pilot(&ctx, &mut launch)?;
    let facts = cuda_objects::DeviceFacts::query(&ctx)?;
    let programmatic = has_programmatic_launch(facts.compute_capability)
        && instrument::driver::runs(Mode::GraphPdl, facts.driver);
    let bytes = 2 * 4 * n as u64; // each float read and written once
    let mode = recommend(pilot_ms, Some(bytes), facts.l2_bytes, programmatic);

    let m = Instrument::default().measure(&ctx, mode, &mut launch)?;
    let s = &m.summary;
    println!(
        "scale over {n} floats on {}: {} mode, median {:.5} ms (95% interval {:.5} .. {:.5}), {} samples, {:.0} GB/s",
        facts.name,
        mode.name(),
        s.median,
        s.median_ci.0,
        s.median_ci.1,
        s.n,
        bytes as f64 / (s.median * 1e-3) / 1e9
    );
    Ok(())
}
