//! An f32 GEMM of our own for x86-64 CPUs with AVX2 and FMA but no AVX-512.
//!
//! Why not the `gemm` crate there: its AVX2 kernel reads the lhs where it
//! lies and waits for it. On an AMD EPYC (Zen 3, one core, 85-90 GFLOP/s
//! FMA peak) it ran 45-62 GFLOP/s on the products of real models; this
//! module, median of six interleaved runs, against it: 16384 x 128 x 128
//! (a convolution stack's patches) 63 against 45, 6396 x 768 x 256 65
//! against 62, 256 x 768 x 3072 (BERT's dense layer) 62 against 56,
//! 197 x 768 x 768 (ViT) 76 against 60, 1024³ 66 against 53, 12 x 768 x
//! 2304 28 against 7, never clearly slower (64 x 784 x 512, 128 x 64 x
//! 128: equal). AVX-512 CPUs keep the `gemm` crate's AVX-512 kernels.
//!
//! The blocking is BLIS's: for each block of [`KC`] steps of the depth, a
//! block of the rhs (`KC` x up to [`NC`] columns) is packed into panels of
//! [`NR`] columns; for each block of at most [`MC`] lhs rows, each
//! (rhs panel, lhs panel of [`MR`] rows) pair is one call of the
//! micro-kernel, which keeps the rhs panel (16 KiB) in L1 while the lhs
//! rows stream from L2. Contiguous lhs rows are read in place (packing
//! them cost a fifth of a convolution's product, and the kernel broadcasts
//! single elements anyway); the kernel prefetches what the next calls read
//! first from farther away: the next lhs panel while the first rhs panel
//! is used (the block comes from memory then), the next rhs panel during
//! the last lhs panel of the current one (it comes from L3), and the
//! next c tile. c is written by the first depth block and continued by
//! the others (each element one chain of FMAs in the order of k). One
//! thread: callers split the product between threads (`crate::gemm`).

mod avx2;
#[cfg(test)]
mod tests;

/// Rows of a micro-kernel tile (lhs rows).
pub(crate) const MR: usize = 6;
/// Columns of a micro-kernel tile (rhs columns, two AVX2 vectors).
pub(crate) const NR: usize = 16;
/// Depth of a block: a 16-column rhs panel of 256 steps is 16 KiB (half of
/// a 32 KiB L1), six lhs rows 6 KiB.
const KC: usize = 256;
/// Lhs rows of a block: 120 x 256 floats is 120 KiB of L2.
const MC: usize = 120;
/// Rhs columns packed at once (3 MiB with `KC`, in L3).
const NC: usize = 3072;

/// Whether the running CPU takes products through this module: AVX2 and
/// FMA without AVX-512.
pub(crate) fn available() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("fma") && !has!("avx512f")
}

/// Whether [`product`] takes a product of this size and c's strides: c's
/// rows contiguous and apart, at least one whole tile, on a CPU where it
/// is [`available`].
pub(crate) fn takes([m, k, n]: [usize; 3], [rsc, csc]: [isize; 2]) -> bool {
    csc == 1 && rsc >= n as isize && k > 0 && m >= MR && n >= NR && available()
}

thread_local! {
    /// Each thread's packed lhs and rhs blocks, kept across calls so that a
    /// steady state allocates nothing.
    static PACKED: std::cell::RefCell<[Vec<f32>; 2]> =
        const { std::cell::RefCell::new([Vec::new(), Vec::new()]) };
}

