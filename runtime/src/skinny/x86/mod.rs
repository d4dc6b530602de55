//! The kernels' loops, generic over the vector width ([`Lanes`]) and
//! compiled inside each instruction set's `#[target_feature]` entry
//! (`avx512::run`, `avx2::run`), where every helper below is inlined.

pub(super) mod avx2;
pub(super) mod avx512;

use super::{Layout, Product, RHS_ROWS};

/// One instruction set's f32 vector and the operations the kernels use.
/// Every method runs inside that set's `#[target_feature]` function.
pub(super) trait Lanes {
    type V: Copy;
    /// f32 lanes per vector.
    const L: usize;
    unsafe fn zero() -> Self::V;
    unsafe fn splat(x: f32) -> Self::V;
    /// The first `n` lanes from `p` (`n >= L`: all of them), the rest 0;
    /// reads nothing past `p + n`.
    unsafe fn load(p: *const f32, n: usize) -> Self::V;
    /// The first `n` lanes of `v` to `p` (`n >= L`: all of them).
    unsafe fn store(p: *mut f32, v: Self::V, n: usize);
    /// `a * b + c`, fused.
    unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// The sum of the lanes.
    unsafe fn sum(v: Self::V) -> f32;
    /// The sums of the lanes of four vectors, to `p..p + 4` (one
    /// shuffle tree for the four: a quarter of four `sum`s' work, which
    /// dominates dot products of a few dozen terms).
    unsafe fn store_sums(p: *mut f32, v: &[Self::V; 4]);
    /// The most lhs rows per tile of each kernel (their accumulators and
    /// broadcasts fit the registers), at most `MAX_TILE_ROWS`.
    const ROW_MAJOR_ROWS: usize;
    const TRANSPOSED_ROWS: usize;
}

const _: () = {
    use avx2::Avx2;
    use avx512::Avx512;
    assert!(Avx512::ROW_MAJOR_ROWS <= MAX_TILE_ROWS && Avx512::TRANSPOSED_ROWS <= MAX_TILE_ROWS);
    assert!(Avx2::ROW_MAJOR_ROWS <= MAX_TILE_ROWS && Avx2::TRANSPOSED_ROWS <= MAX_TILE_ROWS);
};

/// The most lhs rows of any tile (each instruction set's `*_ROWS` is at
/// most this; [`with_rows`] instantiates the tiles up to it).
const MAX_TILE_ROWS: usize = 4;

/// Calls `$f::<S, R, ...>($args)` for `R = $rows` in `1..=MAX_TILE_ROWS`.
macro_rules! with_rows {
    ($rows:expr, $f:ident::<$s:ty, _ $(, $extra:tt)*>($($args:expr),*)) => {
        match $rows {
            1 => $f::<$s, 1 $(, $extra)*>($($args),*),
            2 => $f::<$s, 2 $(, $extra)*>($($args),*),
            3 => $f::<$s, 3 $(, $extra)*>($($args),*),
            rows => {
                debug_assert_eq!(rows, MAX_TILE_ROWS);
                $f::<$s, MAX_TILE_ROWS $(, $extra)*>($($args),*)
            }
        }
    };
}

/// Splits `m` rows into chunks of at most `max` as even as possible (6 rows
/// under a cap of 4 run as 3 + 3, not 4 + 2: a tile of 2 rows would pass
/// over the rhs block for few products).
fn row_chunks(m: usize, max: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let chunks = m.div_ceil(max);
    let rows = m.div_ceil(chunks);
    (0..m).step_by(rows).map(move |r| r..(r + rows).min(m))
}

/// Rhs rows per pass of the row-major kernel over its block of c (c is
/// read and written once per this many rows).
const RHS_ROWS_PER_PASS: usize = 4;
/// Bytes of a column block of the row-major kernel: its `m` rows of c and
/// the rhs rows of one pass, which stay in L1 while the rhs streams through.
const BLOCK_BYTES: usize = 32 << 10;

/// `p` on `S`'s vectors.
///
/// # Safety
/// As `try_product`; inside `S`'s `#[target_feature]` function.
#[inline(always)]
pub(super) unsafe fn run<S: Lanes>(p: &Product) {
    // SAFETY: tiles of the caller's product.
    unsafe {
        match p.b_layout {
            Layout::RowMajor { stride } => run_row_major::<S>(p, stride),
            Layout::Transposed { stride } => run_transposed::<S>(p, stride),
        }
    }
}

