//! Transposes of f32 blocks, the packing step of a product whose right-hand
//! side is stored transposed (`x @ W.T`, a tied embedding's `h @ E.T`, the
//! `dy @ W.T` of every backward pass).
//!
//! The `gemm` crate packs such an operand itself, but with a scalar gather
//! (one strided load per element: about 2 cycles per element on Zen 5, a
//! third of a 128x512x512 product's time). Here 16x16 tiles are transposed
//! in AVX-512 registers when the running CPU has it (16 loads, 64 shuffles,
//! 16 stores per 256 elements), and the product then reads the block in the
//! layout its kernel wants.

/// `dst[j * dst_rs + i] = src[i * src_rs + j]` for `i < rows`, `j < cols`.
///
/// # Safety
/// `src` addresses a `rows x cols` block with row stride `src_rs`, `dst` a
/// `cols x rows` block with row stride `dst_rs`; they do not overlap.
pub unsafe fn transpose_f32(
    src: *const f32,
    src_rs: usize,
    rows: usize,
    cols: usize,
    dst: *mut f32,
    dst_rs: usize,
) {
    #[cfg(target_arch = "x86_64")]
    let simd = std::arch::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    let simd = false;
    const T: usize = 16;
    for i0 in (0..rows).step_by(T) {
        for j0 in (0..cols).step_by(T) {
            let (h, w) = (T.min(rows - i0), T.min(cols - j0));
            // SAFETY: the tile lies inside both blocks (caller's contract).
            unsafe {
                let s = src.add(i0 * src_rs + j0);
                let d = dst.add(j0 * dst_rs + i0);
                #[cfg(target_arch = "x86_64")]
                if simd && h == T && w == T {
                    tile16_avx512(s, src_rs, d, dst_rs);
                    continue;
                }
                let _ = simd;
                tile_scalar(s, src_rs, h, w, d, dst_rs);
            }
        }
    }
}

/// One `h x w` tile, element by element (the edges, and CPUs without
/// AVX-512).
///
/// # Safety
/// As [`transpose_f32`], for the tile.
unsafe fn tile_scalar(
    src: *const f32,
    src_rs: usize,
    h: usize,
    w: usize,
    dst: *mut f32,
    dst_rs: usize,
) {
    for i in 0..h {
        for j in 0..w {
            // SAFETY: inside the tile.
            unsafe { *dst.add(j * dst_rs + i) = *src.add(i * src_rs + j) };
        }
    }
}

/// One 16x16 tile in registers: pairs of rows interleaved by 32-bit and
/// 64-bit unpacks (each 128-bit lane then holds 4 rows of one column), then
/// lanes gathered across 4 and 16 rows by two rounds of 128-bit shuffles.
///
/// # Safety
/// As [`transpose_f32`], for a full 16x16 tile; the CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn tile16_avx512(src: *const f32, src_rs: usize, dst: *mut f32, dst_rs: usize) {
    use std::arch::x86_64::*;
    let mut r = [_mm512_setzero_ps(); 16];
    for (i, row) in r.iter_mut().enumerate() {
        // SAFETY: 16 rows of 16 elements inside the source block.
        *row = unsafe { _mm512_loadu_ps(src.add(i * src_rs)) };
    }
    // [a0 b0 a1 b1] and [a2 b2 a3 b3] per lane, for rows (2p, 2p + 1).
    let mut t = [_mm512_setzero_ps(); 16];
    for p in 0..8 {
        t[2 * p] = _mm512_unpacklo_ps(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm512_unpackhi_ps(r[2 * p], r[2 * p + 1]);
    }
    // Per lane, u[4q + c] holds column c (of the lane's 4) of rows 4q..4q+3.
    let mut u = [_mm512_setzero_ps(); 16];
    for q in 0..4 {
        let (lo, hi) = (t[4 * q], t[4 * q + 1]);
        let (lo2, hi2) = (t[4 * q + 2], t[4 * q + 3]);
        let pd = _mm512_castps_pd;
        u[4 * q] = _mm512_castpd_ps(_mm512_unpacklo_pd(pd(lo), pd(lo2)));
        u[4 * q + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(pd(lo), pd(lo2)));
        u[4 * q + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(pd(hi), pd(hi2)));
        u[4 * q + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(pd(hi), pd(hi2)));
    }
    // Lanes 0 and 2 (0x88) or 1 and 3 (0xdd) of rows 0-3 with rows 4-7, and
    // of rows 8-11 with rows 12-15.
    let mut v = [_mm512_setzero_ps(); 16];
    for c in 0..4 {
        v[c] = _mm512_shuffle_f32x4::<0x88>(u[c], u[4 + c]);
        v[4 + c] = _mm512_shuffle_f32x4::<0xdd>(u[c], u[4 + c]);
        v[8 + c] = _mm512_shuffle_f32x4::<0x88>(u[8 + c], u[12 + c]);
        v[12 + c] = _mm512_shuffle_f32x4::<0xdd>(u[8 + c], u[12 + c]);
    }
    // Column j = 4 * lane + c: lanes 0/1 come from v[c]/v[4 + c] (rows
    // 0-7) and v[8 + c]/v[12 + c] (rows 8-15).
    for c in 0..4 {
        let cols = [
            (c, _mm512_shuffle_f32x4::<0x88>(v[c], v[8 + c])),
            (4 + c, _mm512_shuffle_f32x4::<0x88>(v[4 + c], v[12 + c])),
            (8 + c, _mm512_shuffle_f32x4::<0xdd>(v[c], v[8 + c])),
            (12 + c, _mm512_shuffle_f32x4::<0xdd>(v[4 + c], v[12 + c])),
        ];
        for (j, col) in cols {
            // SAFETY: row j of the destination tile, 16 elements.
            unsafe { _mm512_storeu_ps(dst.add(j * dst_rs), col) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_every_edge_shape_match_the_definition() {
        for (rows, cols) in [(16, 16), (33, 50), (1, 17), (17, 1), (48, 64), (5, 3)] {
            let src_rs = cols + 3;
            let dst_rs = rows + 5;
            let src: Vec<f32> = (0..rows * src_rs).map(|x| x as f32).collect();
            let mut dst = vec![-1.0f32; cols * dst_rs];
            unsafe { transpose_f32(src.as_ptr(), src_rs, rows, cols, dst.as_mut_ptr(), dst_rs) };
            for i in 0..rows {
                for j in 0..cols {
                    assert_eq!(
                        dst[j * dst_rs + i],
                        src[i * src_rs + j],
                        "{rows}x{cols} at ({i}, {j})"
                    );
                }
            }
            // Padding between destination rows is untouched.
            for j in 0..cols {
                assert!(
                    dst[j * dst_rs + rows..(j + 1) * dst_rs]
                        .iter()
                        .all(|&x| x == -1.0)
                );
            }
        }
    }
}
