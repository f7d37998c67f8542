//! Which mode to trust for a kernel, from a short pilot: a choice made from
//! numbers a caller already has, kept apart from measuring, each rule beside
//! the recorded sessions that justify it. Pure logic, tested without a GPU.

use crate::mode::Mode;

/// Below this pilot time (ms) a kernel is near the launch floor. The
/// isolated sample, a difference of two replays that each hold an L2 flush,
/// jitters by about as much as a kernel of a few microseconds takes, and too
/// many samples fall below the timer's tick (the suite's `modes-isolated`
/// transcript, evidence/instrument-suite/, gives empty and vector-add-l2 no
/// median). Ten microseconds keeps the kernel several times the jitter.
pub const NEAR_LAUNCH_FLOOR_MS: f64 = 0.01;

/// Which mode to trust for a kernel. Near the launch floor, graph replay: a
/// sample of hundreds of launches, well above the timer's tick, with no
/// host in the gaps. Otherwise, with programmatic launch (compute capability
/// 9.0 and later), isolated: the kernel alone on a clean L2, as Nsight
/// Compute times it, long kernels too (a hot sample of one launch holds the
/// host's submission; the suite's `modes` transcripts put hot further above
/// ncu than isolated on both fma kernels). Without it: cold-cache where the
/// declared data fits in the L2 (a hot loop would time the cache), graph
/// replay under 1 ms, hot for longer kernels, whose gaps are a small share.
/// Never cupti (tracing adds work around every kernel,
/// evidence/instrument/README.md) nor serial (its latency near the floor
/// moves too much between processes, evidence/instrument/nvbench.md).
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
