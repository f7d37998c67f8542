//! The time-kernel instrument's proof, a table per session of
//! `evidence/instrument/` for the figures and the site, from the session's
//! ncu `gpu__time_duration` for vectorAdd (its `-ncu.txt` transcript), the
//! peer tools' medians (`-peers.txt`), and the JSON a lesson's `--stats
//! --json` wrote in each process.

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

/// One row of a session's table: a method, its median over ncu's and its
/// spread over the processes.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// What a query names it by: the instrument's mode (`GraphPdl`),
    /// `course`, `ncu`, or a peer tool's first word
    /// (`triton.testing.do_bench`, which has two rows).
    pub name: String,
    /// As the table prints it.
    pub label: String,
    pub median_ms: f64,
    pub vs_ncu: f64,
    /// max / min of the processes' medians, less 1; none for one number.
    pub spread: Option<f64>,
    pub gpu_ms: Option<f64>,
    pub recommended: bool,
}

/// Every method of one session against ncu's median, ncu first: the
/// instrument's modes and the course's method from each process's JSON
/// (`jsons`), then the peer tools.
pub fn methods(
    ncu: &[f64],
    peers: &[(String, f64)],
    jsons: &[serde_json::Value],
) -> Result<Vec<Method>, InstrumentError> {
    let reference = median(ncu.to_vec()).ok_or("no ncu durations found")?;
    let method = |name: &str, label: String, median_ms: f64| Method {
        name: name.split_whitespace().next().unwrap_or(name).to_string(),
        label,
        median_ms,
        vs_ncu: median_ms / reference,
        spread: None,
        gpu_ms: None,
        recommended: false,
    };
    // Per mode, in the order they first came (the course's method after
    // the first process's modes): whether recommended, each process's
    // median and the GPU time each spent.
    let mut modes: Vec<(String, bool, Vec<f64>, Vec<f64>)> = Vec::new();
    for run in jsons {
        let measured = run["measurements"].as_array().into_iter().flatten();
        let rows = measured.map(|m| {
            (
                m["mode"].as_str().unwrap_or("?"),
                m["summary"]["median"].as_f64(),
                m["gpu_ms_spent"].as_f64(),
            )
        });
        for (mode, ms, spent) in rows.chain([("course", run["course_mean_of_10_ms"].as_f64(), None)]) {
            let i = modes.iter().position(|m| m.0 == mode).unwrap_or_else(|| {
                modes.push((
                    mode.to_string(),
                    run["recommended"].as_str() == Some(mode),
                    Vec::new(),
                    Vec::new(),
                ));
                modes.len() - 1
            });
            modes[i].2.extend(ms);
            modes[i].3.extend(spent);
        }
    }
    let mut out = vec![method(
        "ncu",
        format!("ncu gpu__time_duration ({} launches)", ncu.len()),
        reference,
    )];
    for (mode, recommended, medians, spent) in modes {
        let Some(m) = median(medians.clone()) else {
            continue;
        };
        let label = match (mode.as_str(), recommended) {
            ("course", _) => "course method, mean of 10 after 3 warm-ups".to_string(),
            (_, true) => format!("instrument, {mode} (recommended)"),
            _ => format!("instrument, {mode}"),
        };
        let lo = medians.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.push(Method {
            spread: Some(hi / lo - 1.0),
            gpu_ms: median(spent),
            recommended,
            ..method(&mode, format!("{label} ({} processes)", medians.len()), m)
        });
    }
    out.extend(peers.iter().map(|(label, ms)| method(label, label.clone(), *ms)));
    Ok(out)
}

/// The table: each method's median against ncu's, and its spread over the
/// processes (max / min of their medians).
pub fn render_methods(methods: &[Method]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<64} {:>10} {:>7} {:>8} {:>13}",
        "method", "median ms", "vs ncu", "spread", "GPU ms spent"
    );
    for m in methods {
        let spread = m.spread.map_or("-".to_string(), |s| format!("{:.2}%", 100.0 * s));
        let spent = m.gpu_ms.map_or("-".to_string(), |s| format!("{s:.0}"));
        let _ = writeln!(
            o,
            "{:<64} {:>10.5} {:>7.3} {:>8} {:>13}",
            m.label, m.median_ms, m.vs_ncu, spread, spent
        );
    }
    o
}

/// Why a session's proof could not be tabled, in words: every caller
/// shows it as one line.
pub type InstrumentError = String;

