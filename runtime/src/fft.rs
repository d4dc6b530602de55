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
#[cfg(target_arch = "x86_64")]
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use rayon::prelude::*;

use strata_abi::{FFT_MAX_RANK, FftDesc, FftKind};

use crate::ffi_guard;
#[cfg(target_arch = "x86_64")]
use crate::fft_ducc::avx;
use crate::fft_ducc::{CPlan, Cx, Flt, LANES, Pack, RPlan};
use crate::fft_real_even;
use crate::transpose::transpose_slice;

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
    let (n_in, n_out) = if kind == 2 {
        (l, 2 * half)
    } else {
        (2 * half, l)
    };
    let group = |(x, out): (&[T], &mut [T]), bufs: &mut (RealLines<T>, RealLines<T>)| {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { real_group_avx2(kind, &plan, x, out, (n_in, n_out), norm, bufs) };
        }
        real_group::<T, false>(kind, &plan, x, out, (n_in, n_out), norm, bufs)
    };
    let new_bufs = || (vec![Pack::default(); l], vec![Pack::default(); l]);
    if input.len() < MIN_PARALLEL_ELEMENTS || input.len() <= n_in * LANES {
        let mut bufs = new_bufs();
        input
            .chunks(n_in * LANES)
            .zip(output.chunks_mut(n_out * LANES))
            .for_each(|pair| group(pair, &mut bufs));
    } else {
        crate::pool::install(|_| {
            input
                .par_chunks(n_in * LANES)
                .zip(output.par_chunks_mut(n_out * LANES))
                .for_each_init(new_bufs, |bufs, pair| group(pair, bufs))
        });
    }
    true
}

/// [`LANES`] rows of a real transform, element k of each in one lane.
type RealLines<T> = Vec<Pack<T, LANES>>;

/// `real_group` compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn real_group_avx2<T: Planned>(
    kind: i64,
    plan: &RPlan<T>,
    x: &[T],
    out: &mut [T],
    (n_in, n_out): (usize, usize),
    norm: T,
    bufs: &mut (RealLines<T>, RealLines<T>),
) {
    real_group::<T, true>(kind, plan, x, out, (n_in, n_out), norm, bufs)
}

/// DUCC's real transform (`r2c`, kind 2, or `c2r`, kind 3) of up to
/// [`LANES`] rows at once, `x`'s rows (`n_in` long) into `out`'s (`n_out`);
/// `AVX2` when compiled for AVX2.
#[inline(always)]
fn real_group<T: Planned, const AVX2: bool>(
    kind: i64,
    plan: &RPlan<T>,
    x: &[T],
    out: &mut [T],
    (n_in, n_out): (usize, usize),
    norm: T,
    bufs: &mut (RealLines<T>, RealLines<T>),
) {
    let (lines, tmp) = bufs;
    let l = lines.len();
    let rows = x.len() / n_in;
    if rows < LANES {
        lines.fill(Pack::default());
    }
    if kind == 2 {
        transpose_slice(x, n_in, rows, l, flat_mut(lines), LANES);
        exec_real::<T, AVX2>(plan, lines, tmp, true, T::one());
        // DUCC's halfcomplex order: r0, r1, i1, r2, i2, ... (r_{l/2}).
        transpose_slice(flat(&lines[1..]), LANES, l - 1, rows, &mut out[2..], n_out);
        for (w, o) in out.chunks_exact_mut(n_out).enumerate() {
            o[0] = lines[0].0[w];
            o[1] = T::zero();
            if l % 2 == 0 {
                o[n_out - 1] = T::zero();
            }
        }
    } else {
        // The imaginary parts of the zero and Nyquist terms are ignored.
        for (w, row) in x.chunks_exact(n_in).enumerate() {
            lines[0].0[w] = row[0];
        }
        transpose_slice(&x[2..], n_in, rows, l - 1, flat_mut(&mut lines[1..]), LANES);
        exec_real::<T, AVX2>(plan, lines, tmp, false, norm);
        transpose_slice(flat(lines), LANES, l, rows, out, n_out);
    }
}

/// The lanes of a group as the `len x LANES` row-major matrix they are
/// (element k of line w at `k * LANES + w`), for the transposes that fill
/// and empty them: 8x8 register tiles for f32 where the CPU has them
/// (element by element, one strided store each, took a fifth of a 2-D
/// rfft's real rows on an AVX2 CPU).
fn flat<T>(lanes: &[Pack<T, LANES>]) -> &[T] {
    // SAFETY: `Pack` is `repr(transparent)` over `[T; LANES]`.
    unsafe { std::slice::from_raw_parts(lanes.as_ptr().cast(), lanes.len() * LANES) }
}

