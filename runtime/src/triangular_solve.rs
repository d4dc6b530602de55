//! `stablehlo.triangular_solve` on real elements as XLA:CPU computes it.
//!
//! XLA:CPU has no triangular-solve kernel: its `TriangularSolveExpander`
//! (`xla/service/triangular_solve_expander.cc`) rewrites the op into HLO,
//! and the result depends on that algorithm, not just on the exact
//! solution: an ill-conditioned 8x8 system (condition ~2e5) lands 40 ULP
//! from the correctly rounded solution in XLA's own answer. So this follows
//! the expander step for step:
//! - small matrices in big batches (batch > 8, k < 32) are solved directly,
//!   one row (left) or column (right) of x at a time;
//! - otherwise a is cut into diagonal blocks of 128 (the last one padded
//!   with the identity), each block is inverted by XLA's row recurrence on
//!   the column-scaled unit-triangular block, and x is assembled block by
//!   block with matrix products.
//!
//! Every product is an HLO `dot`, and its summation order is XLA:CPU's:
//! matrix-vector products (and those smaller than 3x3) sum k in order with
//! one FMA per term, like its LLVM IR emitters; larger ones go to Eigen's
//! GEMM, whose packet kernel sums the even and the odd k of each 8-step in
//! two accumulators, adds them, then the remaining k in order. (This
//! reproduces the expected values of StableHLO's JAX-generated testdata bit
//! for bit; Eigen's wider kernels, used when a product has 16 or more
//! columns, sum in plain order and are not modelled.)
//!
//! f16 and bf16 run their element-wise steps in their own precision (each
//! rounded, as XLA:CPU's f16 ops are) and their dots in f32 with the result
//! rounded once, as XLA converts dot operands to f32. Complex solves are
//! lowered to loops by the compiler.

use strata_abi::{ElemCode, LinalgDesc};

use crate::error::set_error;
use crate::ffi_guard;
use crate::float::{bf16_to_f32, f16_to_f32};

use strata_abi::{LINALG_LEFT_SIDE, LINALG_LOWER, LINALG_TRANSPOSE_A, LINALG_UNIT_DIAGONAL};

/// XLA:CPU's expander block size.
const BLOCK_SIZE: usize = 128;

/// A real element: f32 and f64 compute in themselves; f16 and bf16 (their
/// bits) compute element-wise steps in f32 rounded back, dots in f32.
trait Real: Copy + Send + Sync {
    type Acc: Copy + PartialEq;
    fn acc(self) -> Self::Acc;
    fn round(a: Self::Acc) -> Self;
    fn fma(a: Self::Acc, b: Self::Acc, c: Self::Acc) -> Self::Acc;
    fn add(a: Self::Acc, b: Self::Acc) -> Self::Acc;
    fn zero() -> Self::Acc;
    fn one() -> Self::Acc;
    fn neg(a: Self::Acc) -> Self::Acc;
    fn sub(a: Self::Acc, b: Self::Acc) -> Self::Acc;
    fn div(a: Self::Acc, b: Self::Acc) -> Self::Acc;

    fn sub_e(self, b: Self) -> Self {
        Self::round(Self::sub(self.acc(), b.acc()))
    }
    fn div_e(self, b: Self) -> Self {
        Self::round(Self::div(self.acc(), b.acc()))
    }
    fn neg_e(self) -> Self {
        Self::round(Self::neg(self.acc()))
    }
    fn zero_e() -> Self {
        Self::round(Self::zero())
    }
    fn one_e() -> Self {
        Self::round(Self::one())
    }
}

macro_rules! float_real {
    ($t:ty) => {
        impl Real for $t {
            type Acc = $t;
            fn acc(self) -> $t {
                self
            }
            fn round(a: $t) -> $t {
                a
            }
            fn fma(a: $t, b: $t, c: $t) -> $t {
                a.mul_add(b, c)
            }
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            fn zero() -> $t {
                0.0
            }
            fn one() -> $t {
                1.0
            }
            fn neg(a: $t) -> $t {
                -a
            }
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            fn div(a: $t, b: $t) -> $t {
                a / b
            }
        }
    };
}
float_real!(f32);
float_real!(f64);

