//! A transcript's page: its verdicts, then the file as recorded, header
//! first.

use maud::html;

use super::layout::{self, folder_page, lesson_page, transcript_page, INDEX};
use super::{io, Evidence, SiteError};
use crate::check::Cell;
use crate::lessons;
use crate::transcript::Transcript;

pub fn page(ev: &Evidence, t: &Transcript) -> Result<String, SiteError> {
    let path = transcript_page(t);
    let file = std::path::Path::new(&t.file);
    let text = std::fs::read_to_string(file).map_err(io(file))?;
    let (folder, stem) = layout::folder_and_stem(t);
    let row = ev
        .tables
        .iter()
        .flat_map(|(_, table)| &table.rows)
        .find(|r| std::ptr::eq(r.transcript, t));
    let claims = ev
        .tables
        .iter()
        .find(|(l, _)| l.name() == folder)
        .map(|(_, table)| &table.claims);
    let (up, up_text) = match lessons::find(folder) {
        Some(lesson) => (lesson_page(lesson.name()), super::lesson::title(ev.root, folder)),
        None => (folder_page(folder), format!("evidence/{folder}")),
    };
    let body = html! {
        p {
            code { "evidence/" (folder) "/" (stem) ".txt" } ": " (t.header.gpu_name()) ", "
            (t.header.date) ", commit " code { (t.header.commit) } ", exit code " (t.header.exit_code) "."
        }
        @if let (Some(row), Some(claims)) = (row, claims) {
            h2 { "Verdicts" }
            (layout::scroll(html! {
                table {
                    (layout::head(&["claim", "verdict", "what this run measured"]))
                    tbody {
                        @for (claim, (_, cell)) in claims.iter().zip(&row.cells) {
                            tr {
                                th scope="row" {
                                    a href=(format!("{}#claim-{}", layout::rel(&path, &up), claim.id)) { code { (claim.id) } }
                                    span.statement { (claim.statement) }
                                }
                                @match cell {
                                    Cell::Holds => { td { span.verdict.holds { "holds" } } td {} }
                                    Cell::NotApplicable => { td { span.verdict.unchecked { "not applicable" } } td {} }
                                    Cell::Fails(why) => { td { span.verdict.fails { "fails" } } td { (why) } }
                                    Cell::ExpectedToFail(why, reason) => {
                                        td { span.verdict.known { "known failure" } }
                                        td { (why) details { summary { "why" } p { (lesson_spec::figure_blocks::plain(reason)) } } }
                                    }
                                }
                            }
                        }
                    }
                }
            }))
        }
        h2 { "As recorded" }
        pre { (text) }
    };
    Ok(layout::page(
        &path,
        stem,
        &[(INDEX, "index"), (&up, &up_text)],
        body,
    ))
}
