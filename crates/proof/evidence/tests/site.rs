//! The site of the committed evidence and of small evidence folders the
//! tests make: what the pages say, that the same evidence gives the same
//! bytes, and that a build replaces a site it wrote (where `evidence site`
//! refuses to write is crates/proof/evidence/tests/site_cli.rs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evidence::site;
use evidence::transcript::Transcript;
use support::repository;

#[path = "site_support/check.rs"]
mod check;
#[path = "site_support/mod.rs"]
mod support;

/// Every file under `dir`, by path from it, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .map(|path| {
            (
                path.strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect()
}

/// The first `n` plain runs of `name` (`h200-cxx`, ...) of `lesson` in the
/// committed evidence, with their twins, copied into `into`'s lesson folder.
fn copy_runs(into: &Path, lesson: &str, name: &str, n: usize) -> Vec<String> {
    let from = repository().join("evidence").join(lesson);
    let mut names: Vec<String> = std::fs::read_dir(&from)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(&format!("-{name}.txt")))
        .collect();
    names.sort();
    names.truncate(n);
    assert_eq!(
        names.len(),
        n,
        "the committed evidence has {n} {lesson} {name} runs"
    );
    std::fs::create_dir_all(into.join(lesson)).unwrap();
    for f in &names {
        std::fs::copy(from.join(f), into.join(lesson).join(f)).unwrap();
    }
    names
}

/// The text of a page of the site, tags and all.
fn read(site: &Path, page: &str) -> String {
    std::fs::read_to_string(site.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The index's row of `claim`: from its anchor to the row's end.
fn row<'a>(index: &'a str, claim: &str) -> &'a str {
    let start = index
        .find(&format!("#claim-{claim}\""))
        .unwrap_or_else(|| panic!("the index has no row for {claim}"));
    let rest = &index[start..];
    &rest[..rest.find("</tr>").unwrap()]
}

#[test]
fn the_index_counts_each_claim_s_verdict_over_the_runs_it_applies_to() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    let cxx = copy_runs(&ev, "day10-block-sizes", "h200-cxx", 2);
    copy_runs(&ev, "day10-block-sizes", "h200-rust", 1);
    let out = tmp.path().join("site");
    let built = site::build(&repository(), &ev, &out).unwrap();

    let index = read(&out, site::INDEX);
    // Day 10 on the H200 holds this claim in every run, and fails the
    // plateau claim in every run for the reason its list gives.
    assert!(
        row(&index, "d10-tiny-blocks-starve").contains("holds 3/3"),
        "{}",
        row(&index, "d10-tiny-blocks-starve")
    );
    let plateau = row(&index, "d10-memory-bound-plateau");
    assert!(plateau.contains("known failure 3/3"), "{plateau}");
    assert!(
        plateau.contains("<summary>why</summary>"),
        "a known failure gives its reason: {plateau}"
    );
    // No run here is under a sanitizer.
    assert!(row(&index, "sanitizer-clean").contains("not checked"));
    assert!(index.contains("NVIDIA H200 · CUDA 13.0"));
    // A lesson with no runs here still has its table, every cell saying so.
    assert!(row(&index, "d9-regions-nest").contains("not checked"));

    // A page per transcript, linked from its lesson's page.
    let lesson = read(&out, &site::lesson_page("day10-block-sizes"));
    for name in &cxx {
        let stem = name.trim_end_matches(".txt");
        let page = format!("runs/day10-block-sizes/{stem}.html");
        assert!(
            lesson.contains(&format!("../{page}")),
            "the lesson page links {page}"
        );
        let text = read(&out, &page);
        assert!(
            text.contains("# lesson: day10-block-sizes"),
            "{page} quotes the transcript, header first"
        );
        assert!(text.contains("known failure"), "{page} gives its verdicts");
    }
    // 3 transcripts, a page per lesson, the index and the instrument's page,
    // and the list of sessions, the one session's page and what changed.
    let lesson_count = lessons::LESSONS.len();
    assert_eq!(built.pages, 3 + lesson_count + 2 + 3, "{built:?}");
    assert!(built.charts > 0);
}