/// f16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct F16(u16);
/// bf16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Bf16(u16);

macro_rules! half_real {
    ($t:ident, $to:expr, $from:expr) => {
        impl Real for $t {
            type Acc = f32;
            fn acc(self) -> f32 {
                $to(self.0)
            }
            fn round(a: f32) -> $t {
                $t($from(a))
            }
            fn fma(a: f32, b: f32, c: f32) -> f32 {
                a.mul_add(b, c)
            }
            fn add(a: f32, b: f32) -> f32 {
                a + b
            }
            fn zero() -> f32 {
                0.0
            }
            fn one() -> f32 {
                1.0
            }
            fn neg(a: f32) -> f32 {
                -a
            }
            fn sub(a: f32, b: f32) -> f32 {
                a - b
            }
            fn div(a: f32, b: f32) -> f32 {
                a / b
            }
        }
    };
}
half_real!(F16, f16_to_f32, f32_to_f16_bits);
half_real!(Bf16, bf16_to_f32, crate::builtins::f32_to_bf16_bits);

/// f32 → IEEE binary16 bits, rounded to nearest even (overflow to inf).
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    let a = x.abs();
    if a.is_nan() {
        return sign | 0x7e00 | ((a.to_bits() >> 13) & 0x3ff) as u16;
    }
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < f32::from_bits(0x3880_0000) {
        // Below 2^-14: a multiple of 2^-24 (exact scaling, then rounded).
        return sign | (a * f32::from_bits(0x4b80_0000)).round_ties_even() as u16;
    }
    let b = a.to_bits();
    let half = ((((b >> 23) - 127 + 15) << 10) | ((b >> 13) & 0x3ff)) as u16;
    let rest = b & 0x1fff;
    let up = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    sign | (half + up as u16)
}

/// A dense row-major matrix view into a slice.
#[derive(Clone, Copy)]
struct View<'a, T> {
    data: &'a [T],
    rows: usize,
    cols: usize,
    /// Row stride.
    ld: usize,
    /// Read as its transpose.
    t: bool,
}

impl<T: Copy> View<'_, T> {
    fn rows(&self) -> usize {
        if self.t { self.cols } else { self.rows }
    }
    fn cols(&self) -> usize {
        if self.t { self.rows } else { self.cols }
    }
    fn at(&self, r: usize, c: usize) -> T {
        let (r, c) = if self.t { (c, r) } else { (r, c) };
        self.data[r * self.ld + c]
    }
}

/// An owned row-major matrix.
#[derive(Clone)]
struct Mat<T> {
    data: Vec<T>,
    rows: usize,
    cols: usize,
}

impl<T: Copy> Mat<T> {
    fn from_fn(rows: usize, cols: usize, f: impl Fn(usize, usize) -> T) -> Self {
        let mut data = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                data.push(f(r, c));
            }
        }
        Mat { data, rows, cols }
    }
    fn at(&self, r: usize, c: usize) -> T {
        self.data[r * self.cols + c]
    }
    fn set(&mut self, r: usize, c: usize, v: T) {
        self.data[r * self.cols + c] = v;
    }
    fn view(&self) -> View<'_, T> {
        View {
            data: &self.data,
            rows: self.rows,
            cols: self.cols,
            ld: self.cols,
            t: false,
        }
    }
    /// The block [r0, r1) x [c0, c1), optionally read transposed.
    fn block(&self, r0: usize, r1: usize, c0: usize, c1: usize, t: bool) -> View<'_, T> {
        View {
            data: &self.data[(r0 * self.cols + c0).min(self.data.len())..],
            rows: r1 - r0,
            cols: c1 - c0,
            ld: self.cols,
            t,
        }
    }
}

