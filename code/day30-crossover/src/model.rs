//! crossover.cu's model: a time is a fixed cost plus n times a cost per
//! element, each from the measured constants and a kernel's two counts.

use std::cmp::Ordering;

/// One copy direction from one kind of memory: t = fixed_us + bytes / rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CopyCost {
    pub fixed_us: f64,
    pub gb_s: f64,
}

/// The fit through two sizes: the rate from their difference, the fixed
/// cost from what the small copy takes beyond its bytes.
pub fn fit_copy(small_bytes: usize, large_bytes: usize, small_us: f64, large_us: f64) -> CopyCost {
    let gb_s = (large_bytes - small_bytes) as f64 / ((large_us - small_us) * 1e3);
    CopyCost {
        fixed_us: small_us - small_bytes as f64 / (gb_s * 1e3),
        gb_s,
    }
}

/// Part 1's constants.
#[derive(Debug, Clone, PartialEq)]
pub struct Machine {
    pub floor_us: f64,
    pub dram_gb_s: f64,
    pub gpu_gops: f64,
    /// [pinned, pageable].
    pub h2d: [CopyCost; 2],
    pub d2h: [CopyCost; 2],
    pub cpu_gb_s: f64,
    pub cpu_gops: f64,
}

/// t(n) = fixed_us + n * us_per_elem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    pub fixed_us: f64,
    pub us_per_elem: f64,
}

impl Line {
    pub fn at(self, n: usize) -> f64 {
        self.fixed_us + n as f64 * self.us_per_elem
    }
}

/// What the copies of a kernel carry: bytes per element and calls each way,
/// and bytes copied back whatever n.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Copies {
    pub h2d_bytes: f64,
    pub h2d_calls: u32,
    pub d2h_bytes: f64,
    pub d2h_calls: u32,
    pub d2h_fixed: f64,
}

/// The CPU: n * max(bytes / bandwidth, ops / rate). The larger of the two,
/// not their sum: the core keeps loads in flight while it computes.
pub fn cpu_line(m: &Machine, bytes: f64, ops: f64) -> Line {
    Line {
        fixed_us: 0.0,
        us_per_elem: (bytes / (m.cpu_gb_s * 1e3)).max(ops / (m.cpu_gops * 1e3)),
    }
}

/// The GPU: floor + n * max(bytes / bandwidth, ops / rate), and with copies
/// (`Some((memory, copies))`, memory 0 pinned, 1 pageable) each call's fixed
/// cost plus its bytes over the link's rate.
pub fn gpu_line(m: &Machine, bytes: f64, ops: f64, copies: Option<(usize, Copies)>) -> Line {
    let mut l = Line {
        fixed_us: m.floor_us,
        us_per_elem: (bytes / (m.dram_gb_s * 1e3)).max(ops / (m.gpu_gops * 1e3)),
    };
    if let Some((mem, c)) = copies {
        let (input, output) = (m.h2d[mem], m.d2h[mem]);
        l.fixed_us += f64::from(c.h2d_calls) * input.fixed_us
            + f64::from(c.d2h_calls) * output.fixed_us
            + c.d2h_fixed / (output.gb_s * 1e3);
        l.us_per_elem += c.h2d_bytes / (input.gb_s * 1e3) + c.d2h_bytes / (output.gb_s * 1e3);
    }
    l
}

/// Where gpu(n) = cpu(n), or never (`None`) where the GPU's cost per
/// element is not below the CPU's.
pub fn crossover(gpu: Line, cpu: Line) -> Option<f64> {
    // Not greater, or not comparable (a NaN): never, as in crossover.cu.
    match cpu.us_per_elem.partial_cmp(&gpu.us_per_elem) {
        Some(Ordering::Greater) => {
            Some(((gpu.fixed_us - cpu.fixed_us) / (cpu.us_per_elem - gpu.us_per_elem)).ceil())
        }
        _ => None,
    }
}

/// The smallest n of the sweep from which the GPU is faster at every larger
/// size too; `None` if it is not faster at the largest.
pub fn measured_crossover(sizes: &[usize], gpu_us: &[f64], cpu_us: &[f64]) -> Option<f64> {
    let mut from = None;
    for s in (0..sizes.len()).rev() {
        if gpu_us[s].partial_cmp(&cpu_us[s]) != Some(Ordering::Less) {
            break;
        }
        from = Some(sizes[s] as f64);
    }
    from
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A made-up machine, for the tests here and in main.rs.
    pub(crate) fn machine() -> Machine {
        let link = CopyCost {
            fixed_us: 10.0,
            gb_s: 50.0,
        };
        Machine {
            floor_us: 5.0,
            dram_gb_s: 4000.0,
            gpu_gops: 50_000.0,
            h2d: [link; 2],
            d2h: [link; 2],
            cpu_gb_s: 10.0,
            cpu_gops: 2.0,
        }
    }

    #[test]
    fn the_crossover_is_the_floor_over_the_difference_per_element() {
        let m = machine();
        // 12 bytes at 10 GB/s: 1.2 ns per element on the CPU.
        let cpu = cpu_line(&m, 12.0, 2.0);
        assert!((cpu.us_per_elem - 1.2e-3).abs() < 1e-12);
        let gpu = gpu_line(&m, 12.0, 2.0, None);
        let n = crossover(gpu, cpu).unwrap();
        assert_eq!(n, (5.0f64 / (1.2e-3 - 12.0 / 4e6)).ceil());
    }

    #[test]
    fn a_gpu_dearer_per_element_never_wins() {
        let mut m = machine();
        m.h2d[1].gb_s = 5.0;
        let copies = Copies {
            h2d_bytes: 8.0,
            h2d_calls: 2,
            d2h_bytes: 4.0,
            d2h_calls: 1,
            d2h_fixed: 0.0,
        };
        let cpu = cpu_line(&m, 12.0, 2.0);
        assert_eq!(crossover(gpu_line(&m, 12.0, 2.0, Some((1, copies))), cpu), None);
        assert!(crossover(gpu_line(&m, 12.0, 2.0, Some((0, copies))), cpu).is_some());
    }

    #[test]
    fn the_copy_fit_recovers_a_fixed_cost_and_a_rate() {
        let c = fit_copy(
            4096,
            64 << 20,
            10.0 + 4096.0 / 50e3,
            10.0 + (64 << 20) as f64 / 50e3,
        );
        assert!((c.gb_s - 50.0).abs() < 1e-9 && (c.fixed_us - 10.0).abs() < 1e-9);
    }

    #[test]
    fn the_measured_crossover_is_where_the_gpu_stays_faster() {
        let sizes = [16, 32, 64, 128];
        assert_eq!(
            measured_crossover(&sizes, &[1.0, 1.0, 1.0, 1.0], &[2.0, 0.5, 2.0, 3.0]),
            Some(64.0)
        );
        assert_eq!(measured_crossover(&sizes, &[1.0; 4], &[2.0, 2.0, 2.0, 0.5]), None);
    }
}