/// [`flat`], mutably.
fn flat_mut<T>(lanes: &mut [Pack<T, LANES>]) -> &mut [T] {
    // SAFETY: as in `flat`.
    unsafe { std::slice::from_raw_parts_mut(lanes.as_mut_ptr().cast(), lanes.len() * LANES) }
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

/// [`LANES`] lines of one transform, element k of each in one lane.
type Lines<T> = Vec<Cx<Pack<T, LANES>>>;

/// Where the lines of a chunk of data lie: line j starts at `j * step`,
/// its element k at `k * stride` from there.
#[derive(Clone, Copy)]
struct Geometry {
    n: usize,
    count: usize,
    step: usize,
    stride: usize,
}

/// DUCC's complex transform `plan` of every line of `data` (shape `shape`)
/// along `axis`, [`LANES`] lines at a time (the last group padded with
/// zero lines): contiguous lines by consecutive rows, strided ones by
/// consecutive columns of one block. Chunks (groups of rows, or blocks) run
/// in parallel on the runtime's pool, each with the instructions of the
/// running CPU.
fn for_each_pack_of_lines<T: Planned>(
    data: &mut [Complex<T>],
    shape: &[usize],
    axis: usize,
    plan: &CPlan<T>,
    fwd: bool,
    fct: T,
) {
    let n = shape[axis];
    if n == 0 || data.is_empty() {
        return;
    }
    let inner: usize = shape[axis + 1..].iter().product();
    let (chunk, step, stride) = if inner == 1 {
        (n * LANES, n, 1)
    } else {
        (n * inner, 1, inner)
    };
    let per_chunk = |c: &mut [Complex<T>], bufs: &mut (Lines<T>, Lines<T>)| {
        let count = if inner == 1 { c.len() / n } else { inner };
        let g = Geometry {
            n,
            count,
            step,
            stride,
        };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { chunk_lines_avx2(c, g, bufs, plan, fwd, fct) };
        }
        chunk_lines::<T, false>(c, g, bufs, plan, fwd, fct)
    };
    let new_bufs = || (vec![Cx::default(); n], vec![Cx::default(); n]);
    if data.len() < MIN_PARALLEL_ELEMENTS || data.len() <= chunk {
        let mut bufs = new_bufs();
        data.chunks_mut(chunk).for_each(|c| per_chunk(c, &mut bufs));
    } else {
        crate::pool::install(|_| {
            data.par_chunks_mut(chunk)
                .for_each_init(new_bufs, |bufs, c| per_chunk(c, bufs));
        });
    }
}

/// `chunk_lines` compiled for AVX2 (a `Pack` of 8 f32 is one register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_lines_avx2<T: Planned>(
    c: &mut [Complex<T>],
    g: Geometry,
    bufs: &mut (Lines<T>, Lines<T>),
    plan: &CPlan<T>,
    fwd: bool,
    fct: T,
) {
    chunk_lines::<T, true>(c, g, bufs, plan, fwd, fct)
}

/// Transforms the lines of chunk `c` in groups of [`LANES`]: each group
/// gathered into the lanes of `bufs.0`, transformed, written back; `AVX2`
/// when compiled for AVX2.
#[inline(always)]
fn chunk_lines<T: Planned, const AVX2: bool>(
    c: &mut [Complex<T>],
    g: Geometry,
    bufs: &mut (Lines<T>, Lines<T>),
    plan: &CPlan<T>,
    fwd: bool,
    fct: T,
) {
    let (lines, tmp) = bufs;
    for first in (0..g.count).step_by(LANES) {
        let lanes = LANES.min(g.count - first);
        if lanes < LANES {
            lines.fill(Cx::default());
        }
        let at = |w: usize, k: usize| (first + w) * g.step + k * g.stride;
        if g.step == 1 && lanes == LANES {
            // Element k of the group's lines side by side.
            for (k, v) in lines.iter_mut().enumerate() {
                let row: &[Complex<T>; LANES] = c[at(0, k)..][..LANES].try_into().expect("LANES");
                v.r.0 = std::array::from_fn(|w| row[w].re);
                v.i.0 = std::array::from_fn(|w| row[w].im);
            }
        } else {
            for w in 0..lanes {
                for (k, v) in lines.iter_mut().enumerate() {
                    let x = c[at(w, k)];
                    v.r.0[w] = x.re;
                    v.i.0[w] = x.im;
                }
            }
        }
        exec_complex::<T, AVX2>(plan, lines, tmp, fwd, fct);
        if g.step == 1 && lanes == LANES {
            for (k, v) in lines.iter().enumerate() {
                let row: &mut [Complex<T>; LANES] =
                    (&mut c[at(0, k)..][..LANES]).try_into().expect("LANES");
                *row = std::array::from_fn(|w| Complex::new(v.r.0[w], v.i.0[w]));
            }
        } else {
            for w in 0..lanes {
                for (k, v) in lines.iter().enumerate() {
                    c[at(w, k)] = Complex::new(v.r.0[w], v.i.0[w]);
                }
            }
        }
    }
    debug_assert!(g.n == lines.len());
}