/// Σ_k x(r, k) y(k, c) in XLA:CPU's order for a dot of these shapes (see
/// the module docs), rounded once to `T`.
fn dot<T: Real>(x: View<'_, T>, y: View<'_, T>) -> Mat<T> {
    let (m, k, n) = (x.rows(), x.cols(), y.cols());
    let naive = (m <= 3 || k <= 3) && (k <= 3 || n <= 3);
    let in_order = m == 1 || n == 1 || naive;
    let peeled = if in_order { 0 } else { k / 8 * 8 };
    Mat::from_fn(m, n, |r, c| {
        let term = |acc: T::Acc, i: usize| T::fma(x.at(r, i).acc(), y.at(i, c).acc(), acc);
        let mut acc = T::zero();
        if peeled > 0 {
            let mut odd = T::zero();
            for i in (0..peeled).step_by(2) {
                acc = term(acc, i);
                odd = term(odd, i + 1);
            }
            acc = T::add(acc, odd);
        }
        for i in peeled..k {
            acc = term(acc, i);
        }
        T::round(acc)
    })
}

struct Options {
    left: bool,
    lower: bool,
    transpose: bool,
    unit: bool,
}

/// One system: a (k x k), b (m x n) → x (m x n). `direct` when the batch
/// is large and the matrix small (XLA's `SolveDirectly`).
fn solve<T: Real>(
    a: &[T],
    b: &[T],
    x: &mut [T],
    k: usize,
    m: usize,
    n: usize,
    o: &Options,
    direct: bool,
) {
    let a = Mat {
        data: a.to_vec(),
        rows: k,
        cols: k,
    };
    let mut bm = Mat {
        data: b.to_vec(),
        rows: m,
        cols: n,
    };
    if m * n == 0 {
        x.copy_from_slice(&bm.data);
        return;
    }
    if k == 1 {
        for v in bm.data.iter_mut() {
            if !o.unit {
                *v = v.div_e(a.at(0, 0));
            }
        }
        x.copy_from_slice(&bm.data);
        return;
    }
    let r = if direct {
        solve_directly(&a, bm, o)
    } else {
        solve_by_inverting(&a, &bm, o)
    };
    x.copy_from_slice(&r.data);
}

/// XLA's `SolveDirectly`: x row by row (left) or column by column (right),
/// each b's slice minus the dot of a's row (or column) with the solved part.
fn solve_directly<T: Real>(a: &Mat<T>, mut b: Mat<T>, o: &Options) -> Mat<T> {
    let k = a.rows;
    let (m, n) = (b.rows, b.cols);
    let backwards = o.transpose ^ o.lower ^ !o.left;
    for i in 0..k {
        let j = if backwards { i } else { k - i - 1 };
        let (mut s0, mut s1) = (
            [j, if backwards { 0 } else { j + 1 }],
            [j + 1, if backwards { j } else { k }],
        );
        if o.transpose ^ !o.left {
            s0.swap(0, 1);
            s1.swap(0, 1);
        }
        let chunk = a.block(s0[0], s1[0], s0[1], s1[1], o.transpose);
        if o.left {
            let which = o.transpose ^ o.lower;
            let (lo, hi) = if which { (0, j) } else { (j + 1, m) };
            let rhs = b.block(lo, hi, 0, n, false);
            let p = dot(chunk, rhs);
            for c in 0..n {
                let mut v = b.at(j, c).sub_e(p.at(0, c));
                if !o.unit {
                    v = v.div_e(a.at(j, j));
                }
                b.set(j, c, v);
            }
        } else {
            let which = o.transpose ^ !o.lower;
            let (lo, hi) = if which { (0, j) } else { (j + 1, n) };
            let lhs = b.block(0, m, lo, hi, false);
            let p = dot(lhs, chunk);
            for r in 0..m {
                let mut v = b.at(r, j).sub_e(p.at(r, 0));
                if !o.unit {
                    v = v.div_e(a.at(j, j));
                }
                b.set(r, j, v);
            }
        }
    }
    b
}

