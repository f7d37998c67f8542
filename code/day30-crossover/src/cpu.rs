//! crossover.cu's CPU loops in Rust: one thread, scalar code, the course's CPU.
//!
//! Every input element is read with `core::ptr::read_volatile`, which rustc
//! may neither merge with its neighbours nor drop, so LLVM cannot vectorise
//! the loop, as the .cu's volatile pointers keep g++ from doing it. Each loop
//! is `#[inline(never)]`, as the .cu's are `__noinline__`, so its code does not
//! depend on its caller's, and its result is handed to `black_box`, so the
//! compiler cannot delete it.

use std::hint::black_box;

use host_clock::now_ms;

use crate::ffi::CU;

/// Element i of s, read as a volatile load. The caller keeps i in bounds.
#[inline(always)]
fn load(s: &[f32], i: usize) -> f32 {
    // SAFETY: every caller passes i < s.len(), so the address is in s.
    unsafe { core::ptr::read_volatile(s.as_ptr().add(i)) }
}

#[inline(never)]
pub fn saxpy(x: &[f32], y: &[f32], out: &mut [f32]) {
    let n = out.len().min(x.len()).min(y.len());
    let a = CU.saxpy_a;
    for (i, o) in out[..n].iter_mut().enumerate() {
        *o = a * load(x, i) + load(y, i);
    }
}

#[inline(never)]
pub fn dot(x: &[f32], y: &[f32]) -> f32 {
    let n = x.len().min(y.len());
    let mut sum = 0.0f32;
    for i in 0..n {
        sum += load(x, i) * load(y, i);
    }
    sum
}

#[inline(never)]
pub fn poly(x: &[f32], out: &mut [f32], degree: u32) {
    let n = out.len().min(x.len());
    let c = CU.poly_c;
    for (i, o) in out[..n].iter_mut().enumerate() {
        let v = load(x, i);
        let mut p = c;
        for _ in 0..degree {
            p = p * v + c;
        }
        *o = p;
    }
}

#[inline(never)]
pub fn stencil(x: &[f32], out: &mut [f32]) {
    let n = out.len().min(x.len());
    let [w0, w1, w2] = CU.stencil_w;
    for (i, o) in out[..n].iter_mut().enumerate() {
        let left = if i > 0 { load(x, i - 1) } else { 0.0 };
        let right = if i + 1 < n { load(x, i + 1) } else { 0.0 };
        *o = w0 * left + w1 * load(x, i) + w2 * right;
    }
}

/// Kernel `info` of the lesson's set on the CPU over the first n elements;
/// the dot product leaves its sum in out[0].
pub fn run(name: &str, degree: u32, x: &[f32], y: &[f32], out: &mut [f32], n: usize) {
    match name {
        "saxpy" => saxpy(&x[..n], &y[..n], &mut out[..n]),
        "dot" => out[0] = dot(&x[..n], &y[..n]),
        "stencil" => stencil(&x[..n], &mut out[..n]),
        _ => poly(&x[..n], &mut out[..n], degree),
    }
    black_box(out[0]);
}

/// The CPU's streaming bandwidth: a copy, bytes read + written.
#[inline(never)]
pub fn copy(input: &[f32], out: &mut [f32]) {
    let n = out.len().min(input.len());
    for (i, o) in out[..n].iter_mut().enumerate() {
        *o = load(input, i);
    }
    black_box(out[n / 2]);
}

/// The CPU's operation rate: per element, a chain of `CU.cpu_chain`
/// multiply-adds on a value from a ring that stays in L1.
#[inline(never)]
pub fn rate(ring: &[f32], out: &mut [f32], n: usize) {
    let mask = ring.len().min(out.len()) - 1;
    let (a, b) = (CU.rate_a, CU.rate_b);
    for i in 0..n {
        let mut p = load(ring, i & mask);
        for _ in 0..CU.cpu_chain {
            p = p * a + b;
        }
        out[i & mask] = p;
    }
    black_box(out[0]);
}

/// Microseconds per call of `f`, after one untimed call: reps calls in a row,
/// reps doubled until they take `CU.cpu_min_ms` together. One reading over the
/// whole batch, divided: never a reading less another, so never below zero.
pub fn us_per_call(mut f: impl FnMut()) -> f64 {
    // One untimed call first: its pages faulted in, its code and data warm.
    f();
    let mut reps: u64 = 1;
    loop {
        let t0 = now_ms();
        for _ in 0..reps {
            f();
        }
        let ms = now_ms() - t0;
        if ms >= CU.cpu_min_ms {
            return ms * 1e3 / reps as f64;
        }
        reps *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loops_compute_what_the_kernels_do() {
        let x = [0.5, -0.25, 0.75];
        let y = [1.0, 2.0, -1.0];
        let mut out = [0.0; 3];
        saxpy(&x, &y, &mut out);
        assert_eq!(out, [2.0, 1.5, 0.5]);
        assert_eq!(dot(&x, &y), 0.5 - 0.5 - 0.75);
        stencil(&x, &mut out);
        assert_eq!(
            out,
            [
                0.25 * 0.0 + 0.5 * 0.5 + 0.25 * -0.25,
                0.125 - 0.125 + 0.1875,
                0.25 * -0.25 + 0.375
            ]
        );
        poly(&x, &mut out, 1);
        assert_eq!(out[0], 0.5 * 0.5 + 0.5);
    }
}