#[test]
fn the_same_evidence_gives_the_same_bytes_wherever_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let (ev_a, ev_b) = (
        tmp.path().join("one/evidence"),
        tmp.path().join("two/place/evidence"),
    );
    for ev in [&ev_a, &ev_b] {
        copy_runs(ev, "day09-timing", "h200-cxx", 2);
        copy_runs(ev, "day53-pinned", "h200-rust", 2);
        // A transcript with no header: a problem the index lists, by a path
        // that must not be this machine's.
        std::fs::write(ev.join("day53-pinned/2026-11-29T000000Z-h200-rust.txt"), "{}").unwrap();
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    site::build(&repository(), &ev_a, &a).unwrap();
    site::build(&repository(), &ev_b, &b).unwrap();
    let index = read(&a, site::INDEX);
    assert!(
        index.contains("evidence/day53-pinned/2026-11-29T000000Z-h200-rust.txt"),
        "{index}"
    );
    assert!(!index.contains(&tmp.path().display().to_string()));
    let (ta, tb) = (tree(&a), tree(&b));
    assert!(ta.len() > 10, "{} files", ta.len());
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (path, bytes) in &ta {
        assert!(
            tb[path] == *bytes,
            "{} differs between two builds",
            path.display()
        );
    }
}

#[test]
fn it_replaces_a_site_it_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    copy_runs(&ev, "day10-block-sizes", "h200-cxx", 1);
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    // A page left from an earlier build does not survive the next one.
    std::fs::write(out.join("stale.html"), "old").unwrap();
    site::build(&repository(), &ev, &out).unwrap();
    assert!(!out.join("stale.html").exists());
    assert!(out.join(site::INDEX).is_file());
}

/// A symlink to nothing as the site's folder is refused in one line before
/// anything is built or written (the site was built whole, then failed to
/// replace the link and left its staging folder beside it).
#[test]
fn a_dangling_symlink_as_the_site_folder_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    copy_runs(&ev, "day10-block-sizes", "h200-cxx", 1);
    let place = tmp.path().join("place");
    std::fs::create_dir(&place).unwrap();
    let link = place.join("site");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &link).unwrap();
    let e = site::build(&repository(), &ev, &link).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "{}: a symlink to nothing that exists; name a folder of its own for the site",
            link.display()
        )
    );
    let left: Vec<_> = std::fs::read_dir(&place)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["site"], "only the link is there");
    assert!(link.is_symlink() && !tmp.path().join("nowhere").exists());
}

/// The committed evidence's site, built once (it is the slowest build the
/// tests make) and read by both checks below.
#[test]
fn the_committed_evidence_makes_a_whole_site() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let built = site::build(&repository(), &repository().join("evidence"), &out).unwrap();
    let loaded = evidence::load::load(&repository().join("evidence")).unwrap();
    every_lesson_and_transcript_has_a_page(&out, &built, &loaded.transcripts);
    sessions_history_changes_and_a_summary(&out, &loaded.transcripts);
}

/// Every lesson and transcript a page, and every page's HTML passing
/// site_support/check.rs.
fn every_lesson_and_transcript_has_a_page(out: &Path, built: &site::Built, transcripts: &[Transcript]) {
    let out = out.to_path_buf();
    let runs = tree(&out.join("runs")).len();
    assert_eq!(runs, transcripts.len(), "a page per transcript");
    for lesson in lessons::LESSONS {
        let page = read(&out, &site::lesson_page(lesson.name()));
        assert!(page.contains("<h1>"), "{}", lesson.name());
    }
    assert!(read(&out, site::INSTRUMENT).contains("nvbench"));
    assert!(built.pages > transcripts.len());
    let report = check::check(&out);
    assert!(
        report.problems.is_empty(),
        "{} problem(s) in the site:\n{}",
        report.problems.len(),
        report.problems.join("\n")
    );
    assert_eq!(report.pages, built.pages);
    assert!(report.images > 0 && report.links > report.pages);
    println!(
        "{} pages, {} links, {} images: no problems",
        report.pages, report.links, report.images
    );
}

#[test]
fn each_lesson_readme_names_its_page_on_the_site() {
    for lesson in lessons::LESSONS {
        let readme = repository().join("code").join(lesson.name()).join("README.md");
        let text = std::fs::read_to_string(&readme).unwrap();
        let page = format!("target/site/{}", site::lesson_page(lesson.name()));
        assert!(
            text.contains("cargo run -p evidence -- site target/site") && text.contains(&page),
            "{} should give the command that builds the site and its page, {page}",
            readme.display()
        );
    }
}

