//! Transposes of f32 blocks, the packing step of a product whose right-hand
//! side is stored transposed (`x @ W.T`, a tied embedding's `h @ E.T`, the
//! `dy @ W.T` of every backward pass).
//!
//! The `gemm` crate packs such an operand itself, but with a scalar gather
//! (one strided load per element: about 2 cycles per element on Zen 5, a
//! third of a 128x512x512 product's time). Here 16x16 tiles are transposed
//! in AVX-512 registers when the running CPU has it (16 loads, 64 shuffles,
//! 16 stores per 256 elements), 8x8 tiles in AVX2 registers on CPUs with
//! AVX2 only (8 loads, 24 shuffles, 8 stores per 64 elements), and the
//! product then reads the block in the layout its kernel wants.

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
    // SAFETY: the caller's contract.
    unsafe { tiles::<false>(src, src_rs, rows, cols, dst, dst_rs) }
}

/// [`transpose_f32`] on slices, for any element type: the blocks are
/// checked to lie in their slices, f32 goes through the tile kernels, other
/// types element by element.
pub fn transpose_slice<T: Copy + 'static>(
    src: &[T],
    src_rs: usize,
    rows: usize,
    cols: usize,
    dst: &mut [T],
    dst_rs: usize,
) {
    let fits =
        |len: usize, rs: usize, r: usize, c: usize| r == 0 || c == 0 || (r - 1) * rs + c <= len;
    assert!(fits(src.len(), src_rs, rows, cols) && fits(dst.len(), dst_rs, cols, rows));
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>() {
        // SAFETY: T is f32; both blocks lie in their slices (asserted),
        // which do not overlap (`dst` is borrowed mutably).
        unsafe { transpose_f32(s.cast(), src_rs, rows, cols, d.cast(), dst_rs) };
        return;
    }
    for i in 0..rows {
        for j in 0..cols {
            // SAFETY: inside both blocks (asserted).
            unsafe { *d.add(j * dst_rs + i) = *s.add(i * src_rs + j) };
        }
    }
}

/// [`transpose_f32`]; with `STREAM`, full tiles are stored past the caches
/// (non-temporal stores: no read for ownership of each destination line,
/// and the destination does not evict the source).
///
/// # Safety
/// As [`transpose_f32`]; with `STREAM`, `dst` and `dst_rs * 4` are
/// multiples of 64 bytes and the caller fences (`sfence`) before the
/// destination is read by another thread.
unsafe fn tiles<const STREAM: bool>(
    src: *const f32,
    src_rs: usize,
    rows: usize,
    cols: usize,
    dst: *mut f32,
    dst_rs: usize,
) {
    let block = (src, src_rs, rows, cols, dst, dst_rs);
    // SAFETY: the caller's contract; each kernel runs on a CPU that has it.
    unsafe {
        match Simd::of_this_cpu() {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => tiles_avx512::<STREAM>(block),
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => tiles_avx2::<STREAM>(block),
            _ => each_tile::<8, STREAM, { Simd::NONE }>(block),
        }
    }
}

/// A block as [`transpose_f32`] takes it: `(src, src_rs, rows, cols, dst,
/// dst_rs)`.
type Block = (*const f32, usize, usize, usize, *mut f32, usize);

/// [`each_tile`] with the AVX-512 kernel inlined.
///
/// # Safety
/// As [`transpose_f32`]; the CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn tiles_avx512<const STREAM: bool>(block: Block) {
    // SAFETY: the caller's contract.
    unsafe { each_tile::<16, STREAM, { Simd::AVX512 }>(block) }
}

/// [`each_tile`] with the AVX2 kernel inlined (called once per 8x8 tile
/// from a loop compiled without AVX2, the call cost a third of the tile).
///
/// # Safety
/// As [`transpose_f32`]; the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn tiles_avx2<const STREAM: bool>(block: Block) {
    // SAFETY: the caller's contract.
    unsafe { each_tile::<8, STREAM, { Simd::AVX2 }>(block) }
}

