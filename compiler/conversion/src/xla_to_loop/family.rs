//! Which family each `xla` op belongs to: the one table the lowering
//! consults to decide whether an op's values can be fused into their
//! consumers and which file writes them into a buffer.
//!
//! | family | file | fused? |
//! |---|---|---|
//! | `Elementwise` | `elemental.rs` + `scalar.rs` (+ `complex.rs`) | when read once |
//! | `IndexRemap` (broadcast, reshape, transpose, slice, reverse, iota, dynamic_slice, gather, get_dimension_size) | `elemental.rs` | always |
//! | `Constant` | `mod.rs` (globals), `elemental.rs` (splats) | splats |
//! | `Reduce` | `reduce.rs` | never |
//! | `Dot` | `dot.rs` (the products no kernel computes) | never |
//! | `Gemm` (`kernel.gemm`) | `kernel.rs` | never |
//! | `Transpose` (`kernel.transpose`) | `kernel.rs` | never |
//! | `ConvGemm` (`kernel.conv`) | `conv.rs` | never |
//! | `Convolution` | `conv.rs` | never |
//! | `ReduceWindow`, `SelectAndScatter` | `window.rs` | never |
//! | `Scatter` | `gather_scatter.rs` | never |
//! | `Sort` | `sort.rs` | never |
//! | `TopK` | `top_k.rs` | never |
//! | `TriangularSolve`, `Cholesky`, `Lu` | `linalg.rs` | never |
//! | `Decomposition` (householder_qr, householder_product, eigh, svd) | `decomposition.rs` | never |
//! | `Rng` (rng_bit_generator) | `rng.rs` | never |
//! | `Fft` | `fft.rs` | never |
//! | `Concatenate`, `Pad`, `DynamicUpdateSlice` | `shape.rs` | never |
//! | `Collective` (all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute/broadcast/reduce, replica_id, partition_id) | `collective.rs` | never |
//!
//! Ops not listed (control flow, tuples, calls, checks) are handled by
//! `mod.rs` and `control.rs` before any family is consulted.

use strata_dialect_xla::names::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Computed per element from operand elements at the same index.
    Elementwise,
    /// Only remaps indices: cheap to recompute at every use.
    IndexRemap,
    Constant,
    Reduce,
    Dot,
    /// `kernel.gemm`: the runtime's GEMM, as `convert-xla-to-kernel` chose.
    Gemm,
    /// `kernel.transpose`: the runtime's blocked transpose, likewise.
    Transpose,
    /// `kernel.conv`: im2col + GEMM, as the kernel selection planned it.
    ConvGemm,
    Convolution,
    ReduceWindow,
    SelectAndScatter,
    Scatter,
    Sort,
    Fft,
    Concatenate,
    Pad,
    DynamicUpdateSlice,
    Collective,
    TopK,
    TriangularSolve,
    Cholesky,
    Lu,
    /// Runtime calls (QR, eigh, SVD).
    Decomposition,
    Rng,
    RngState,
}

/// The family of the op named `name`, if the lowering knows it.
pub fn family(name: &str) -> Option<Family> {
    let elementwise = UNARY_ELEMENTWISE.contains(&name)
        || BINARY_ELEMENTWISE.contains(&name)
        || FLOAT_PREDICATES.contains(&name)
        || matches!(
            name,
            CONVERT
                | BITCAST_CONVERT
                | IS_FINITE
                | REAL
                | IMAG
                | COMPLEX
                | SELECT
                | CLAMP
                | COMPARE
                | MAP
                | REDUCE_PRECISION
        );
    if elementwise {
        return Some(Family::Elementwise);
    }
    Some(match name {
        BROADCAST_IN_DIM | RESHAPE | TRANSPOSE | SLICE | REVERSE | IOTA | DYNAMIC_SLICE
        | GATHER | GET_DIMENSION_SIZE => Family::IndexRemap,
        CONSTANT => Family::Constant,
        REDUCE => Family::Reduce,
        DOT_GENERAL => Family::Dot,
        strata_dialect_kernel::GEMM => Family::Gemm,
        strata_dialect_kernel::TRANSPOSE => Family::Transpose,
        strata_dialect_kernel::CONV => Family::ConvGemm,
        CONVOLUTION => Family::Convolution,
        REDUCE_WINDOW => Family::ReduceWindow,
        SELECT_AND_SCATTER => Family::SelectAndScatter,
        SCATTER => Family::Scatter,
        SORT => Family::Sort,
        TOP_K => Family::TopK,
        TRIANGULAR_SOLVE => Family::TriangularSolve,
        CHOLESKY => Family::Cholesky,
        LU => Family::Lu,
        HOUSEHOLDER_QR | HOUSEHOLDER_PRODUCT | HESSENBERG | TRIDIAGONAL | TRIDIAGONAL_SOLVE
        | EIGH | SVD | EIG => Family::Decomposition,
        RNG_BIT_GENERATOR => Family::Rng,
        RNG_GET_AND_UPDATE_STATE => Family::RngState,
        FFT => Family::Fft,
        CONCATENATE => Family::Concatenate,
        PAD => Family::Pad,
        DYNAMIC_UPDATE_SLICE => Family::DynamicUpdateSlice,
        ALL_REDUCE | ALL_GATHER | REDUCE_SCATTER | ALL_TO_ALL | COLLECTIVE_PERMUTE
        | COLLECTIVE_BROADCAST | COLLECTIVE_REDUCE | REPLICA_ID | PARTITION_ID | AFTER_ALL
        | SEND | RECV | INFEED | OUTFEED => Family::Collective,
        _ => return None,
    })
}

/// Ops computed per element from operand elements at the same index.
pub fn is_elementwise(name: &str) -> bool {
    family(name) == Some(Family::Elementwise)
}

/// Ops that only remap indices (cheap to recompute at every use).
pub fn is_index_only(name: &str) -> bool {
    family(name) == Some(Family::IndexRemap)
}