/// `c = a · b` on one thread, c's rows contiguous (row stride `rsc`).
///
/// # Safety
/// [`available`] and [`takes`] hold; the pointers and strides address
/// `m x k`, `k x n` and `m x n` matrices.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn product(
    [m, k, n]: [usize; 3],
    a: *const f32,
    a_strides: [isize; 2],
    b: *const f32,
    b_strides: [isize; 2],
    c: *mut f32,
    rsc: usize,
) {
    let run = |packed: &mut [Vec<f32>; 2]| {
        let [pa, pb] = packed;
        let (nc_max, kc_max) = (n.min(NC).next_multiple_of(NR), k.min(KC));
        pa.resize(pa.len().max(MC.next_multiple_of(MR) * kc_max), 0.0);
        pb.resize(pb.len().max(nc_max * kc_max), 0.0);
        // SAFETY: guaranteed by the caller; the buffers hold the blocks.
        unsafe { blocks([m, k, n], a, a_strides, b, b_strides, c, rsc, pa, pb) }
    };
    PACKED.with(|cell| crate::pool::with_thread_buffers(cell, run))
}

/// The loops of [`product`] over depth, lhs and rhs blocks.
///
/// # Safety
/// As [`product`]; `pa` and `pb` hold a packed lhs and rhs block.
#[allow(clippy::too_many_arguments)]
unsafe fn blocks(
    [m, k, n]: [usize; 3],
    a: *const f32,
    [rsa, csa]: [isize; 2],
    b: *const f32,
    [rsb, csb]: [isize; 2],
    c: *mut f32,
    rsc: usize,
    pa: &mut [f32],
    pb: &mut [f32],
) {
    // Lhs blocks of even height (197 rows as 102 + 95, not 120 + 77).
    let mc_even = m.div_ceil(m.div_ceil(MC)).next_multiple_of(MR);
    for jc in (0..n).step_by(NC) {
        let nc = (n - jc).min(NC);
        for pc in (0..k).step_by(KC) {
            let kc = (k - pc).min(KC);
            let b_block = b.wrapping_offset(pc as isize * rsb + jc as isize * csb);
            pack_rhs([kc, nc], b_block, [rsb, csb], pb);
            for ic in (0..m).step_by(mc_even) {
                let mc = (m - ic).min(mc_even);
                let a_block = a.wrapping_offset(ic as isize * rsa + pc as isize * csa);
                let lhs = if csa == 1 && rsa >= 0 {
                    pack_last_rows([mc, kc], a_block, rsa as usize, pa);
                    Lhs::InPlace {
                        a: a_block,
                        rsa: rsa as usize,
                        last_rows: pa,
                    }
                } else {
                    pack_lhs([mc, kc], a_block, [rsa, csa], pa);
                    Lhs::Packed(pa)
                };
                let c_block = c.wrapping_add(ic * rsc + jc);
                // SAFETY: the blocks lie inside the caller's matrices.
                unsafe { panels([mc, kc, nc], lhs, pb, c_block, rsc, pc > 0) };
            }
        }
    }
}

/// A block of lhs rows as the micro-kernel reads it.
#[derive(Clone, Copy)]
enum Lhs<'a> {
    /// Packed into panels by [`pack_lhs`].
    Packed(&'a [f32]),
    /// Rows of contiguous elements `rsa` apart, where they are; a last
    /// panel of fewer than [`MR`] rows packed into `last_rows`.
    InPlace {
        a: *const f32,
        rsa: usize,
        last_rows: &'a [f32],
    },
}

/// Packs the rows of a block in place past its last whole panel, if any,
/// as [`pack_lhs`] packs a panel.
fn pack_last_rows([mc, kc]: [usize; 2], a: *const f32, rsa: usize, out: &mut [f32]) {
    let whole = mc / MR * MR;
    if whole < mc {
        pack_lhs(
            [mc - whole, kc],
            a.wrapping_add(whole * rsa),
            [rsa as isize, 1],
            out,
        );
    }
}

