//! Kernel durations from the GPU's own timestamps: CUPTI's activity records,
//! the source Nsight Systems reads. Events time everything between two
//! points in a stream, gaps included; a kernel record holds only the
//! kernel's own start and end. [`KernelTrace`] turns them on for one stream.
//!
//! The CUPTI calls here (and `is_culib_present` in `libcupti`) are the only
//! raw calls outside `cuda-objects` and `cuda-check`, on purpose: CUPTI has
//! process-wide state of its own and the instrument is its one user; moved
//! into `cuda-objects`, every lesson would build cudarc's CUPTI bindings.

use std::alloc::{alloc, dealloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use cuda_check::{check, CudaError};
use cudarc::cupti::result::{activity, get_stream_id_ex};
use cudarc::cupti::sys::{self, CUpti_ActivityFlag, CUpti_ActivityKind};
use cudarc::driver::CudaStream;

use crate::error::Error;
use crate::libcupti;

/// One kernel as CUPTI recorded it: the GPU's timestamps, in ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelSpan {
    pub stream_id: u32,
    pub start_ns: u64,
    pub end_ns: u64,
}

impl KernelSpan {
    pub fn ms(&self) -> f64 {
        self.end_ns.saturating_sub(self.start_ns) as f64 * 1e-6
    }
}

/// Kernel records that cannot be launches' times.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    #[error(
        "{records} kernel records for {launches} launches: each launch must run the same number of kernels"
    )]
    Uneven { records: usize, launches: usize },
    #[error("a kernel record ends before it starts: {0:?}")]
    Backwards(KernelSpan),
}

/// What each of `launches` launches took, in ms: the spans, of exactly those
/// launches on one stream, sorted by start, each launch owning the same
/// number of consecutive kernels and taking the sum of their durations.
pub fn per_launch_ms(spans: &[KernelSpan], launches: usize) -> Result<Vec<f64>, RecordsError> {
    if launches == 0 || spans.is_empty() || !spans.len().is_multiple_of(launches) {
        return Err(RecordsError::Uneven {
            records: spans.len(),
            launches,
        });
    }
    let mut sorted = spans.to_vec();
    sorted.sort_by_key(|s| s.start_ns);
    if let Some(&bad) = sorted.iter().find(|s| s.end_ns < s.start_ns) {
        return Err(RecordsError::Backwards(bad));
    }
    let per = sorted.len() / launches;
    Ok(sorted
        .chunks(per)
        .map(|c| c.iter().map(KernelSpan::ms).sum())
        .collect())
}

/// The fields every CUPTI kernel record (`CUpti_ActivityKernel4` and every
/// later version, through the one CUDA 13.0 writes) begins with, at the same
/// offsets. Reading only these keeps the parser right whichever version the
/// loaded libcupti writes. The offsets are tested against cudarc's binding.
#[repr(C)]
#[derive(Clone, Copy)]
struct KernelRecordHead {
    kind: u32,
    cache_config: u8,
    shared_memory_config: u8,
    registers_per_thread: u16,
    partitioned_cache_requested: u32,
    partitioned_cache_executed: u32,
    start: u64,
    end: u64,
    completed: u64,
    device_id: u32,
    context_id: u32,
    stream_id: u32,
}

const KIND_KERNEL: u32 = CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_KERNEL as u32;
const KIND_CONCURRENT_KERNEL: u32 = CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL as u32;

/// Records delivered by CUPTI's buffer callback, waiting for a [`KernelTrace`].
static SPANS: Mutex<Vec<KernelSpan>> = Mutex::new(Vec::new());
/// Buffers CUPTI asked for that could not be allocated (records lost).
static BUFFERS_REFUSED: AtomicUsize = AtomicUsize::new(0);
/// CUPTI has one set of activity callbacks per process: one trace at a time.
static TRACING: AtomicBool = AtomicBool::new(false);

const BUFFER_BYTES: usize = 1 << 20;
const BUFFER_ALIGN: usize = 8;

fn buffer_layout() -> Layout {
    // Both are constants that make a valid layout; checked by a test.
    Layout::from_size_align(BUFFER_BYTES, BUFFER_ALIGN).unwrap_or(Layout::new::<u64>())
}

