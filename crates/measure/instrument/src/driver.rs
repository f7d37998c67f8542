//! Which modes the installed driver can run, asked before any of them runs.
//! The programmatic modes (graph-pdl, isolated) rewire graph edges with
//! `cuGraphGetEdges_v2` and friends, which drivers before r545 (CUDA 12.3)
//! lack: cudarc, which opens libcuda at run time, would panic at the first
//! call. The other modes need only CUDA 11 calls. So the version is checked
//! first and a mode the driver cannot run is refused in one line. Pure logic,
//! tested without a GPU.

use cuda_objects::DriverVersion;

use crate::mode::Mode;

/// The oldest driver with programmatic graph edges: CUDA 12.3, the r545
/// series, as `cuDriverGetVersion` numbers it.
pub const PROGRAMMATIC_EDGES: DriverVersion = DriverVersion(12030);

/// The driver series that first supported [`PROGRAMMATIC_EDGES`], for people.
const PROGRAMMATIC_EDGES_SERIES: &str = "r545";

/// Whether a driver that supports CUDA `driver` runs `mode`: the other
/// modes need nothing beyond what the build itself needs.
pub fn runs(mode: Mode, driver: DriverVersion) -> bool {
    match mode {
        Mode::GraphPdl | Mode::Isolated => driver.0 >= PROGRAMMATIC_EDGES.0,
        Mode::Hot | Mode::ColdCache | Mode::Graph | Mode::Serial | Mode::Cupti => true,
    }
}

/// Names joined as a sentence lists them: "a", "a and b", "a, b and c".
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The one line that says which modes this driver cannot run and why, and
/// which it can; `None` when it runs them all.
pub fn unavailable(driver: DriverVersion) -> Option<String> {
    let (ok, not): (Vec<Mode>, Vec<Mode>) = Mode::ALL.iter().partition(|&&m| runs(m, driver));
    if not.is_empty() {
        return None;
    }
    let names = |modes: &[Mode]| listed(&modes.iter().map(|m| m.name()).collect::<Vec<_>>());
    Some(format!(
        "{} need a driver of the {PROGRAMMATIC_EDGES_SERIES} series or newer (CUDA {PROGRAMMATIC_EDGES} or later, \
         for programmatic graph edges); this driver supports CUDA {driver}, on which {} run",
        names(&not),
        names(&ok)
    ))
}

/// A mode asked of a driver that cannot run it, said as one line: the mode,
/// then which modes need what and which this driver runs ([`unavailable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the {} mode cannot run on this driver: {}", .mode.name(), unavailable(*.driver).unwrap_or_default())]
pub struct DriverTooOld {
    pub mode: Mode,
    pub driver: DriverVersion,
}

/// `Ok` where a driver that supports CUDA `driver` runs `mode`; otherwise
/// why not.
pub fn check(mode: Mode, driver: DriverVersion) -> Result<(), DriverTooOld> {
    if runs(mode, driver) {
        return Ok(());
    }
    Err(DriverTooOld { mode, driver })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_programmatic_modes_need_cuda_12_3_and_the_rest_run_anywhere() {
        for old in [DriverVersion(12020), DriverVersion(11080)] {
            assert!(!runs(Mode::GraphPdl, old));
            assert!(!runs(Mode::Isolated, old));
            for m in [Mode::Hot, Mode::ColdCache, Mode::Graph, Mode::Serial, Mode::Cupti] {
                assert!(runs(m, old), "{m:?} on {old}");
            }
        }
        for new in [PROGRAMMATIC_EDGES, DriverVersion(13000)] {
            assert!(Mode::ALL.iter().all(|&m| runs(m, new)), "{new}");
        }
    }

    #[test]
    fn an_old_driver_gets_one_line_naming_what_needs_what() {
        // CUDA 12.2 is the r535 series: one short of programmatic edges.
        let line = unavailable(DriverVersion(12020)).unwrap();
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.starts_with("graph-pdl and isolated need a driver of the r545 series or newer (CUDA 12.3"),
            "{line}"
        );
        assert!(line.contains("this driver supports CUDA 12.2"), "{line}");
        assert!(
            line.ends_with("on which hot, cold-cache, graph, serial and cupti run"),
            "{line}"
        );
        assert_eq!(unavailable(DriverVersion(13000)), None, "nothing to say");
        assert_eq!(unavailable(PROGRAMMATIC_EDGES), None, "12.3 itself is enough");
    }

    #[test]
    fn a_mode_the_driver_cannot_run_is_refused_with_that_line() {
        let old = DriverVersion(12020);
        let why = check(Mode::Isolated, old).unwrap_err().to_string();
        assert!(
            why.starts_with("the isolated mode cannot run on this driver: graph-pdl and isolated need"),
            "{why}"
        );
        assert_eq!(check(Mode::Graph, old), Ok(()));
        assert_eq!(check(Mode::Isolated, DriverVersion(13000)), Ok(()));
    }

    #[test]
    fn lists_read_as_sentences() {
        assert_eq!(listed(&[]), "");
        assert_eq!(listed(&["a"]), "a");
        assert_eq!(listed(&["a", "b"]), "a and b");
        assert_eq!(listed(&["a", "b", "c"]), "a, b and c");
    }
}
