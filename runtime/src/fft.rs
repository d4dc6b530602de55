//! `fft` for generated code: N-D transforms over the trailing dimensions,
//! sequenced as XLA:CPU's DUCC sequences them (`c2c` / `r2c` / `c2r` over
//! several axes), each axis by the DUCC-exact plans of `fft_ducc/` where
//! that module has one, else by `rustfft` (see there for which lengths);
//! real transforms of one axis of an even length without a DUCC plan by
//! complex ones of half the length (`fft_real_even.rs`).
//!
//! Descriptor (i64): `[kind, bits, rank, in_dims.., n, fft_lengths..]`,
//! kind 0 FFT, 1 IFFT (normalized by 1/N), 2 RFFT, 3 IRFFT (normalized);
//! bits 32 or 64 (the float width). Buffers are dense row-major; complex
//! elements are interleaved (re, im).

use rustfft::num_complex::Complex;
use rustfft::num_traits::{Float, FromPrimitive};
use rustfft::{Fft, FftNum, FftPlanner};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use rayon::prelude::*;

use strata_abi::{FFT_MAX_RANK, FftDesc, FftKind};

use crate::ffi_guard;
use crate::fft_ducc::{CPlan, Cx, Flt, RPlan};
use crate::fft_real_even;

/// A float type with a process-wide cache of FFT plans: planning a large
/// transform computes all its twiddle factors (8 MiB at 2^20 points), which
/// cost more than the transform itself when done on every call.
trait Planned: FftNum + Float + Flt {
    fn plan(n: usize, inverse: bool) -> Arc<dyn Fft<Self>>;
    /// DUCC's complex plan for n, if `fft_ducc` has one (cached).
    fn cplan(n: usize) -> Option<Arc<CPlan<Self>>>;
    /// DUCC's real plan for n, if `fft_ducc` has one (cached).
    fn rplan(n: usize) -> Option<Arc<RPlan<Self>>>;
    /// The twiddles of an even real transform of n (cached).
    fn twiddles(n: usize) -> Option<Arc<Vec<Complex<Self>>>>;
}

type Cache<P> = LazyLock<Mutex<HashMap<usize, Option<Arc<P>>>>>;

fn cached<P>(cache: &Cache<P>, n: usize, make: impl FnOnce() -> Option<P>) -> Option<Arc<P>> {
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    c.entry(n).or_insert_with(|| make().map(Arc::new)).clone()
}

macro_rules! planned {
    ($t:ty) => {
        impl Planned for $t {
            fn plan(n: usize, inverse: bool) -> Arc<dyn Fft<Self>> {
                static PLANNER: LazyLock<Mutex<FftPlanner<$t>>> =
                    LazyLock::new(|| Mutex::new(FftPlanner::new()));
                let mut planner = PLANNER.lock().unwrap_or_else(|e| e.into_inner());
                if inverse {
                    planner.plan_fft_inverse(n)
                } else {
                    planner.plan_fft_forward(n)
                }
            }
            fn cplan(n: usize) -> Option<Arc<CPlan<$t>>> {
                static CACHE: Cache<CPlan<$t>> = LazyLock::new(|| Mutex::new(HashMap::new()));
                cached(&CACHE, n, || CPlan::new(n))
            }
            fn rplan(n: usize) -> Option<Arc<RPlan<$t>>> {
                static CACHE: Cache<RPlan<$t>> = LazyLock::new(|| Mutex::new(HashMap::new()));
                cached(&CACHE, n, || RPlan::new(n))
            }
            fn twiddles(n: usize) -> Option<Arc<Vec<Complex<$t>>>> {
                static CACHE: Cache<Vec<Complex<$t>>> =
                    LazyLock::new(|| Mutex::new(HashMap::new()));
                cached(&CACHE, n, || Some(fft_real_even::twiddles(n)))
            }
        }
    };
}
planned!(f32);
planned!(f64);

/// Elements below which the lines of a transform are not split over the
/// thread pool.
const MIN_PARALLEL_ELEMENTS: usize = 1 << 15;

