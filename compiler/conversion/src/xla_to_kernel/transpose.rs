//! `xla.transpose` that moves the innermost dimension and is written to a
//! buffer anyway becomes a `kernel.transpose`: the runtime transposes
//! 16x16 tiles in AVX-512 registers and splits large ones over the pool,
//! where the loop nest walks scalar 8x8 tiles on one thread (2048x2048 f32:
//! 1.41x XLA:CPU's time on all cores).
//!
//! Chosen only when it saves work:
//! - 4-byte elements (f32, i32, ui32), at least
//!   `TRANSPOSE_KERNEL_MIN_BYTES`, and 2-D blocks of at least 16x16;
//! - the operand is a buffer already (an argument, or the result of an op
//!   that is never fused): a transpose of `x * 2` stays a loop nest that
//!   computes `x * 2` as it transposes;
//! - no reader fuses it (element-wise, index-remapping, concatenate, pad
//!   and dynamic_update_slice read their operands in their own loops):
//!   those compute the transposed elements as they go, without a buffer.
//!
//! The descriptor is a batch of 2-D transposes: rows are the operand's
//! dimension that becomes the result's innermost, columns the operand's
//! innermost; every other dimension is an outer one (size-1 dimensions
//! dropped, neighbours contiguous in both operand and result merged).

use strata_abi::{TRANSPOSE_KERNEL_MIN_BYTES, TRANSPOSE_MAX_OUTER, TransposeDesc};
use strata_diag::Result;
use strata_dialect_xla::names::{CONCATENATE, DYNAMIC_UPDATE_SLICE, PAD};
use strata_ir::{Context, OpId};

use super::view::row_major as strides;
use crate::xla_to_loop::pattern::{is_elementwise, is_index_only};

/// The smallest block edge the kernel is chosen for (one AVX-512 tile).
const MIN_EDGE: i64 = 16;

/// Rewrites `op` (an `xla.transpose`) into a `kernel.transpose` when that
/// saves work (`module` holds it).
pub(crate) fn select(ctx: &mut Context, op: OpId, module: OpId) -> Result<()> {
    let [x] = ctx.op(op).operands()[..] else {
        return Ok(());
    };
    let result = ctx.op(op).results[0];
    let elem = ctx.types.elem(ctx.value_ty(x));
    let bytes = (ctx.types.num_elements(ctx.value_ty(x)) as u64)
        .saturating_mul(ctx.types.storage_bytes(elem));
    if ctx.types.storage_bytes(elem) != 4
        || ctx.types.is_complex(elem)
        || bytes < TRANSPOSE_KERNEL_MIN_BYTES
    {
        return Ok(());
    }
    let operand_in_buffer = ctx
        .defining_op(x)
        .is_none_or(|d| !fused_into_readers(ctx.op(d).name));
    let read_fused = ctx
        .users_in_scope(module, result)
        .iter()
        .any(|&u| reads_operands_fused(ctx.op(u).name));
    if !operand_in_buffer || read_fused {
        return Ok(());
    }
    let shape = ctx.types.shape(ctx.value_ty(x)).unwrap_or(&[]).to_vec();
    let Some(perm) = strata_dialect_xla::ops::shape::permutation(ctx, op) else {
        return Ok(());
    };
    let Some(desc) = describe(&shape, &perm) else {
        return Ok(());
    };
    // The op becomes the kernel in place: same operand, same result, so
    // no use needs redirecting.
    let attrs = strata_dialect_kernel::transpose::attrs(ctx, &desc);
    let o = ctx.op_mut(op);
    o.name = strata_dialect_kernel::TRANSPOSE;
    o.attrs = attrs;
    Ok(())
}

/// Ops whose values the loop lowering computes inside their readers' loops.
fn fused_into_readers(name: &str) -> bool {
    is_elementwise(name) || is_index_only(name) || name == strata_dialect_xla::names::CONSTANT
}

/// Ops that compute their operands' elements inside their own loops.
fn reads_operands_fused(name: &str) -> bool {
    is_elementwise(name)
        || is_index_only(name)
        || matches!(name, CONCATENATE | PAD | DYNAMIC_UPDATE_SLICE)
}

