//! Which mode to trust for a kernel, from a short pilot: a policy over the
//! pilot's median, the data the caller declares, the L2's size and whether
//! the device has programmatic launch. Pure logic, tested without a GPU.
//!
//! Kept apart from measuring: it is a choice made from numbers a caller
//! already has (the instrument suite's pilot, Day 9's hot median), not a
//! step of any measurement, and each rule sits beside the recorded sessions
//! that justify it.
//!
//! Not for: measuring (`measure`), or whether the device and driver can run
//! a mode at all (`mode::has_programmatic_launch`, `driver`).

use crate::mode::Mode;

/// Below this pilot time (ms) a kernel is near the launch floor, and no mode
/// that takes one launch per sample resolves it. The isolated mode's sample
/// is the difference of two replays that each hold an L2 flush; that
/// difference jitters by about as much as a kernel of a few microseconds
/// takes, so such a kernel is a minority of its own sample, and too many
/// samples come out below the timer's tick (the recorded suite session's
/// `modes-isolated` transcript, evidence/instrument-suite/, gives the empty
/// kernel and vector-add-l2 no median for that reason). A looser rejection
/// rule would only print a median made of that jitter. Ten microseconds
/// keeps the kernel several times the jitter.
pub const NEAR_LAUNCH_FLOOR_MS: f64 = 0.01;

/// Which mode to trust for a kernel. Near the launch floor
/// ([`NEAR_LAUNCH_FLOOR_MS`]), graph replay on every device: a sample is a
/// batch of hundreds of launches, well above the timer's resolution, with no
/// subtraction and no host in the gaps; nothing it takes is impossible, so
/// the rejection rule never has to choose between noise and a real time.
/// (Cold-cache and isolated samples of such a kernel would be mostly event
/// overhead or mostly flush jitter.) Otherwise, with programmatic dependent
/// launch (compute capability 9.0 and later), every kernel gets the isolated
/// mode: the kernel alone on a clean L2, as Nsight Compute times it, with no
/// launch gap and none of the previous launch's write-back in the sample.
/// That holds for long kernels too: a hot sample of a kernel over 0.5 ms is
/// one launch between two events with the GPU idle before it, so it holds
/// the host's submission of the launch after the start event (the recorded
/// suite session's `modes` transcripts put hot further above ncu than
/// isolated on both fma kernels), while an isolated sample queues behind an
/// untimed flush that keeps the GPU busy. Without programmatic launch: cold-cache where the data the
/// caller declares fits in the L2 (a hot loop would time the cache), graph
/// replay under 1 ms, hot back-to-back for longer kernels, where the gaps
/// are a small share. CUPTI's mode is never the pick: tracing adds work
/// around every kernel on the GPU (evidence/instrument/README.md). Nor is
/// the serial mode, whose single-launch latency near the floor moves too
/// much between processes (evidence/instrument/nvbench.md).
pub fn recommend(
    median_ms: f64,
    bytes_touched: Option<u64>,
    l2_bytes: u64,
    programmatic_launch: bool,
) -> Mode {
    let fits_l2 = bytes_touched.is_some_and(|b| b <= l2_bytes);
    match () {
        _ if median_ms < NEAR_LAUNCH_FLOOR_MS => Mode::Graph,
        _ if programmatic_launch => Mode::Isolated,
        _ if fits_l2 => Mode::ColdCache,
        _ if median_ms < 1.0 => Mode::Graph,
        _ => Mode::Hot,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_kernels_get_the_isolated_mode_where_there_is_programmatic_launch() {
        assert_eq!(
            recommend(0.057, Some(201_000_000), 60 << 20, true),
            Mode::Isolated
        );
        assert_eq!(recommend(0.01, None, 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(4 << 20), 60 << 20, true), Mode::Isolated);
    }

    #[test]
    fn without_it_short_kernels_get_graph_replay_and_cache_sized_data_cold_cache() {
        assert_eq!(recommend(0.057, Some(201_000_000), 60 << 20, false), Mode::Graph);
        assert_eq!(recommend(0.01, None, 60 << 20, false), Mode::Graph);
        assert_eq!(recommend(0.01, Some(4 << 20), 60 << 20, false), Mode::ColdCache);
    }

    #[test]
    fn kernels_near_the_launch_floor_get_graph_replay_in_any_case() {
        // Pilots of the suite's empty kernel and vector-add-l2, a few
        // microseconds, whose isolated samples fall below the timer's tick.
        assert_eq!(recommend(0.0019, None, 60 << 20, true), Mode::Graph);
        assert_eq!(recommend(0.0025, Some(786_432), 60 << 20, true), Mode::Graph);
        assert_eq!(recommend(0.0025, Some(786_432), 60 << 20, false), Mode::Graph);
        assert_eq!(
            recommend(NEAR_LAUNCH_FLOOR_MS, Some(786_432), 60 << 20, true),
            Mode::Isolated,
            "the bound itself is far enough from the floor"
        );
    }

    #[test]
    fn long_kernels_get_isolated_with_programmatic_launch_and_hot_without() {
        // Kernels like the suite's fma-1ms and copy-1gib (2 GiB moved).
        assert_eq!(recommend(1.26, None, 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(2 << 30), 60 << 20, true), Mode::Isolated);
        assert_eq!(recommend(5.0, Some(1 << 30), 60 << 20, false), Mode::Hot);
        assert_eq!(recommend(5.0, None, 60 << 20, false), Mode::Hot);
    }
}
