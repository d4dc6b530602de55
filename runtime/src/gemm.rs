//! Matrix products for `dot_general` and convolutions on f32/f64: generated
//! code describes the (batched) product with strides and calls these, which
//! run the `gemm` crate's kernels (AVX2 or AVX-512, chosen at run time; f32
//! on CPUs with AVX2 but no AVX-512 takes `crate::sgemm`'s own, faster
//! there) on every batch, over the runtime's thread pool when the product
//! is large enough to pay for it.
//!
//! The product is described by a `strata_abi::GemmDesc`.

use strata_abi::{GEMM_MAX_BATCH, GemmDesc};

use crate::ffi_guard;

/// Reads a descriptor; `None` if it is null or malformed.
///
/// # Safety
/// `desc` is null or points to a `GemmDesc` written by the lowering.
pub(crate) unsafe fn read_desc<'a>(desc: *const GemmDesc) -> Option<&'a GemmDesc> {
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc.as_ref() }?;
    let rank_ok = usize::try_from(d.batch_rank).is_ok_and(|n| n <= GEMM_MAX_BATCH);
    rank_ok.then_some(d)
}

/// Calls `gemm(batch offsets...)` for every batch index.
fn for_each_batch(d: &GemmDesc, mut gemm: impl FnMut(isize, isize, isize)) {
    let nb = d.batch_rank as usize;
    let sizes = &d.batch_sizes[..nb];
    if sizes.iter().any(|&s| s <= 0) {
        return;
    }
    let mut idx = [0i64; GEMM_MAX_BATCH];
    loop {
        let off = |strides: &[i64; GEMM_MAX_BATCH]| {
            idx[..nb]
                .iter()
                .zip(strides)
                .map(|(i, s)| i * s)
                .sum::<i64>() as isize
        };
        gemm(
            off(&d.lhs_batch_strides),
            off(&d.rhs_batch_strides),
            off(&d.out_batch_strides),
        );
        let mut dim = nb;
        loop {
            if dim == 0 {
                return;
            }
            dim -= 1;
            idx[dim] += 1;
            if idx[dim] < sizes[dim] {
                break;
            }
            idx[dim] = 0;
        }
    }
}

/// How many batches a descriptor has (0 when a size is not positive).
pub(crate) fn batch_count(d: &GemmDesc) -> usize {
    d.batch_sizes[..d.batch_rank as usize]
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(usize::try_from(s).ok()?))
        .unwrap_or(0)
}

/// The offsets (lhs, rhs, out) of batch number `index` (row-major over the
/// batch sizes).
pub(crate) fn batch_offsets(d: &GemmDesc, mut index: usize) -> (isize, isize, isize) {
    let (mut oa, mut ob, mut oc) = (0i64, 0i64, 0i64);
    for dim in (0..d.batch_rank as usize).rev() {
        let size = d.batch_sizes[dim] as usize;
        let i = (index % size) as i64;
        index /= size;
        oa += i * d.lhs_batch_strides[dim];
        ob += i * d.rhs_batch_strides[dim];
        oc += i * d.out_batch_strides[dim];
    }
    (oa as isize, ob as isize, oc as isize)
}

/// Products with fewer multiply-adds than this run on the calling thread
/// alone: below it, waking the pool costs more than it saves.
pub(crate) const PARALLEL_MIN_FLOPS: usize = strata_abi::GEMM_PARALLEL_MIN_FLOPS as usize;

