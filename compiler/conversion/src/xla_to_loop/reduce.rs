//! `xla.reduce`: per output element, stack accumulators start at the init
//! values and fold in the reduced elements through the reducer body; a
//! reduction over outer dimensions walks the input in memory order instead.
//! Supports any number of inputs (variadic reductions such as argmax) and any
//! reducer region made of element-wise ops.

use strata_diag::{Diagnostic, Result};
use strata_ir::{BlockId, OpId, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::region::{emit_reducer, fold_into, stack_accumulators, store_accs};
use crate::builder::Builder;

/// The lowering pattern of `xla.reduce`.
pub(super) const REDUCE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::REDUCE]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| reduce(cx, b, op, bufs),
};

/// Outer loops over kept dimensions; per output element, accumulators
/// on the stack start at the init values and fold in the reduced
/// dimensions through the reducer body.
pub(super) fn reduce(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let k = operands.len() / 2;
    let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
    let in_shape = shape_of(b.ctx, inputs[0]);
    let dims = strata_dialect_xla::ops::reduce::reduce_dimensions(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "reduce without dimensions"))?;
    let kept: Vec<usize> = (0..in_shape.len()).filter(|d| !dims.contains(d)).collect();
    let out_shape: Vec<i64> = kept.iter().map(|&d| in_shape[d]).collect();
    let red_shape: Vec<i64> = dims.iter().map(|&d| in_shape[d]).collect();
    let body = b
        .ctx
        .entry_block(op, 0)
        .ok_or_else(|| Diagnostic::internal(b.loc, "reduce without body"))?;
    let innermost_kept = in_shape.last().is_some() && !dims.contains(&(in_shape.len() - 1));
    if innermost_kept {
        return reduce_in_memory_order(cx, b, op, bufs, &kept, body);
    }
    if out_shape.is_empty() && k == 1 && splittable(b.ctx, body, inputs[0], inits[0]) {
        return reduce_in_blocks(cx, b, inputs[0], inits[0], body, bufs[0]);
    }
    // Output elements are independent; each has its own accumulators.
    b.parallel_nest(&out_shape, &mut |b, oidx| {
        let accs = stack_accumulators(b, &inits);
        for (i, &init) in inits.iter().enumerate() {
            let s = cx.element(b, init, &[])?;
            store_scalar(b, s, accs[i], &[]);
        }
        b.loop_nest(&red_shape, &mut |b, ridx| {
            let mut full = vec![
                ridx.first().copied().unwrap_or(
                    oidx.first().copied().unwrap_or_else(|| b.const_index(0))
                );
                in_shape.len()
            ];
            for (j, &d) in kept.iter().enumerate() {
                full[d] = oidx[j];
            }
            for (j, &d) in dims.iter().enumerate() {
                full[d as usize] = ridx[j];
            }
            let mut xs = Vec::new();
            for &x in &inputs {
                xs.push(cx.element(b, x, &full)?);
            }
            fold_into(b, body, &accs, xs)
        })?;
        store_accs(b, &accs, bufs, oidx);
        Ok(())
    })
}

/// A reduction of every dimension, in blocks of whole rows (of about
/// BLOCK elements) reduced in parallel into partial results, which are
/// then folded in order. The blocks do not depend on the thread count,
/// so the result does not either.
fn reduce_in_blocks(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    input: Value,
    init: Value,
    body: BlockId,
    out: Value,
) -> Result<()> {
    const BLOCK: i64 = 1 << 14;
    let in_shape = shape_of(b.ctx, input);
    let inner: Vec<i64> = in_shape[1..].to_vec();
    let inner_len: i64 = inner.iter().product::<i64>().max(1);
    let rows = (BLOCK / inner_len).max(1);
    let blocks = (in_shape[0] + rows - 1) / rows;
    let elem = b.ctx.types.elem(b.ctx.value_ty(out));
    let partial_ty = b.ctx.types.memref_ty(&[blocks], elem);
    let partials = b.alloc(partial_ty);
    let inits = [init];
    b.parallel_for_step(0, blocks, 1, &mut |b, block| {
        let accs = stack_accumulators(b, &inits);
        let s = cx.element(b, init, &[])?;
        store_scalar(b, s, accs[0], &[]);
        let (first, last) = super::reduce_blocks::block_rows(b, block, rows, in_shape[0]);
        let one = b.const_index(1);
        b.for_values(first, last, one, &mut |b, row| {
            b.loop_nest(&inner, &mut |b, rest| {
                let mut idx = vec![row];
                idx.extend_from_slice(rest);
                let x = cx.element(b, input, &idx)?;
                fold_into(b, body, &accs, vec![x])
            })
        })?;
        let v = load_scalar(b, accs[0], &[]);
        store_scalar(b, v, partials, &[block]);
        Ok(())
    })?;
    let accs = stack_accumulators(b, &inits);
    let s = cx.element(b, init, &[])?;
    store_scalar(b, s, accs[0], &[]);
    b.for_range(0, blocks, &mut |b, block| {
        let x = load_scalar(b, partials, &[block]);
        fold_into(b, body, &accs, vec![x])
    })?;
    store_accs(b, &accs, &[out], &[]);
    b.insert("mem.dealloc", vec![partials], &[], vec![]);
    Ok(())
}