/// A row-major rhs: per block of columns, the rhs rows pass four at a
/// time, each contiguous over the block, through the block of c (kept in
/// L1); every row of c takes them as `c[r] += Σᵤ a[r][u] · b[u]`.
///
/// The block of c is a scratch laid out like the rhs rows (a vector
/// boundary where theirs is), copied to c once at the end, and the
/// columns before the rhs rows' first vector boundary are the first
/// block's short first vector: every load of the rhs and of c's block is
/// then aligned. Arguments are aligned only to their element (numpy's
/// arrays to 16 bytes), and loads across cache lines made a 1-row product
/// over a 1024 x 4096 weight take 1.1-1.3x the time.
#[inline(always)]
unsafe fn run_row_major<S: Lanes>(p: &Product, stride: isize) {
    let block = (BLOCK_BYTES / 4 / (p.m + RHS_ROWS_PER_PASS)) / S::L * S::L;
    let block = block.max(4 * S::L);
    let lead = aligning_lead::<S>(p.b, stride).min(p.n);
    // A raw pointer, not a closure over the cell: a closure would be
    // compiled without this instruction set's features. Nothing else
    // borrows the cell while this thread runs the kernel (no parallelism
    // inside it).
    let cell = SCRATCH.with(|cell| cell.as_ptr());
    // SAFETY: this thread's scratch, used by this call alone (above).
    let scratch = unsafe { &mut *cell };
    let mut next = 0;
    while next < p.n {
        let j = next;
        let lead = if j == 0 { lead } else { 0 };
        let width = (lead + block).min(p.n - j);
        next += width;
        // Column j of the block sits `shift` lanes into a vector, as
        // the rhs's column j does.
        let shift = (S::L - lead) % S::L;
        let row = (shift + width).next_multiple_of(S::L);
        let need = p.m * row + 16;
        if scratch.len() < need {
            scratch.resize(need, 0.0);
        }
        let base = scratch.as_mut_ptr();
        let aligned = base.wrapping_add(base.align_offset(64));
        let c_block = aligned.wrapping_add(shift);
        // SAFETY: the block's rows lie inside the scratch (`need`) and
        // inside the caller's product.
        unsafe {
            row_major_block::<S>(p, stride, j, (width, lead), (c_block, row as isize));
            for r in 0..p.m {
                std::ptr::copy_nonoverlapping(
                    c_block.add(r * row),
                    p.c.offset(r as isize * p.c_stride).add(j),
                    width,
                );
            }
        }
    }
}

