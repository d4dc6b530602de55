//! One-dimensional FFT plans that compute exactly what XLA:CPU computes.
//!
//! XLA:CPU runs its FFTs on DUCC (`ducc0`, Max-Planck-Society, BSD-3-Clause;
//! the pocketfft lineage): FFTPACK-style mixed-radix passes over the
//! factorization of the length, with twiddle factors from a two-table
//! `UnityRoots` evaluated in double precision. Another algorithm (rustfft's,
//! or a more accurate one) lands 4 to 16 ULP away from XLA's results on odd
//! lengths, where every output is a long sum of rounded products; only the
//! same passes, in the same order, with the same operation order inside
//! each butterfly, give the same bits. So the passes below follow DUCC's
//! (`ducc0/fft/fft1d_impl.h`) arithmetic step for step, no FMA (DUCC is
//! built without contraction), written anew in Rust.
//!
//! Covered: complex passes of 2, 3, 4, 5 and 8; real passes of 2, 3, 4, 5
//! and the generic odd radix below 135 (with DUCC's multipass sequencing
//! when the length has several factors). A length needing another pass
//! (complex radix 7, 11 and larger primes, Bluestein, DUCC's vectorized and
//! complexified variants for long transforms) has no plan here, and the
//! caller (`fft.rs`) uses rustfft for it.

// DUCC's constants are written to 34 digits; they are kept as written so
// that they round exactly as DUCC's do.
#![allow(clippy::excessive_precision)]

use std::ops::{Add, Mul, Neg, Sub};

use rustfft::num_traits::{Float, FromPrimitive};

/// The float types plans exist for.
pub trait Flt: Float + FromPrimitive + Default + Send + Sync + 'static {}
impl Flt for f32 {}
impl Flt for f64 {}

fn c<T: Flt>(v: f64) -> T {
    T::from_f64(v).unwrap_or_else(T::nan)
}

/// What the passes compute with: a float, or a [`Pack`] of several lines'
/// floats, each operation applied lane by lane.
pub trait Arith:
    Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
}
impl<X> Arith for X where
    X: Copy + Default + Add<Output = X> + Sub<Output = X> + Mul<Output = X> + Neg<Output = X>
{
}

/// The lanes of a plan over float `T`: `T` itself, or a `Pack` of `T`s.
pub trait Lane<T>: Arith + Send + Sync {
    fn splat(v: T) -> Self;
}

impl<T: Flt> Lane<T> for T {
    #[inline(always)]
    fn splat(v: T) -> T {
        v
    }
}

/// `W` lines transformed at once: element k of each in one lane. Every
/// operation is the scalar one lane by lane (no FMA, no reordering), so
/// each line gets exactly the bits it gets alone, while the compiler keeps
/// the lanes in SIMD registers: DUCC, too, runs several lines at once.
/// A slice of packs is a `len x W` row-major matrix of `T` (`crate::fft`
/// transposes rows into lanes as one); aligned as an AVX register, so that
/// eight f32 lanes can be read as [`avx::F32x8`].
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub struct Pack<T, const W: usize>(pub [T; W]);

impl<T: Flt, const W: usize> Default for Pack<T, W> {
    fn default() -> Self {
        Pack([T::default(); W])
    }
}

macro_rules! lanewise {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: Flt, const W: usize> $tr for Pack<T, W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Pack(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);

impl<T: Flt, const W: usize> Neg for Pack<T, W> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Pack(std::array::from_fn(|i| -self.0[i]))
    }
}

impl<T: Flt, const W: usize> Lane<T> for Pack<T, W> {
    #[inline(always)]
    fn splat(v: T) -> Self {
        Pack([v; W])
    }
}

/// A complex value as DUCC's `Cmplx`: each operator is the plain two-part
/// formula, evaluated left to right. `repr(C)`: complex values of two
/// lane types of one layout have one layout.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Cx<T> {
    pub r: T,
    pub i: T,
}

impl<T: Arith> Cx<T> {
    #[inline(always)]
    pub fn new(r: T, i: T) -> Self {
        Cx { r, i }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Cx::new(self.r + o.r, self.i + o.i)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Cx::new(self.r - o.r, self.i - o.i)
    }
    #[inline(always)]
    pub fn scale(self, s: T) -> Self {
        Cx::new(self.r * s, self.i * s)
    }
}

/// Constant `v` (as DUCC writes it) in every lane.
#[inline(always)]
fn konst<T: Flt, L: Lane<T>>(v: f64) -> L {
    L::splat(c::<T>(v))
}

/// A scalar complex value in every lane.
#[inline(always)]
fn splat_cx<T: Flt, L: Lane<T>>(v: Cx<T>) -> Cx<L> {
    Cx::new(L::splat(v.r), L::splat(v.i))
}

