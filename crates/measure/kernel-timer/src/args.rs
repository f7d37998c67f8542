//! What a user types for a launch: a grid or block (`256`, `64x64`,
//! `8x8x4`) and each argument, a device buffer by type, count and initial
//! value (`f32[4096*4096]=random:1`) or a scalar (`i32=4096`), with the
//! bytes each puts in the launch, so a seeded buffer is the same everywhere.
//! Pure parsing, tested without a GPU.

use std::fmt;

/// An element or scalar type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    F32,
    F64,
    I8,
    U8,
    I32,
    U32,
    I64,
    U64,
}

/// A type's name, size in bytes, and range (none for floats).
type Row = (&'static str, Type, usize, Option<(f64, f64)>);

const TYPES: [Row; 8] = [
    ("f32", Type::F32, 4, None),
    ("f64", Type::F64, 8, None),
    ("i8", Type::I8, 1, Some((i8::MIN as f64, i8::MAX as f64))),
    ("u8", Type::U8, 1, Some((0.0, u8::MAX as f64))),
    ("i32", Type::I32, 4, Some((i32::MIN as f64, i32::MAX as f64))),
    ("u32", Type::U32, 4, Some((0.0, u32::MAX as f64))),
    ("i64", Type::I64, 8, Some((i64::MIN as f64, i64::MAX as f64))),
    ("u64", Type::U64, 8, Some((0.0, u64::MAX as f64))),
];

impl Type {
    fn row(self) -> Row {
        TYPES[self as usize]
    }

    fn parse(s: &str) -> Result<Type, String> {
        TYPES
            .iter()
            .find(|t| t.0 == s)
            .map(|t| t.1)
            .ok_or_else(|| format!("unknown type `{s}` (f32, f64, i8, u8, i32, u32, i64 or u64)"))
    }

    pub fn size(self) -> usize {
        self.row().2
    }

    fn is_float(self) -> bool {
        self.row().3.is_none()
    }

    /// Whether `x` is a value of this type, and why not.
    fn check(self, x: f64) -> Result<(), String> {
        match self.row().3 {
            None => Ok(()),
            Some(_) if x.fract() != 0.0 => Err(format!("{x} is not an integer, and the type is {self}")),
            Some((lo, hi)) if !(lo..=hi).contains(&x) => Err(format!("{x} does not fit in {self}")),
            Some(_) => Ok(()),
        }
    }

    /// Appends `x` in this type's bytes (little-endian); a value that does
    /// not fit saturates, so [`Type::check`] it first.
    fn push(self, x: f64, out: &mut Vec<u8>) {
        match self {
            Type::F32 => out.extend((x as f32).to_le_bytes()),
            Type::F64 => out.extend(x.to_le_bytes()),
            Type::I8 => out.extend((x as i8).to_le_bytes()),
            Type::U8 => out.extend((x as u8).to_le_bytes()),
            Type::I32 => out.extend((x as i32).to_le_bytes()),
            Type::U32 => out.extend((x as u32).to_le_bytes()),
            Type::I64 => out.extend((x as i64).to_le_bytes()),
            Type::U64 => out.extend((x as u64).to_le_bytes()),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().0)
    }
}

/// How a buffer starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fill {
    Zeros,
    Constant(f64),
    /// 0, 1, 2, ... (wrapping at the type's range for small integers).
    Sequence,
    /// Uniform in [0, 1) for floats and in [0, 100) for integers, from a
    /// seeded generator (splitmix64), the same on every machine.
    Random(u64),
}

/// One kernel argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSpec {
    /// `TYPE[COUNT]` or `TYPE[COUNT]=FILL`: a device buffer of COUNT
    /// elements; the kernel gets its address. COUNT may be a product
    /// (`4096*4096`); FILL is `zeros` (the default), `seq`, `random:SEED` or
    /// a number.
    Buffer { ty: Type, count: usize, fill: Fill },
    /// `TYPE=VALUE`: a scalar passed by value.
    Scalar { ty: Type, value: f64 },
}

impl ArgSpec {
    /// The bytes the kernel's parameter holds: a scalar's value, or 8 for a
    /// buffer's address.
    pub fn param_size(&self) -> usize {
        match self {
            ArgSpec::Buffer { .. } => 8,
            ArgSpec::Scalar { ty, .. } => ty.size(),
        }
    }

    /// A scalar's bytes, or a buffer's initial contents.
    pub fn initial_bytes(&self) -> Vec<u8> {
        match *self {
            ArgSpec::Scalar { ty, value } => fill_bytes(ty, 1, Fill::Constant(value)),
            ArgSpec::Buffer { ty, count, fill } => fill_bytes(ty, count, fill),
        }
    }
}