/// Transforms every line of `data` (shape `shape`) along `axis`; the lines
/// of different outer indices run in parallel on the runtime's pool.
fn along_axis<T: Planned>(data: &mut [Complex<T>], shape: &[usize], axis: usize, inverse: bool) {
    let n = shape[axis];
    if n == 0 || data.is_empty() {
        return;
    }
    let inner: usize = shape[axis + 1..].iter().product();
    let fft = T::plan(n, inverse);
    let block = n * inner;
    let transform_block = |block: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>| {
        if inner == 1 {
            // Contiguous lines: transformed where they lie.
            fft.process_with_scratch(block, scratch);
            return;
        }
        let mut line = vec![Complex::new(T::zero(), T::zero()); n];
        for i in 0..inner {
            for (k, slot) in line.iter_mut().enumerate() {
                *slot = block[i + k * inner];
            }
            fft.process_with_scratch(&mut line, scratch);
            for (k, v) in line.iter().enumerate() {
                block[i + k * inner] = *v;
            }
        }
    };
    let new_scratch = || vec![Complex::new(T::zero(), T::zero()); fft.get_inplace_scratch_len()];
    if data.len() < MIN_PARALLEL_ELEMENTS || data.len() == block {
        let mut scratch = new_scratch();
        for b in data.chunks_mut(block) {
            transform_block(b, &mut scratch);
        }
        return;
    }
    crate::pool::install(|_| {
        data.par_chunks_mut(block)
            .for_each_init(new_scratch, |scratch, b| transform_block(b, scratch));
    });
}

fn scale<T: Float>(data: &mut [Complex<T>], by: T) {
    for v in data {
        *v = *v * by;
    }
}

/// A real transform of length `l` along the last axis only (`r2c`, kind
/// 2, or `c2r`, kind 3) by DUCC's real plan, each row read from `input` and written to
/// `output` directly (no intermediate arrays, whose fresh pages cost as
/// much as the transforms), the rows in parallel on the runtime's pool.
/// False when DUCC has no real plan for the length (or it is 0).
fn real_rows<T: Planned>(kind: i64, l: usize, input: &[T], output: &mut [T], norm: T) -> bool {
    let plan = match T::rplan(l) {
        Some(plan) if l > 0 => plan,
        _ if l >= 2 && l % 2 == 0 => return even_rows(kind, l, input, output, norm),
        _ => return false,
    };
    let half = l / 2 + 1;
    if kind == 2 {
        let row = |(x, out): (&[T], &mut [T])| {
            let mut buf = x.to_vec();
            plan.exec(&mut buf, true, T::one());
            // DUCC's halfcomplex order: r0, r1, i1, r2, i2, ... (r_{l/2}).
            out[0] = buf[0];
            out[1] = T::zero();
            for (k, pair) in buf[1..].chunks(2).enumerate() {
                out[2 * k + 2] = pair[0];
                out[2 * k + 3] = pair.get(1).copied().unwrap_or(T::zero());
            }
        };
        rows_in_parallel(input, l, output, 2 * half, row);
    } else {
        let row = |(x, out): (&[T], &mut [T])| {
            // The imaginary parts of the zero and Nyquist terms are ignored.
            out[0] = x[0];
            for (k, slot) in out[1..].iter_mut().enumerate() {
                *slot = x[k + 2];
            }
            plan.exec(out, false, norm);
        };
        rows_in_parallel(input, 2 * half, output, l, row);
    }
    true
}