/// XLA's `SolveByInvertingDiagonalBlocks`.
fn solve_by_inverting<T: Real>(a: &Mat<T>, b: &Mat<T>, o: &Options) -> Mat<T> {
    let k = a.rows;
    // The triangle in use; with a unit diagonal, 1 on it.
    let tri = Mat::from_fn(k, k, |r, c| {
        let keep = if o.lower { r > c } else { r < c };
        if r == c {
            if o.unit { T::one_e() } else { a.at(r, c) }
        } else if keep {
            a.at(r, c)
        } else {
            T::zero_e()
        }
    });
    let bs = BLOCK_SIZE.min(k);
    let num_blocks = k.div_ceil(bs);
    let inverses: Vec<Mat<T>> = (0..num_blocks)
        .map(|j| {
            // The diagonal block, the last one padded with the identity.
            let start = j * bs;
            let block = Mat::from_fn(bs, bs, |r, c| {
                if start + r < k && start + c < k {
                    tri.at(start + r, start + c)
                } else if r == c {
                    T::one_e()
                } else {
                    T::zero_e()
                }
            });
            invert_block(&block, o.lower)
        })
        .collect();
    let (m, n) = (b.rows, b.cols);
    let backward = o.left ^ o.lower ^ o.transpose;
    // The solved part: blocks [lo, hi) of x's rows (left) or columns (right).
    let mut x: Option<Mat<T>> = None;
    for i in 0..num_blocks {
        let j = if backward { num_blocks - 1 - i } else { i };
        let block = if k % bs != 0 && j + 1 == num_blocks {
            k % bs
        } else {
            bs
        };
        let inv = inverses[j].block(0, block, 0, block, o.transpose);
        let end = ((j + 1) * bs).min(k);
        let b_row = if o.left {
            b.block(j * bs, end, 0, n, false)
        } else {
            b.block(0, m, j * bs, end, false)
        };
        let remainder = match &x {
            None => Mat::from_fn(b_row.rows(), b_row.cols(), |r, c| b_row.at(r, c)),
            Some(x) => {
                let (mut s0, mut s1) = if backward {
                    ([j * bs, (num_blocks - i) * bs], [end, k])
                } else {
                    ([j * bs, 0], [end, (i * bs).min(k)])
                };
                if !o.left ^ o.transpose {
                    s0.swap(0, 1);
                    s1.swap(0, 1);
                }
                let a_row = tri.block(s0[0], s1[0], s0[1], s1[1], o.transpose);
                let p = if o.left {
                    dot(a_row, x.view())
                } else {
                    dot(x.view(), a_row)
                };
                Mat::from_fn(p.rows, p.cols, |r, c| b_row.at(r, c).sub_e(p.at(r, c)))
            }
        };
        let update = if o.left {
            dot(inv, remainder.view())
        } else {
            dot(remainder.view(), inv)
        };
        x = Some(match x {
            None => update,
            Some(x) => {
                let (first, second) = if backward {
                    (&update, &x)
                } else {
                    (&x, &update)
                };
                if o.left {
                    Mat::from_fn(first.rows + second.rows, first.cols, |r, c| {
                        if r < first.rows {
                            first.at(r, c)
                        } else {
                            second.at(r - first.rows, c)
                        }
                    })
                } else {
                    Mat::from_fn(first.rows, first.cols + second.cols, |r, c| {
                        if c < first.cols {
                            first.at(r, c)
                        } else {
                            second.at(r, c - first.cols)
                        }
                    })
                }
            }
        });
    }
    x.unwrap_or_else(|| b.clone())
}

