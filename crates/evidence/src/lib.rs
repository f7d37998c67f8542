//! Recorded lesson runs as data.
//!
//! - [`transcript`] parses a transcript (header, body, sanitizer lines), the
//!   body by its lesson, and refuses one that cannot be true (a field
//!   missing or repeated, an impossible date, commit, exit status or
//!   number, a file in the wrong folder or under the wrong name); a
//!   malformed file is an error naming the file and the line, never a panic.
//! - [`twin`] writes a transcript's JSON twin and holds it to the transcript.
//! - [`load`] reads the evidence folder as every command reads it: each
//!   transcript, each twin, no run dated in the future or counted twice.
//! - [`merge`] adds GPU sessions' evidence folders to the evidence, all or
//!   nothing, each run held to [`load`]'s checks and nothing replaced.
//! - [`atomic`] writes a file whole or not at all; [`capped`] reads one
//!   evidence file, a regular one and no larger than its cap; [`folder_lock`]
//!   holds a folder for one process (a merge, a site being staged).
//! - [`claims`] applies the lessons' claims (and the shared sanitizer claim)
//!   to recorded runs; [`check`] tables them over every transcript, and
//!   [`why`] judges the lessons' causes per GPU ("why, as measured").
//! - [`compare`] sets two runs, or two groups of runs by their medians, side
//!   by side with ratios.
//! - [`plot`] draws the lessons' sweeps as SVG from the evidence.
//! - [`record`] runs a program and writes its transcript and JSON twin.
//! - [`figures`] writes the documents' figure blocks from the evidence,
//!   and finds the blocks the evidence has made stale.
//! - [`sessions`] groups the runs into recording sessions (one machine,
//!   one commit, one stretch of time); [`history`] follows each figure a
//!   claim or a cause reads over a GPU's sessions, and [`changes`] labels
//!   what moved between a GPU's last two sessions (robust-stats' rule) and
//!   which verdicts flipped, with the rate of false alarms measured.
//! - [`site`] writes the evidence as a static site: every claim on every
//!   GPU, each lesson's figures and charts, every transcript.
//! - [`instrument`] tables the time-kernel instrument's proof against ncu
//!   and the peer tools.
//!
//! Not for: running lessons' checks (they check themselves) or timing
//! anything itself.

pub mod atomic;
pub mod capped;
pub mod changes;
pub mod check;
pub mod compare;
pub mod figures;
pub mod folder_lock;
pub mod history;
pub mod instrument;
pub mod journal;
pub mod judge;
pub mod load;
pub mod merge;
pub mod plot;
pub mod problem;
pub mod record;
pub mod runs;
pub mod sessions;
pub mod site;
pub mod transcript;
pub mod twin;
pub mod verdicts;
pub mod why;