/// The descriptor of transposing a row-major `shape` by `perm` (result
/// dimension `i` is operand dimension `perm[i]`), when it moves the
/// innermost dimension, its blocks are at least [`MIN_EDGE`] on each side
/// and at most [`TRANSPOSE_MAX_OUTER`] outer dimensions remain.
pub(crate) fn describe(shape: &[i64], perm: &[usize]) -> Option<TransposeDesc> {
    let n = shape.len();
    if perm.len() != n || n < 2 {
        return None;
    }
    let inner = n - 1;
    let rows_dim = perm[n - 1];
    if rows_dim == inner {
        return None;
    }
    let src = strides(shape);
    let out_shape: Vec<i64> = perm.iter().map(|&d| shape[d]).collect();
    let dst_by_pos = strides(&out_shape);
    // The result's stride of each operand dimension.
    let mut dst = vec![0i64; n];
    for (pos, &d) in perm.iter().enumerate() {
        dst[d] = dst_by_pos[pos];
    }
    let (rows, cols) = (shape[rows_dim], shape[inner]);
    if rows < MIN_EDGE || cols < MIN_EDGE {
        return None;
    }
    // Outer dimensions in the operand's order, size 1 dropped, neighbours
    // merged when one stride step of the outer equals the inner's span in
    // both buffers.
    let mut outer: Vec<(i64, i64, i64)> = Vec::new();
    for d in (0..n).filter(|&d| d != rows_dim && d != inner && shape[d] != 1) {
        let (size, s, t) = (shape[d], src[d], dst[d]);
        match outer.last_mut() {
            Some(last) if last.1 == s * size && last.2 == t * size => {
                *last = (last.0 * size, s, t);
            }
            _ => outer.push((size, s, t)),
        }
    }
    if outer.len() > TRANSPOSE_MAX_OUTER {
        return None;
    }
    let mut desc = TransposeDesc {
        elem_bytes: 4,
        outer_rank: outer.len() as i64,
        rows,
        cols,
        src_row_stride: src[rows_dim],
        dst_row_stride: dst[inner],
        ..TransposeDesc::default()
    };
    for (i, &(size, s, t)) in outer.iter().enumerate() {
        desc.outer_sizes[i] = size;
        desc.src_outer_strides[i] = s;
        desc.dst_outer_strides[i] = t;
    }
    Some(desc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor's element mapping, against the definition of a
    /// transpose, for shapes with outer dimensions before, between and
    /// after the two that swap.
    #[test]
    fn descriptors_map_every_element_as_the_transpose_does() {
        let cases: [(&[i64], &[usize]); 5] = [
            (&[32, 48], &[1, 0]),
            (&[3, 32, 16], &[0, 2, 1]),
            (&[16, 5, 32], &[2, 1, 0]),
            (&[2, 3, 16, 17], &[1, 0, 3, 2]),
            (&[16, 2, 3, 16], &[3, 1, 2, 0]),
        ];
        for (shape, perm) in cases {
            let d = describe(shape, perm).expect("a kernel transpose");
            let n: i64 = shape.iter().product();
            let src: Vec<i64> = (0..n).collect();
            let mut got = vec![-1i64; n as usize];
            let k = d.outer_rank as usize;
            let outer: i64 = d.outer_sizes[..k].iter().product();
            for o in 0..outer {
                let (mut rest, mut s, mut t) = (o, 0, 0);
                for dim in (0..k).rev() {
                    let i = rest % d.outer_sizes[dim];
                    rest /= d.outer_sizes[dim];
                    s += i * d.src_outer_strides[dim];
                    t += i * d.dst_outer_strides[dim];
                }
                for r in 0..d.rows {
                    for c in 0..d.cols {
                        got[(t + c * d.dst_row_stride + r) as usize] =
                            src[(s + r * d.src_row_stride + c) as usize];
                    }
                }
            }
            // The definition: result index j (row-major over the permuted
            // shape) holds the operand element at the permuted index.
            let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
            let in_strides = strides(shape);
            let want: Vec<i64> = (0..n)
                .map(|j| {
                    let (mut rest, mut at) = (j, 0);
                    for pos in (0..out_shape.len()).rev() {
                        at += (rest % out_shape[pos]) * in_strides[perm[pos]];
                        rest /= out_shape[pos];
                    }
                    src[at as usize]
                })
                .collect();
            assert_eq!(got, want, "{shape:?} by {perm:?}");
        }
    }

    #[test]
    fn transposes_keeping_the_innermost_or_with_thin_blocks_are_not_kernels() {
        assert!(describe(&[32, 16, 16], &[1, 0, 2]).is_none());
        assert!(describe(&[1024, 3], &[1, 0]).is_none());
        assert!(describe(&[3, 1024], &[1, 0]).is_none());
    }
}
