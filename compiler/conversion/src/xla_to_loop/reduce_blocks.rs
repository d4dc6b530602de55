//! A reduction that keeps the innermost dimension but few results (batch
//! norm's statistics: 32x56x56x64 summed to 64) in blocks of the outermost
//! dimension: each block folds its rows into partial results of its own, the
//! blocks in parallel, then every result folds the partials in block order.
//!
//! Folded row after row in one pass, each of the 64 results summed 100,352
//! elements one after another on one thread: 0.45 ms, and 1.3e-5 relative
//! error against a float64 sum where XLA:CPU has 1.4e-7. Blocks of one or a
//! few rows bound each partial's run to a few thousand elements and run on
//! every thread; the result still does not depend on the thread count.
//! Taken only where partials may each start from the init value
//! (`splittable`): one input of f32, f64 or wide integers and a built-in
//! reducer whose init folds away.

use strata_diag::Result;
use strata_ir::{BlockId, Value};

use super::FuncLowering;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::region::emit_reducer;
use crate::builder::Builder;

/// Blocks of the outermost dimension (at most).
const ROW_BLOCKS: i64 = 64;

/// Whether a column sum (the outermost dimension reduced, the next kept)
/// of `rows` rows of `row_bytes` runs faster in blocks of rows than in
/// blocks of columns: blocks of at least 32 whole rows read memory
/// contiguously into partial results that stay in L1, where a block of
/// columns reads a short run of every row (4096x1024 f32 on 2 cores:
/// 125 us against 170, XLA:CPU 179; 100000x300: 1.97 ms against 3.1).
/// Wide rows (16384 f32) keep the columns, whose partial results would
/// leave L1, and so do few rows (256x4096: 45 us against 81), whose
/// partials would be a large part of the traffic.
pub(super) fn suits_tall_column_sum(rows: i64, row_bytes: i64) -> bool {
    rows / ROW_BLOCKS >= 32 && row_bytes <= 16 << 10
}

/// `out` (of the `kept` dimensions of `input`) = the reduction of `input`
/// through `body` from `init`, in blocks of rows.
pub(super) fn reduce_in_row_blocks(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    input: Value,
    init: Value,
    body: BlockId,
    out: Value,
    kept: &[usize],
) -> Result<()> {
    let in_shape = shape_of(b.ctx, input);
    let rows = in_shape[0];
    let per_block = (rows + ROW_BLOCKS - 1) / ROW_BLOCKS;
    let blocks = (rows + per_block - 1) / per_block;
    let out_shape: Vec<i64> = kept.iter().map(|&d| in_shape[d]).collect();
    let rest_shape = in_shape[1..].to_vec();
    let elem = b.ctx.types.elem(b.ctx.value_ty(out));
    let mut partial_shape = vec![blocks];
    partial_shape.extend_from_slice(&out_shape);
    let partial_ty = b.ctx.types.memref_ty(&partial_shape, elem);
    let partials = b.alloc(partial_ty);
    b.parallel_for_step(0, blocks, 1, &mut |b, block| {
        b.loop_nest(&out_shape, &mut |b, oidx| {
            let s = cx.element(b, init, &[])?;
            let mut at = vec![block];
            at.extend_from_slice(oidx);
            store_scalar(b, s, partials, &at);
            Ok(())
        })?;
        let (first, last) = block_rows(b, block, per_block, rows);
        let one = b.const_index(1);
        b.for_values(first, last, one, &mut |b, row| {
            b.loop_nest(&rest_shape, &mut |b, rest| {
                let mut idx = vec![row];
                idx.extend_from_slice(rest);
                let x = cx.element(b, input, &idx)?;
                let mut at = vec![block];
                at.extend(kept.iter().map(|&d| idx[d]));
                let acc = load_scalar(b, partials, &at);
                let folded = emit_reducer(b, body, &[acc, x])?;
                store_scalar(b, folded[0], partials, &at);
                Ok(())
            })
        })
    })?;
    b.parallel_nest(&out_shape, &mut |b, oidx| {
        let s = cx.element(b, init, &[])?;
        store_scalar(b, s, out, oidx);
        b.for_range(0, blocks, &mut |b, block| {
            let mut at = vec![block];
            at.extend_from_slice(oidx);
            let p = load_scalar(b, partials, &at);
            let acc = load_scalar(b, out, oidx);
            let folded = emit_reducer(b, body, &[acc, p])?;
            store_scalar(b, folded[0], out, oidx);
            Ok(())
        })
    })?;
    b.insert("mem.dealloc", vec![partials], &[], vec![]);
    Ok(())
}

/// Rows `[block * per_block, min((block + 1) * per_block, rows))` of a
/// block.
pub(super) fn block_rows(
    b: &mut Builder<'_>,
    block: Value,
    per_block: i64,
    rows: i64,
) -> (Value, Value) {
    let size = b.const_index(per_block);
    let first = b.binary("arith.muli", block, size);
    let end = b.binary("arith.addi", first, size);
    let limit = b.const_index(rows);
    (first, b.binary("arith.minsi", end, limit))
}
