//! The test that holds a Rust twin's copies of its `.cu`'s constants to what
//! the `.cu` compiles, declared in one [`constants_match!`](crate::constants_match)
//! call per lesson.
//!
//! Each lesson's C header declares a `<prefix>_constants` struct that its
//! `.cu` fills. The twin keeps its own constants, to read like the `.cu`, so
//! without this check the two could drift apart silently. Every field is
//! converted losslessly into the twin's type before it is compared: a C
//! `int` that is negative where the twin holds a count is a mismatch naming
//! the field, never a clamp to 0.
//!
//! Not for: reading a constant at run time (a lesson's `ffi.rs` has a small
//! accessor for the one it needs), or any other conformance check
//! ([`crate::conformance`] has those).

use std::fmt;

/// One field where the `.cu` and the twin differ.
#[derive(Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The field, as the lesson's C header names it.
    pub field: String,
    /// What is wrong, naming the `.cu`'s value and the twin's.
    pub why: String,
}

/// Every field where a lesson's `.cu` and its twin differ, one line each.
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("the .cu's constants and the twin's differ:{}", lines(.mismatches))]
pub struct ConstantsMismatch {
    pub mismatches: Vec<Mismatch>,
}

fn lines(mismatches: &[Mismatch]) -> String {
    mismatches
        .iter()
        .map(|m| format!("\n  {}: {}", m.field, m.why))
        .collect()
}

// A test that returns this error prints it with Debug: the lines a person
// reads, not the struct's insides.
impl fmt::Debug for ConstantsMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Compares fields one by one and keeps every mismatch, so that one run of
/// the test names all of them.
#[derive(Default)]
pub struct Comparison {
    mismatches: Vec<Mismatch>,
}

impl Comparison {
    /// The `.cu`'s scalar `cu`, converted losslessly to the twin's type,
    /// against the twin's `twin` (spelled `expr` in the lesson's source).
    pub fn field<C, R>(&mut self, field: &str, cu: C, twin: R, expr: &str)
    where
        C: Copy + fmt::Debug,
        R: TryFrom<C> + PartialEq + fmt::Debug,
    {
        match R::try_from(cu) {
            Ok(got) if got == twin => {}
            Ok(got) => self.differ(field, format!("the .cu's {got:?}, the twin's {expr} = {twin:?}")),
            Err(_) => self.differ(
                field,
                format!(
                    "the .cu's {cu:?} does not fit the twin's type {} ({expr} = {twin:?})",
                    std::any::type_name::<R>()
                ),
            ),
        }
    }

    /// The `.cu`'s array `cu` against the twin's `twin`, element by element.
    pub fn array<C, R>(&mut self, field: &str, cu: Result<&[C], ArrayError>, twin: &[R], expr: &str)
    where
        C: Copy + fmt::Debug,
        R: TryFrom<C> + PartialEq + fmt::Debug,
    {
        let cu = match cu {
            Ok(cu) => cu,
            Err(why) => return self.differ(field, why.to_string()),
        };
        if cu.len() != twin.len() {
            return self.differ(
                field,
                format!(
                    "the .cu's {} elements {cu:?}, the twin's {expr} = {} {twin:?}",
                    cu.len(),
                    twin.len()
                ),
            );
        }
        for (i, (&c, t)) in cu.iter().zip(twin).enumerate() {
            match R::try_from(c) {
                Ok(got) if got == *t => {}
                Ok(got) => self.differ(
                    field,
                    format!("element {i}: the .cu's {got:?}, the twin's {expr}[{i}] = {t:?}"),
                ),
                Err(_) => self.differ(
                    field,
                    format!(
                        "element {i}: the .cu's {c:?} does not fit the twin's type {} ({expr}[{i}] = {t:?})",
                        std::any::type_name::<R>()
                    ),
                ),
            }
        }
    }

    fn differ(&mut self, field: &str, why: String) {
        self.mismatches.push(Mismatch {
            field: field.to_string(),
            why,
        });
    }

