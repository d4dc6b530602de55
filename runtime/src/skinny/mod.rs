//! f32 products of few rows (`m <= MAX_ROWS`): a decode step's dense layers
//! and logits, a handful of tokens or beams, `x @ W.T` with weights stored
//! out x in (PyTorch's layout, tied embeddings). Each element of the rhs is
//! used only `m` times, so such a product costs one pass over the rhs and
//! nothing else should: these kernels read the rhs once, where it lies, and
//! keep the lhs in L1.
//!
//! Why not the `gemm` crate here: it packs the rhs before multiplying (a
//! second pass over the largest operand, and for a transposed rhs a scalar
//! gather; Strata's own re-layout of it in blocks still costs a pass), and
//! runs m = 1 as a single-threaded GEMV. Measured on an AMD EPYC (Zen 5,
//! 2 cores) against XLA:CPU, before these kernels: `x @ W` with W 1024 x
//! 4096 took 1.56x XLA's time at m = 1 and 1.72x at m = 2; tied-embedding
//! logits (50257 x 768 stored transposed) 1.23-1.28x at m = 2..8.
//!
//! Two kernels, each in an AVX-512 and an AVX2+FMA build chosen at run time:
//! - rhs row-major (`x @ W`, [`Layout::RowMajor`]): a block of columns of c
//!   stays in L1 while the rows of the rhs stream through it four at a
//!   time, each contiguous over the block (a strip of a few cache lines per
//!   row instead touched a new page per row: 2x XLA's time at m = 1);
//! - rhs stored transposed ([`Layout::Transposed`]): blocks of four rhs rows
//!   (contiguous over k) dotted with every lhs row, summed across lanes once
//!   at the end.
//!
//! Threads share the columns. Elsewhere (no AVX2, other architectures, an
//! lhs whose rows are not contiguous for the transposed kernel) the caller
//! keeps its own path: [`try_product`] says whether it ran.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

/// The most lhs rows these kernels take (see [`Layout::max_rows`]); above it
/// a packed GEMM reuses each rhs element often enough to win.
const MAX_ROWS: usize = 16;
/// The fewest columns worth these kernels: narrower products (a matrix
/// times a few vectors) spend their time in the masked edge of a tile.
const MIN_COLUMNS: usize = 8;

/// Rhs rows (columns of c) per block of the transposed kernel.
const RHS_ROWS: usize = 4;

/// How the rhs (`k x n`) is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Element (i, j) at `i * stride + j`.
    RowMajor { stride: isize },
    /// Element (i, j) at `j * stride + i` (rows of the rhs's transpose
    /// contiguous).
    Transposed { stride: isize },
}

impl Layout {
    /// The most lhs rows the kernel for this layout takes. Measured on an
    /// AMD EPYC (Zen 5), interleaved with the `gemm` crate in one process,
    /// W 1024 x 4096 and 512 x 2048: row-major 0.47-0.49x its time at
    /// m = 1 (2 threads), 0.78-1.07x at m = 2, 3, 0.91-1.15x at m = 4 and
    /// 1.5-1.9x at m = 5, 6 (its 6-row micro-kernel takes them in one pass
    /// over W; this kernel reads and writes its block of c once per 4 rhs
    /// rows, and that traffic bounds it once the rows stop fitting one
    /// tile). Transposed: 0.96x XLA's time at m = 16 on 50257 x 768 tied
    /// embeddings, where the re-layout and `gemm` took 1.15x.
    fn max_rows(self) -> usize {
        match self {
            Layout::RowMajor { .. } => 3,
            Layout::Transposed { .. } => MAX_ROWS,
        }
    }
}

/// `c = a · b` with `a` `m x k` (strides `a_strides`), `b` `k x n` as
/// `b_layout` says, `c` `m x n` with row stride `c_stride`, column stride 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Product {
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub a: *const f32,
    pub a_strides: [isize; 2],
    pub b: *const f32,
    pub b_layout: Layout,
    pub c: *mut f32,
    pub c_stride: isize,
}

// SAFETY: a `Product` is only built from the caller's buffers for the
// duration of one call; threads write disjoint columns of `c`.
unsafe impl Send for Product {}
// SAFETY: as above.
unsafe impl Sync for Product {}

impl Product {
    /// Columns `cols` of the product (`c[.., cols] = a · b[.., cols]`).
    fn columns(&self, cols: std::ops::Range<usize>) -> Product {
        let at = cols.start as isize;
        let b = match self.b_layout {
            Layout::RowMajor { .. } => self.b.wrapping_offset(at),
            Layout::Transposed { stride } => self.b.wrapping_offset(at * stride),
        };
        Product {
            n: cols.len(),
            b,
            c: self.c.wrapping_offset(at),
            ..*self
        }
    }
}

/// Runs `p` on a skinny kernel if one suits it on this CPU, over up to
/// `threads` threads of the current pool; false (nothing written) if not.
///
/// # Safety
/// `p`'s pointers and strides address its three matrices.
pub(crate) unsafe fn try_product(p: Product, threads: usize) -> bool {
    if p.m == 0 || p.m > p.b_layout.max_rows() || p.n < MIN_COLUMNS || p.k == 0 {
        return false;
    }
    let Some(kernel) = Kernel::for_cpu(&p) else {
        return false;
    };
    let flops = p.m.saturating_mul(p.n).saturating_mul(p.k);
    // Threads share the columns in whole cache lines of each rhs row, or
    // whole blocks of rhs rows.
    let unit = match p.b_layout {
        Layout::RowMajor { .. } => 64,
        Layout::Transposed { .. } => RHS_ROWS,
    };
    // Two slices per thread even out a thread that starts late.
    let slices = if threads > 1 && flops >= crate::gemm::PARALLEL_MIN_FLOPS {
        (threads * 2).min(p.n.div_ceil(unit))
    } else {
        1
    };
    let run = |s: usize| {
        let start = (p.n * s / slices).next_multiple_of(unit).min(p.n);
        let end = (p.n * (s + 1) / slices).next_multiple_of(unit).min(p.n);
        if start < end {
            // SAFETY: a slice of the caller's product (guaranteed above).
            unsafe { kernel.run(&p.columns(start..end)) };
        }
    };
    if slices == 1 {
        run(0);
    } else {
        use rayon::iter::{IntoParallelIterator, ParallelIterator};
        (0..slices).into_par_iter().for_each(run);
    }
    true
}