/// The block in `T x T` tiles, full ones by the kernel `KERNEL` (a
/// [`Simd`] constant), the edges element by element; down each column of
/// tiles, so that consecutive tiles read the same source lines'
/// neighbours and write neighbouring destination rows.
///
/// # Safety
/// As [`transpose_f32`]; the CPU has the kernel's instructions.
#[inline(always)]
unsafe fn each_tile<const T: usize, const STREAM: bool, const KERNEL: u8>(
    (src, src_rs, rows, cols, dst, dst_rs): Block,
) {
    for j0 in (0..cols).step_by(T) {
        for i0 in (0..rows).step_by(T) {
            let (h, w) = (T.min(rows - i0), T.min(cols - j0));
            // SAFETY: the tile lies inside both blocks (caller's contract).
            unsafe {
                let s = src.add(i0 * src_rs + j0);
                let d = dst.add(j0 * dst_rs + i0);
                match KERNEL {
                    #[cfg(target_arch = "x86_64")]
                    Simd::AVX512 if h == T && w == T => {
                        tile16_avx512::<STREAM>(s, src_rs, d, dst_rs)
                    }
                    #[cfg(target_arch = "x86_64")]
                    Simd::AVX2 if h == T && w == T => tile8_avx2::<STREAM>(s, src_rs, d, dst_rs),
                    _ => tile_scalar(s, src_rs, h, w, d, dst_rs),
                }
            }
        }
    }
}

/// The registers a full tile is transposed in.
#[derive(Clone, Copy)]
enum Simd {
    Avx512,
    Avx2,
    None,
}

impl Simd {
    /// The variants as const generic arguments of [`each_tile`].
    const AVX512: u8 = Simd::Avx512 as u8;
    const AVX2: u8 = Simd::Avx2 as u8;
    const NONE: u8 = Simd::None as u8;

    fn of_this_cpu() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::None
    }
}

/// Edge of the square blocks a transpose is cut into: a unit of work, and
/// what one pass of tiles walks (a 128-element row segment is 8 cache
/// lines). Measured on the 2048x2048 f32 transpose (AMD EPYC, one
/// thread, tiles down each block's columns, streaming stores): blocks of
/// 32, 64, 128, 256: 0.68, 0.88, 0.66, 0.61 ms; with ordinary stores
/// 1.25, 1.25, 0.95, 0.96 ms (a copy of the same bytes: 0.47 ms).
const BLOCK: usize = 128;

/// Destination bytes from which a transpose's full tiles are stored past
/// the caches: a destination this large would not stay in them anyway,
/// and ordinary stores first read every destination line (2048x2048:
/// 0.66 against 0.95 ms). Smaller results stay cached for their readers.
const STREAM_MIN_BYTES: usize = 4 << 20;

/// `void strata_rt_transpose(const TransposeDesc *, const void *src, void
/// *dst)`: the transpose `desc` states (4-byte elements), in blocks of
/// [`BLOCK`] x [`BLOCK`] split over the pool when it is large.
///
/// # Safety
/// `desc` is valid and its views lie inside `src` and `dst`, which do not
/// overlap (the `kernel.transpose` verifier checks the views).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_transpose(
    desc: *const strata_abi::TransposeDesc,
    src: *const std::ffi::c_void,
    dst: *mut std::ffi::c_void,
) {
    crate::ffi_guard((), || {
        // SAFETY: the caller's contract.
        let d = unsafe { &*desc };
        if d.elem_bytes == 4 {
            // SAFETY: the caller's contract.
            unsafe { transpose_4byte(d, src as *const f32, dst as *mut f32) }
        }
    })
}

