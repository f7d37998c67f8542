//! Day 53's printed lines, in the exact layout pinned.cu prints, so the two
//! programs' transcripts compare line by line. The lesson prints each part as
//! it finishes, so these are functions per line, not one report at the end.

use lesson_spec::fill;

pub(crate) const P1_ROW: &str = "{:>6} MiB  {:9.3} ms {:5.1} GB/s  {:9.3} ms {:5.1} GB/s  {:6.2}x";
pub(crate) const P2_ROW: &str = "{:>9}  call {:8.3} ms  completion {:8.3} ms  call is {:5.1}%";
pub(crate) const P3_ROW: &str = "{:>16}  {:8.3} ms  {:6.1} GB/s effective";

/// Bytes per millisecond as GB/s (10^9 bytes), as pinned.cu's gbPerS.
pub fn gb_per_s(bytes: usize, ms: f64) -> f64 {
    bytes as f64 / (ms * 1.0e-3) / 1.0e9
}

pub fn gpu_line(name: &str, (major, minor): (i32, i32)) -> String {
    format!("GPU: {name} (compute capability {major}.{minor})")
}

pub fn part1_header(runs: u32, warmups: u32) -> String {
    format!(
        "\nPart 1: host-to-device bandwidth, cudaMemcpy\n\
         mean of {runs} runs after {warmups} warm-ups per cell\n\
         {:>9}  {:>21}  {:>21}  {:>7}",
        "size", "pageable", "pinned", "ratio"
    )
}

/// One size: pageable and pinned mean milliseconds, GB/s, and their ratio.
pub fn part1_row(mib: usize, pageable_ms: f64, pinned_ms: f64) -> String {
    let (bytes, ratio) = (mib * 1024 * 1024, pageable_ms / pinned_ms);
    let (pageable, pinned) = (gb_per_s(bytes, pageable_ms), gb_per_s(bytes, pinned_ms));
    fill(
        P1_ROW,
        &[&mib, &pageable_ms, &pageable, &pinned_ms, &pinned, &ratio],
    )
}

pub fn part2_header(runs: u32) -> String {
    format!(
        "\nPart 2: cudaMemcpyAsync, 64.0 MiB, call vs completion\n\
         mean of {runs} runs after 1 warm-up per source"
    )
}

pub fn part2_row(source: &str, call_ms: f64, completion_ms: f64) -> String {
    let percent = 100.0 * call_ms / completion_ms;
    fill(P2_ROW, &[&source, &call_ms, &completion_ms, &percent])
}

pub fn part3_header(elems: usize, runs: u32, warmups: u32) -> String {
    let mib = (elems * std::mem::size_of::<f32>()) as f64 / (1024.0 * 1024.0);
    format!(
        "\nPart 3: scaleCopy over {elems} floats ({mib:.1} MiB read)\n\
         mean of {runs} launches after {warmups} warm-ups per variant"
    )
}

/// One variant; the effective rate counts the bytes read and the bytes written.
pub fn part3_row(variant: &str, elems: usize, ms: f32) -> String {
    let bytes = 2 * elems * std::mem::size_of::<f32>();
    let ms = f64::from(ms);
    fill(P3_ROW, &[&variant, &ms, &gb_per_s(bytes, ms)])
}

pub fn part3_summary(resident_ms: f32, zero_copy_ms: f32, launches: u32) -> String {
    format!(
        "zero-copy costs {:.2}x the resident kernel; its read crossed PCIe on every one of the \
         {launches} launches (correctness gate, warm-ups and timed runs), the resident read \
         crossed once, in the staging copy",
        f64::from(zero_copy_ms / resident_ms)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    // C's printf is the oracle: each line is the .cu's own format.
    use lesson_spec::testkit::conformance::c_printf as printf;

    #[test]
    fn gb_per_s_is_decimal_gigabytes() {
        assert_eq!(gb_per_s(1_000_000_000, 1000.0), 1.0);
        assert!((gb_per_s(256 << 20, 5.0) - 53.687_091_2).abs() < 1e-9);
    }

    #[test]
    fn part1_lines_match_c_printf() {
        let header = part1_header(10, 3);
        assert_eq!(
            header.lines().last().unwrap(),
            printf("%9s  %21s  %21s  %7s", &["size", "pageable", "pinned", "ratio"])
        );
        let (pageable, pinned) = (20.125, 4.836);
        let gb = |ms: f64| gb_per_s(256 << 20, ms).to_string();
        assert_eq!(
            part1_row(256, pageable, pinned),
            printf(
                "%6zu MiB  %9.3f ms %5.1f GB/s  %9.3f ms %5.1f GB/s  %6.2fx",
                &[
                    "256",
                    "20.125",
                    &gb(pageable),
                    "4.836",
                    &gb(pinned),
                    &(pageable / pinned).to_string()
                ]
            )
        );
    }

    #[test]
    fn part2_rows_give_the_call_as_a_share_of_completion() {
        assert_eq!(
            part2_row("pinned", 0.012, 1.21),
            printf(
                "%9s  call %8.3f ms  completion %8.3f ms  call is %5.1f%%",
                &["pinned", "0.012", "1.21", &(100.0 * 0.012 / 1.21).to_string()]
            )
        );
        assert_eq!(
            part2_row("pageable", 9.0, 10.0),
            " pageable  call    9.000 ms  completion   10.000 ms  call is  90.0%"
        );
    }

    #[test]
    fn part3_reports_effective_bandwidth_and_the_ratio() {
        let elems = 16 * 1024 * 1024 + 611;
        assert_eq!(
            part3_header(elems, 10, 3),
            "\nPart 3: scaleCopy over 16777827 floats (64.0 MiB read)\n\
             mean of 10 launches after 3 warm-ups per variant"
        );
        // 134,222,616 bytes in 0.05 ms is 2684.5 GB/s.
        assert_eq!(
            part3_row("device-resident", elems, 0.05),
            " device-resident     0.050 ms  2684.5 GB/s effective"
        );
        assert!(part3_summary(0.05, 2.5, 14).starts_with("zero-copy costs 50.00x the resident kernel;"));
    }
}