fn spans_lock() -> std::sync::MutexGuard<'static, Vec<KernelSpan>> {
    // A panic cannot happen while the lock is held (pushes and drains only),
    // but a poisoned lock must not turn into a panic inside a C callback.
    SPANS.lock().unwrap_or_else(|p| p.into_inner())
}

extern "C" fn buffer_requested(buffer: *mut *mut u8, size: *mut usize, max_records: *mut usize) {
    // SAFETY: a non-zero layout; a null result is handed to CUPTI as "none".
    let ptr = unsafe { alloc(buffer_layout()) };
    if ptr.is_null() {
        BUFFERS_REFUSED.fetch_add(1, Ordering::Relaxed);
    }
    // SAFETY: CUPTI passes valid out-pointers.
    unsafe {
        *buffer = ptr;
        *size = if ptr.is_null() { 0 } else { BUFFER_BYTES };
        *max_records = 0; // as many as fit
    }
}

extern "C" fn buffer_completed(
    _context: cudarc::driver::sys::CUcontext,
    _stream_id: u32,
    buffer: *mut u8,
    _size: usize,
    valid: usize,
) {
    if buffer.is_null() {
        return;
    }
    let mut found = Vec::new();
    let mut record: *mut sys::CUpti_Activity = std::ptr::null_mut();
    // SAFETY: CUPTI hands back a buffer from buffer_requested with `valid`
    // bytes of records; get_next_record walks them and stops at the end.
    while unsafe { activity::get_next_record(buffer, valid, &mut record) }.is_ok() {
        // SAFETY: every record starts with its kind; kernel records start
        // with KernelRecordHead. Records are 8-byte aligned but read unaligned
        // all the same, as CUPTI's structs are packed.
        let kind = unsafe { std::ptr::read_unaligned(record as *const u32) };
        if kind == KIND_KERNEL || kind == KIND_CONCURRENT_KERNEL {
            let head = unsafe { std::ptr::read_unaligned(record as *const KernelRecordHead) };
            found.push(KernelSpan {
                stream_id: head.stream_id,
                start_ns: head.start,
                end_ns: head.end,
            });
        }
    }
    spans_lock().extend(found);
    // SAFETY: allocated in buffer_requested with this layout, freed once.
    unsafe { dealloc(buffer, buffer_layout()) };
}

/// Kernel activity recording for one stream, on while this value lives.
pub struct KernelTrace {
    stream_id: u32,
}

impl KernelTrace {
    /// Turns kernel records on for `stream`. Refused when CUPTI is not
    /// available, refuses a call (a profiling permission, another tool
    /// attached) or another trace is running.
    pub fn start(stream: &CudaStream) -> Result<KernelTrace, Error> {
        libcupti::available()?;
        if TRACING.swap(true, Ordering::AcqRel) {
            return Err(Error::TraceBusy);
        }
        // From here on, Drop ends the trace on every path.
        let mut trace = KernelTrace { stream_id: 0 };
        static REGISTERED: OnceLock<Result<(), CudaError>> = OnceLock::new();
        REGISTERED
            .get_or_init(|| {
                check!(activity::register_callbacks(
                    Some(buffer_requested),
                    Some(buffer_completed)
                ))
            })
            .clone()?;
        check!(stream.context().bind_to_thread())?;
        // SAFETY: the context and stream are live; writes one u32.
        check!(unsafe {
            get_stream_id_ex(
                stream.context().cu_ctx(),
                stream.cu_stream(),
                0,
                &mut trace.stream_id,
            )
        })?;
        check!(activity::enable(
            CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
        ))?;
        trace.discard()?;
        Ok(trace)
    }

    fn flush() -> Result<(), Error> {
        // cudarc binds the flag's enum with a value shared by two names, so
        // the forced-flush flag is passed by its number.
        let forced = CUpti_ActivityFlag::CUPTI_ACTIVITY_FLAG_FLUSH_FORCED as u32;
        Ok(check!(activity::flush_all(forced))?)
    }

    /// Forgets every record so far.
    pub fn discard(&mut self) -> Result<(), Error> {
        Self::flush()?;
        spans_lock().clear();
        Ok(())
    }

