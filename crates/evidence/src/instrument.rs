//! `evidence instrument`: the time-kernel instrument's proof as one table.
//! Reads one session's recordings: ncu's `gpu__time_duration` for vectorAdd
//! (its `-ncu.txt` transcript), the peer tools' medians (`-peers.txt`), and
//! the JSON a lesson's `--stats --json` wrote in each process.

use std::fmt::Write;
use std::path::Path;

use lesson_spec::median;

/// ncu's per-launch durations in ms, from its `--csv` rows.
pub fn ncu_durations_ms(text: &str) -> Vec<f64> {
    text.lines()
        .filter(|l| l.contains("\"gpu__time_duration.sum\",\"ns\""))
        .filter_map(|l| l.rsplit("\",\"").next())
        .filter_map(|v| v.trim_matches('"').replace(',', "").parse::<f64>().ok())
        .map(|ns| ns / 1e6)
        .collect()
}

/// `label ... median <x> ms` lines of the peers transcript.
pub fn peer_medians(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .filter_map(|l| {
            let (label, rest) = l.split_once(": median ")?;
            let ms = rest.split_whitespace().next()?.parse().ok()?;
            Some((label.to_string(), ms))
        })
        .collect()
}

/// Per mode: each process's median, and the GPU time each spent.
pub fn stats_runs(jsons: &[serde_json::Value]) -> Vec<(String, Vec<f64>, Vec<f64>)> {
    let mut out: Vec<(String, Vec<f64>, Vec<f64>)> = Vec::new();
    for run in jsons {
        let recommended = run["recommended"].as_str().unwrap_or("");
        for m in run["measurements"].as_array().into_iter().flatten() {
            let mode = m["mode"].as_str().unwrap_or("?");
            let label = if mode == recommended {
                format!("instrument, {mode} (recommended)")
            } else {
                format!("instrument, {mode}")
            };
            let entry = match out.iter_mut().position(|(l, ..)| *l == label) {
                Some(i) => &mut out[i],
                None => {
                    out.push((label, Vec::new(), Vec::new()));
                    out.last_mut().expect("just pushed")
                }
            };
            entry.1.extend(m["summary"]["median"].as_f64());
            entry.2.extend(m["gpu_ms_spent"].as_f64());
        }
        let label = "course method, mean of 10 after 3 warm-ups".to_string();
        let course = run["course_mean_of_10_ms"].as_f64();
        match out.iter_mut().find(|(l, ..)| *l == label) {
            Some(e) => e.1.extend(course),
            None => out.push((label, course.into_iter().collect(), Vec::new())),
        }
    }
    out
}

/// The table: each method's median against ncu's, and its spread over the
/// processes (max / min of their medians).
pub fn render(
    ncu: &[f64],
    peers: &[(String, f64)],
    runs: &[(String, Vec<f64>, Vec<f64>)],
) -> Result<String, String> {
    let reference = median(ncu.to_vec()).ok_or("no ncu durations found")?;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<64} {:>10} {:>7} {:>8} {:>13}",
        "method", "median ms", "vs ncu", "spread", "GPU ms spent"
    );
    let _ = writeln!(
        o,
        "{:<64} {:>10.5} {:>7.3} {:>8} {:>13}",
        format!("ncu gpu__time_duration ({} launches)", ncu.len()),
        reference,
        1.0,
        "-",
        "-"
    );
    for (label, medians, spent) in runs {
        let Some(m) = median(medians.clone()) else {
            continue;
        };
        let lo = medians.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = medians.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let spent = median(spent.clone()).map_or("-".to_string(), |s| format!("{s:.0}"));
        let _ = writeln!(
            o,
            "{:<64} {:>10.5} {:>7.3} {:>7.2}% {:>13}",
            format!("{label} ({} processes)", medians.len()),
            m,
            m / reference,
            100.0 * (hi / lo - 1.0),
            spent
        );
    }
    for (label, ms) in peers {
        let _ = writeln!(
            o,
            "{:<64} {:>10.5} {:>7.3} {:>8} {:>13}",
            label,
            ms,
            ms / reference,
            "-",
            "-"
        );
    }
    Ok(o)
}

/// Reads one session's ncu and peers transcripts and the JSON files in `json_dir`.
pub fn from_files(ncu: &Path, peers: &Path, json_dir: &Path) -> Result<String, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let ncu = ncu_durations_ms(&read(ncu)?);
    let peers = peer_medians(&read(peers)?);
    let mut entries: Vec<_> = std::fs::read_dir(json_dir)
        .map_err(|e| format!("{}: {e}", json_dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    let mut jsons = Vec::new();
    for p in entries {
        jsons.push(serde_json::from_str(&read(&p)?).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    if jsons.is_empty() {
        return Err(format!("no JSON files in {}", json_dir.display()));
    }
    render(&ncu, &peers, &stats_runs(&jsons))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ncu_csv_rows_become_milliseconds() {
        let csv = "\"ID\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\
                   \"0\",\"x\",\"gpu__time_duration.sum\",\"ns\",\"56,704\"\n\
                   \"1\",\"x\",\"gpu__time_duration.sum\",\"ns\",\"57,760\"\n";
        assert_eq!(ncu_durations_ms(csv), [0.056704, 0.05776]);
    }

    #[test]
    fn peer_lines_give_their_medians() {
        let text = "CuPy 14\ncupyx.profiler.benchmark (hot): median 0.06886 ms, mean 0.07 ms\n\
                    triton.testing.do_bench (rep=100 ms): median 0.06467 ms\n";
        let p = peer_medians(text);
        assert_eq!(p[0], ("cupyx.profiler.benchmark (hot)".to_string(), 0.06886));
        assert_eq!(p[1].1, 0.06467);
    }

    #[test]
    fn the_table_puts_every_method_against_ncu() {
        let run = |m: f64| {
            serde_json::json!({"recommended": "Graph", "course_mean_of_10_ms": 0.0606,
                "measurements": [{"mode": "Graph", "summary": {"median": m}, "gpu_ms_spent": 147.0}]})
        };
        let runs = stats_runs(&[run(0.0600), run(0.0602)]);
        let t = render(&[0.058, 0.0584, 0.0582], &[("do_bench".into(), 0.0663)], &runs).unwrap();
        assert!(t.contains("instrument, Graph (recommended) (2 processes)"), "{t}");
        assert!(t.contains("0.33%"), "{t}");
        assert!(t.contains("1.033"), "{t}");
        assert!(t.lines().last().unwrap().starts_with("do_bench"), "{t}");
    }
}
