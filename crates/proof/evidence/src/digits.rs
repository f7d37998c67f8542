//! Numbers as the tools print them beside the runs' own: `evidence
//! check`'s causes and every page of the site.
//!
//! Not for: the lessons' printed numbers (each program prints its own).

/// A measured number with at most four significant digits, no exponent and
/// no trailing zeros (which would claim digits the program did not print):
/// the figures span microseconds to thousands of GB/s.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    if v == 0.0 {
        return "0".into();
    }
    let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 9) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}