/// `plan.exec_lanes` on a group of complex lines, on AVX registers
/// ([`avx::F32x8`]) when the lines are f32 and the caller is compiled for
/// AVX2 (`AVX2`), else on `Pack`s.
#[inline(always)]
fn exec_complex<T: Planned, const AVX2: bool>(
    plan: &CPlan<T>,
    lines: &mut Lines<T>,
    tmp: &mut Lines<T>,
    fwd: bool,
    fct: T,
) {
    #[cfg(target_arch = "x86_64")]
    if AVX2
        && let Some((plan, l, t, fct)) = as_f32::<_, CPlan<f32>, Lines<f32>>(plan, lines, tmp, fct)
        && let Some((l, t)) = avx::as_f32x8(l, t)
    {
        plan.exec_lanes(l, t, fwd, fct);
        return;
    }
    plan.exec_lanes(lines, tmp, fwd, fct);
}

/// [`exec_complex`] for a group of real lines.
#[inline(always)]
fn exec_real<T: Planned, const AVX2: bool>(
    plan: &RPlan<T>,
    lines: &mut RealLines<T>,
    tmp: &mut RealLines<T>,
    fwd: bool,
    fct: T,
) {
    #[cfg(target_arch = "x86_64")]
    if AVX2
        && let Some((plan, l, t, fct)) =
            as_f32::<_, RPlan<f32>, RealLines<f32>>(plan, lines, tmp, fct)
        && let Some((l, t)) = avx::as_f32x8(l, t)
    {
        plan.exec_lanes(l, t, fwd, fct);
        return;
    }
    plan.exec_lanes(lines, tmp, fwd, fct);
}

/// A group's plan, lines and factor as their f32 types (`P`, `L`), when
/// `T` is f32.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn as_f32<'a, T: Any, P: Any, L: Any>(
    plan: &'a dyn Any,
    lines: &'a mut dyn Any,
    tmp: &'a mut dyn Any,
    fct: T,
) -> Option<(&'a P, &'a mut L, &'a mut L, f32)> {
    let fct = *(&fct as &dyn Any).downcast_ref::<f32>()?;
    let plan = plan.downcast_ref::<P>()?;
    Some((plan, lines.downcast_mut()?, tmp.downcast_mut()?, fct))
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
        for_each_pack_of_lines(data, shape, axis, &plan, fwd, fct);
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
    match kind {
        0 | 1 => {
            // In place in the output: the input's elements, then each axis.
            output.copy_from_slice(input);
            let data = as_complex(output);
            let mut axes: Vec<usize> = (first..rank).collect();
            let last = axes.len() - 1;
            axes.swap(0, last);
            let fct = if kind == 1 { norm } else { T::one() };
            for (i, &ax) in axes.iter().enumerate() {
                let f = if i == 0 { fct } else { T::one() };
                c2c_axis(data, shape, ax, kind == 0, f);
            }
        }
        2 => {
            // Real input of `shape`; output keeps L/2 + 1 of the last axis:
            // the last axis's rows straight into the output, then the
            // other axes there.
            let l = shape[rank - 1];
            let half = l / 2 + 1;
            let mut out_shape = shape.to_vec();
            out_shape[rank - 1] = half;
            if !real_rows(2, l, input, output, norm) {
                let mut data: Vec<Complex<T>> =
                    input.iter().map(|&x| complex(x, T::zero())).collect();
                along_axis(&mut data, shape, rank - 1, false);
                let spec = as_complex(output);
                for (row, out) in data.chunks(l.max(1)).zip(spec.chunks_mut(half)) {
                    out.copy_from_slice(&row[..half]);
                }
            }
            for ax in first..rank - 1 {
                c2c_axis(as_complex(output), &out_shape, ax, true, T::one());
            }
        }
        _ => {
            // Complex input with L/2 + 1 on the last axis; real output of
            // the fft lengths there: the leading axes on a copy, then the
            // last axis's rows straight into the output.
            let l = lengths[lengths.len() - 1];
            let half = shape[rank - 1];
            let mut copy;
            let mut spec = input;
            if first < rank - 1 {
                copy = input.to_vec();
                for ax in first..rank - 1 {
                    c2c_axis(as_complex(&mut copy), shape, ax, false, T::one());
                }
                spec = &copy;
            }
            if real_rows(3, l, spec, output, norm) {
                return;
            }
            let data: &[Complex<T>] = as_complex_ref(spec);
            let rows = data.len() / half.max(1);
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

/// Interleaved (re, im) floats as complex values.
fn as_complex<T: Flt>(v: &mut [T]) -> &mut [Complex<T>] {
    // SAFETY: `Complex<T>` is `#[repr(C)]` { re: T, im: T }: two Ts,
    // aligned as T; the slice covers whole pairs of `v`'s elements only.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut Complex<T>, v.len() / 2) }
}

fn as_complex_ref<T: Flt>(v: &[T]) -> &[Complex<T>] {
    // SAFETY: as in `as_complex`.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const Complex<T>, v.len() / 2) }
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
mod tests;
