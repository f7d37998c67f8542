//! Writes the lesson list from this package's own dependencies: every
//! dependency named `<lesson>-report` is a lesson, whose report package's
//! `Report` implements `lesson_spec::LessonReport`. So adding a lesson to the
//! tools is one dependency line in Cargo.toml.

use std::fmt::Write;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.toml");
    let manifest = std::fs::read_to_string("Cargo.toml").expect("reading evidence's Cargo.toml");
    let mut list = String::from("&[\n");
    for line in manifest.lines() {
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if name.ends_with("-report") && !name.contains(['.', ' ', '"']) {
            let _ = writeln!(
                list,
                "    &lesson_spec::Entry::<{}::Report>::NEW,",
                name.replace('-', "_")
            );
        }
    }
    list.push(']');
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lessons.rs");
    std::fs::write(out, list).expect("writing the lesson list");
}