/// splitmix64: small, seeded, and the same everywhere.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fill_bytes(ty: Type, count: usize, fill: Fill) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * ty.size());
    let mut state = match fill {
        Fill::Random(seed) => seed,
        _ => 0,
    };
    // Integers of one byte wrap, so a sequence fits any type.
    let wrap = |i: usize| match ty {
        Type::I8 => (i % 128) as f64,
        Type::U8 => (i % 256) as f64,
        _ => i as f64,
    };
    for i in 0..count {
        let x = match fill {
            Fill::Zeros => 0.0,
            Fill::Constant(c) => c,
            Fill::Sequence => wrap(i),
            Fill::Random(_) => {
                let u = (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
                if ty.is_float() {
                    u
                } else {
                    (u * 100.0).floor()
                }
            }
        };
        ty.push(x, &mut out);
    }
    out
}

/// A count: a whole number or a product of them (`4096*4096`), `_` allowed
/// between digits.
fn parse_count(s: &str) -> Result<usize, String> {
    s.split('*').try_fold(1usize, |acc, part| {
        let part = part.trim().replace('_', "");
        let n: usize = part
            .parse()
            .map_err(|_| format!("`{s}` is not a count (a whole number, or a product like 4096*4096)"))?;
        acc.checked_mul(n).ok_or_else(|| format!("`{s}` is too large"))
    })
}

fn parse_number(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a number")),
    }
}

impl std::str::FromStr for ArgSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<ArgSpec, String> {
        let (head, value) = match s.split_once('=') {
            Some((h, v)) => (h.trim(), Some(v.trim())),
            None => (s.trim(), None),
        };
        let Some((ty, rest)) = head.split_once('[') else {
            let ty = Type::parse(head)?;
            let value = value.ok_or_else(|| {
                format!("`{s}`: a scalar needs a value (`{head}=VALUE`), a buffer a count (`{head}[COUNT]`)")
            })?;
            let value = parse_number(value)?;
            ty.check(value).map_err(|e| format!("`{s}`: {e}"))?;
            return Ok(ArgSpec::Scalar { ty, value });
        };
        let ty = Type::parse(ty.trim())?;
        let count = rest
            .strip_suffix(']')
            .ok_or_else(|| format!("`{s}`: a buffer is `TYPE[COUNT]`, with a closing `]`"))?;
        let count = parse_count(count)?;
        if count == 0 {
            return Err(format!("`{s}`: a buffer needs at least one element"));
        }
        let fill = match value {
            None | Some("zeros") => Fill::Zeros,
            Some("seq") => Fill::Sequence,
            Some(v) if v.starts_with("random") => {
                let seed = v
                    .strip_prefix("random:")
                    .ok_or_else(|| format!("`{s}`: random needs a seed (random:SEED)"))?;
                Fill::Random(
                    seed.parse()
                        .map_err(|_| format!("`{s}`: the seed `{seed}` is not a whole number"))?,
                )
            }
            Some(v) => {
                let c = parse_number(v).map_err(|_| {
                    format!("`{s}`: a buffer's value is zeros, seq, random:SEED or a number, not `{v}`")
                })?;
                ty.check(c).map_err(|e| format!("`{s}`: {e}"))?;
                Fill::Constant(c)
            }
        };
        Ok(ArgSpec::Buffer { ty, count, fill })
    }
}

/// A grid or block: `X`, `XxY` or `XxYxZ`, each at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3(pub u32, pub u32, pub u32);

impl std::str::FromStr for Dim3 {
    type Err = String;

    fn from_str(s: &str) -> Result<Dim3, String> {
        let parts: Vec<&str> = s.split('x').collect();
        let bad = || format!("`{s}` is not a size: X, XxY or XxYxZ, each a whole number of at least 1");
        if parts.len() > 3 {
            return Err(bad());
        }
        let mut d = [1u32; 3];
        for (slot, part) in d.iter_mut().zip(&parts) {
            *slot = part.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?;
        }
        Ok(Dim3(d[0], d[1], d[2]))
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.0, self.1, self.2)
    }
}