/// Every micro-kernel call of one lhs block and packed rhs block; edge
/// tiles go through a full tile on the stack.
///
/// # Safety
/// `c` addresses an `mc x nc` block with row stride `rsc`, `lhs` an
/// `mc x kc` block; the CPU is [`available`].
unsafe fn panels(
    [mc, kc, nc]: [usize; 3],
    lhs: Lhs,
    pb: &[f32],
    c: *mut f32,
    rsc: usize,
    accumulate: bool,
) {
    let mut edge = [0.0f32; MR * NR];
    for jr in (0..nc).step_by(NR) {
        let nr = (nc - jr).min(NR);
        let b_panel = pb[jr * kc..].as_ptr();
        for ir in (0..mc).step_by(MR) {
            let mr = (mc - ir).min(MR);
            let tile = c.wrapping_add(ir * rsc + jr);
            let whole = mr == MR && nr == NR;
            let (out, rs_out) = if whole {
                (tile, rsc)
            } else {
                if accumulate {
                    copy_edge([mr, nr], tile, rsc, &mut edge, Direction::IntoEdge);
                }
                (edge.as_mut_ptr(), NR)
            };
            let next_c = if ir + MR < mc {
                tile.wrapping_add(MR * rsc)
            } else {
                c.wrapping_add(jr + NR)
            };
            let a_panel = match lhs {
                Lhs::InPlace { a, rsa, .. } if mr == MR => {
                    let panel = a.wrapping_add(ir * rsa);
                    let prefetch = if jr == 0 {
                        Prefetch::LhsRows(panel.wrapping_add(MR * rsa))
                    } else if ir + MR >= mc && jr + NR < nc {
                        Prefetch::RhsPanel(b_panel.wrapping_add(NR * kc))
                    } else {
                        Prefetch::Nothing
                    };
                    Panel::Rows {
                        a: panel,
                        rsa,
                        prefetch,
                    }
                }
                Lhs::InPlace { last_rows, .. } => Panel::Packed(last_rows.as_ptr()),
                Lhs::Packed(pa) => Panel::Packed(pa[ir * kc..].as_ptr()),
            };
            // SAFETY: the panels hold kc steps, `out` a whole tile; the CPU
            // has the instructions.
            unsafe { kernel(kc, a_panel, b_panel, out, rs_out, accumulate, next_c) };
            if !whole {
                copy_edge([mr, nr], tile, rsc, &mut edge, Direction::FromEdge);
            }
        }
    }
}

/// Which way [`copy_edge`] copies.
#[derive(Clone, Copy)]
enum Direction {
    IntoEdge,
    FromEdge,
}

/// Copies the `mr x nr` corner of an edge tile of c to or from a whole
/// tile on the stack.
fn copy_edge(
    [mr, nr]: [usize; 2],
    tile: *mut f32,
    rsc: usize,
    edge: &mut [f32; MR * NR],
    direction: Direction,
) {
    for i in 0..mr {
        for j in 0..nr {
            // SAFETY: (i, j) lies inside the block (the callers' tile is
            // cut to it).
            let c = unsafe { &mut *tile.add(i * rsc + j) };
            match direction {
                Direction::IntoEdge => edge[i * NR + j] = *c,
                Direction::FromEdge => *c = edge[i * NR + j],
            }
        }
    }
}

/// The lhs panel of one micro-kernel call.
#[derive(Clone, Copy)]
enum Panel {
    /// Packed by [`pack_lhs`]: row `r`, step `p` at `p * MR + r`.
    Packed(*const f32),
    /// Six rows in place, `rsa` apart.
    Rows {
        a: *const f32,
        rsa: usize,
        prefetch: Prefetch,
    },
}

/// What a micro-kernel call on rows in place prefetches as it goes.
#[derive(Clone, Copy)]
enum Prefetch {
    Nothing,
    /// The next six rows (same stride).
    LhsRows(*const f32),
    /// The next packed rhs panel.
    RhsPanel(*const f32),
}