/// Reduction over outer dimensions only: the results start at the init
/// values and the input is read once in memory order, each element
/// folded into its result. Every result still folds its inputs in
/// increasing index order, except in blocks of rows (`reduce_blocks`:
/// partial results per block, then folded in block order).
pub(super) fn reduce_in_memory_order(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
    kept: &[usize],
    body: BlockId,
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let k = operands.len() / 2;
    let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
    let in_shape = shape_of(b.ctx, inputs[0]);
    let out_shape: Vec<i64> = kept.iter().map(|&d| in_shape[d]).collect();
    b.parallel_nest(&out_shape, &mut |b, oidx| {
        for (i, &init) in inits.iter().enumerate() {
            let s = cx.element(b, init, &[])?;
            store_scalar(b, s, bufs[i], oidx);
        }
        Ok(())
    })?;
    // Folds the input elements at `rows` (values of the outermost
    // dimension, in order) and `rest` (the other indices) into the
    // results: one load and one store of each result per call, the
    // elements folded in the same order as one row at a time.
    let fold =
        |this: &mut FuncLowering<'_>, b: &mut Builder<'_>, rows: &[Value], rest: &[Value]| {
            let at = |row: Value| -> Vec<Value> {
                let mut idx = vec![row];
                idx.extend_from_slice(rest);
                idx
            };
            let first = at(rows[0]);
            let oidx: Vec<Value> = kept.iter().map(|&d| first[d]).collect();
            let mut acc: Vec<Scalar> = bufs.iter().map(|&o| load_scalar(b, o, &oidx)).collect();
            for &row in rows {
                let idx = at(row);
                let mut args = acc.clone();
                for &x in &inputs {
                    args.push(this.element(b, x, &idx)?);
                }
                acc = emit_reducer(b, body, &args)?;
            }
            for (i, s) in acc.into_iter().enumerate() {
                store_scalar(b, s, bufs[i], &oidx);
            }
            Ok(())
        };
    let rows = in_shape.first().copied().unwrap_or(1);
    let rest_shape = in_shape.get(1..).unwrap_or(&[]).to_vec();
    // When the outermost dimension is reduced (a column sum), `ROWS` rows
    // at a time share each load and store of the results.
    if kept.first() != Some(&0) && rows >= ROWS && !in_shape.is_empty() {
        // Large enough for threads, the results split into blocks of the
        // outermost kept dimension, each swept over every row by one
        // iteration of a parallel loop (rows still in order per result).
        let columns = rest_shape.first().copied().unwrap_or(1);
        let elements: i64 = in_shape.iter().product();
        let inner: i64 = rest_shape.get(1..).unwrap_or(&[]).iter().product();
        let min_width = (BLOCK_MIN_RESULTS + inner - 1) / inner.max(1);
        let width = ((columns + COLUMN_BLOCKS - 1) / COLUMN_BLOCKS).max(min_width);
        // Only a kept dimension splits the results: blocks of a reduced
        // one would fold into the same results from several threads.
        let first_rest_kept = kept.contains(&1);
        let in_row_blocks = k == 1
            && rows > 1
            && elements >= PARALLEL_MIN_ELEMENTS
            && splittable(b.ctx, body, inputs[0], inits[0]);
        let elem_bits = b
            .ctx
            .types
            .bit_width(b.ctx.types.elem(b.ctx.value_ty(inputs[0])));
        let row_bytes = elements / rows * i64::from(elem_bits / 8);
        if rest_shape.is_empty()
            || !first_rest_kept
            || width >= columns
            || elements < PARALLEL_MIN_ELEMENTS
            || (in_row_blocks && super::reduce_blocks::suits_tall_column_sum(rows, row_bytes))
        {
            if in_row_blocks {
                return super::reduce_blocks::reduce_in_row_blocks(
                    cx, b, inputs[0], inits[0], body, bufs[0], kept,
                );
            }
            return fold_rows(b, rows, &rest_shape, None, &mut |b, rs, rest| {
                fold(cx, b, rs, rest)
            });
        }
        return b.parallel_for_step(0, columns, width, &mut |b, c0| {
            let w = b.const_index(width);
            let end = b.binary("arith.addi", c0, w);
            let limit = b.const_index(columns);
            let c1 = b.binary("arith.minui", end, limit);
            fold_rows(b, rows, &rest_shape, Some((c0, c1)), &mut |b, rs, rest| {
                fold(cx, b, rs, rest)
            })
        });
    }
    // (The innermost dimension is kept, so the input has one at least.)
    // When the outermost is kept too, its rows fold into disjoint results.
    if kept.first() == Some(&0) {
        return b.parallel_for_step(0, rows, 1, &mut |b, r| {
            b.loop_nest(&rest_shape, &mut |b, rest| fold(cx, b, &[r], rest))
        });
    }
    b.loop_nest(&in_shape, &mut |b, idx| fold(cx, b, &idx[..1], &idx[1..]))
}