/// A copy of the committed run `file` of `lesson` as if recorded on another
/// GPU: its header's and report's GPU line changed, under a name of that
/// GPU, with a twin written for it.
fn as_if_on(into: &Path, lesson: &str, file: &str, gpu: &str, word: &str) -> String {
    let from = repository().join("evidence").join(lesson).join(file);
    let text = std::fs::read_to_string(from).unwrap();
    let h200 = "NVIDIA H200 (compute capability 9.0)";
    assert!(
        text.matches(h200).count() >= 2,
        "{file} names its GPU in the header and the report"
    );
    let moved = text.replace(h200, &format!("{gpu} (compute capability 8.0)"));
    let name = file.replace("-h200-", &format!("-{word}-"));
    let path = into.join(lesson).join(&name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &moved).unwrap();
    let twin = evidence::twin::pretty(&path.display().to_string(), &moved);
    std::fs::write(path.with_extension("json"), twin).unwrap();
    name
}

#[test]
fn unexplained_failures_failed_runs_and_toolkits_each_show() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    copy_runs(&ev, "day10-block-sizes", "h200-cxx", 1);
    // Day 10's plateau fails on the H200 for a listed reason; on a GPU the
    // list does not name, the same numbers are a failure nobody explained.
    let a100 = as_if_on(
        &ev,
        "day10-block-sizes",
        "2026-12-01T213007Z-h200-rust.txt",
        "NVIDIA A100-SXM4-80GB",
        "a100-sxm4-80gb",
    );
    // A Day 53 run that exited 1, and a Day 9 run built with CUDA 13.5.
    let from = repository().join("evidence");
    for (lesson, stem) in [
        ("day53-pinned", "2026-11-29T222958Z-h200-rust"),
        ("day09-timing", "2026-12-01T092610Z-h200-rust-cuda13.5"),
    ] {
        std::fs::create_dir_all(ev.join(lesson)).unwrap();
        let f = format!("{stem}.txt");
        std::fs::copy(from.join(lesson).join(&f), ev.join(lesson).join(&f)).unwrap();
    }
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    let index = read(&out, site::INDEX);

    // Every lesson has a column for each GPU and toolkit in the evidence.
    for column in [
        "NVIDIA A100-SXM4-80GB · CUDA 13.0",
        "NVIDIA H200 · CUDA 13.0",
        "NVIDIA H200 · CUDA 13.5",
    ] {
        assert_eq!(
            index.matches(&format!("<th scope=\"col\">{column}</th>")).count(),
            lessons::LESSONS.len(),
            "{column}"
        );
    }
    let plateau = row(&index, "d10-memory-bound-plateau");
    let cells: Vec<&str> = plateau.split("<td>").skip(1).collect();
    assert_eq!(cells.len(), 3, "{plateau}");
    assert!(
        cells[0].contains("fails 1/1") && cells[0].contains("verdict fails"),
        "A100: {}",
        cells[0]
    );
    assert!(cells[1].contains("known failure 1/1"), "H200 13.0: {}", cells[1]);
    assert!(cells[2].contains("not checked"), "H200 13.5: {}", cells[2]);

    // The failed Day 53 run is counted in its column, not lost.
    let day53 = &index[index.find("lessons/day53-pinned.html").unwrap()..];
    let day53 = &day53[..day53.find("</table>").unwrap()];
    let exits = &day53[day53.find("runs that exited non-zero").unwrap()..];
    assert!(
        exits.contains("<span class=\"verdict fails\">1 of 1</span>"),
        "{exits}"
    );

    // The lesson page lists the unexplained failure before the known one.
    let lesson = read(&out, &site::lesson_page("day10-block-sizes"));
    let section = &lesson[lesson.find("id=\"claim-d10-memory-bound-plateau\"").unwrap()..];
    let (unexplained, known) = (
        section.find("What the runs that fail it measured:").unwrap(),
        section
            .find("What the runs that fail it as expected measured:")
            .unwrap(),
    );
    assert!(unexplained < known);
    assert!(section[unexplained..known].contains(&a100.replace(".txt", "")));
    let page = read(
        &out,
        &format!("runs/day10-block-sizes/{}", a100.replace(".txt", ".html")),
    );
    assert!(
        page.contains("<span class=\"verdict fails\">fails</span>"),
        "the run's own page says it fails"
    );
}

