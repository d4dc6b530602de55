//! Packing blocks of A and B into a micro-kernel's layout: words of
//! `GROUP` consecutive k of one row (A) or column (B), `mr` rows (`nr`
//! columns) side by side per k, zero beyond the matrix.
//!
//! Everything here is `#[inline(always)]`: it is compiled inside the
//! kernels' `#[target_feature]` functions (where `mr` and `nr` are
//! constants), so the contiguous cases vectorise with the kernel's
//! instruction set.

use super::Encoding;

/// One word of `GROUP` elements `at(0..GROUP)`, `bits` encoding each; the
/// elements at or past `valid` are zero bits.
#[inline(always)]
fn word<E: Encoding>(valid: usize, at: impl Fn(usize) -> E::Elem, bits: fn(E::Elem) -> u32) -> u32 {
    let mut w = 0;
    for t in 0..E::GROUP.min(valid) {
        w |= bits(at(t)) << (t * E::BITS);
    }
    w
}

/// The lhs padding bits of the elements at or past `valid` in a word.
#[inline(always)]
fn pad_above<E: Encoding>(valid: usize) -> u32 {
    if valid >= E::GROUP {
        return 0;
    }
    let keep = (1u64 << (valid * E::BITS)) - 1;
    E::LHS_PAD & !(keep as u32)
}

/// Packs rows `rows` of A, words `words` of k, into strips of `mr` rows:
/// `out[(strip * kc + g) * mr + r]`.
///
/// # Safety
/// `a` with `strides` addresses an `m x k` matrix covering the rows.
#[inline(always)]
pub(super) unsafe fn pack_a<E: Encoding>(
    a: *const E::Elem,
    [rs, cs]: [isize; 2],
    k: usize,
    (r0, r1): (usize, usize),
    (g0, g1): (usize, usize),
    mr: usize,
    out: &mut [u32],
) {
    let kc = g1 - g0;
    let strips = (r1 - r0).div_ceil(mr);
    for s in 0..strips {
        for r in 0..mr {
            let row = r0 + s * mr + r;
            let dst = |g: usize| (s * kc + g) * mr + r;
            if row >= r1 {
                for g in 0..kc {
                    out[dst(g)] = E::LHS_PAD;
                }
                continue;
            }
            // SAFETY: the row is inside A.
            let base = unsafe { a.offset(row as isize * rs) };
            for g in 0..kc {
                let k0 = (g0 + g) * E::GROUP;
                let valid = k.saturating_sub(k0);
                out[dst(g)] = if E::RAW && cs == 1 && valid >= E::GROUP {
                    // SAFETY: GROUP contiguous elements inside the row.
                    let raw = unsafe { (base.add(k0) as *const u32).read_unaligned() };
                    // Only i8 quads re-encode their lhs (a + 128: each
                    // byte's top bit flipped).
                    raw ^ E::LHS_PAD
                } else {
                    let at = |t: usize| {
                        // SAFETY: k0 + t < k, inside the row.
                        unsafe { *base.offset((k0 + t) as isize * cs) }
                    };
                    word::<E>(valid, at, E::lhs_bits) | pad_above::<E>(valid)
                };
            }
        }
    }
}

/// Packs columns `cols` of B, words `words` of k, into panels of `nr`
/// columns: `out[(panel * kc + g) * nr + j]`; `interleave` makes the `nr`
/// words of `nr` columns from `GROUP` contiguous rows (word j holds element
/// j of each of the first `GROUP` row pointers).
///
/// # Safety
/// `b` with `strides` addresses a `k x n` matrix covering the columns.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) unsafe fn pack_b<E: Encoding>(
    b: *const E::Elem,
    [rs, cs]: [isize; 2],
    k: usize,
    (c0, c1): (usize, usize),
    (g0, g1): (usize, usize),
    nr: usize,
    out: &mut [u32],
    interleave: impl Fn(&[*const E::Elem; 4], &mut [u32]),
) {
    let kc = g1 - g0;
    let panels = (c1 - c0).div_ceil(nr);
    // Along B's rows when they are contiguous (the reads stream), else
    // along its columns.
    let order = move |i: usize| match cs == 1 {
        true => (i % panels, i / panels),
        false => (i / kc, i % kc),
    };
    for (p, g) in (0..panels * kc).map(order) {
        let j0 = c0 + p * nr;
        let width = (c1 - j0).min(nr);
        let k0 = (g0 + g) * E::GROUP;
        let valid = k.saturating_sub(k0);
        let dst = &mut out[(p * kc + g) * nr..][..nr];
        if cs == 1 && width == nr && valid >= E::GROUP {
            // Rows of B contiguous (`x @ W`): GROUP rows side by side, a
            // vector at a time.
            let rows: [*const E::Elem; 4] = std::array::from_fn(|t| {
                let t = t.min(E::GROUP - 1);
                // SAFETY: row k0 + t holds columns j0..j0 + nr.
                unsafe { b.offset((k0 + t) as isize * rs + j0 as isize) }
            });
            interleave(&rows, dst);
            continue;
        }
        for (j, d) in dst.iter_mut().enumerate() {
            *d = if j >= width {
                0
            } else if E::RAW && rs == 1 && valid >= E::GROUP {
                // Columns contiguous (`x @ W.T`): one load per word.
                // SAFETY: GROUP contiguous elements of column j0 + j.
                unsafe { (b.offset((j0 + j) as isize * cs).add(k0) as *const u32).read_unaligned() }
            } else {
                let base = (j0 + j) as isize * cs;
                let at = |t: usize| {
                    // SAFETY: k0 + t < k, inside the column.
                    unsafe { *b.offset(base + (k0 + t) as isize * rs) }
                };
                word::<E>(valid, at, E::rhs_bits)
            };
        }
    }
}

/// `-128 · Σₖ b[k][j]` per column of each packed panel (wrapping), the
/// correction of an i8-quads product whose lhs was packed as `a + 128`.
#[inline(always)]
pub(super) fn column_fix(packed: &[u32], panels: usize, kc: usize, nr: usize, out: &mut [i32]) {
    for p in 0..panels {
        let fix = &mut out[p * nr..][..nr];
        fix.fill(0);
        for g in 0..kc {
            let words = &packed[(p * kc + g) * nr..][..nr];
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