    /// `Ok` when every field matched, or all the mismatches.
    pub fn finish(self) -> Result<(), ConstantsMismatch> {
        if self.mismatches.is_empty() {
            Ok(())
        } else {
            Err(ConstantsMismatch {
                mismatches: self.mismatches,
            })
        }
    }
}

/// Why a C array the header gives as a pointer and a count cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArrayError {
    #[error("the .cu's {count_field} = {count} is not an element count")]
    BadCount { count_field: String, count: String },
    #[error("the .cu's pointer is null with {count_field} = {len}")]
    NullWithElements { count_field: String, len: usize },
}

/// The C array of `count` elements at `ptr`, or why it cannot be read: a
/// count that is negative or does not fit, or a null pointer with elements.
///
/// # Safety
/// Where `ptr` is not null, it points to at least `count` initialised
/// elements that live as long as the program (the lesson headers' "static
/// storage").
pub unsafe fn c_array<T, N>(ptr: *const T, count: N, count_field: &str) -> Result<&'static [T], ArrayError>
where
    N: Copy + fmt::Debug,
    usize: TryFrom<N>,
{
    let Ok(len) = usize::try_from(count) else {
        return Err(ArrayError::BadCount {
            count_field: count_field.to_string(),
            count: format!("{count:?}"),
        });
    };
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(ArrayError::NullWithElements {
            count_field: count_field.to_string(),
            len,
        });
    }
    // SAFETY: not null, and `count` live elements, by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Holds each field of a lesson's C constants struct (the value of
