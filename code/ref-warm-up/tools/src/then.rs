//! The post's own figures, the report's "then" column.
//!
//! All from the printed outputs of "How to make GOOD measurements in NVIDIA
//! CUDA?" (../shared/seeds/warm-up-blog-post.txt), as warmup.cu's kThen*
//! constants are; a test holds the rendered table to the .cu's printf.

/// The first call, by `--first` name: the post's first listing
/// ("Time for selecting the device: 3816.443115 ms"), its listing with
/// cudaSetDevice commented out ("Time for the malloc: 3824.311035 ms"), and
/// for a launch, which it never measured first, its conclusion's "about
/// 3,5 s" for any first call.
pub fn first_call_ms(first: &str) -> f64 {
    match first {
        "set-device" => 3816.443,
        "malloc" => 3824.311,
        _ => 3500.0,
    }
}

/// "Time for the malloc: 0.163000 ms", "Time for the 2malloc: 0.026000 ms".
pub const MALLOC_RATIO: f64 = 0.163 / 0.026;
/// The simple kernel's calls #0 and #1: 0.089 and 0.053 ms ("about 68% more").
pub const SIMPLE_OVER_PERCENT: f64 = (0.089 / 0.053 - 1.0) * 100.0;
/// The complex kernel's calls #0 and #1: 1.624 and 1.595 ms ("only a 1,8% more").
pub const COMPLEX_OVER_PERCENT: f64 = (1.624 / 1.595 - 1.0) * 100.0;
/// The loop without a synchronise: 0.021, 0.004, 0.002, 0.003 ms.
pub const NO_SYNC_MAX_MS: f64 = 0.021;
/// The corrected loop's call #0: 0.272 ms.
pub const SYNC_FIRST_MS: f64 = 0.272;
