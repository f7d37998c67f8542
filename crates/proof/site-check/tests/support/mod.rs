//! A small good site written into a temporary folder, for the tests to
//! plant one fault in each.

use std::path::Path;

/// A 1x1 SVG: an image that loads without a PNG encoder.
const PIC: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>"#;

/// A whole page: `lang`, one `h1` (`title`), and `body` after it.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title></head>\n\
         <body>\n<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
    )
}

/// Three pages, 5 links, 1 image, a table with `th`, a fragment link.
pub fn good_site(dir: &Path) {
    write(dir, "pic.svg", PIC);
    write(
        dir,
        "index.html",
        &page(
            "Home",
            "<p><a href=\"guide/a.html\">A</a> <a href=\"b.html#part\">B's part</a></p>\n\
             <img src=\"pic.svg\" alt=\"A black dot\">\n\
             <table><tr><th scope=\"col\">n</th></tr><tr><td>1</td></tr></table>",
        ),
    );
    write(
        dir,
        "guide/a.html",
        &page(
            "A",
            "<a href=\"../index.html\">Home</a> <a href=\"../b.html\">B</a>",
        ),
    );
    write(
        dir,
        "b.html",
        &page("B", "<h2 id=\"part\">Part</h2>\n<a href=\"index.html\">Home</a>"),
    );
}

/// Writes `text` to `dir/name`, making its folders.
pub fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("making a folder in the test site");
    }
    std::fs::write(path, text).expect("writing a page of the test site");
}