/// `real_rows` for an even length without a DUCC real plan: complex
/// transforms of half the length (`fft_real_even`).
fn even_rows<T: Planned>(kind: i64, l: usize, input: &[T], output: &mut [T], norm: T) -> bool {
    let Some(w) = T::twiddles(l) else {
        return false;
    };
    let fft = T::plan(l / 2, kind == 3);
    let (n_in, n_out) = if kind == 2 { (l, l + 2) } else { (l + 2, l) };
    let row = |line: &mut fft_real_even::Line<T>, (x, out): (&[T], &mut [T])| {
        if kind == 2 {
            fft_real_even::forward(x, out, fft.as_ref(), &w, line);
        } else {
            fft_real_even::inverse(x, out, norm, fft.as_ref(), &w, line);
        }
    };
    let new_line = || fft_real_even::Line::new(&fft);
    if input.len() < MIN_PARALLEL_ELEMENTS || input.len() == n_in {
        let mut line = new_line();
        input
            .chunks(n_in)
            .zip(output.chunks_mut(n_out))
            .for_each(|pair| row(&mut line, pair));
    } else {
        crate::pool::install(|_| {
            input
                .par_chunks(n_in)
                .zip(output.par_chunks_mut(n_out))
                .for_each_init(new_line, |line, pair| row(line, pair))
        });
    }
    true
}

/// `f` on every pair of an `input` row (`n_in` long) and its `output` row,
/// in parallel on the runtime's pool when there is enough work.
fn rows_in_parallel<T: Copy + Send + Sync>(
    input: &[T],
    n_in: usize,
    output: &mut [T],
    n_out: usize,
    f: impl Fn((&[T], &mut [T])) + Send + Sync,
) {
    if input.len() < MIN_PARALLEL_ELEMENTS || input.len() == n_in {
        input.chunks(n_in).zip(output.chunks_mut(n_out)).for_each(f);
    } else {
        crate::pool::install(|_| {
            input
                .par_chunks(n_in)
                .zip(output.par_chunks_mut(n_out))
                .for_each(f)
        });
    }
}

/// Applies `f` to every line of `data` (shape `shape`) along `axis`, the
/// lines of different outer indices in parallel on the runtime's pool.
fn for_each_line<E: Copy + Send + Sync + Default>(
    data: &mut [E],
    shape: &[usize],
    axis: usize,
    f: impl Fn(&mut [E]) + Send + Sync,
) {
    let n = shape[axis];
    if n == 0 || data.is_empty() {
        return;
    }
    let inner: usize = shape[axis + 1..].iter().product();
    let block = n * inner;
    let per_block = |b: &mut [E]| {
        let mut line = vec![E::default(); n];
        for i in 0..inner {
            for (k, slot) in line.iter_mut().enumerate() {
                *slot = b[i + k * inner];
            }
            f(&mut line);
            for (k, v) in line.iter().enumerate() {
                b[i + k * inner] = *v;
            }
        }
    };
    if data.len() < MIN_PARALLEL_ELEMENTS || data.len() == block {
        data.chunks_mut(block).for_each(per_block);
    } else {
        crate::pool::install(|_| data.par_chunks_mut(block).for_each(per_block));
    }
}

/// DUCC's complex transform along `axis` (scaled by `fct` when it is not
/// 1), or rustfft's where DUCC's plan for the length is not written here.
/// Lengths above 300 divisible by 4 are among those: DUCC runs some of
/// their lines through a differently vectorized plan, depending on how the
/// lines fall into SIMD bunches.
fn c2c_axis<T: Planned + FromPrimitive>(
    data: &mut [Complex<T>],
    shape: &[usize],
    axis: usize,
    fwd: bool,
    fct: T,
) {
    let n = shape[axis];
    let vectorized = n > 300 && n % 4 == 0;
    if let Some(plan) = T::cplan(n).filter(|_| !vectorized) {
        for_each_line(data, shape, axis, |line| {
            let mut x: Vec<Cx<T>> = line.iter().map(|v| Cx::new(v.re, v.im)).collect();
            plan.exec(&mut x, fwd, fct);
            for (o, v) in line.iter_mut().zip(&x) {
                *o = Complex::new(v.r, v.i);
            }
        });
        return;
    }
    along_axis(data, shape, axis, !fwd);
    if fct != T::one() {
        scale(data, fct);
    }
}