#[test]
fn one_gpu_spelled_two_ways_gets_charts_of_its_own_for_each_spelling() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    let names = copy_runs(&ev, "day10-block-sizes", "h200-cxx", 2);
    // The same GPU without "NVIDIA": its charts' names would be the same word.
    let path = ev.join("day10-block-sizes").join(&names[1]);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("# gpu: NVIDIA H200 (compute", "# gpu: H200 (compute");
    std::fs::write(&path, &text).unwrap();
    let twin = evidence::twin::pretty(&path.display().to_string(), &text);
    std::fs::write(path.with_extension("json"), twin).unwrap();
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    let plots: Vec<String> = std::fs::read_dir(out.join("plots"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(plots.iter().any(|p| p.ends_with("-2.svg")), "{plots:?}");
}

/// A copy of the committed diagnostics run `file` as if recorded on `gpu`
/// (`word` in its name), every `label: NUMBER` line for a label in
/// `values` given that value instead, with a twin written for it.
fn diagnostic_as_if_on(into: &Path, file: &str, gpu: &str, word: &str, values: &[(&str, &str)]) -> String {
    let from = repository().join("evidence/diagnostics").join(file);
    let text = std::fs::read_to_string(from).unwrap();
    let h200 = "# gpu: NVIDIA H200 (compute capability 9.0)";
    assert!(text.contains(h200), "{file} is an H200 run");
    let mut moved = text.replace(h200, &format!("# gpu: {gpu} (compute capability 7.5)"));
    for (label, value) in values {
        moved = moved
            .lines()
            .map(|l| match l.strip_prefix(&format!("{label}: ")) {
                Some(_) => format!("{label}: {value}"),
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
    }
    let name = file.replace("-h200-", &format!("-{word}-"));
    let path = into.join("diagnostics").join(&name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &moved).unwrap();
    let twin = evidence::twin::pretty(&path.display().to_string(), &moved);
    std::fs::write(path.with_extension("json"), twin).unwrap();
    name
}

#[test]
fn a_cause_is_shown_per_gpu_with_its_figures_and_a_failure_on_one_gpu_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    let file = "2026-12-01T225536Z-h200-empty-blocks.txt";
    std::fs::create_dir_all(ev.join("diagnostics")).unwrap();
    std::fs::copy(
        repository().join("evidence/diagnostics").join(file),
        ev.join("diagnostics").join(file),
    )
    .unwrap();
    // On the other GPU the empty kernel takes a tenth of vectorAdd's time at
    // 32 threads: the block starts do not pace it there.
    diagnostic_as_if_on(
        &ev,
        file,
        "Tesla T4",
        "t4",
        &[("empty kernel at 32 threads, ms", "0.03172")],
    );
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    let page = read(&out, &site::lesson_page("day10-block-sizes"));
    assert!(
        page.contains("<h2 id=\"why\">Why, as measured</h2>"),
        "the section is there"
    );
    let start = page
        .find("id=\"why-d10-why-block-starts\"")
        .expect("the cause has a section");
    let section = &page[start..start + page[start..].find("</section>").unwrap()];
    assert!(
        section.contains("NVIDIA H200: <span class=\"verdict holds\">holds</span>, margin "),
        "{section}"
    );
    assert!(
        section.contains("Tesla T4: <span class=\"verdict fails\">fails</span>, margin ")
            && section.contains("(at the medians: empty kernel 10% "),
        "{section}"
    );
    // The T4's figure is its own, the H200's its own: the median, then its
    // interval (with three values, their range), and the rival beside it.
    assert!(
        section.contains("<td class=\"num\">0.03172 (3 values"),
        "{section}"
    );
    assert!(
        section.contains("<td class=\"num\">0.317 [0.317..0.3173] (3 values"),
        "{section}"
    );
    assert!(
        section.contains("Rival: small blocks are slow because too few warps"),
        "{section}"
    );
    // A cause whose figures no GPU here recorded is shown as not measured.
    let start = page.find("id=\"why-d10-why-turnover\"").unwrap();
    let turnover = &page[start..start + page[start..].find("</section>").unwrap()];
    assert!(turnover.contains("not measured"), "{turnover}");
}

/// The committed evidence's site over time: the sessions' list and pages,
/// the history charts on a lesson's page, what changed, the runs and the
/// re-run command in every verdict cell, and the summary for tools.
fn sessions_history_changes_and_a_summary(out: &Path, transcripts: &[Transcript]) {
    let out = out.to_path_buf();
    let sessions = evidence::sessions::of(transcripts);

    let list = read(&out, site::SESSIONS);
    for s in &sessions {
        let page = site::session_page(s);
        assert!(list.contains(&format!("href=\"{page}\"")), "{page} is listed");
        let text = read(&out, &page);
        assert!(text.contains(&s.commit), "{page} gives its commit");
    }

    let lesson_path = site::lesson_page("day10-block-sizes");
    let lesson = read(&out, &lesson_path);
    assert!(
        lesson.contains("id=\"history\""),
        "the lesson page has its history"
    );
    let charts: Vec<&str> = lesson
        .match_indices("../plots/history/")
        .map(|(i, _)| &lesson[i + 3..])
        .collect();
    assert!(
        !charts.is_empty(),
        "Day 10's figures are charted over the H200's sessions"
    );
    // Each claim links the history of the figures it reads, beside its verdict.
    let claim = &lesson[lesson.find("id=\"claim-d10-tiny-blocks-starve\"").unwrap()..];
    let claim = &claim[..claim.find("</section>").unwrap()];
    // Each session that checked it gives its state and margin.
    assert!(claim.contains("</code>): holds, margin "), "{claim}");
    let link = claim
        .find("href=\"#history-")
        .expect("the claim links its figures' history");
    let anchor = &claim[link + "href=\"#".len()..];
    let anchor = &anchor[..anchor.find('"').unwrap()];
    assert!(
        lesson.contains(&format!("id=\"{anchor}\"")),
        "{anchor} is on the page"
    );
    for chart in charts {
        let path = &chart[..chart.find('"').unwrap()];
        assert!(read(&out, path).contains("<polygon"), "{path} draws a band");
    }

    // Every verdict cell links to its runs, and the anchor is there.
    let index = read(&out, site::INDEX);
    let cell = row(&index, "d10-tiny-blocks-starve");
    let anchor = "runs-d10-tiny-blocks-starve-nvidia-h200-cuda-13-0";
    assert!(cell.contains(&format!("#{anchor}\"")), "{cell}");
    assert!(
        lesson.contains(&format!("id=\"{anchor}\"")),
        "the lesson page has {anchor}"
    );
    assert!(
        cell.contains("<code>ci/lesson.sh day10-block-sizes --claims</code>"),
        "{cell}"
    );
    assert!(
        row(&index, "sanitizer-clean")
            .contains("cargo build --release -p day09-timing &amp;&amp; compute-sanitizer --tool memcheck target/release/day09-timing"),
        "{}",
        row(&index, "sanitizer-clean")
    );

    // A claim that judges only the EAGER variant's runs re-runs under it.
    assert!(
        row(&index, "d9-eager-warms-first-launches")
            .contains("<code>CUDA_MODULE_LOADING=EAGER ci/lesson.sh day09-timing --claims</code>"),
        "{}",
        row(&index, "d9-eager-warms-first-launches")
    );

    let changes = read(&out, site::CHANGES);
    assert!(
        changes.contains("<h2>NVIDIA H200</h2>"),
        "what changed, for the H200"
    );
    assert!(changes.contains("False alarms, measured"));

    let summary: serde_json::Value = serde_json::from_str(&read(&out, site::SUMMARY)).unwrap();
    assert_eq!(summary["format"], "evidence-summary/2");
    assert_eq!(summary["sessions"].as_array().unwrap().len(), sessions.len());
    let claim = summary["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "d10-tiny-blocks-starve")
        .unwrap();
    assert_eq!(claim["rerun"], "ci/lesson.sh day10-block-sizes --claims");
    assert_eq!(claim["verdicts"][0]["verdict"], "holds");
    assert!(!claim["verdicts"][0]["sessions"].as_array().unwrap().is_empty());
    assert_eq!(claim["verdicts"][0]["sessions"][0]["state"], "holds");
    // With its margin, a share as a cause's; a yes/no claim says why it has none.
    let margin = claim["verdicts"][0]["sessions"][0]["margin"].as_f64().unwrap();
    assert!(margin > 0.0 && margin <= 1.0, "{margin}");
    let sanitizer = summary["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "sanitizer-clean");
    let sanitizer = &sanitizer.unwrap()["verdicts"][0]["sessions"][0];
    assert_eq!(sanitizer["no_margin"], "a count of errors");
    assert!(sanitizer["margin"].is_null());
    // Each cause with its rival, and per GPU its state, word and margin.
    let cause = summary["causes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "d11-why-launch-floor")
        .unwrap();
    assert_eq!(cause["tells_rival_apart"], false);
    assert!(cause["rival"].as_str().unwrap().contains("front end"));
    let h200 = &cause["gpus"][0];
    assert!(["holds", "fails", "undecided"].contains(&h200["state"].as_str().unwrap()));
    if h200["state"] == "holds" {
        assert_eq!(h200["word"], "fits (rival not ruled out)");
        assert!(h200["margin"].as_f64().is_some());
    }
    assert!(h200["figures"][0]["interval"].is_array());
    let figures = summary["figures"].as_array().unwrap();
    assert!(figures
        .iter()
        .any(|f| f["direction"] == "time" && f["latest_change"]["label"].is_string()));
    assert!(
        summary["false_alarms"]["split_half"]["compared"]
            .as_u64()
            .unwrap()
            > 0
    );
}

/// `file`, a run of `lesson` in `ev`, re-dated `date` (its name and its
/// twin too): the same run, as if recorded then.
fn redate(ev: &Path, lesson: &str, file: &str, date: &str) -> String {
    let from = ev.join(lesson).join(file);
    let text = std::fs::read_to_string(&from).unwrap();
    let old = text
        .lines()
        .find_map(|l| l.strip_prefix("# date: "))
        .unwrap()
        .to_string();
    let moved = text.replace(&format!("# date: {old}"), &format!("# date: {date}"));
    let name = file.replace(&old.replace(':', ""), &date.replace(':', ""));
    std::fs::remove_file(&from).unwrap();
    let to = ev.join(lesson).join(&name);
    std::fs::write(&to, &moved).unwrap();
    let twin = evidence::twin::pretty(&to.display().to_string(), &moved);
    std::fs::write(to.with_extension("json"), twin).unwrap();
    name
}

#[test]
fn a_run_of_a_session_long_before_its_gpu_s_latest_is_listed_on_its_session_page_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("evidence");
    let cxx = copy_runs(&ev, "day10-block-sizes", "h200-cxx", 2);
    let old = redate(&ev, "day10-block-sizes", &cxx[0], "2026-10-01T10:00:00Z");
    let out = tmp.path().join("site");
    site::build(&repository(), &ev, &out).unwrap();
    let old_stem = old.trim_end_matches(".txt");
    let recent_stem = cxx[1].trim_end_matches(".txt");
    assert!(
        !out.join(format!("runs/day10-block-sizes/{old_stem}.html"))
            .exists(),
        "no page of its own"
    );
    assert!(out
        .join(format!("runs/day10-block-sizes/{recent_stem}.html"))
        .is_file());
    let lesson = read(&out, &site::lesson_page("day10-block-sizes"));
    assert!(
        lesson.contains("1 older runs, of sessions that began more than 28 days"),
        "{lesson}"
    );
    assert!(
        !lesson.contains(&format!("{old_stem}.html")),
        "the lesson page links no page it has not"
    );
    let session = read(&out, "sessions/2026-10-01T100000Z-h200.html");
    assert!(session.contains(old_stem), "its session's page lists it");
    assert!(session.contains("holds"), "with its verdicts");
    assert!(
        !session.contains(&format!("{old_stem}.html")),
        "and no link to a page it has not"
    );
}

/// Every file under `dir`, at any depth, in no particular order.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}