/// `$constants`, bindgen's `<prefix>_constants`) to the twin's own value,
/// and evaluates to `Result<(), ConstantsMismatch>` naming every field that
/// differs, with the `.cu`'s value and the twin's.
///
/// A scalar is `field: TWIN_VALUE`. An array the header gives as a pointer
/// and a count is `field[count_field]: TWIN_ARRAY` (anything that derefs to
/// a slice); its elements are compared one by one. Every C value is
/// converted to the twin's type with `TryFrom`, so a negative `int` held to
/// a `u32` is a mismatch, not a clamp.
///
/// The struct's array pointers must point to `count_field` elements of
/// static storage, as every lesson header promises beside them.
///
/// A lesson's test is this one declaration (here with a stand-in for
/// bindgen's struct, whose `runs` the `.cu` got wrong):
///
/// ```
/// # #[allow(non_camel_case_types)]
/// # struct day00_constants { elems: usize, runs: i32, sizes: *const i32, num_sizes: i32 }
/// # static CU_SIZES: [i32; 2] = [32, 64];
/// # fn lesson_constants() -> day00_constants {
/// #     day00_constants { elems: 1000, runs: -1, sizes: CU_SIZES.as_ptr(), num_sizes: 2 }
/// # }
/// const ELEMS: usize = 1000;
/// const RUNS: u32 = 20;
/// const SIZES: [u32; 2] = [32, 64];
///
/// let checked = lesson_testkit::constants_match!(lesson_constants(), {
///     elems: ELEMS,
///     runs: RUNS,
///     sizes[num_sizes]: SIZES,
/// });
/// assert_eq!(
///     checked.unwrap_err().to_string(),
///     "the .cu's constants and the twin's differ:\n  \
///      runs: the .cu's -1 does not fit the twin's type u32 (RUNS = 20)"
/// );
/// ```
#[macro_export]
macro_rules! constants_match {
    ($constants:expr, { $($field:ident $([$count:ident])? : $twin:expr),* $(,)? }) => {{
        let constants = $constants;
        let mut comparison = $crate::constants::Comparison::default();
        $($crate::constants_match!(@field comparison, constants, $field $([$count])?, $twin);)*
        comparison.finish()
    }};
    (@field $comparison:ident, $constants:ident, $field:ident, $twin:expr) => {
        $comparison.field(stringify!($field), $constants.$field, $twin, stringify!($twin))
    };
    (@field $comparison:ident, $constants:ident, $field:ident [$count:ident], $twin:expr) => {
        $comparison.array(
            stringify!($field),
            // SAFETY: the lesson's header promises that the pointer holds
            // `$count` elements of static storage (the macro's contract).
            unsafe { $crate::constants::c_array($constants.$field, $constants.$count, stringify!($count)) },
            &$twin[..],
            stringify!($twin),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::ConstantsMismatch;

    // The shape bindgen gives a lesson's constants struct.
    #[derive(Clone, Copy)]
    struct Raw {
        elems: usize,
        runs: i32,
        tolerance: f32,
        cycles: i64,
        sizes: *const i32,
        num_sizes: i32,
    }

    static SIZES: [i32; 3] = [32, 64, 128];

    fn raw() -> Raw {
        Raw {
            elems: 1000,
            runs: 20,
            tolerance: 1e-5,
            cycles: 200_000,
            sizes: SIZES.as_ptr(),
            num_sizes: 3,
        }
    }

    fn compare(c: Raw, runs: u32, sizes: &[u32]) -> Result<(), ConstantsMismatch> {
        crate::constants_match!(c, {
            elems: 1000usize,
            runs: runs,
            tolerance: 1e-5f32,
            cycles: 200_000u64,
            sizes[num_sizes]: sizes,
        })
    }

    fn fields(e: &ConstantsMismatch) -> Vec<&str> {
        e.mismatches.iter().map(|m| m.field.as_str()).collect()
    }

    #[test]
    fn equal_constants_pass() {
        assert_eq!(compare(raw(), 20, &[32, 64, 128]), Ok(()));
    }

    #[test]
    fn a_planted_mismatch_names_the_field_and_both_values() {
        let e = compare(raw(), 21, &[32, 64, 128]).unwrap_err();
        assert_eq!(fields(&e), ["runs"]);
        assert_eq!(
            e.to_string(),
            "the .cu's constants and the twin's differ:\n  runs: the .cu's 20, the twin's runs = 21"
        );
    }

    #[test]
    fn a_negative_c_int_is_a_mismatch_not_a_clamp() {
        let e = compare(Raw { runs: -1, ..raw() }, 0, &[32, 64, 128]).unwrap_err();
        assert_eq!(fields(&e), ["runs"]);
        assert!(
            e.to_string()
                .contains("runs: the .cu's -1 does not fit the twin's type u32"),
            "{e}"
        );
    }

    #[test]
    fn arrays_compare_element_by_element_and_by_length() {
        let e = compare(raw(), 20, &[32, 65, 128]).unwrap_err();
        assert_eq!(
            e.mismatches[0].why,
            "element 1: the .cu's 64, the twin's sizes[1] = 65"
        );
        let e = compare(raw(), 20, &[32, 64]).unwrap_err();
        assert_eq!(fields(&e), ["sizes"]);
        assert!(e.mismatches[0].why.contains("the .cu's 3 elements"), "{e}");
    }

    #[test]
    fn a_negative_count_or_element_is_named() {
        let e = compare(
            Raw {
                num_sizes: -2,
                ..raw()
            },
            20,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            e.mismatches[0].why,
            "the .cu's num_sizes = -2 is not an element count"
        );
        static NEGATIVE: [i32; 1] = [-32];
        let c = Raw {
            sizes: NEGATIVE.as_ptr(),
            num_sizes: 1,
            ..raw()
        };
        let e = compare(c, 20, &[32]).unwrap_err();
        assert!(
            e.mismatches[0]
                .why
                .contains("element 0: the .cu's -32 does not fit"),
            "{e}"
        );
        let c = Raw {
            sizes: std::ptr::null(),
            ..raw()
        };
        let e = compare(c, 20, &[32, 64, 128]).unwrap_err();
        assert_eq!(
            e.mismatches[0].why,
            "the .cu's pointer is null with num_sizes = 3"
        );
    }

    #[test]
    fn every_mismatch_is_reported_at_once() {
        let c = Raw {
            elems: 999,
            tolerance: 1e-4,
            ..raw()
        };
        let e = compare(c, 20, &[32, 64, 128]).unwrap_err();
        assert_eq!(fields(&e), ["elems", "tolerance"]);
    }
}