/// Rows folded at a time by a column sum.
const ROWS: i64 = 8;
/// Column sums of at least this many elements run on threads.
const PARALLEL_MIN_ELEMENTS: i64 = 1 << 18;
/// At most this many blocks of results per column sum: enough threads for
/// a memory-bound loop.
const COLUMN_BLOCKS: i64 = 8;
/// The fewest results in a block: whole cache lines of each row, so that
/// threads share no line, and long enough runs that entering the vectorized
/// loop over a block's columns (once per eight rows) is amortized (64
/// measured 10% slower than 256 on a 4096x1024 column sum).
const BLOCK_MIN_RESULTS: i64 = 256;

/// The row loops of a column sum: rows `ROWS` at a time (then the rest one
/// at a time), and inside them the indices after the outermost, whose first
/// runs over `columns` (a run-time range) when given, else over all of
/// `rest_shape[0]`. `fold` gets the rows and those indices.
fn fold_rows(
    b: &mut Builder<'_>,
    rows: i64,
    rest_shape: &[i64],
    columns: Option<(Value, Value)>,
    fold: &mut dyn FnMut(&mut Builder<'_>, &[Value], &[Value]) -> Result<()>,
) -> Result<()> {
    let mut over_rest = |b: &mut Builder<'_>, rs: &[Value]| -> Result<()> {
        let Some((c0, c1)) = columns else {
            return b.loop_nest(rest_shape, &mut |b, rest| fold(b, rs, rest));
        };
        let one = b.const_index(1);
        b.for_values(c0, c1, one, &mut |b, c| {
            b.loop_nest(&rest_shape[1..], &mut |b, inner| {
                let mut rest = vec![c];
                rest.extend_from_slice(inner);
                fold(b, rs, &rest)
            })
        })
    };
    let main = rows - rows % ROWS;
    b.for_step(0, main, ROWS, &mut |b, r0| {
        let rs: Vec<Value> = (0..ROWS)
            .map(|u| {
                let c = b.const_index(u);
                b.binary("arith.addi", r0, c)
            })
            .collect();
        over_rest(b, &rs)
    })?;
    if main == rows {
        return Ok(());
    }
    b.for_range(main, rows, &mut |b, r| over_rest(b, &[r]))
}

/// Whether a reduction may be split into blocks whose partial results each
/// start from the init value: large enough to be worth it, a built-in
/// reducer on f32/f64/32-64-bit integers, and an init that folding several
/// times does not change (`init_folds_away`).
fn splittable(ctx: &strata_ir::Context, body: BlockId, input: Value, init: Value) -> bool {
    let t = ctx.value_ty(input);
    if ctx.types.num_elements(t) < 1 << 18 || ctx.types.shape(t).is_none_or(|s| s.is_empty()) {
        return false;
    }
    super::collective::builtin_reduction(ctx, body, t).is_some()
        && strata_dialect_xla::ops::reduce::init_folds_away(ctx, body, init)
}
