//! Packing blocks of A and B into the micro-kernel's layout: words of
//! `GROUP` consecutive k of one row (A) or column (B), `MR` rows (`NR`
//! columns) side by side per k, zero beyond the matrix.
//!
//! Everything here is `#[inline(always)]`: it is compiled inside the
//! kernels' `#[target_feature]` functions, where the contiguous cases
//! vectorise with the kernel's instruction set.

use super::{MR, NR, Narrow};

/// One word of `GROUP` elements `at(0..GROUP)`, `bits` encoding each; the
/// elements at or past `valid` are zero bits.
#[inline(always)]
fn word<T: Narrow>(valid: usize, at: impl Fn(usize) -> T, bits: impl Fn(T) -> u32) -> u32 {
    let mut w = 0;
    for t in 0..T::GROUP.min(valid) {
        w |= bits(at(t)) << (t * T::BITS);
    }
    w
}

/// Packs rows `rows` of A, words `words` of k (in words), into strips of
/// `MR` rows: `out[(strip * kc + g) * MR + r]`.
///
/// # Safety
/// `a` with `strides` addresses an `m x k` matrix covering the rows.
#[inline(always)]
pub(super) unsafe fn pack_a<T: Narrow>(
    a: *const T,
    [rs, cs]: [isize; 2],
    k: usize,
    (r0, r1): (usize, usize),
    (g0, g1): (usize, usize),
    out: &mut [u32],
) {
    let kc = g1 - g0;
    let strips = (r1 - r0).div_ceil(MR);
    for s in 0..strips {
        for r in 0..MR {
            let row = r0 + s * MR + r;
            let dst = |g: usize| (s * kc + g) * MR + r;
            if row >= r1 {
                for g in 0..kc {
                    out[dst(g)] = T::LHS_PAD;
                }
                continue;
            }
            // SAFETY: the row is inside A.
            let base = unsafe { a.offset(row as isize * rs) };
            for g in 0..kc {
                let k0 = (g0 + g) * T::GROUP;
                let valid = k.saturating_sub(k0);
                out[dst(g)] = if cs == 1 && valid >= T::GROUP {
                    // SAFETY: GROUP contiguous elements inside the row.
                    let raw = unsafe { (base.add(k0) as *const u32).read_unaligned() };
                    lhs_word::<T>(raw)
                } else {
                    let at = |t: usize| {
                        // SAFETY: k0 + t < k, inside the row.
                        unsafe { *base.offset((k0 + t) as isize * cs) }
                    };
                    word(valid, at, T::lhs_bits) | pad_above::<T>(valid)
                };
            }
        }
    }
}

/// A word of `GROUP` contiguous elements as read from memory, in the lhs's
/// encoding.
#[inline(always)]
fn lhs_word<T: Narrow>(raw: u32) -> u32 {
    // Only i8 re-encodes its lhs (a + 128: flip each byte's top bit).
    if T::LHS_PAD == 0 {
        raw
    } else {
        raw ^ T::LHS_PAD
    }
}

/// The lhs padding bits of the elements at or past `valid` in a word.
#[inline(always)]
fn pad_above<T: Narrow>(valid: usize) -> u32 {
    if valid >= T::GROUP {
        return 0;
    }
    let keep = (1u64 << (valid * T::BITS)) - 1;
    T::LHS_PAD & !(keep as u32)
}

/// Packs columns `cols` of B, words `words` of k, into panels of `NR`
/// columns: `out[(panel * kc + g) * NR + j]`; `interleave` makes the words
/// of `NR` columns from `GROUP` contiguous rows (word j holds element j of
/// each of the first `GROUP` rows).
///
/// # Safety
/// `b` with `strides` addresses a `k x n` matrix covering the columns.
#[inline(always)]
pub(super) unsafe fn pack_b<T: Narrow>(
    b: *const T,
    [rs, cs]: [isize; 2],
    k: usize,
    (c0, c1): (usize, usize),
    (g0, g1): (usize, usize),
    out: &mut [u32],
    interleave: impl Fn(&[&[T; NR]; 4], &mut [u32]),
) {
    let kc = g1 - g0;
    let panels = (c1 - c0).div_ceil(NR);
    // Along B's rows when they are contiguous (the reads stream), else
    // along its columns.
    let order = move |i: usize| match cs == 1 {
        true => (i % panels, i / panels),
        false => (i / kc, i % kc),
    };
    for (p, g) in (0..panels * kc).map(order) {
        let j0 = c0 + p * NR;
        let width = (c1 - j0).min(NR);
        {
            let k0 = (g0 + g) * T::GROUP;
            let valid = k.saturating_sub(k0);
            let dst = &mut out[(p * kc + g) * NR..][..NR];
            if cs == 1 && width == NR && valid >= T::GROUP {
                // Rows of B contiguous (`x @ W`): GROUP rows side by side,
                // a vector at a time.
                let rows: [&[T; NR]; 4] = std::array::from_fn(|t| {
                    let t = t.min(T::GROUP - 1);
                    // SAFETY: row k0 + t holds columns j0..j0 + NR.
                    unsafe { &*(b.offset((k0 + t) as isize * rs + j0 as isize) as *const [T; NR]) }
                });
                interleave(&rows, dst);
                continue;
            }
            for (j, d) in dst.iter_mut().enumerate() {
                *d = if j >= width {
                    0
                } else if rs == 1 && valid >= T::GROUP {
                    // Columns contiguous (`x @ W.T`): one load per word.
                    // SAFETY: GROUP contiguous elements of column j0 + j.
                    unsafe {
                        (b.offset((j0 + j) as isize * cs).add(k0) as *const u32).read_unaligned()
                    }
                } else {
                    let base = (j0 + j) as isize * cs;
                    let at = |t: usize| {
                        // SAFETY: k0 + t < k, inside the column.
                        unsafe { *b.offset(base + (k0 + t) as isize * rs) }
                    };
                    word(valid, at, T::rhs_bits)
                };
            }
        }
    }
}

/// `-128 · Σₖ b[k][j]` per column of each packed panel (wrapping), the
/// correction of an i8 product whose lhs was packed as `a + 128`.
#[inline(always)]
pub(super) fn column_fix(packed: &[u32], panels: usize, kc: usize, out: &mut [i32]) {
    for p in 0..panels {
        let fix = &mut out[p * NR..][..NR];
        fix.fill(0);
        for g in 0..kc {
            let words = &packed[(p * kc + g) * NR..][..NR];
            for (f, &w) in fix.iter_mut().zip(words) {
                let sum = (w as i8 as i32)
                    + ((w >> 8) as i8 as i32)
                    + ((w >> 16) as i8 as i32)
                    + ((w >> 24) as i8 as i32);
                *f = f.wrapping_sub(sum.wrapping_mul(128));
            }
        }
    }
}