/// # Safety
/// As [`strata_rt_transpose`].
unsafe fn transpose_4byte(d: &strata_abi::TransposeDesc, src: *const f32, dst: *mut f32) {
    let rank = d
        .outer_rank
        .clamp(0, strata_abi::TRANSPOSE_MAX_OUTER as i64) as usize;
    let size = |v: i64| usize::try_from(v).unwrap_or(0);
    let outer_sizes: Vec<usize> = d.outer_sizes[..rank].iter().map(|&v| size(v)).collect();
    let outer: usize = outer_sizes.iter().product();
    let (rows, cols) = (size(d.rows), size(d.cols));
    let (srs, drs) = (size(d.src_row_stride), size(d.dst_row_stride));
    let bytes = 4 * outer * rows * cols;
    // Streaming stores need 64-byte aligned destination tiles: every
    // destination row of every outer index starts at the same offset in
    // its cache line, and the first `head` source rows (up to the next
    // line boundary) take ordinary stores.
    let lines_align = (drs * 4) % 64 == 0
        && d.dst_outer_strides[..rank]
            .iter()
            .all(|&v| (v * 4) % 64 == 0);
    let stream = cfg!(target_arch = "x86_64")
        && bytes >= STREAM_MIN_BYTES
        && lines_align
        && (dst as usize) % 4 == 0;
    let head = if stream {
        ((64 - dst as usize % 64) % 64 / 4).min(rows)
    } else {
        0
    };
    let row_blocks = (rows - head).div_ceil(BLOCK);
    let col_blocks = cols.div_ceil(BLOCK);
    let per_outer = row_blocks * col_blocks;
    let units = outer * per_outer;
    let (s, t) = (src as usize, dst as usize);
    let unit = |k: usize| {
        // The outer index of unit k, row-major, as element offsets.
        let (mut o, mut s_at, mut t_at) = (k / per_outer, 0isize, 0isize);
        for dim in (0..rank).rev() {
            let i = (o % outer_sizes[dim]) as isize;
            o /= outer_sizes[dim];
            s_at += i * d.src_outer_strides[dim] as isize;
            t_at += i * d.dst_outer_strides[dim] as isize;
        }
        let (bi, bj) = ((k % per_outer) / col_blocks, (k % per_outer) % col_blocks);
        let (r0, c0) = (head + bi * BLOCK, bj * BLOCK);
        let (h, w) = (BLOCK.min(rows - r0), BLOCK.min(cols - c0));
        // SAFETY: the blocks lie inside both views (caller's contract);
        // streamed tiles start `head` rows in, on a line boundary.
        unsafe {
            let (s, t) = ((s as *const f32).offset(s_at), (t as *mut f32).offset(t_at));
            if bi == 0 && head > 0 {
                tiles::<false>(s.add(c0), srs, head, w, t.add(c0 * drs), drs);
            }
            let block = if stream {
                tiles::<true>
            } else {
                tiles::<false>
            };
            block(s.add(r0 * srs + c0), srs, h, w, t.add(c0 * drs + r0), drs);
        }
    };
    crate::pool::in_parts_by_bytes(2 * bytes, |i, parts| {
        for k in units * i / parts..units * (i + 1) / parts {
            unit(k);
        }
        #[cfg(target_arch = "x86_64")]
        if stream {
            // Streaming stores are weakly ordered: fenced before the pool
            // (or the caller) reads the result.
            // SAFETY: sfence has no preconditions.
            unsafe { std::arch::x86_64::_mm_sfence() };
        }
    });
}

/// One `h x w` tile, element by element (the edges, and CPUs without
/// AVX2).
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
#[inline]
unsafe fn tile16_avx512<const STREAM: bool>(
    src: *const f32,
    src_rs: usize,
    dst: *mut f32,
    dst_rs: usize,
) {
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
            // SAFETY: row j of the destination tile, 16 elements (64-byte
            // aligned when streaming).
            unsafe {
                if STREAM {
                    _mm512_stream_ps(dst.add(j * dst_rs), col);
                } else {
                    _mm512_storeu_ps(dst.add(j * dst_rs), col);
                }
            }
        }
    }
}

