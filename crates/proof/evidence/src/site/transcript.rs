//! A transcript's page: its verdicts, then the file as recorded, header
//! first.

use maud::html;

use crate::check::Cell;
use crate::site::context::Evidence;
use crate::site::error::{io, SiteError};
use crate::site::layout::{self, folder_page, lesson_page, transcript_page, INDEX};
use crate::transcript::Transcript;
use crate::verdicts::Kind;

pub fn page(ev: &Evidence, t: &Transcript) -> Result<String, SiteError> {
    let path = transcript_page(t);
    let file = std::path::Path::new(&t.file);
    // Read as load read it: a regular file within the cap, as UTF-8.
    let text = crate::capped::transcript(file)
        .map_err(std::io::Error::other)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        .map_err(io(file))?;
    let (folder, stem) = layout::folder_and_stem(t);
    // The run's own row of its own lesson's table, if a lesson judged it.
    let judged = ev.tables.iter().find_map(|(lesson, table)| {
        let row = table.rows.iter().find(|r| std::ptr::eq(r.transcript, t))?;
        Some((*lesson, table, row))
    });
    let (up, up_text) = match judged {
        Some((lesson, ..)) => (lesson_page(lesson.name()), ev.title(lesson.name()).to_string()),
        None => (folder_page(folder), format!("evidence/{folder}")),
    };
    let body = html! {
        p {
            code { "evidence/" (folder) "/" (stem) ".txt" } ": " (t.header.gpu_name()) ", "
            (t.header.date) ", commit " code { (t.header.commit) } ", exit code " (t.header.exit_code) "."
        }
        @if let Some((_, table, row)) = judged {
            h2 { "Verdicts" }
            @if t.header.exit_code != 0 {
                p { "The run exited " (t.header.exit_code) ": it printed no report, so no claim judges it." }
            }
            (layout::scroll(html! {
                table {
                    (layout::head(&["claim", "verdict", "what this run measured"]))
                    tbody {
                        @for (id, cell) in &row.cells {
                            @let statement = table.claims.iter().find(|c| c.id == *id).map_or("", |c| c.statement);
                            @let class = layout::class(Kind::of(cell));
                            tr {
                                th scope="row" {
                                    a href=(format!("{}#claim-{id}", layout::rel(&path, &up))) { code { (id) } }
                                    span.statement { (statement) }
                                }
                                td { span.verdict.(class) { (cell.word()) } }
                                td {
                                    @match cell {
                                        Cell::Fails(why, _) => { (why) }
                                        Cell::ExpectedToFail(why, reason, _) => {
                                            (why) details { summary { "why" } p { (reason) } }
                                        }
                                        Cell::Holds(_) | Cell::NotApplicable => {}
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