/// XLA's `InvertDiagonalBlocks` on one block: scaled to a unit triangle by
/// its columns, inverted one row at a time (each row the negated product of
/// the scaled row with the rows done so far), then scaled back by rows.
fn invert_block<T: Real>(d: &Mat<T>, lower: bool) -> Mat<T> {
    let bs = d.rows;
    let diag: Vec<T> = (0..bs).map(|i| d.at(i, i)).collect();
    let scaled = Mat::from_fn(bs, bs, |r, c| d.at(r, c).div_e(diag[c]));
    let first = if lower { 0 } else { bs - 1 };
    let mut out = Mat::from_fn(bs, bs, |r, c| {
        if r != c {
            T::zero_e()
        } else if r == first {
            T::one_e()
        } else {
            T::one_e().neg_e()
        }
    });
    for i in 1..bs {
        let j = if lower { i } else { bs - 1 - i };
        let row = scaled.block(j, j + 1, 0, bs, false);
        let p = dot(row, out.view());
        for c in 0..bs {
            out.set(j, c, p.at(0, c).neg_e());
        }
    }
    Mat::from_fn(bs, bs, |r, c| out.at(r, c).div_e(diag[r]))
}

/// `int32_t strata_rt_triangular_solve(const LinalgDesc *, const T *a,
/// const T *b, T *x)`: XLA:CPU's expansion of `triangular_solve` per
/// system. `rows` x `cols` is b's matrix shape; the flags are
/// [`LINALG_LEFT_SIDE`], [`LINALG_LOWER`], [`LINALG_TRANSPOSE_A`] and
/// [`LINALG_UNIT_DIAGONAL`]; `elem` is F16, BF16, F32 or F64.
///
/// # Safety
/// `a` holds `batch` k x k matrices (k = rows when left-sided, else cols),
/// `b` and `x` `batch` rows x cols ones; `x` may alias `b`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_triangular_solve(
    desc: *const LinalgDesc,
    a: *const u8,
    b: *const u8,
    x: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        // SAFETY: the caller's contract.
        match unsafe { run(desc, a, b, x) } {
            Ok(()) => 0,
            Err(msg) => {
                set_error(&format!("internal runtime error: {msg}"));
                1
            }
        }
    })
}

/// # Safety
/// As [`strata_rt_triangular_solve`].
unsafe fn run(
    desc: *const LinalgDesc,
    a: *const u8,
    b: *const u8,
    x: *mut u8,
) -> Result<(), String> {
    // SAFETY: the caller's contract.
    let d = unsafe { desc.as_ref() }.ok_or("null triangular_solve descriptor")?;
    let count =
        |v: i64| usize::try_from(v).map_err(|_| format!("bad triangular_solve descriptor {d:?}"));
    let (batch, m, n) = (count(d.batch)?, count(d.rows)?, count(d.cols)?);
    let o = Options {
        left: d.flags & LINALG_LEFT_SIDE != 0,
        lower: d.flags & LINALG_LOWER != 0,
        transpose: d.flags & LINALG_TRANSPOSE_A != 0,
        unit: d.flags & LINALG_UNIT_DIAGONAL != 0,
    };
    let k = if o.left { m } else { n };
    let direct = batch > BLOCK_SIZE / 16 && k < BLOCK_SIZE / 4;
    macro_rules! go {
        ($t:ty) => {{
            let (asz, bsz) = (k * k, m * n);
            // SAFETY: sizes from the descriptor the lowering wrote for these
            // buffers; b is copied out first, so x may alias it.
            let av: &[$t] = unsafe { slice(a, batch * asz) };
            let bv: Vec<$t> = unsafe { slice::<$t>(b, batch * bsz) }.to_vec();
            let xv: &mut [$t] = unsafe { slice_mut(x, batch * bsz) };
            crate::pool::install(|_| {
                use rayon::prelude::*;
                xv.par_chunks_mut(bsz.max(1))
                    .zip(av.par_chunks(asz.max(1)))
                    .zip(bv.par_chunks(bsz.max(1)))
                    .for_each(|((xs, am), bm)| solve(am, bm, xs, k, m, n, &o, direct));
            });
            Ok(())
        }};
    }
    match ElemCode::from_i32(d.elem as i32) {
        Some(ElemCode::F32) => go!(f32),
        Some(ElemCode::F64) => go!(f64),
        Some(ElemCode::F16) => go!(F16),
        Some(ElemCode::BF16) => go!(Bf16),
        _ => Err(format!("triangular_solve on element code {}", d.elem)),
    }
}