/// One 8x8 tile in registers: pairs of rows interleaved by 32-bit
/// unpacks, then 4 rows of one column gathered in each 128-bit lane by
/// 64-bit shuffles, then the lanes of rows 0-3 and 4-7 joined.
///
/// # Safety
/// As [`transpose_f32`], for a full 8x8 tile; the CPU has AVX2 (32-byte
/// aligned destination rows when streaming).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile8_avx2<const STREAM: bool>(
    src: *const f32,
    src_rs: usize,
    dst: *mut f32,
    dst_rs: usize,
) {
    use std::arch::x86_64::*;
    let mut r = [_mm256_setzero_ps(); 8];
    for (i, row) in r.iter_mut().enumerate() {
        // SAFETY: 8 rows of 8 elements inside the source block.
        *row = unsafe { _mm256_loadu_ps(src.add(i * src_rs)) };
    }
    // Per lane [a0 b0 a1 b1] and [a2 b2 a3 b3] for rows (2p, 2p + 1).
    let mut t = [_mm256_setzero_ps(); 8];
    for p in 0..4 {
        t[2 * p] = _mm256_unpacklo_ps(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm256_unpackhi_ps(r[2 * p], r[2 * p + 1]);
    }
    // u[4q + c]: per lane, column c (of the lane's 4) of rows 4q..4q+3.
    let mut u = [_mm256_setzero_ps(); 8];
    for q in 0..2 {
        let (lo, hi, lo2, hi2) = (t[4 * q], t[4 * q + 1], t[4 * q + 2], t[4 * q + 3]);
        u[4 * q] = _mm256_shuffle_ps::<0x44>(lo, lo2);
        u[4 * q + 1] = _mm256_shuffle_ps::<0xee>(lo, lo2);
        u[4 * q + 2] = _mm256_shuffle_ps::<0x44>(hi, hi2);
        u[4 * q + 3] = _mm256_shuffle_ps::<0xee>(hi, hi2);
    }
    for c in 0..4 {
        // Columns c (low lanes) and 4 + c (high lanes) of rows 0-3 and 4-7.
        let cols = [
            (c, _mm256_permute2f128_ps::<0x20>(u[c], u[4 + c])),
            (4 + c, _mm256_permute2f128_ps::<0x31>(u[c], u[4 + c])),
        ];
        for (j, col) in cols {
            // SAFETY: row j of the destination tile, 8 elements.
            unsafe {
                if STREAM {
                    _mm256_stream_ps(dst.add(j * dst_rs), col);
                } else {
                    _mm256_storeu_ps(dst.add(j * dst_rs), col);
                }
            }
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

    /// Every full-tile kernel this CPU has, streamed or not, against the
    /// definition (the tests above take only the best one).
    #[test]
    fn each_tile_kernel_of_this_cpu_matches_the_definition() {
        #[repr(C, align(64))]
        struct Lines([f32; 16 * 32]);
        let src: Vec<f32> = (0..16 * 20).map(|x| x as f32).collect();
        let mut kernels: Vec<(usize, unsafe fn(*const f32, usize, *mut f32, usize))> = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push((8, tile8_avx2::<false>));
                kernels.push((8, tile8_avx2::<true>));
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                kernels.push((16, tile16_avx512::<false>));
                kernels.push((16, tile16_avx512::<true>));
            }
        }
        for (t, kernel) in kernels {
            let mut dst = Lines([-1.0; 16 * 32]);
            unsafe { kernel(src.as_ptr(), 20, dst.0.as_mut_ptr(), 32) };
            for i in 0..t {
                for j in 0..t {
                    assert_eq!(dst.0[j * 32 + i], src[i * 20 + j], "{t}x{t} at ({i}, {j})");
                }
                assert!(dst.0[i * 32 + t..(i + 1) * 32].iter().all(|&x| x == -1.0));
            }
        }
    }

    /// The runtime entry on views with outer dimensions, on a destination
    /// one element past a cache line (the head rows take ordinary stores)
    /// and large enough to stream, over one thread and over several.
    #[test]
    fn the_entry_matches_the_definition_streamed_or_not() {
        use strata_abi::TransposeDesc;
        // (outer, rows, cols): 3 x (40 x 50) small; 1 x (1104 x 1030) streams.
        for (outer, rows, cols) in [(3usize, 40usize, 50usize), (1, 1104, 1030)] {
            let n = outer * rows * cols;
            let src: Vec<f32> = (0..n).map(|x| x as f32).collect();
            let mut dst = vec![-1.0f32; n + 16];
            // Start one element past a 64-byte boundary.
            let skip = (16 - (dst.as_ptr() as usize % 64) / 4) % 16 + 1;
            let desc = TransposeDesc {
                elem_bytes: 4,
                outer_rank: 1,
                outer_sizes: [outer as i64, 0, 0, 0, 0, 0, 0, 0],
                src_outer_strides: [(rows * cols) as i64, 0, 0, 0, 0, 0, 0, 0],
                dst_outer_strides: [(rows * cols) as i64, 0, 0, 0, 0, 0, 0, 0],
                rows: rows as i64,
                cols: cols as i64,
                src_row_stride: cols as i64,
                dst_row_stride: rows as i64,
            };
            for threads in [1, 2] {
                assert_eq!(crate::pool::strata_rt_set_num_threads(threads), 0);
                dst.iter_mut().for_each(|x| *x = -1.0);
                let out = dst[skip..].as_mut_ptr();
                unsafe { strata_rt_transpose(&desc, src.as_ptr().cast(), out.cast()) };
                for o in 0..outer {
                    for r in 0..rows {
                        for c in 0..cols {
                            let got = dst[skip + o * rows * cols + c * rows + r];
                            assert_eq!(
                                got,
                                src[o * rows * cols + r * cols + c],
                                "{outer}x{rows}x{cols} ({o}, {r}, {c})"
                            );
                        }
                    }
                }
                assert!(dst[..skip].iter().all(|&x| x == -1.0));
            }
        }
    }
}