/// (c + d, c - d).
#[inline(always)]
fn pm<T: Arith>(c: Cx<T>, d: Cx<T>) -> (Cx<T>, Cx<T>) {
    (c.add(d), c.sub(d))
}

/// v times w (backward) or times conj(w) (forward).
#[inline(always)]
fn special_mul<T: Arith>(fwd: bool, v: Cx<T>, w: Cx<T>) -> Cx<T> {
    if fwd {
        Cx::new(v.r * w.r + v.i * w.i, v.i * w.r - v.r * w.i)
    } else {
        Cx::new(v.r * w.r - v.i * w.i, v.r * w.i + v.i * w.r)
    }
}

/// Multiplication by -i (forward) or i (backward).
#[inline(always)]
fn rotx90<T: Arith>(fwd: bool, a: Cx<T>) -> Cx<T> {
    if fwd {
        Cx::new(a.i, -a.r)
    } else {
        Cx::new(-a.i, a.r)
    }
}

/// π/4 rounded to x87 long double (64 bits), divided by n in long double,
/// then rounded to double: DUCC's `Thigh(0.25L*pi/n)`, by integer arithmetic.
fn quarter_pi_over(n: usize) -> f64 {
    // π in x87 long double: 0xC90FDAA22168C235 · 2^-62, so π/4 = M · 2^-64.
    const M: u128 = 0xC90F_DAA2_2168_C235;
    let num = M << 63;
    let d = n.max(1) as u128;
    let (q, sticky) = (num / d, num % d != 0);
    // π/4/n = q · 2^-127 (plus the remainder): round q to 64 bits.
    let drop = (128 - q.leading_zeros() as i32 - 64).max(1);
    let mut m = q >> drop;
    let rest = q & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    if rest > half || (rest == half && (sticky || m & 1 == 1)) {
        m += 1;
    }
    let mut e = drop - 127;
    if m >> 64 != 0 {
        m >>= 1;
        e += 1;
    }
    // Then to double, from the 64-bit value alone (ties to even).
    let rest = m & 0x7ff;
    let mut m53 = m >> 11;
    if rest > 0x400 || (rest == 0x400 && m53 & 1 == 1) {
        m53 += 1;
    }
    (m53 as f64) * 2f64.powi(e + 11)
}

/// DUCC's `UnityRoots(n)`: e^(2πik/n) from two tables (fine and coarse) of
/// octant-reduced cos/sin in double, multiplied in double, then rounded.
pub struct Roots {
    n: usize,
    mask: usize,
    shift: u32,
    v1: Vec<(f64, f64)>,
    v2: Vec<(f64, f64)>,
}

impl Roots {
    pub fn new(n: usize) -> Self {
        let ang = quarter_pi_over(n);
        let nval = (n + 2) / 2;
        let mut shift = 1u32;
        while (1usize << shift) * (1usize << shift) < nval {
            shift += 1;
        }
        let mask = (1usize << shift) - 1;
        let calc = |x: usize| -> (f64, f64) {
            let x = x << 3;
            let f = |v: usize| v as f64 * ang;
            if x < 4 * n {
                if x < 2 * n {
                    if x < n {
                        return (f(x).cos(), f(x).sin());
                    }
                    return (f(2 * n - x).sin(), f(2 * n - x).cos());
                }
                let x = x - 2 * n;
                if x < n {
                    return (-f(x).sin(), f(x).cos());
                }
                return (-f(2 * n - x).cos(), f(2 * n - x).sin());
            }
            let x = 8 * n - x;
            if x < 2 * n {
                if x < n {
                    return (f(x).cos(), -f(x).sin());
                }
                return (f(2 * n - x).sin(), -f(2 * n - x).cos());
            }
            let x = x - 2 * n;
            if x < n {
                return (-f(x).sin(), -f(x).cos());
            }
            (-f(2 * n - x).cos(), -f(2 * n - x).sin())
        };
        let mut v1 = vec![(1.0, 0.0); mask + 1];
        for (i, v) in v1.iter_mut().enumerate().skip(1) {
            *v = calc(i);
        }
        let mut v2 = vec![(1.0, 0.0); nval.div_ceil(mask + 1)];
        for (i, v) in v2.iter_mut().enumerate().skip(1) {
            *v = calc(i * (mask + 1));
        }
        Roots {
            n,
            mask,
            shift,
            v1,
            v2,
        }
    }

    pub fn get<T: Flt>(&self, idx: usize) -> Cx<T> {
        let (idx, neg) = if 2 * idx <= self.n {
            (idx, false)
        } else {
            (self.n - idx, true)
        };
        let (x1, x2) = (self.v1[idx & self.mask], self.v2[idx >> self.shift]);
        let r = x1.0 * x2.0 - x1.1 * x2.1;
        let i = x1.0 * x2.1 + x1.1 * x2.0;
        let (r, i) = (c::<T>(r), c::<T>(i));
        Cx::new(r, if neg { -i } else { i })
    }
}