/// Arguments that do not fit the kernel's parameters, said as one line:
/// their number, or the first whose size differs. `sizes` are the
/// parameters' sizes in bytes, as the driver or the PTX gives them.
pub fn check_fit(kernel: &str, sizes: &[usize], args: &[ArgSpec]) -> Result<(), String> {
    if sizes.len() != args.len() {
        return Err(format!(
            "kernel `{kernel}` takes {} parameters ({} bytes each), and {} --arg were given",
            sizes.len(),
            sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
            args.len()
        ));
    }
    for (i, (size, arg)) in sizes.iter().zip(args).enumerate() {
        if *size != arg.param_size() {
            let what = match arg {
                ArgSpec::Buffer { .. } => "a buffer's address".to_string(),
                ArgSpec::Scalar { ty, .. } => format!("a {ty}"),
            };
            return Err(format!(
                "argument {} of kernel `{kernel}` is {size} bytes, but --arg {} gives {what} of {} bytes",
                i + 1,
                i + 1,
                arg.param_size()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(s: &str) -> Result<ArgSpec, String> {
        s.parse()
    }

    #[test]
    fn buffers_take_a_type_a_count_and_a_fill() {
        assert_eq!(
            arg("f32[4096*4096]=random:7"),
            Ok(ArgSpec::Buffer {
                ty: Type::F32,
                count: 4096 * 4096,
                fill: Fill::Random(7)
            })
        );
        assert_eq!(
            arg("u8[1_000]"),
            Ok(ArgSpec::Buffer {
                ty: Type::U8,
                count: 1000,
                fill: Fill::Zeros
            })
        );
        assert_eq!(
            arg("i32[8]=seq").unwrap().initial_bytes(),
            (0..8i32).flat_map(|i| i.to_le_bytes()).collect::<Vec<u8>>()
        );
        assert_eq!(
            arg("f64[2]=-1.5").unwrap().initial_bytes(),
            [(-1.5f64).to_le_bytes(); 2].concat()
        );
    }

    #[test]
    fn scalars_take_a_type_and_a_value_that_fits_it() {
        assert_eq!(
            arg("i32=4096"),
            Ok(ArgSpec::Scalar {
                ty: Type::I32,
                value: 4096.0
            })
        );
        assert_eq!(arg("f32=0.5").unwrap().initial_bytes(), 0.5f32.to_le_bytes());
        assert_eq!(arg("u64=3").unwrap().param_size(), 8);
        for (bad, says) in [
            ("i32", "needs a value"),
            ("i32=1.5", "not an integer"),
            ("u8=300", "does not fit in u8"),
            ("u32=-1", "does not fit in u32"),
            ("f16=1", "unknown type `f16`"),
            ("f32=abc", "not a number"),
            ("f32[10", "closing `]`"),
            ("f32[0]", "at least one element"),
            ("f32[ten]", "not a count"),
            ("f32[99999999999*99999999999]", "too large"),
            ("f32[4]=random", "needs a seed"),
            ("f32[4]=random:x", "not a whole number"),
            ("i8[4]=nope", "zeros, seq, random:SEED or a number"),
            ("i8[4]=1000", "does not fit in i8"),
        ] {
            let e = arg(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_seeded_random_buffer_is_the_same_every_time_and_in_range() {
        let a = arg("f32[1000]=random:42").unwrap().initial_bytes();
        assert_eq!(a, arg("f32[1000]=random:42").unwrap().initial_bytes());
        assert_ne!(a, arg("f32[1000]=random:43").unwrap().initial_bytes());
        let floats: Vec<f32> = a
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(floats.iter().all(|&x| (0.0..1.0).contains(&x)));
        assert!(floats.iter().any(|&x| x > 0.5) && floats.iter().any(|&x| x < 0.5));
        let ints = arg("i32[1000]=random:1").unwrap().initial_bytes();
        assert!(ints
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .all(|x| (0..100).contains(&x)));
    }

    #[test]
    fn sizes_are_one_to_three_whole_numbers() {
        assert_eq!("256".parse(), Ok(Dim3(256, 1, 1)));
        assert_eq!("32x8".parse(), Ok(Dim3(32, 8, 1)));
        assert_eq!("2x3x4".parse(), Ok(Dim3(2, 3, 4)));
        for bad in ["0", "", "32x", "1x2x3x4", "-1", "a"] {
            assert!(bad.parse::<Dim3>().is_err(), "{bad}");
        }
    }

    #[test]
    fn arguments_are_held_against_the_parameters_sizes() {
        let args: Vec<ArgSpec> = ["f32[16]", "f32[16]", "i32=16"]
            .iter()
            .map(|s| arg(s).unwrap())
            .collect();
        assert_eq!(check_fit("k", &[8, 8, 4], &args), Ok(()));
        let e = check_fit("k", &[8, 8], &args).unwrap_err();
        assert_eq!(
            e,
            "kernel `k` takes 2 parameters (8, 8 bytes each), and 3 --arg were given"
        );
        let e = check_fit("k", &[8, 8, 8], &args).unwrap_err();
        assert_eq!(
            e,
            "argument 3 of kernel `k` is 8 bytes, but --arg 3 gives a i32 of 4 bytes"
        );
        let e = check_fit("k", &[4, 8, 4], &args).unwrap_err();
        assert!(e.contains("a buffer's address of 8 bytes"), "{e}");
    }
}