/// The fewest rows of `c` worth [`try_few_columns`]: below it the rhs's
/// transpose costs more than it saves.
const FEW_COLUMNS_MIN_ROWS: usize = 32;
/// The most columns [`try_few_columns`] takes (see the constant's docs).
const FEW_COLUMNS_MAX: usize = strata_abi::GEMM_FEW_COLUMNS_MAX as usize;

/// `c = a · b` of few columns (`n <= FEW_COLUMNS_MAX`: a convolution to an image's
/// few channels, a regression or gating head) as its transpose
/// `cᵀ = bᵀ · aᵀ`, a product of few rows: each row of `a` (contiguous over
/// k) is read once and dotted with every column of `b`, which stays in L1.
/// A packed GEMM pads such a product to its register tile's columns and
/// packs `a` first: the blocks of a 3x3 convolution to 3 features of
/// 4 x 128 x 128 x 32 took 1.5x the time with it (AMD EPYC, AVX2). `bᵀ` is copied contiguous (n x k, small);
/// `cᵀ` is written in place when c's columns are contiguous, through a
/// scratch matrix otherwise. False (nothing written) when `a`'s rows are
/// not contiguous or no kernel suits the CPU.
///
/// # Safety
/// The pointers and strides address `m x k`, `k x n` and `m x n` matrices.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn try_few_columns(
    [m, k, n]: [usize; 3],
    a: *const f32,
    [rsa, csa]: [isize; 2],
    b: *const f32,
    [rsb, csb]: [isize; 2],
    c: *mut f32,
    [rsc, csc]: [isize; 2],
    threads: usize,
) -> bool {
    if n == 0 || n > FEW_COLUMNS_MAX || m < FEW_COLUMNS_MIN_ROWS || k == 0 || csa != 1 {
        return false;
    }
    if Kernel::available().is_empty() {
        return false;
    }
    let run = |[bt, scratch]: &mut [Vec<f32>; 2]| {
        bt.clear();
        bt.resize(n * k, 0.0);
        for (j, row) in bt.chunks_exact_mut(k).enumerate() {
            for (i, x) in row.iter_mut().enumerate() {
                // SAFETY: (i, j) is inside b (guaranteed by the caller).
                *x = unsafe { *b.offset(i as isize * rsb + j as isize * csb) };
            }
        }
        let in_place = rsc == 1;
        scratch.clear();
        scratch.resize(if in_place { 0 } else { n * m }, 0.0);
        let transposed = Product {
            m: n,
            k,
            n: m,
            a: bt.as_ptr(),
            a_strides: [k as isize, 1],
            b: a,
            b_layout: Layout::Transposed { stride: rsa },
            c: if in_place { c } else { scratch.as_mut_ptr() },
            c_stride: if in_place { csc } else { m as isize },
        };
        // SAFETY: aᵀ is `a` read by columns (guaranteed by the caller), bᵀ
        // and the scratch are n x k and n x m.
        if !unsafe { try_product(transposed, threads) } {
            return false;
        }
        if !in_place {
            for (j, column) in scratch.chunks_exact(m).enumerate() {
                for (i, &x) in column.iter().enumerate() {
                    // SAFETY: (i, j) is inside c (guaranteed by the caller).
                    unsafe { *c.offset(i as isize * rsc + j as isize * csc) = x };
                }
            }
        }
        true
    };
    // A convolution calls this once per block of positions.
    FEW_COLUMNS_BUFFERS.with(|cell| crate::pool::with_thread_buffers(cell, run))
}

thread_local! {
    /// [`try_few_columns`]'s bᵀ and scratch.
    static FEW_COLUMNS_BUFFERS: std::cell::RefCell<[Vec<f32>; 2]> =
        const { std::cell::RefCell::new([Vec::new(), Vec::new()]) };
}

/// The instruction sets the kernels are built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The best kernel for `p` on the running CPU, if any.
    fn for_cpu(p: &Product) -> Option<Kernel> {
        // The transposed kernel loads lhs rows as vectors.
        if matches!(p.b_layout, Layout::Transposed { .. }) && p.a_strides[1] != 1 {
            return None;
        }
        Self::available().first().copied()
    }

    /// The kernels the running CPU can run, best first.
    pub(crate) fn available() -> &'static [Kernel] {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") {
                return &[Kernel::Avx512, Kernel::Avx2];
            }
            if has!("avx2") && has!("fma") {
                return &[Kernel::Avx2];
            }
        }
        &[]
    }

    /// # Safety
    /// As [`try_product`]; `self` is one of [`Kernel::available`].
    pub(crate) unsafe fn run(self, p: &Product) {
        // SAFETY: guaranteed by the caller (the CPU has the instructions).
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx512 => x86::avx512::run(p),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2 => x86::avx2::run(p),
            }
        }
    }
}
