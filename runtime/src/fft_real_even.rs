//! Real transforms of even length N as complex transforms of N/2 (the
//! lengths `fft_ducc` has no real plan for: DUCC, and so XLA:CPU, also
//! turns long even real transforms into complex ones). The even and odd
//! samples are the real and imaginary parts of one complex line; its
//! transform Z gives the even samples' transform E and the odd samples' O
//! (E[k] = (Z[k] + conj Z[M-k]) / 2, O[k] = (Z[k] - conj Z[M-k]) / 2i), and
//! X[k] = E[k] + e^(-2 pi i k / N) O[k]. The inverse runs the same steps
//! backwards. Half the work of a complex transform of length N, and no
//! complex copy of the whole input or output.

use std::sync::Arc;

use rustfft::Fft;
use rustfft::num_complex::Complex;
use rustfft::num_traits::{Float, FromPrimitive};

/// e^(-2 pi i k / n) for k < n / 2, computed in f64.
pub fn twiddles<T: Float + FromPrimitive>(n: usize) -> Vec<Complex<T>> {
    (0..n / 2)
        .map(|k| {
            let a = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
            let c = |v: f64| T::from_f64(v).unwrap_or_else(T::nan);
            Complex::new(c(a.cos()), c(a.sin()))
        })
        .collect()
}

/// A line's buffers: the half-length complex line and the transform's
/// scratch.
pub struct Line<T> {
    z: Vec<Complex<T>>,
    scratch: Vec<Complex<T>>,
}

impl<T: rustfft::FftNum + Float> Line<T> {
    pub fn new(fft: &Arc<dyn Fft<T>>) -> Self {
        let zero = Complex::new(T::zero(), T::zero());
        Line {
            z: vec![zero; fft.len()],
            scratch: vec![zero; fft.get_inplace_scratch_len()],
        }
    }
}

/// `x` (N reals) to `out` (N/2 + 1 complex numbers, interleaved); `fft` is
/// the forward transform of N/2, `w` the twiddles of N.
pub fn forward<T: rustfft::FftNum + Float>(
    x: &[T],
    out: &mut [T],
    fft: &dyn Fft<T>,
    w: &[Complex<T>],
    line: &mut Line<T>,
) {
    let m = line.z.len();
    for (slot, pair) in line.z.iter_mut().zip(x.chunks(2)) {
        *slot = Complex::new(pair[0], pair[1]);
    }
    fft.process_with_scratch(&mut line.z, &mut line.scratch);
    let z = &line.z;
    let half = T::from(0.5).unwrap_or_else(T::nan);
    out[0] = z[0].re + z[0].im;
    out[1] = T::zero();
    out[2 * m] = z[0].re - z[0].im;
    out[2 * m + 1] = T::zero();
    // k = 1 .. m-1, reading z[k] and z[m-k] (iterators, so that the loop
    // has no bounds checks and vectorises).
    let pairs = out[2..2 * m].chunks_exact_mut(2);
    let terms = z[1..m].iter().zip(z[1..m].iter().rev()).zip(&w[1..m]);
    for (slot, ((&a, &r), &wk)) in pairs.zip(terms) {
        let b = r.conj();
        let e = (a + b) * half;
        let d = a - b;
        let v = e + wk * Complex::new(d.im * half, -d.re * half);
        slot[0] = v.re;
        slot[1] = v.im;
    }
}

/// `x` (N/2 + 1 complex numbers, interleaved; the imaginary parts of the
/// zero and Nyquist terms ignored) to `out` (N reals), times `norm`; `fft`
/// is the backward transform of N/2, `w` the twiddles of N.
pub fn inverse<T: rustfft::FftNum + Float>(
    x: &[T],
    out: &mut [T],
    norm: T,
    fft: &dyn Fft<T>,
    w: &[Complex<T>],
    line: &mut Line<T>,
) {
    let m = line.z.len();
    // k = 0 pairs the zero term with the Nyquist term (both real here).
    let (x0, xm) = (x[0], x[2 * m]);
    line.z[0] = Complex::new(x0 + xm, x0 - xm);
    let xs = x[2..2 * m].chunks_exact(2);
    let rs = x[2..2 * m].chunks_exact(2).rev();
    for (slot, ((a, r), &wk)) in line.z[1..].iter_mut().zip(xs.zip(rs).zip(&w[1..m])) {
        let a = Complex::new(a[0], a[1]);
        let b = Complex::new(r[0], -r[1]);
        let e = a + b;
        let o = (a - b) * wk.conj();
        *slot = Complex::new(e.re - o.im, e.im + o.re);
    }
    fft.process_with_scratch(&mut line.z, &mut line.scratch);
    for (pair, v) in out.chunks_mut(2).zip(&line.z) {
        pair[0] = v.re * norm;
        pair[1] = v.im * norm;
    }
}
