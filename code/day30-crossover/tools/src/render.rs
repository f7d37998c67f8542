//! Day 30's lines, each a template in the exact layout crossover.cu prints
//! (its printf format in Rust's format syntax), so the two programs'
//! transcripts compare line by line; the parser reads the same templates.

use lesson_spec::{fill, labelled, number, Cursor, Fields, Lines, ParseFailure};

use crate::{
    Cell, Constants, CopyCost, Crossover, KernelBlock, Learner, LearnerRow, Report, SizeRow, COPIES, VARIANTS,
};

pub(crate) const CPU_LINE: &str =
    "CPU: one thread, scalar code: every loop reads through a volatile pointer, so none is vectorised";
const PART1: &str = "Part 1: the constants, measured in this process";
const FLOOR: &str =
    "launch floor        {:10.2} us     (Day 11: an empty kernel, launch to sync, median of {})";
const GPU_BW: &str =
    "GPU bandwidth       {:10.1} GB/s   (Day 11: a copy kernel, {} MiB read + {} MiB written)";
const GPU_RATE: &str =
    "GPU op rate         {:10.1} Gop/s  ({} independent FMA chains a thread, an FMA 2 ops)";
const COPY: &str = "{} {:<8}        {:10.2} us + bytes / {:6.2} GB/s   (Day 53: fit from {} KiB and {} MiB)";
const CPU_BW: &str =
    "CPU bandwidth       {:10.2} GB/s   (Day 9's CPU: a copy loop, {} MiB read + {} MiB written)";
const CPU_RATE: &str =
    "CPU op rate         {:10.3} Gop/s  (Day 9's CPU: chains of {} multiply-adds, each 2 ops)";
const PART2: &str = "Part 2: the model against the measurement";
const MODEL: [&str; 3] = [
    "t_cpu(n) = n * max(bytes / CPU bandwidth, ops / CPU op rate)",
    "t_gpu(n) = floor + n * max(bytes / GPU bandwidth, ops / GPU op rate), + per copy call: fixed + bytes / rate",
    "crossover: the n where t_gpu = t_cpu; never where the GPU's cost per element is not below the CPU's",
];
const MEASURED: &str =
    "measured: the smallest n of the sweep ({} to {}, doubling) from which the GPU stays faster";
const KERNEL: &str =
    "{}: {:.0} bytes and {:.0} ops per element; copies: {:.0} bytes per element in ({} cudaMemcpy), \
                      {:.0} per element + {:.0} out ({} cudaMemcpy)";
const CROSSOVER: &str = "{:<17}  {:>12}  {:>12}";
const SIZE_HEAD: &str = "{:>10}  {:>27}  {:>27}  {:>27}  {:>27}";
const SIZE_ROW: &str =
    "{:>10}  {:9.2} {:9.2} {:+6.0}%  {:9.2} {:9.2} {:+6.0}%  {:9.2} {:9.2} {:+6.0}%  {:9.2} {:9.2} {:+6.0}%";
const SIZE_COLUMNS: [&str; 5] = [
    "n",
    "CPU us, model, err",
    "kernel us, model, err",
    "pinned us, model, err",
    "pageable us, model, err",
];
const PART3: &str =
    "Part 3: your kernel, {:.2} bytes and {:.2} ops per element (--bytes-per-element, --ops-per-element)";
const PART3_COPIES: &str = "copies assumed: {:.2} bytes in per element (1 call), {:.2} bytes out (1 call)";
const PART3_HEAD: &str = "{:<17}  {:>12}  {:>14}  {:>14}";
const PART3_ROW: &str = "{:<17}  {:>12}  {:14.4}  {:14.4}";

/// A crossover as printed: the n, or `never`.
pub fn crossover_text(n: Option<f64>) -> String {
    match n {
        Some(n) => format!("{n:.0}"),
        None => "never".into(),
    }
}

fn crossover_read(f: &Fields<'_>, i: usize) -> Result<Option<f64>, ParseFailure> {
    match f.text(i) {
        "never" => Ok(None),
        _ => f.num(i).map(Some),
    }
}