/// The transform on f32 or f64 data; `input`/`output` are raw element
/// arrays. The axes are taken in DUCC's order as XLA:CPU calls it:
/// `c2c` over several axes starts with the last (contiguous) one and ends
/// with the first (it swaps them), applying the 1/N of an IFFT on the first
/// axis it transforms; `r2c` transforms the last axis, then the others in
/// order; `c2r` the leading axes in order, then the last with the 1/N.
fn run<T: Planned + FromPrimitive>(
    kind: i64,
    shape: &[usize],
    lengths: &[usize],
    input: &[T],
    output: &mut [T],
) {
    let rank = shape.len();
    let first = rank - lengths.len();
    let total: usize = lengths.iter().product();
    let norm = T::one() / T::from_usize(total.max(1)).unwrap_or(T::one());
    let complex = |re: T, im: T| Complex::new(re, im);
    if lengths.len() == 1
        && matches!(kind, 2 | 3)
        && real_rows(kind, lengths[0], input, output, norm)
    {
        return;
    }
    match kind {
        0 | 1 => {
            let mut data: Vec<Complex<T>> = input.chunks(2).map(|c| complex(c[0], c[1])).collect();
            let mut axes: Vec<usize> = (first..rank).collect();
            let last = axes.len() - 1;
            axes.swap(0, last);
            let fct = if kind == 1 { norm } else { T::one() };
            for (i, &ax) in axes.iter().enumerate() {
                let f = if i == 0 { fct } else { T::one() };
                c2c_axis(&mut data, shape, ax, kind == 0, f);
            }
            for (o, v) in output.chunks_mut(2).zip(&data) {
                o[0] = v.re;
                o[1] = v.im;
            }
        }
        2 => {
            // Real input of `shape`; output keeps L/2 + 1 of the last axis.
            let l = shape[rank - 1];
            let half = l / 2 + 1;
            let rows = input.len() / l.max(1);
            let mut out_shape = shape.to_vec();
            out_shape[rank - 1] = half;
            let mut spec = vec![complex(T::zero(), T::zero()); rows * half];
            if let Some(plan) = T::rplan(l) {
                for (row, out) in input.chunks(l.max(1)).zip(spec.chunks_mut(half)) {
                    let mut buf = row.to_vec();
                    plan.exec(&mut buf, true, T::one());
                    out[0] = complex(buf[0], T::zero());
                    let (mut i, mut ii) = (1, 1);
                    while i + 1 < l {
                        out[ii] = complex(buf[i], buf[i + 1]);
                        i += 2;
                        ii += 1;
                    }
                    if i < l {
                        out[ii] = complex(buf[i], T::zero());
                    }
                }
            } else {
                let mut data: Vec<Complex<T>> =
                    input.iter().map(|&x| complex(x, T::zero())).collect();
                along_axis(&mut data, shape, rank - 1, false);
                for r in 0..rows {
                    spec[r * half..(r + 1) * half].copy_from_slice(&data[r * l..r * l + half]);
                }
            }
            for ax in first..rank - 1 {
                c2c_axis(&mut spec, &out_shape, ax, true, T::one());
            }
            for (o, v) in output.chunks_mut(2).zip(&spec) {
                o[0] = v.re;
                o[1] = v.im;
            }
        }
        _ => {
            // Complex input with L/2 + 1 on the last axis; real output of
            // the fft lengths there.
            let l = lengths[lengths.len() - 1];
            let half = shape[rank - 1];
            let mut data: Vec<Complex<T>> = input.chunks(2).map(|c| complex(c[0], c[1])).collect();
            for ax in first..rank - 1 {
                c2c_axis(&mut data, shape, ax, false, T::one());
            }
            let rows = data.len() / half.max(1);
            if let Some(plan) = T::rplan(l) {
                // DUCC's c2r: the halfcomplex order (imaginary parts of the
                // zero and Nyquist terms ignored), backward, then the 1/N.
                for (row, out) in data.chunks(half.max(1)).zip(output.chunks_mut(l.max(1))) {
                    out[0] = row[0].re;
                    let (mut i, mut ii) = (1, 1);
                    while i + 1 < l {
                        out[i] = row[ii].re;
                        out[i + 1] = row[ii].im;
                        i += 2;
                        ii += 1;
                    }
                    if i < l {
                        out[i] = row[ii].re;
                    }
                    plan.exec(out, false, norm);
                }
                return;
            }
            let mut full = vec![complex(T::zero(), T::zero()); rows * l];
            for r in 0..rows {
                for k in 0..l {
                    full[r * l + k] = if k < half {
                        data[r * half + k]
                    } else {
                        data[r * half + (l - k)].conj()
                    };
                }
            }
            let mut out_shape = shape.to_vec();
            out_shape[rank - 1] = l;
            along_axis(&mut full, &out_shape, rank - 1, true);
            for (o, v) in output.iter_mut().zip(&full) {
                *o = v.re * norm;
            }
        }
    }
}