/// DUCC's complex factorization: 8s, then 4s, then one 2 (moved to the
/// front), then odd factors ascending.
fn factorize_complex(mut n: usize) -> Vec<usize> {
    let mut f = Vec::new();
    while n % 8 == 0 {
        f.push(8);
        n >>= 3;
    }
    while n % 4 == 0 {
        f.push(4);
        n >>= 2;
    }
    if n % 2 == 0 {
        n >>= 1;
        f.push(2);
        let last = f.len() - 1;
        f.swap(0, last);
    }
    odd_factors(n, &mut f);
    f
}

/// DUCC's real factorization: 4s, then one 2 (moved to the front), then odd
/// factors ascending.
fn factorize_real(mut n: usize) -> Vec<usize> {
    let mut f = Vec::new();
    while n % 4 == 0 {
        f.push(4);
        n >>= 2;
    }
    if n % 2 == 0 {
        n >>= 1;
        f.push(2);
        let last = f.len() - 1;
        f.swap(0, last);
    }
    odd_factors(n, &mut f);
    f
}

fn odd_factors(mut n: usize, f: &mut Vec<usize>) {
    let mut d = 3;
    while d * d <= n {
        while n % d == 0 {
            f.push(d);
            n /= d;
        }
        d += 2;
    }
    if n > 1 {
        f.push(n);
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx;
mod complex;
mod real;
mod real_generic;

pub use complex::CPlan;
pub use complex::LANES;
pub use real::RPlan;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angle_rounds_through_long_double() {
        // (π/4 in x87 long double) / n, rounded to long double, then double.
        for (n, want) in [
            (17, 0x3fa7_a783_2222_0c53u64),
            (33, 0x3f98_5f03_3a70_a7d9),
            (16, 0x3fa9_21fb_5444_2d18),
            (15, 0x3faa_cee9_f37b_ebd6),
            (7, 0x3fbc_b91f_3bbb_a140),
        ] {
            assert_eq!(quarter_pi_over(n).to_bits(), want, "n = {n}");
        }
    }

    #[test]
    fn plans_match_a_direct_dft() {
        for n in [1usize, 2, 3, 4, 5, 6, 8, 9, 12, 15, 16, 20, 30, 40, 120] {
            let plan = CPlan::<f64>::new(n).expect("covered length");
            let x: Vec<Cx<f64>> = (0..n)
                .map(|k| Cx::new((k as f64 * 0.7).sin(), (k as f64 * 0.3).cos()))
                .collect();
            for fwd in [true, false] {
                let mut y = x.clone();
                plan.exec(&mut y, fwd, 1.0);
                let s = if fwd { -1.0 } else { 1.0 };
                for (j, v) in y.iter().enumerate() {
                    let (mut re, mut im) = (0.0, 0.0);
                    for (k, a) in x.iter().enumerate() {
                        let t = s * 2.0 * std::f64::consts::PI * (j * k % n) as f64 / n as f64;
                        re += a.r * t.cos() - a.i * t.sin();
                        im += a.r * t.sin() + a.i * t.cos();
                    }
                    assert!(
                        (v.r - re).abs() < 1e-12 && (v.i - im).abs() < 1e-12,
                        "n = {n}, fwd = {fwd}"
                    );
                }
            }
        }
        for n in [1usize, 2, 3, 4, 5, 7, 11, 16, 17, 33, 45, 127] {
            let plan = RPlan::<f64>::new(n).expect("covered length");
            let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.9).sin() + 0.25).collect();
            let mut y = x.clone();
            plan.exec(&mut y, true, 1.0);
            // Halfcomplex: r0, r1, i1, r2, i2, ...
            for j in 0..n / 2 + 1 {
                let (mut re, mut im) = (0.0, 0.0);
                for (k, a) in x.iter().enumerate() {
                    let t = -2.0 * std::f64::consts::PI * (j * k % n) as f64 / n as f64;
                    re += a * t.cos();
                    im += a * t.sin();
                }
                let got_re = if j == 0 { y[0] } else { y[2 * j - 1] };
                let got_im = if j == 0 || 2 * j == n { 0.0 } else { y[2 * j] };
                assert!(
                    (got_re - re).abs() < 1e-12 && (got_im - im).abs() < 1e-12,
                    "n = {n}"
                );
            }
            plan.exec(&mut y, false, 1.0 / n as f64);
            for (a, b) in y.iter().zip(&x) {
                assert!((a - b).abs() < 1e-12, "n = {n} round trip");
            }
        }
    }
}
