//! `fft` for generated code: complex N-D transforms over the trailing
//! dimensions with `rustfft`, the real transforms built on them.
//!
//! Descriptor (i64): `[kind, bits, rank, in_dims.., n, fft_lengths..]`,
//! kind 0 FFT, 1 IFFT (normalized by 1/N), 2 RFFT, 3 IRFFT (normalized);
//! bits 32 or 64 (the float width). Buffers are dense row-major; complex
//! elements are interleaved (re, im).

use rustfft::num_complex::Complex;
use rustfft::num_traits::{Float, FromPrimitive};
use rustfft::{Fft, FftNum, FftPlanner};
use std::sync::{Arc, LazyLock, Mutex};

use rayon::prelude::*;

use strata_abi::{FFT_MAX_RANK, FftDesc, FftKind};

use crate::ffi_guard;

/// A float type with a process-wide cache of FFT plans: planning a large
/// transform computes all its twiddle factors (8 MiB at 2^20 points), which
/// cost more than the transform itself when done on every call.
trait Planned: FftNum + Float {
    fn plan(n: usize, inverse: bool) -> Arc<dyn Fft<Self>>;
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

/// The transform on f32 or f64 data; `input`/`output` are raw element arrays.
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
            let mut data: Vec<Complex<T>> = input.chunks(2).map(|c| complex(c[0], c[1])).collect();
            for ax in first..rank {
                along_axis(&mut data, shape, ax, kind == 1);
            }
            if kind == 1 {
                scale(&mut data, norm);
            }
            for (o, v) in output.chunks_mut(2).zip(&data) {
                o[0] = v.re;
                o[1] = v.im;
            }
        }
        2 => {
            // Real input of `shape`; output keeps L/2 + 1 of the last axis.
            let mut data: Vec<Complex<T>> = input.iter().map(|&x| complex(x, T::zero())).collect();
            for ax in first..rank {
                along_axis(&mut data, shape, ax, false);
            }
            let l = shape[rank - 1];
            let half = l / 2 + 1;
            let rows = data.len() / l.max(1);
            for r in 0..rows {
                for k in 0..half {
                    let v = data[r * l + k];
                    output[2 * (r * half + k)] = v.re;
                    output[2 * (r * half + k) + 1] = v.im;
                }
            }
        }
        _ => {
            // Complex input with L/2 + 1 on the last axis; real output of
            // the fft lengths there.
            let l = lengths[lengths.len() - 1];
            let half = shape[rank - 1];
            let mut data: Vec<Complex<T>> = input.chunks(2).map(|c| complex(c[0], c[1])).collect();
            for ax in first..rank - 1 {
                along_axis(&mut data, shape, ax, true);
            }
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
