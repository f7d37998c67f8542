//! Emptying the L2 of a kernel's data before a cold sample, leaving nothing
//! for the kernel to clean up. The usual flush writes a buffer larger than
//! the L2 (Triton's do_bench zeroes 256 MB), leaving the L2 full of dirty
//! lines that the timed kernel then writes back. [`L2Flush`] writes its
//! buffer once and from then on only reads it: the lines it leaves are
//! clean, and what the previous sample left dirty is written back during the
//! flush, outside the timed region (Nsight Compute's default cache control).
//! The kernel is PTX, compiled by the driver for whatever GPU runs it.

use std::ffi::{c_void, CStr};

use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, LoadedKernel};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaStream};

/// Reads `n` 16-byte vectors with a grid-stride loop and folds them into one
/// word, stored only if it equals a value the zeroed buffer cannot produce,
/// so the loads cannot be optimised away and nothing is ever written.
const READ_PTX: &CStr = c"
.version 7.0
.target sm_70
.address_size 64

.visible .entry l2_flush_read(.param .u64 p_buf, .param .u64 p_n)
{
    .reg .pred p;
    .reg .b32 r<10>;
    .reg .b64 rd<10>;
    ld.param.u64 rd1, [p_buf];
    ld.param.u64 rd2, [p_n];
    cvta.to.global.u64 rd1, rd1;
    mov.u32 r1, %ctaid.x;
    mov.u32 r2, %ntid.x;
    mov.u32 r3, %tid.x;
    mov.u32 r4, %nctaid.x;
    mul.wide.u32 rd3, r1, r2;
    cvt.u64.u32 rd4, r3;
    add.u64 rd3, rd3, rd4;
    mul.wide.u32 rd5, r4, r2;
    mov.u32 r5, 0;
LOOP:
    setp.ge.u64 p, rd3, rd2;
    @p bra END;
    shl.b64 rd6, rd3, 4;
    add.u64 rd7, rd1, rd6;
    ld.global.v4.u32 {r6, r7, r8, r9}, [rd7];
    xor.b32 r5, r5, r6;
    xor.b32 r5, r5, r7;
    xor.b32 r5, r5, r8;
    xor.b32 r5, r5, r9;
    add.u64 rd3, rd3, rd5;
    bra LOOP;
END:
    setp.ne.u32 p, r5, 1234567891;
    @p bra DONE;
    st.global.u32 [rd1], r5;
DONE:
    ret;
}
";

const THREADS: u32 = 256;
const BLOCKS_PER_SM: u32 = 8;

/// A buffer twice the L2's size and the kernel that reads it.
pub struct L2Flush {
    buffer: DeviceBuffer<u8>,
    read: LoadedKernel,
    blocks: u32,
}

impl L2Flush {
    pub fn new(ctx: &std::sync::Arc<CudaContext>) -> Result<L2Flush, CudaError> {
        let l2 =
            check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE))?.max(1) as usize;
        let sms = check!(ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT))?.max(1)
            as u32;
        // Whole 16-byte vectors, at least twice the L2.
        let bytes = (2 * l2).div_ceil(16) * 16;
        let mut buffer = check!(DeviceBuffer::<u8>::alloc(ctx, bytes))?;
        // Zeroed once, read ever after.
        check!(buffer.zero())?;
        Ok(L2Flush {
            buffer,
            read: LoadedKernel::from_ptx(ctx, READ_PTX, c"l2_flush_read")?,
            blocks: sms * BLOCKS_PER_SM,
        })
    }

    pub fn bytes(&self) -> usize {
        self.buffer.len()
    }

    /// Queues the flush on `stream` and returns without waiting for it.
    pub fn queue(&self, stream: &CudaStream) -> Result<(), CudaError> {
        let mut ptr = self.buffer.device_ptr();
        let mut vectors = (self.buffer.len() / 16) as u64;
        let mut params = [
            &mut ptr as *mut _ as *mut c_void,
            &mut vectors as *mut _ as *mut c_void,
        ];
        // SAFETY: the parameters match l2_flush_read's; the buffer outlives
        // the launch (dropping it frees with a synchronous free).
        unsafe { self.read.launch(self.blocks, THREADS, &mut params, stream) }
    }
}