/// `c = a · b` for one matrix of each (strides in elements).
///
/// # Safety
/// The pointers and strides address `m x k`, `k x n` and `m x n` matrices.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn product<T: 'static + Copy + Default + Send + Sync>(
    [m, k, n]: [usize; 3],
    a: *const T,
    [rsa, csa]: [isize; 2],
    b: *const T,
    [rsb, csb]: [isize; 2],
    c: *mut T,
    [rsc, csc]: [isize; 2],
    one: T,
    threads: usize,
) {
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
        && let Some(p) = skinny_product([m, k, n], a, [rsa, csa], b, [rsb, csb], c, [rsc, csc])
        // SAFETY: guaranteed by the caller; T is f32.
        && unsafe { crate::skinny::try_product(p, threads) }
    {
        return;
    }
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
        // SAFETY: guaranteed by the caller; T is f32.
        && unsafe {
            crate::skinny::try_few_columns(
                [m, k, n],
                a as *const f32,
                [rsa, csa],
                b as *const f32,
                [rsb, csb],
                c as *mut f32,
                [rsc, csc],
                threads,
            )
        }
    {
        return;
    }
    // A transposed rhs of many columns (never a matrix-vector product: those
    // are split between threads below).
    if rsb == 1 && csb > 1 && csc == 1 && m > 1 && n >= NT_MIN_COLUMNS {
        if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>() {
            // SAFETY: guaranteed by the caller; T is f32.
            unsafe {
                product_with_transposed_rhs(
                    [m, k, n],
                    a as *const f32,
                    [rsa, csa],
                    b as *const f32,
                    csb,
                    c as *mut f32,
                    rsc,
                    threads,
                )
            };
            return;
        }
    }
    let parallel = threads > 1 && m * n * k >= PARALLEL_MIN_FLOPS;
    let own_kernel = own_f32_kernel::<T>([m, k, n], [rsc, csc]);
    let slices = if own_kernel {
        own_kernel_slices([m, n], threads)
    } else {
        thread_slices([m, n], csc, threads)
    };
    if parallel && let Some(slices) = slices {
        // SAFETY: guaranteed by the caller.
        unsafe {
            product_in_slices(
                [m, k, n],
                a,
                [rsa, csa],
                b,
                [rsb, csb],
                c,
                [rsc, csc],
                one,
                slices,
            )
        };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if own_kernel {
        // SAFETY: guaranteed by the caller; T is f32, c's rows are
        // contiguous and the CPU has the instructions (`sgemm::takes`).
        unsafe {
            crate::sgemm::product(
                [m, k, n],
                a as *const f32,
                [rsa, csa],
                b as *const f32,
                [rsb, csb],
                c as *mut f32,
                rsc as usize,
            )
        };
        return;
    }
    let parallelism = if parallel {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // gemm computes dst = alpha·dst + beta·lhs·rhs; read_dst = false ignores
    // dst's old contents (alpha), so beta = 1 gives c = a · b.
    // SAFETY: guaranteed by the caller.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c,
            csc,
            rsc,
            false,
            a,
            csa,
            rsa,
            b,
            csb,
            rsb,
            T::default(),
            one,
            false,
            false,
            false,
            parallelism,
        )
    }
}

/// The product as the few-rows kernels take it (`crate::skinny`, which
/// judges its size), if c's rows and the rhs's rows or columns are
/// contiguous.
#[allow(clippy::too_many_arguments)]
fn skinny_product<T>(
    [m, k, n]: [usize; 3],
    a: *const T,
    a_strides: [isize; 2],
    b: *const T,
    [rsb, csb]: [isize; 2],
    c: *mut T,
    [rsc, csc]: [isize; 2],
) -> Option<crate::skinny::Product> {
    use crate::skinny::Layout;
    if csc != 1 {
        return None;
    }
    let b_layout = match (rsb, csb) {
        (_, 1) => Layout::RowMajor { stride: rsb },
        (1, _) => Layout::Transposed { stride: csb },
        _ => return None,
    };
    Some(crate::skinny::Product {
        m,
        k,
        n,
        a: a as *const f32,
        a_strides,
        b: b as *const f32,
        b_layout,
        c: c as *mut f32,
        c_stride: rsc,
    })
}

