//! The GPU's clocks and throttle reasons, read through NVML around each
//! sample, so a measurement can say whether the card was throttling.
//!
//! NVML is optional: where libnvidia-ml cannot be loaded, [`ClockMonitor`]
//! says why once and readings are absent, not an error.

use nvml_wrapper::bitmasks::device::ThrottleReasons;
use nvml_wrapper::enum_wrappers::device::Clock;
use nvml_wrapper::Nvml;
use serde::Serialize;

/// One reading of the card's state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockReading {
    pub sm_mhz: u32,
    pub memory_mhz: u32,
    /// The active throttle reasons NVML reports, by name.
    pub reasons: Vec<String>,
    /// Whether any reason that slows the clocks down is active (power cap,
    /// thermal, hardware slowdown, power brake); idle is not throttling.
    pub throttled: bool,
}

/// Reads clocks for one device, found by its UUID.
pub struct ClockMonitor {
    nvml: Option<Nvml>,
    uuid: String,
    /// Why there are no readings, when there are none.
    pub unavailable: Option<String>,
}

const SLOWING: [(ThrottleReasons, &str); 5] = [
    (ThrottleReasons::SW_POWER_CAP, "sw_power_cap"),
    (ThrottleReasons::HW_SLOWDOWN, "hw_slowdown"),
    (ThrottleReasons::SW_THERMAL_SLOWDOWN, "sw_thermal"),
    (ThrottleReasons::HW_THERMAL_SLOWDOWN, "hw_thermal"),
    (ThrottleReasons::HW_POWER_BRAKE_SLOWDOWN, "hw_power_brake"),
];

impl ClockMonitor {
    /// `uuid` as CUDA gives it (16 bytes); NVML spells it `GPU-xxxxxxxx-...`.
    pub fn new(uuid: &[u8; 16]) -> ClockMonitor {
        let uuid = nvml_uuid(uuid);
        let nvml = match Nvml::init() {
            Ok(nvml) => match nvml.device_by_uuid(uuid.as_str()).map(|_| ()) {
                Ok(()) => Ok(nvml),
                Err(e) => Err(format!("NVML does not know this device: {e}")),
            },
            Err(e) => Err(format!("NVML unavailable: {e}")),
        };
        let unavailable = nvml.as_ref().err().cloned();
        ClockMonitor {
            nvml: nvml.ok(),
            uuid,
            unavailable,
        }
    }

    /// The card's state now, or `None` without NVML.
    pub fn read(&self) -> Option<ClockReading> {
        let device = self.nvml.as_ref()?.device_by_uuid(self.uuid.as_str()).ok()?;
        let reasons = device
            .current_throttle_reasons()
            .unwrap_or(ThrottleReasons::empty());
        let mut names: Vec<String> = SLOWING
            .iter()
            .filter(|(r, _)| reasons.contains(*r))
            .map(|(_, n)| n.to_string())
            .collect();
        let throttled = !names.is_empty();
        if reasons.contains(ThrottleReasons::GPU_IDLE) {
            names.push("gpu_idle".into());
        }
        Some(ClockReading {
            sm_mhz: device.clock_info(Clock::SM).unwrap_or(0),
            memory_mhz: device.clock_info(Clock::Memory).unwrap_or(0),
            reasons: names,
            throttled,
        })
    }
}

/// CUDA's 16 UUID bytes in NVML's `GPU-8-4-4-4-12` form.
pub fn nvml_uuid(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_spelled_as_nvml_spells_them() {
        let bytes = [
            0x5f, 0x1e, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 0x7f, 0x80, 0x91, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7,
        ];
        assert_eq!(nvml_uuid(&bytes), "GPU-5f1e2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7");
    }

    #[test]
    fn an_unknown_device_or_no_nvml_is_said_once_and_reads_nothing() {
        // No GPU has an all-zero UUID, so this holds with or without NVML.
        let m = ClockMonitor::new(&[0; 16]);
        assert!(m.unavailable.is_some());
        assert!(m.read().is_none());
    }
}