impl Report {
    /// The report as crossover.cu prints it to stdout.
    pub fn render(&self) -> String {
        let mut out: Vec<String> = vec![format!("GPU: {}", self.gpu), CPU_LINE.into()];
        out.extend(self.constants.lines());
        out.push(String::new());
        out.push(PART2.into());
        out.extend(MODEL.map(String::from));
        out.push(fill(MEASURED, &[&self.sweep_min, &self.sweep_max]));
        for k in &self.kernels {
            out.extend(k.lines());
        }
        out.extend(self.learner.lines());
        out.push(String::new());
        out.join("\n")
    }
}

impl Constants {
    fn lines(&self) -> Vec<String> {
        let mut out = vec![
            String::new(),
            PART1.into(),
            fill(FLOOR, &[&self.floor_us, &self.floor_calls]),
            fill(GPU_BW, &[&self.gpu_gb_s, &self.gpu_bw_mib, &self.gpu_bw_mib]),
            fill(GPU_RATE, &[&self.gpu_gops, &self.gpu_rate_chains]),
        ];
        let (small, large) = (&self.copy_small_kib, &self.copy_large_mib);
        for ((dir, mem), c) in COPIES.iter().zip(&self.copies) {
            out.push(fill(COPY, &[dir, mem, &c.fixed_us, &c.gb_s, small, large]));
        }
        out.push(fill(
            CPU_BW,
            &[&self.cpu_gb_s, &self.cpu_bw_mib, &self.cpu_bw_mib],
        ));
        out.push(fill(CPU_RATE, &[&self.cpu_gops, &self.cpu_chain]));
        out
    }
}

impl KernelBlock {
    fn lines(&self) -> Vec<String> {
        let mut out = vec![
            String::new(),
            fill(
                KERNEL,
                &[
                    &self.name,
                    &self.bytes,
                    &self.ops,
                    &self.h2d_bytes,
                    &self.h2d_calls,
                    &self.d2h_bytes,
                    &self.d2h_fixed,
                    &self.d2h_calls,
                ],
            ),
            fill(CROSSOVER, &[&"crossover", &"predicted", &"measured"]),
        ];
        for (variant, x) in VARIANTS.iter().zip(&self.crossovers) {
            let (p, m) = (crossover_text(x.predicted), crossover_text(x.measured));
            out.push(fill(CROSSOVER, &[variant, &p, &m]));
        }
        out.push(fill(SIZE_HEAD, &SIZE_COLUMNS.each_ref().map(|h| h as _)));
        for row in &self.sizes {
            let mut values: Vec<&dyn std::fmt::Display> = vec![&row.n];
            for c in &row.cells {
                values.extend([
                    &c.measured_us as &dyn std::fmt::Display,
                    &c.model_us,
                    &c.error_percent,
                ]);
            }
            out.push(fill(SIZE_ROW, &values));
        }
        out
    }
}

impl Learner {
    fn lines(&self) -> Vec<String> {
        let mut out = vec![
            String::new(),
            fill(PART3, &[&self.bytes, &self.ops]),
            fill(PART3_COPIES, &[&self.in_bytes, &self.out_bytes]),
            fill(
                PART3_HEAD,
                &[&"crossover", &"predicted", &"GPU ns/elem", &"CPU ns/elem"],
            ),
        ];
        for (variant, r) in VARIANTS.iter().zip(&self.rows) {
            let p = crossover_text(r.predicted);
            out.push(fill(PART3_ROW, &[variant, &p, &r.gpu_ns, &r.cpu_ns]));
        }
        out
    }
}

/// Reads the report back from either program's output; errors name the line.
pub fn parse(lines: &Lines<'_>) -> Result<Report, ParseFailure> {
    let mut c = Cursor::new(lines);
    let (_, gpu) = c.expect("GPU: ")?;
    c.expect(CPU_LINE)?;
    c.expect(PART1)?;
    let constants = constants(&mut c)?;
    c.expect(PART2)?;
    for line in MODEL {
        c.expect(line)?;
    }
    let f = c.read(MEASURED)?;
    let (sweep_min, sweep_max) = (f.num(0)?, f.num(1)?);
    let mut kernels = Vec::new();
    loop {
        let (n, line) = c.next("a kernel's block or Part 3")?;
        if line.starts_with("Part 3: ") {
            let part3 = lesson_spec::read(n, PART3, line)?;
            let copies = c.read(PART3_COPIES)?;
            c.expect("crossover ")?;
            let rows = VARIANTS.map(|variant| {
                let f = c.read(&labelled(PART3_ROW, variant))?;
                Ok(LearnerRow {
                    predicted: crossover_read(&f, 0)?,
                    gpu_ns: f.num(1)?,
                    cpu_ns: f.num(2)?,
                })
            });
            let learner = Learner {
                bytes: part3.num(0)?,
                ops: part3.num(1)?,
                in_bytes: copies.num(0)?,
                out_bytes: copies.num(1)?,
                rows: rows.into_iter().collect::<Result<_, _>>()?,
            };
            return Ok(Report {
                gpu: gpu.to_string(),
                constants,
                sweep_min,
                sweep_max,
                kernels,
                learner,
            });
        }
        match (lesson_spec::read(n, KERNEL, line), kernels.last_mut()) {
            (Ok(f), _) => kernels.push(kernel_block(&mut c, f)?),
            (Err(_), Some(k)) => k.sizes.push(size_row(n, line)?),
            (Err(e), None) => return Err(e),
        }
    }
}