/// `void strata_rt_fft(const FftDesc *desc, const void *in, void *out)`.
///
/// # Safety
/// `desc` is null or points to an `FftDesc` written by the lowering; the
/// buffers hold the elements it describes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_fft(desc: *const FftDesc, input: *const u8, output: *mut u8) {
    ffi_guard((), || {
        // SAFETY: guaranteed by the caller (generated code).
        let Some(d) = (unsafe { desc.as_ref() }) else {
            return;
        };
        let (Some(kind), Ok(rank), Ok(n)) = (
            FftKind::from_i64(d.kind),
            usize::try_from(d.rank),
            usize::try_from(d.fft_rank),
        ) else {
            return;
        };
        if rank > FFT_MAX_RANK || n == 0 || n > rank || n > d.lengths.len() {
            return;
        }
        let shape: Vec<usize> = d.shape[..rank].iter().map(|&s| s as usize).collect();
        let lengths: Vec<usize> = d.lengths[..n].iter().map(|&s| s as usize).collect();
        let elems: usize = shape.iter().product();
        let mut out_shape = shape.clone();
        match kind {
            FftKind::Rfft => out_shape[rank - 1] = shape[rank - 1] / 2 + 1,
            FftKind::Irfft => out_shape[rank - 1] = lengths[n - 1],
            FftKind::Fft | FftKind::Ifft => {}
        }
        let out_elems: usize = out_shape.iter().product();
        let (in_parts, out_parts) = match kind {
            FftKind::Fft | FftKind::Ifft => (2, 2),
            FftKind::Rfft => (1, 2),
            FftKind::Irfft => (2, 1),
        };
        let code = kind as i64;
        // SAFETY: sizes follow from the static shapes in the descriptor.
        unsafe {
            if d.element_bits == 32 {
                let i = std::slice::from_raw_parts(input as *const f32, elems * in_parts);
                let o = std::slice::from_raw_parts_mut(output as *mut f32, out_elems * out_parts);
                run(code, &shape, &lengths, i, o);
            } else {
                let i = std::slice::from_raw_parts(input as *const f64, elems * in_parts);
                let o = std::slice::from_raw_parts_mut(output as *mut f64, out_elems * out_parts);
                run(code, &shape, &lengths, i, o);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfft_then_irfft_round_trips() {
        let x = [1.0f64, 2.0, 0.5, -1.0];
        let mut spec = [0.0f64; 6];
        let desc = |kind: FftKind, len: i64, length: i64| {
            let mut d = FftDesc {
                kind: kind as i64,
                element_bits: 64,
                rank: 1,
                fft_rank: 1,
                ..FftDesc::default()
            };
            d.shape[0] = len;
            d.lengths[0] = length;
            d
        };
        let forward = desc(FftKind::Rfft, 4, 4);
        unsafe {
            strata_rt_fft(
                &forward,
                x.as_ptr() as *const u8,
                spec.as_mut_ptr() as *mut u8,
            )
        };
        assert!((spec[0] - 2.5).abs() < 1e-12, "{spec:?}");
        let mut back = [0.0f64; 4];
        let inverse = desc(FftKind::Irfft, 3, 4);
        unsafe {
            strata_rt_fft(
                &inverse,
                spec.as_ptr() as *const u8,
                back.as_mut_ptr() as *mut u8,
            )
        };
        for (a, b) in back.iter().zip(&x) {
            assert!((a - b).abs() < 1e-12, "{back:?}");
        }
    }
}