/// How a parallel product is shared between threads when `gemm`'s own
/// split is not the one to use: `(split, slices, unit)` for
/// [`product_in_slices`].
/// - A matrix-vector product (`m == 1` or `n == 1`), along its long side:
///   `gemm` runs it as a single-threaded GEMV whatever parallelism it is
///   given, and a decode step's dense layers and logits are nothing else
///   (memory-bound, so two cores read the weights about twice as fast as
///   one). Two slices per thread even out a thread that starts late.
/// - No more rows than columns, in slices of columns. Given the threads,
///   `gemm` shares out c's rows, so every thread packed every panel of the
///   rhs for itself: a dense layer's weight was read from memory once per
///   thread. Sliced, each panel is packed once, and the lhs once per slice
///   instead: 0.81-0.95x the time for m = 32..300 rows, k, n = 256..4096
///   (2 cores of an AMD EPYC, Zen 5), 0.96-1.0x for large square
///   products. Not when the lhs is the larger operand (m > n): 1500 x 384
///   x 384 took 1.4x.
fn thread_slices([m, n]: [usize; 2], csc: isize, threads: usize) -> Option<(Split, usize, usize)> {
    if m == 1 || n == 1 {
        let split = if n == 1 { Split::Rows } else { Split::Columns };
        return Some((split, (threads * 2).min(m.max(n)), 1));
    }
    (csc == 1 && m <= n && n >= 2 * threads * COLUMN_SLICE_MULTIPLE).then_some((
        Split::Columns,
        threads * 2,
        COLUMN_SLICE_MULTIPLE,
    ))
}

/// Whether an f32 product takes `crate::sgemm`'s own kernel (x86-64 CPUs
/// with AVX2 and no AVX-512).
fn own_f32_kernel<T: 'static>(dims: [usize; 3], c_strides: [isize; 2]) -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
        && crate::sgemm::takes(dims, c_strides);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (dims, c_strides);
        false
    }
}

/// How products through `crate::sgemm` are shared between threads: one
/// slice per thread, across the longer side. Every slice reads (the rhs:
/// packs) the whole operand along the other side, so that one should be
/// the smaller.
fn own_kernel_slices([m, n]: [usize; 2], threads: usize) -> Option<(Split, usize, usize)> {
    #[cfg(target_arch = "x86_64")]
    return Some(if m > n {
        (Split::Rows, threads, crate::sgemm::MR)
    } else {
        (Split::Columns, threads, crate::sgemm::NR)
    });
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (m, n, threads);
        None
    }
}

/// Column slices of a product shared between threads are a multiple of
/// this wide: whole AVX-512 tiles of `gemm`'s micro-kernel (64 of c's
/// columns once it has turned a row-major product around).
const COLUMN_SLICE_MULTIPLE: usize = 64;

/// Which of c's sides [`product_in_slices`] cuts.
#[derive(Clone, Copy)]
enum Split {
    Rows,
    Columns,
}

/// `c = a · b` cut into `slices` slices of rows or columns of c, as even as
/// slices a multiple of `unit` wide (but the last) can be, each multiplied
/// whole by one thread of the pool.
///
/// # Safety
/// As `product`.
#[allow(clippy::too_many_arguments)]
unsafe fn product_in_slices<T: 'static + Copy + Default + Send + Sync>(
    [m, k, n]: [usize; 3],
    a: *const T,
    [rsa, csa]: [isize; 2],
    b: *const T,
    [rsb, csb]: [isize; 2],
    c: *mut T,
    [rsc, csc]: [isize; 2],
    one: T,
    (split, slices, unit): (Split, usize, usize),
) {
    use rayon::iter::{IntoParallelIterator, ParallelIterator};
    let side = match split {
        Split::Rows => m,
        Split::Columns => n,
    };
    // Slice s starts at unit (units * s / slices): 6 units in 4 slices are
    // 1, 2, 1, 2 wide, two each for two threads.
    let units = side.div_ceil(unit);
    let start = |s: usize| (units * s / slices * unit).min(side);
    let (a_addr, b_addr, c_addr) = (a as usize, b as usize, c as usize);
    (0..slices).into_par_iter().for_each(|s| {
        let len = start(s + 1) - start(s);
        if len == 0 {
            return;
        }
        let at = start(s) as isize;
        let (dims, a_at, b_at, c_at) = match split {
            Split::Rows => ([len, k, n], at * rsa, 0, at * rsc),
            Split::Columns => ([m, k, len], 0, at * csb, at * csc),
        };
        // SAFETY: each slice is a sub-product of the caller's matrices and
        // writes its own rows or columns of c.
        unsafe {
            product(
                dims,
                (a_addr as *const T).offset(a_at),
                [rsa, csa],
                (b_addr as *const T).offset(b_at),
                [rsb, csb],
                (c_addr as *mut T).offset(c_at),
                [rsc, csc],
                one,
                1,
            )
        }
    });
}