/// Part 1's lines after its title.
fn constants(c: &mut Cursor<'_, '_>) -> Result<Constants, ParseFailure> {
    let (floor, gpu_bw, gpu_rate) = (c.read(FLOOR)?, c.read(GPU_BW)?, c.read(GPU_RATE)?);
    let copies = COPIES.map(|(dir, mem)| c.read(&labelled(&labelled(COPY, dir), mem)));
    let copies = copies.into_iter().collect::<Result<Vec<_>, _>>()?;
    let (cpu_bw, cpu_rate) = (c.read(CPU_BW)?, c.read(CPU_RATE)?);
    let cost = |f: &Fields<'_>| -> Result<CopyCost, ParseFailure> {
        Ok(CopyCost {
            fixed_us: f.num(0)?,
            gb_s: f.num(1)?,
        })
    };
    Ok(Constants {
        floor_us: floor.num(0)?,
        floor_calls: floor.num(1)?,
        gpu_gb_s: gpu_bw.num(0)?,
        gpu_bw_mib: gpu_bw.num(1)?,
        gpu_gops: gpu_rate.num(0)?,
        gpu_rate_chains: gpu_rate.num(1)?,
        copies: copies.iter().map(cost).collect::<Result<_, _>>()?,
        // Every copy line names the same two sizes.
        copy_small_kib: copies[3].num(2)?,
        copy_large_mib: copies[3].num(3)?,
        cpu_gb_s: cpu_bw.num(0)?,
        cpu_bw_mib: cpu_bw.num(1)?,
        cpu_gops: cpu_rate.num(0)?,
        cpu_chain: cpu_rate.num(1)?,
    })
}

/// One row of a kernel's size table.
fn size_row(n: usize, line: &str) -> Result<SizeRow, ParseFailure> {
    let f = lesson_spec::read(n, SIZE_ROW, line)?;
    let cell = |i: usize| -> Result<Cell, ParseFailure> {
        Ok(Cell {
            measured_us: f.num(1 + 3 * i)?,
            model_us: f.num(2 + 3 * i)?,
            error_percent: f.num(3 + 3 * i)?,
        })
    };
    Ok(SizeRow {
        n: number(n, f.text(0), "n")?,
        cells: vec![cell(0)?, cell(1)?, cell(2)?, cell(3)?],
    })
}

/// One kernel's block from its first line to its size table's head; the
/// rows come after, read by [`parse`].
fn kernel_block(c: &mut Cursor<'_, '_>, f: Fields<'_>) -> Result<KernelBlock, ParseFailure> {
    let name = f.text(0).to_string();
    c.expect("crossover ")?;
    let mut crossovers = Vec::new();
    for variant in VARIANTS {
        let f = c.read(&labelled(CROSSOVER, variant))?;
        crossovers.push(Crossover {
            predicted: crossover_read(&f, 0)?,
            measured: crossover_read(&f, 1)?,
        });
    }
    let (n, head) = c.next("the size table's head")?;
    if !head.trim_start().starts_with("n ") {
        return Err(ParseFailure::at(n, "expected the size table's head"));
    }
    Ok(KernelBlock {
        name,
        bytes: f.num(1)?,
        ops: f.num(2)?,
        h2d_bytes: f.num(3)?,
        h2d_calls: f.num(4)?,
        d2h_bytes: f.num(5)?,
        d2h_fixed: f.num(6)?,
        d2h_calls: f.num(7)?,
        crossovers,
        sizes: Vec::new(),
    })
}
