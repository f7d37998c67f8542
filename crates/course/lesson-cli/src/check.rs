//! A lesson's GPU results checked against its CPU reference, the course's way: the first
//! mismatching index (an index names the block that went wrong; a bool does
//! not), and the values printed as C's `%.9g` prints them, so the Rust twins
//! fail with the same line as the C++ programs.
//!
//! Not for: computing the reference (each lesson's own), or timing.

/// The first index where `got` and `want` differ by more than
/// `rel_tolerance` (relative to `want`, or absolute where `want` is 0), or
/// `None`. The test is "not within" rather than "beyond", so a NaN, which
/// compares false, counts as a mismatch.
pub fn first_mismatch(got: &[f32], want: &[f32], rel_tolerance: f32) -> Option<usize> {
    got.iter().zip(want).position(|(g, w)| {
        let scale = if *w == 0.0 { 1.0 } else { w.abs() };
        let within = (g - w).abs() <= rel_tolerance * scale;
        !within
    })
}

/// A float as C's `%.9g` prints it for values in `%g`'s fixed-point range
/// (magnitudes from 1e-4 to below 1e9), which covers the lessons' data:
/// nine significant digits, trailing zeros dropped.
pub fn g9(x: f32) -> String {
    let x = f64::from(x);
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits_before_point = x.abs().log10().floor() as i32 + 1;
    let decimals = (9 - digits_before_point).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_mismatch_reports_the_first_bad_index() {
        let want = [1.0, 2.0, 0.0, 4.0];
        assert_eq!(first_mismatch(&want, &want, 1e-5), None);
        assert_eq!(first_mismatch(&[1.0, 2.1, 0.0, 9.0], &want, 1e-5), Some(1));
        // Relative where want != 0: 4 * 1e-5 of slack at 4.0.
        assert_eq!(first_mismatch(&[1.0, 2.0, 0.0, 4.00002], &want, 1e-5), None);
        // Absolute where want == 0.
        assert_eq!(first_mismatch(&[1.0, 2.0, 1e-4, 4.0], &want, 1e-5), Some(2));
        assert_eq!(first_mismatch(&[f32::NAN, 2.0, 0.0, 4.0], &want, 1e-5), Some(0));
    }

    #[test]
    fn an_exact_gate_rejects_any_difference() {
        assert_eq!(first_mismatch(&[1.0, 2.0], &[1.0, 2.0], 0.0), None);
        assert_eq!(first_mismatch(&[1.0, 2.000_000_2], &[1.0, 2.0], 0.0), Some(1));
    }

    /// printf(1) is the oracle for C's %.9g.
    fn printf_g9(x: f32) -> String {
        let out = std::process::Command::new("printf")
            .args(["%.9g", &format!("{}", f64::from(x))])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn g9_matches_printf() {
        for x in [
            3.0f32,
            48.5,
            0.1,
            12345678.0,
            -176.0,
            0.25,
            1.0 / 3.0,
            244.25,
            -0.001,
        ] {
            assert_eq!(g9(x), printf_g9(x), "{x}");
        }
        assert_eq!(g9(0.0), "0");
    }
}