/// # Safety
/// `p` points to `count` elements of `T` (or `count` is 0).
unsafe fn slice<'a, T>(p: *const u8, count: usize) -> &'a [T] {
    if count == 0 || p.is_null() {
        return &[];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(p as *const T, count) }
}

/// # Safety
/// `p` points to `count` writable elements of `T` (or `count` is 0).
unsafe fn slice_mut<'a, T>(p: *mut u8, count: usize) -> &'a mut [T] {
    if count == 0 || p.is_null() {
        return &mut [];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts_mut(p as *mut T, count) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding() {
        for bits in 0u16..=0xffff {
            let v = f16_to_f32(bits);
            if v.is_nan() {
                assert!(f16_to_f32(f32_to_f16_bits(v)).is_nan());
                continue;
            }
            assert_eq!(f32_to_f16_bits(v), bits, "{bits:#x}");
        }
        // Ties to even, overflow, underflow.
        assert_eq!(f32_to_f16_bits(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f32_to_f16_bits(65519.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f32_to_f16_bits(2f32.powi(-25)), 0x0000);
        assert_eq!(f32_to_f16_bits(3.0 * 2f32.powi(-26)), 0x0001);
        assert_eq!(f32_to_f16_bits(-2f32.powi(-24)), 0x8001);
    }

    fn run_f64(a: &[f64], b: &[f64], m: usize, n: usize, o: &Options, direct: bool) -> Vec<f64> {
        let k = if o.left { m } else { n };
        let mut x = vec![0.0; m * n];
        solve(a, b, &mut x, k, m, n, o, direct);
        x
    }

    #[test]
    fn solves_every_variant() {
        // a well-conditioned 5x5, b 5x3 / 3x5: x·op(a) = b or op(a)·x = b.
        let k = 5;
        let a: Vec<f64> = (0..k * k)
            .map(|i| {
                if i % (k + 1) == 0 {
                    4.0 + i as f64 * 0.1
                } else {
                    ((i * 7 % 11) as f64 - 5.0) * 0.1
                }
            })
            .collect();
        for (left, lower, transpose, unit, direct) in itertools_product() {
            let (m, n) = if left { (k, 3) } else { (3, k) };
            let b: Vec<f64> = (0..m * n).map(|i| (i as f64 * 0.37).sin()).collect();
            let o = Options {
                left,
                lower,
                transpose,
                unit,
            };
            let x = run_f64(&a, &b, m, n, &o, direct);
            // op(a) with the triangle and diagonal the solve reads.
            let opa = |r: usize, c: usize| {
                let (r, c) = if transpose { (c, r) } else { (r, c) };
                if r == c {
                    if unit { 1.0 } else { a[r * k + c] }
                } else if (r > c) == lower {
                    a[r * k + c]
                } else {
                    0.0
                }
            };
            for r in 0..m {
                for c in 0..n {
                    let got: f64 = if left {
                        (0..k).map(|i| opa(r, i) * x[i * n + c]).sum()
                    } else {
                        (0..k).map(|i| x[r * n + i] * opa(i, c)).sum()
                    };
                    assert!(
                        (got - b[r * n + c]).abs() < 1e-12,
                        "{left} {lower} {transpose} {unit} {direct}"
                    );
                }
            }
        }
    }

    fn itertools_product() -> Vec<(bool, bool, bool, bool, bool)> {
        let mut v = Vec::new();
        for bits in 0..32 {
            v.push((
                bits & 1 != 0,
                bits & 2 != 0,
                bits & 4 != 0,
                bits & 8 != 0,
                bits & 16 != 0,
            ));
        }
        v
    }
}
