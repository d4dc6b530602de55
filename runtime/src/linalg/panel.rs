//! Panels of the blocked factorizations (QR, LU): a few columns of a
//! row-major matrix copied out column-major, so the steps that walk a
//! column (a pivot search, a reflector's dot products, an update below the
//! diagonal) run over contiguous memory, then written back; and the dot
//! product those steps take.

use std::ops::{Add, Mul, Range};

/// Columns `columns` of the row-major m x n `a`, rows `columns.start`..m,
/// as a column-major matrix (read row by row: a column at a time would
/// touch a cache line per element).
pub(super) fn copy_panel<T: Copy>(
    a: &[T],
    (m, n): (usize, usize),
    columns: Range<usize>,
) -> Vec<T> {
    let (j0, rows) = (columns.start, m - columns.start);
    // Every element is overwritten: any one of a's fills the vector.
    let Some(&any) = a.first() else {
        return Vec::new();
    };
    let mut panel = vec![any; rows * columns.len()];
    for (i, row) in a.chunks_exact(n).skip(j0).take(rows).enumerate() {
        for (c, &x) in row[columns.clone()].iter().enumerate() {
            panel[c * rows + i] = x;
        }
    }
    panel
}

/// Writes back what [`copy_panel`] took.
pub(super) fn store_panel<T: Copy>(
    a: &mut [T],
    (m, n): (usize, usize),
    columns: Range<usize>,
    panel: &[T],
) {
    let (j0, rows) = (columns.start, m - columns.start);
    for (i, row) in a.chunks_exact_mut(n).skip(j0).take(rows).enumerate() {
        for (c, x) in row[columns.clone()].iter_mut().enumerate() {
            *x = panel[c * rows + i];
        }
    }
}

/// Σ f(x[i]) y[i] in eight interleaved partial sums (i mod 8), then those
/// in order: the sums vectorize (a single running sum would wait on each
/// addition). `f` is the identity or the complex conjugate; `Default` is
/// zero for every element type here.
#[inline(always)]
pub(super) fn dot<T>(x: &[T], y: &[T], f: impl Fn(T) -> T) -> T
where
    T: Copy + Default + Add<Output = T> + Mul<Output = T>,
{
    let mut acc = [T::default(); 8];
    let (xc, yc) = (x.chunks_exact(8), y.chunks_exact(8));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        for l in 0..8 {
            acc[l] = acc[l] + f(a[l]) * b[l];
        }
    }
    for (l, (&a, &b)) in xr.iter().zip(yr).enumerate() {
        acc[l] = acc[l] + f(a) * b;
    }
    acc.iter().fold(T::default(), |s, &p| s + p)
}