/// Products with a transposed rhs and at least this many columns take
/// [`product_with_transposed_rhs`].
const NT_MIN_COLUMNS: usize = 32;
/// The largest block of a transposed rhs re-laid-out at once (bytes): it
/// stays in the L2 cache of the thread that packs it and then reads it,
/// beside the GEMM's own packed panels (half a MiB measured 3-5% faster
/// than a whole one for x @ E.T on a 1 MiB-L2 AMD EPYC).
const NT_BLOCK_BYTES: usize = 1 << 19;

thread_local! {
    /// Each thread's block of a transposed rhs, kept across calls so that a
    /// steady state allocates nothing.
    static NT_BLOCK: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `c = a · bᵀ` where `b` is stored `n x k` (row stride `rs_bt`): the weight
/// layout of `x @ W.T` and of tied embeddings. `gemm` would pack this
/// operand with a scalar gather; instead blocks of columns are transposed
/// in registers ([`crate::transpose`]) into a thread's own buffer and
/// multiplied from there, so memory stays bounded (one block per thread)
/// whatever `n` is. Blocks go to threads whole (no synchronisation inside).
///
/// # Safety
/// As `product`, with `b`'s column stride 1 and `c`'s column stride 1.
#[allow(clippy::too_many_arguments)]
unsafe fn product_with_transposed_rhs(
    [m, k, n]: [usize; 3],
    a: *const f32,
    [rsa, csa]: [isize; 2],
    b: *const f32,
    rs_bt: isize,
    c: *mut f32,
    rsc: isize,
    threads: usize,
) {
    let parallel = threads > 1 && m * n * k >= PARALLEL_MIN_FLOPS;
    let per_thread = n.div_ceil(if parallel { threads * 2 } else { 1 });
    // Widths in multiples of 64 columns: whole AVX-512 tiles of the GEMM
    // (a multiple of 16 left a 32-wide edge tile on a slower kernel).
    let widest = (NT_BLOCK_BYTES / 4 / k.max(1)).max(64) / 64 * 64;
    let width = per_thread.min(widest).next_multiple_of(64).min(n);
    let blocks = n.div_ceil(width);
    let (a_addr, b_addr, c_addr) = (a as usize, b as usize, c as usize);
    let block = |index: usize, threads: usize| {
        let (j0, j1) = (index * width, ((index + 1) * width).min(n));
        let w = j1 - j0;
        // Rows a cache line longer than the block: with a power-of-two
        // width, the 16 rows a tile writes would share a few cache sets.
        let row = w.next_multiple_of(16) + 16;
        NT_BLOCK.with(|cell| {
            let mut buf = cell.borrow_mut();
            if buf.len() < k * row {
                buf.resize(k * row, 0.0);
            }
            // SAFETY: rows j0..j1 of b (each k long) and columns j0..j1 of
            // c lie inside the caller's matrices; buf holds k x w.
            unsafe {
                crate::transpose::transpose_f32(
                    (b_addr as *const f32).offset(j0 as isize * rs_bt),
                    rs_bt as usize,
                    w,
                    k,
                    buf.as_mut_ptr(),
                    row,
                );
                product(
                    [m, k, w],
                    a_addr as *const f32,
                    [rsa, csa],
                    buf.as_ptr(),
                    [row as isize, 1],
                    (c_addr as *mut f32).offset(j0 as isize),
                    [rsc, 1],
                    1.0f32,
                    threads,
                )
            }
        })
    };
    if parallel && blocks >= threads {
        use rayon::iter::{IntoParallelIterator, ParallelIterator};
        (0..blocks).into_par_iter().for_each(|i| block(i, 1));
    } else {
        for i in 0..blocks {
            block(i, threads);
        }
    }
}

macro_rules! gemm_entry {
    ($name:ident, $t:ty) => {
        /// `void NAME(const GemmDesc *desc, const T *a, const T *b, T *c)`:
        /// `c = a · b` for every batch.
        ///
        /// # Safety
        /// The buffers hold the elements the descriptor addresses.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            desc: *const GemmDesc,
            a: *const $t,
            b: *const $t,
            c: *mut $t,
        ) {
            ffi_guard((), || {
                // SAFETY: guaranteed by the caller (generated code).
                let Some(d) = (unsafe { read_desc(desc) }) else {
                    return;
                };
                let [m, k, n, rsa, csa, rsb, csb, rsc, csc] = [
                    d.m,
                    d.k,
                    d.n,
                    d.lhs_row_stride,
                    d.lhs_col_stride,
                    d.rhs_row_stride,
                    d.rhs_col_stride,
                    d.out_row_stride,
                    d.out_col_stride,
                ]
                .map(|x| x as isize);
                if m <= 0 || n <= 0 {
                    return;
                }
                if k <= 0 {
                    // An empty sum: c = 0.
                    for_each_batch(d, |_, _, oc| {
                        for i in 0..m {
                            for j in 0..n {
                                // SAFETY: inside the result (static shapes).
                                unsafe { *c.offset(oc + i * rsc + j * csc) = 0.0 };
                            }
                        }
                    });
                    return;
                }
                let (c_addr, a_addr, b_addr) = (c as usize, a as usize, b as usize);
                let one = |(oa, ob, oc): (isize, isize, isize), threads: usize| {
                    // SAFETY: offsets and strides stay inside the buffers
                    // (they come from the tensors' static shapes); batches
                    // write disjoint parts of the result.
                    unsafe {
                        product(
                            [m as usize, k as usize, n as usize],
                            (a_addr as *const $t).offset(oa),
                            [rsa, csa],
                            (b_addr as *const $t).offset(ob),
                            [rsb, csb],
                            (c_addr as *mut $t).offset(oc),
                            [rsc, csc],
                            1.0 as $t,
                            threads,
                        )
                    }
                };
                // Batches by number, their offsets computed on the way: no
                // list is built (a call allocates nothing of its own).
                let batches = batch_count(d);
                let run = |threads: usize| {
                    if threads > 1 && batches >= threads {
                        // At least a batch per thread: whole products side
                        // by side beat splitting each one (no
                        // synchronisation inside a product; measured 16 x
                        // 256³ on 2 cores).
                        use rayon::iter::{IntoParallelIterator, ParallelIterator};
                        (0..batches)
                            .into_par_iter()
                            .for_each(|i| one(batch_offsets(d, i), 1));
                    } else {
                        for i in 0..batches {
                            one(batch_offsets(d, i), threads);
                        }
                    }
                };
                // Small products stay on the calling thread: handing them to
                // the pool would cost more than they take.
                if ((m * n * k) as usize).saturating_mul(batches) >= PARALLEL_MIN_FLOPS {
                    crate::pool::install(run);
                } else {
                    run(1);
                }
            })
        }
    };
}

gemm_entry!(strata_rt_gemm_f32, f32);
gemm_entry!(strata_rt_gemm_f64, f64);

#[cfg(test)]
mod tests;