/// The micro-kernel of the running CPU.
///
/// # Safety
/// As the `avx2` kernels.
#[inline]
unsafe fn kernel(
    k: usize,
    a: Panel,
    b: *const f32,
    c: *mut f32,
    rsc: usize,
    accumulate: bool,
    next_c: *const f32,
) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        use avx2::{PREFETCH_LHS, PREFETCH_NOTHING, PREFETCH_RHS};
        let tile = [c, next_c as *mut f32];
        match a {
            Panel::Packed(a) => avx2::packed_tile(k, a, b, tile, rsc, accumulate),
            Panel::Rows { a, rsa, prefetch } => match prefetch {
                Prefetch::Nothing => {
                    avx2::rows_tile::<PREFETCH_NOTHING>(k, [a, a], rsa, b, tile, rsc, accumulate)
                }
                Prefetch::LhsRows(next) => {
                    avx2::rows_tile::<PREFETCH_LHS>(k, [a, next], rsa, b, tile, rsc, accumulate)
                }
                Prefetch::RhsPanel(next) => {
                    avx2::rows_tile::<PREFETCH_RHS>(k, [a, next], rsa, b, tile, rsc, accumulate)
                }
            },
        }
    }
}

/// Packs an `mc x kc` lhs block into panels of [`MR`] rows, step-major
/// (the panel's 6 elements of one step together), rows past `mc` zero.
fn pack_lhs([mc, kc]: [usize; 2], a: *const f32, [rsa, csa]: [isize; 2], out: &mut [f32]) {
    for (panel, dst) in out
        .chunks_exact_mut(MR * kc)
        .take(mc.div_ceil(MR))
        .enumerate()
    {
        let rows = (mc - panel * MR).min(MR);
        for row in 0..MR {
            if row >= rows {
                dst.iter_mut().skip(row).step_by(MR).for_each(|x| *x = 0.0);
                continue;
            }
            let from = a.wrapping_offset((panel * MR + row) as isize * rsa);
            for (p, x) in dst.iter_mut().skip(row).step_by(MR).enumerate() {
                // SAFETY: (panel * MR + row, p) lies inside the caller's block.
                *x = unsafe { *from.offset(p as isize * csa) };
            }
        }
    }
}

/// Packs a `kc x nc` rhs block into panels of [`NR`] columns, step-major,
/// columns past `nc` zero. Contiguous rows are read [`PANELS_AT_ONCE`]
/// panels at a time: a line of each row per panel, read panel by panel,
/// made the packing of BERT's 768 x 3072 rhs 15% of its product.
fn pack_rhs([kc, nc]: [usize; 2], b: *const f32, [rsb, csb]: [isize; 2], out: &mut [f32]) {
    const PANELS_AT_ONCE: usize = 8;
    let contiguous_panels = if csb == 1 { nc / NR } else { 0 };
    for first in (0..contiguous_panels).step_by(PANELS_AT_ONCE) {
        let panels = (contiguous_panels - first).min(PANELS_AT_ONCE);
        for p in 0..kc {
            let row = b.wrapping_offset(p as isize * rsb + (first * NR) as isize);
            for q in 0..panels {
                let dst = &mut out[(first + q) * NR * kc + p * NR..][..NR];
                // SAFETY: 16 contiguous elements of row p inside the block.
                dst.copy_from_slice(unsafe { std::slice::from_raw_parts(row.add(q * NR), NR) });
            }
        }
    }
    for panel in contiguous_panels..nc.div_ceil(NR) {
        let cols = (nc - panel * NR).min(NR);
        let from = b.wrapping_offset((panel * NR) as isize * csb);
        let dst = &mut out[panel * NR * kc..][..NR * kc];
        for (p, step) in dst.chunks_exact_mut(NR).enumerate() {
            let row = from.wrapping_offset(p as isize * rsb);
            for (j, x) in step.iter_mut().enumerate() {
                // SAFETY: (p, panel * NR + j) lies inside the block for j < cols.
                *x = if j < cols {
                    unsafe { *row.offset(j as isize * csb) }
                } else {
                    0.0
                };
            }
        }
    }
}