thread_local! {
    /// Each thread's block of c for the row-major kernel, kept across
    /// calls so that a steady state allocates nothing.
    static SCRATCH: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Elements from `b` to the first address aligned for `S`'s vectors, when
/// every row of `b` (`stride` elements apart) lies as far from one; else
/// 0 (nothing aligns them all).
fn aligning_lead<S: Lanes>(b: *const f32, stride: isize) -> usize {
    let bytes = S::L * 4;
    let off = b as usize % bytes;
    if (stride.unsigned_abs() * 4) % bytes != 0 || off % 4 != 0 {
        return 0;
    }
    (bytes - off) % bytes / 4
}

/// Columns `j..j + width` of a row-major product into `c_block` (row
/// stride `c_row`), its first `lead` columns as one short vector.
///
/// # Safety
/// As `run_row_major`; `c_block` holds `p.m` rows of `width` columns.
#[inline(always)]
unsafe fn row_major_block<S: Lanes>(
    p: &Product,
    stride: isize,
    j: usize,
    (width, lead): (usize, usize),
    (c_block, c_row): (*mut f32, isize),
) {
    for k in (0..p.k).step_by(RHS_ROWS_PER_PASS) {
        for rows in row_chunks(p.m, S::ROW_MAJOR_ROWS) {
            let tile = RowMajorTile {
                a: p.a.wrapping_offset(
                    rows.start as isize * p.a_strides[0] + k as isize * p.a_strides[1],
                ),
                a_strides: p.a_strides,
                b: p.b.wrapping_offset(k as isize * stride + j as isize),
                b_stride: stride,
                c: c_block.wrapping_offset(rows.start as isize * c_row),
                c_stride: c_row,
                width,
                lead,
                first: k == 0,
            };
            // SAFETY: a tile of the caller's product.
            unsafe {
                match p.k - k {
                    1 => with_rows!(rows.len(), row_major::<S, _, 1>(&tile)),
                    2 => with_rows!(rows.len(), row_major::<S, _, 2>(&tile)),
                    3 => with_rows!(rows.len(), row_major::<S, _, 3>(&tile)),
                    _ => with_rows!(rows.len(), row_major::<S, _, RHS_ROWS_PER_PASS>(&tile)),
                }
            }
        }
    }
}

/// A transposed rhs: blocks of four rhs rows, each dotted with every lhs
/// row while the block is in L1.
#[inline(always)]
unsafe fn run_transposed<S: Lanes>(p: &Product, stride: isize) {
    if p.m > S::TRANSPOSED_ROWS && p.m <= MAX_TILE_ROWS {
        // SAFETY: the caller's product.
        unsafe { run_transposed_few_rows::<S>(p, stride) };
        return;
    }
    for j in (0..p.n).step_by(RHS_ROWS) {
        for rows in row_chunks(p.m, S::TRANSPOSED_ROWS) {
            let tile = TransposedTile {
                k: p.k,
                a: p.a.wrapping_offset(rows.start as isize * p.a_strides[0]),
                a_stride: p.a_strides[0],
                b: p.b.wrapping_offset(j as isize * stride),
                b_stride: stride,
                c: p.c
                    .wrapping_offset(rows.start as isize * p.c_stride + j as isize),
                c_stride: p.c_stride,
            };
            // SAFETY: a tile of the caller's product.
            unsafe {
                match p.n - j {
                    1 => with_rows!(rows.len(), transposed::<S, _, 1>(&tile)),
                    2 => with_rows!(rows.len(), transposed::<S, _, 2>(&tile)),
                    3 => with_rows!(rows.len(), transposed::<S, _, 3>(&tile)),
                    _ => with_rows!(rows.len(), transposed::<S, _, RHS_ROWS>(&tile)),
                }
            }
        }
    }
}

/// A transposed rhs and more lhs rows than a tile of four rhs rows takes
/// but at most `MAX_TILE_ROWS` (a product of 3 or 4 columns computed
/// transposed, `skinny::try_few_columns`): every lhs row in one tile over
/// fewer rhs rows (as many accumulators), so each rhs row is loaded once
/// instead of once per chunk of lhs rows (3 lhs rows on AVX2 ran as 2 + 1,
/// loading every rhs row twice from L2 where the lhs sits in L1).
#[inline(always)]
unsafe fn run_transposed_few_rows<S: Lanes>(p: &Product, stride: isize) {
    let step = if p.m == 3 { 3 } else { 2 };
    for j in (0..p.n).step_by(step) {
        let tile = TransposedTile {
            k: p.k,
            a: p.a,
            a_stride: p.a_strides[0],
            b: p.b.wrapping_offset(j as isize * stride),
            b_stride: stride,
            c: p.c.wrapping_offset(j as isize),
            c_stride: p.c_stride,
        };
        // SAFETY: a tile of the caller's product.
        unsafe {
            match (p.n - j).min(step) {
                1 => with_rows!(p.m, transposed::<S, _, 1>(&tile)),
                2 => with_rows!(p.m, transposed::<S, _, 2>(&tile)),
                _ => with_rows!(p.m, transposed::<S, _, 3>(&tile)),
            }
        }
    }
}

/// `R` rows of c by `width` columns and `U` rows of a row-major rhs.
struct RowMajorTile {
    a: *const f32,
    a_strides: [isize; 2],
    b: *const f32,
    b_stride: isize,
    c: *mut f32,
    c_stride: isize,
    width: usize,
    /// Columns taken first, as one short vector, so that the loads of the
    /// others are aligned (see `run_row_major`).
    lead: usize,
    /// Whether these are the first rows of the rhs (c is written, not
    /// added to).
    first: bool,
}

/// `c[r] (+)= Σᵤ a[r][u] · b[u]` over the tile's columns, a vector at a
/// time: `U` rhs loads and `R` loads and stores of c per `R * U` FMAs.
#[inline(always)]
unsafe fn row_major<S: Lanes, const R: usize, const U: usize>(t: &RowMajorTile) {
    // SAFETY: every access is inside the tile (the last vector masked).
    unsafe {
        let mut x = [[S::zero(); R]; U];
        for (u, x) in x.iter_mut().enumerate() {
            for (r, x) in x.iter_mut().enumerate() {
                *x = S::splat(
                    *t.a.offset(r as isize * t.a_strides[0] + u as isize * t.a_strides[1]),
                );
            }
        }
        // Two vectors at a time: 2R accumulation chains in flight (R alone,
        // each U FMAs long, left the FMA units half idle on Zen 5).
        if t.lead > 0 {
            row_major_vectors::<S, R, U, 1>(t, &x, 0, t.lead);
        }
        let pairs = t.lead + (t.width - t.lead) / (2 * S::L) * (2 * S::L);
        for j in (t.lead..pairs).step_by(2 * S::L) {
            row_major_vectors::<S, R, U, 2>(t, &x, j, S::L);
        }
        for j in (pairs..t.width).step_by(S::L) {
            row_major_vectors::<S, R, U, 1>(t, &x, j, t.width - j);
        }
    }
}

/// Columns `j..j + (V - 1) * L + n` (`n <= L`) of a row-major tile, as `V`
/// vectors (all but the last whole).
#[inline(always)]
unsafe fn row_major_vectors<S: Lanes, const R: usize, const U: usize, const V: usize>(
    t: &RowMajorTile,
    x: &[[S::V; R]; U],
    j: usize,
    n: usize,
) {
    let lanes = |v: usize| if v + 1 == V { n } else { S::L };
    // SAFETY: columns inside the tile (guaranteed by the caller).
    unsafe {
        let mut acc = [[S::zero(); R]; V];
        if !t.first {
            for (v, acc) in acc.iter_mut().enumerate() {
                for (r, acc) in acc.iter_mut().enumerate() {
                    let at = t.c.offset(r as isize * t.c_stride).add(j + v * S::L);
                    *acc = S::load(at, lanes(v));
                }
            }
        }
        for (u, x) in x.iter().enumerate() {
            for (v, acc) in acc.iter_mut().enumerate() {
                let b = S::load(
                    t.b.offset(u as isize * t.b_stride).add(j + v * S::L),
                    lanes(v),
                );
                for r in 0..R {
                    acc[r] = S::fma(x[r], b, acc[r]);
                }
            }
        }
        for (v, acc) in acc.iter().enumerate() {
            for (r, &acc) in acc.iter().enumerate() {
                S::store(
                    t.c.offset(r as isize * t.c_stride).add(j + v * S::L),
                    acc,
                    lanes(v),
                );
            }
        }
    }
}

/// `R` rows of c by `J` columns, with the rhs stored transposed.
struct TransposedTile {
    k: usize,
    a: *const f32,
    a_stride: isize,
    b: *const f32,
    b_stride: isize,
    c: *mut f32,
    c_stride: isize,
}

/// The `R x J` tile as `R * J` dot products over k, `L` terms at a time.
#[inline(always)]
unsafe fn transposed<S: Lanes, const R: usize, const J: usize>(t: &TransposedTile) {
    // SAFETY: every access is inside the tile (the last step masked).
    unsafe {
        let mut acc = [[S::zero(); J]; R];
        let whole = t.k / S::L * S::L;
        for i in (0..whole).step_by(S::L) {
            dot_step::<S, R, J>(t, i, S::L, &mut acc);
        }
        if whole < t.k {
            dot_step::<S, R, J>(t, whole, t.k - whole, &mut acc);
        }
        for (r, acc) in acc.iter().enumerate() {
            let row = t.c.offset(r as isize * t.c_stride);
            match <&[S::V; 4]>::try_from(&acc[..]) {
                Ok(four) => S::store_sums(row, four),
                Err(_) => {
                    for (j, &v) in acc.iter().enumerate() {
                        *row.add(j) = S::sum(v);
                    }
                }
            }
        }
    }
}

/// Terms `i..i + n` (`n <= L`) of the tile's dot products.
#[inline(always)]
unsafe fn dot_step<S: Lanes, const R: usize, const J: usize>(
    t: &TransposedTile,
    i: usize,
    n: usize,
    acc: &mut [[S::V; J]; R],
) {
    // SAFETY: terms i..i + n of rows inside the tile (guaranteed by the caller).
    unsafe {
        let mut b = [S::zero(); J];
        for (j, b) in b.iter_mut().enumerate() {
            *b = S::load(t.b.offset(j as isize * t.b_stride).add(i), n);
        }
        for (r, acc) in acc.iter_mut().enumerate() {
            let x = S::load(t.a.offset(r as isize * t.a_stride).add(i), n);
            for j in 0..J {
                acc[j] = S::fma(x, b[j], acc[j]);
            }
        }
    }
}