fn read_text(p: &Path) -> Result<String, InstrumentError> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// The JSON files in `json_dir`, in name order: one per process.
fn read_jsons(json_dir: &Path) -> Result<Vec<serde_json::Value>, InstrumentError> {
    let mut entries: Vec<_> = std::fs::read_dir(json_dir)
        .map_err(|e| format!("{}: {e}", json_dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    let mut jsons = Vec::new();
    for p in entries {
        let json = serde_json::from_str(&read_text(&p)?).map_err(|e| format!("{}: {e}", p.display()))?;
        jsons.push(json);
    }
    if jsons.is_empty() {
        return Err(format!("no JSON files in {}", json_dir.display()));
    }
    Ok(jsons)
}

/// One recorded session of the instrument's proof, as `evidence/instrument/`
/// holds it: `json-<name>/` beside the ncu and peers transcripts of its commit.
#[derive(Debug, Clone)]
pub struct Session {
    /// The folder's name less `json-`: a commit prefix, and `-a`, `-b`, ...
    /// where one commit had several sessions.
    pub name: String,
    pub ncu_file: String,
    pub peers_file: String,
    pub methods: Vec<Method>,
    /// Each process's device-to-device copy ceiling, GB/s.
    pub copy_ceilings_gb_s: Vec<f64>,
}

impl Session {
    /// The session's table, under a line naming
    /// the session and its two transcripts.
    pub fn render(&self) -> String {
        format!(
            "== session {} ({}, {})\n{}",
            self.name,
            self.ncu_file,
            self.peers_file,
            render_methods(&self.methods)
        )
    }

    /// The mode the instrument recommended, as its table names it
    /// (`graph-pdl`).
    pub fn recommended(&self) -> Option<String> {
        let m = self.methods.iter().find(|m| m.recommended)?;
        let mut kebab = String::new();
        for (i, c) in m.name.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                kebab.push('-');
            }
            kebab.extend(c.to_lowercase());
        }
        Some(kebab)
    }
}

/// The `*-KIND.txt` transcripts in `dir` whose header's commit starts with
/// `commit`, in name (time) order.
fn transcripts_of(dir: &Path, kind: &str, commit: &str) -> Result<Vec<String>, InstrumentError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(&format!("-{kind}.txt")))
        .collect();
    names.sort();
    let of_commit = |l: &str| {
        l.strip_prefix("# commit: ")
            .is_some_and(|c| c.starts_with(commit))
    };
    let mut found = Vec::new();
    for name in names {
        if read_text(&dir.join(&name))?.lines().any(of_commit) {
            found.push(name);
        }
    }
    Ok(found)
}

/// Every session in `dir` (`evidence/instrument`), in the order they were
/// recorded. A folder `json-C-b` is the second session of commit C: its
/// transcripts are the second ncu and peers transcripts of C.
pub fn sessions(dir: &Path) -> Result<Vec<Session>, InstrumentError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_prefix("json-")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let (commit, index) = match name.rsplit_once('-') {
            Some((c, s)) if s.len() == 1 && s.as_bytes()[0].is_ascii_lowercase() => {
                (c, Some(usize::from(s.as_bytes()[0] - b'a')))
            }
            _ => (name.as_str(), None),
        };
        let pick = |kind: &str| -> Result<String, InstrumentError> {
            let found = transcripts_of(dir, kind, commit)?;
            match (index, found.len()) {
                (None, 1) => Ok(found[0].clone()),
                (Some(i), _) if i < found.len() => Ok(found[i].clone()),
                (_, found) => Err(format!(
                    "{}: session json-{name} needs its {kind} transcript; {found} have commit {commit}",
                    dir.display()
                )),
            }
        };
        let (ncu_file, peers_file) = (pick("ncu")?, pick("peers")?);
        let ncu = ncu_durations_ms(&read_text(&dir.join(&ncu_file))?);
        let peers = peer_medians(&read_text(&dir.join(&peers_file))?);
        let jsons = read_jsons(&dir.join(format!("json-{name}")))?;
        let copy_ceilings_gb_s = jsons
            .iter()
            .filter_map(|j| j["device"]["copy_ceiling_gb_s"].as_f64())
            .collect();
        out.push(Session {
            methods: methods(&ncu, &peers, &jsons)?,
            name,
            ncu_file,
            peers_file,
            copy_ceilings_gb_s,
        });
    }
    out.sort_by(|a, b| a.ncu_file.cmp(&b.ncu_file));
    Ok(out)
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
        let runs = [run(0.0600), run(0.0602)];
        let t = render_methods(
            &methods(&[0.058, 0.0584, 0.0582], &[("do_bench".into(), 0.0663)], &runs).unwrap(),
        );
        assert!(t.contains("instrument, Graph (recommended) (2 processes)"), "{t}");
        assert!(t.contains("0.33%"), "{t}");
        assert!(t.contains("1.033"), "{t}");
        assert!(t.lines().last().unwrap().starts_with("do_bench"), "{t}");
    }

    #[test]
    fn methods_are_named_as_queries_name_them() {
        let run = serde_json::json!({"recommended": "GraphPdl", "course_mean_of_10_ms": 0.0606,
            "measurements": [{"mode": "GraphPdl", "summary": {"median": 0.059}, "gpu_ms_spent": 147.0}]});
        let peers = [("triton.testing.do_bench (rep=100 ms)".to_string(), 0.0647)];
        let m = methods(&[0.058], &peers, &[run]).unwrap();
        let names: Vec<&str> = m.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["ncu", "GraphPdl", "course", "triton.testing.do_bench"]);
        assert!(m[1].recommended && !m[2].recommended);
        let session = Session {
            name: "abc".into(),
            ncu_file: "n.txt".into(),
            peers_file: "p.txt".into(),
            methods: m,
            copy_ceilings_gb_s: Vec::new(),
        };
        assert_eq!(session.recommended().as_deref(), Some("graph-pdl"));
        assert!(session
            .render()
            .starts_with("== session abc (n.txt, p.txt)\nmethod"));
    }
}