    /// The kernels this stream ran since the last call, in start order. Call
    /// after synchronising the stream, so every kernel has finished.
    pub fn take(&mut self) -> Result<Vec<KernelSpan>, Error> {
        Self::flush()?;
        let buffers = BUFFERS_REFUSED.swap(0, Ordering::Relaxed);
        if buffers > 0 {
            return Err(Error::RecordsLost { buffers });
        }
        let mut spans: Vec<KernelSpan> = spans_lock()
            .drain(..)
            .filter(|s| s.stream_id == self.stream_id)
            .collect();
        spans.sort_by_key(|s| s.start_ns);
        Ok(spans)
    }
}

impl Drop for KernelTrace {
    fn drop(&mut self) {
        // Nothing to report to from here: a failure only leaves records on,
        // which the next trace's start discards.
        let _ = activity::disable(CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        let _ = Self::flush();
        spans_lock().clear();
        TRACING.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    fn span(start_ns: u64, end_ns: u64) -> KernelSpan {
        KernelSpan {
            stream_id: 7,
            start_ns,
            end_ns,
        }
    }

    #[test]
    fn the_record_head_matches_cuptis_own_layout() {
        // The newest record the workspace's CUDA 12.3 bindings describe.
        use sys::CUpti_ActivityKernel9 as K;
        assert_eq!(offset_of!(KernelRecordHead, kind), offset_of!(K, kind));
        assert_eq!(
            offset_of!(KernelRecordHead, registers_per_thread),
            offset_of!(K, registersPerThread)
        );
        assert_eq!(offset_of!(KernelRecordHead, start), offset_of!(K, start));
        assert_eq!(offset_of!(KernelRecordHead, end), offset_of!(K, end));
        assert_eq!(offset_of!(KernelRecordHead, device_id), offset_of!(K, deviceId));
        assert_eq!(offset_of!(KernelRecordHead, stream_id), offset_of!(K, streamId));
        assert!(std::mem::size_of::<KernelRecordHead>() <= std::mem::size_of::<K>());
        // And the oldest version it claims to cover.
        use sys::CUpti_ActivityKernel4 as K4;
        assert_eq!(offset_of!(KernelRecordHead, start), offset_of!(K4, start));
        assert_eq!(offset_of!(KernelRecordHead, stream_id), offset_of!(K4, streamId));
    }

    #[test]
    fn one_kernel_per_launch_gives_each_kernels_duration() {
        let got = per_launch_ms(&[span(1_000, 59_000), span(61_000, 119_500)], 2).unwrap();
        assert_eq!(got.len(), 2);
        assert!(
            (got[0] - 0.058).abs() < 1e-12 && (got[1] - 0.0585).abs() < 1e-12,
            "{got:?}"
        );
    }

    #[test]
    fn launches_of_several_kernels_sum_them_and_leave_out_the_gaps() {
        // Out of order on purpose: records can arrive in any order.
        let spans = [
            span(30_000, 40_000),
            span(0, 10_000),
            span(12_000, 22_000),
            span(42_000, 52_000),
        ];
        assert_eq!(per_launch_ms(&spans, 2).unwrap(), vec![0.02, 0.02]);
    }

    #[test]
    fn records_that_do_not_divide_into_the_launches_are_an_error() {
        let err = per_launch_ms(&[span(0, 1), span(2, 3), span(4, 5)], 2)
            .unwrap_err()
            .to_string();
        assert!(err.contains("3 kernel records for 2 launches"), "{err}");
        assert!(per_launch_ms(&[], 1).is_err());
        assert!(per_launch_ms(&[span(0, 1)], 0).is_err());
        assert!(per_launch_ms(&[span(9, 3)], 1)
            .unwrap_err()
            .to_string()
            .contains("ends before it starts"));
    }

    #[test]
    fn the_record_buffer_layout_is_valid() {
        assert!(Layout::from_size_align(BUFFER_BYTES, BUFFER_ALIGN).is_ok());
    }

    #[test]
    fn a_trace_error_says_what_went_wrong_in_one_line() {
        use crate::libcupti::CuptiUnavailable;
        assert_eq!(
            Error::RecordsLost { buffers: 2 }.to_string(),
            "2 CUPTI record buffer(s) could not be allocated; records were lost"
        );
        assert_eq!(
            Error::from(CuptiUnavailable::NotFound).to_string(),
            CuptiUnavailable::NotFound.to_string(),
            "libcupti's absence is said as it is"
        );
    }
}
