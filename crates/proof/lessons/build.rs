//! Writes the lesson list from this package's own dependencies: every
//! `<lesson>-report` is a lesson (src/manifest.rs), whose report package's
//! `Report` implements `lesson_spec::LessonReport`.

use std::fmt::Write;

#[path = "src/manifest.rs"]
mod manifest;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=src/manifest.rs");
    let manifest = std::fs::read_to_string("Cargo.toml").expect("reading the registry's Cargo.toml");
    let mut list = String::from("&[\n");
    for lesson in manifest::report_packages(&manifest) {
        let _ = writeln!(
            list,
            "    &lesson_spec::Entry::<{}_report::Report>::NEW,",
            lesson.replace('-', "_")
        );
    }
    list.push(']');
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lessons.rs");
    std::fs::write(out, list).expect("writing the lesson list");
}
