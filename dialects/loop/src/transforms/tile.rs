//! `loop-tile`: walks a pair of nested loops in square blocks of square
//! tiles, as their `tile` attribute asks.
//!
//! A `loop.for` over rows carrying `tile = array<i64: B, T>` whose body is
//! one `loop.for` over columns (both from 0 by 1 to constant bounds that
//! `B` divides, `T` dividing `B`; only constants beside the inner loop)
//! becomes
//!
//! ```text
//! for i1 = 0 to rows step B {parallel if the row loop was}
//!   for j1 = 0 to cols step B
//!     for i0 = 0 to B step T
//!       for j0 = 0 to B step T
//!         for di = 0 to T
//!           for dj = 0 to T
//!             i = i1 + i0 + di; j = j1 + j0 + dj; <the inner body>
//! ```
//!
//! The lowering asks for it where an element-wise nest reads an operand
//! transposed (its innermost dimension is not the result's): walked row by
//! row, every element read would come from another cache line. A tile
//! touches `T` lines of the input and of the result, a block stays in L2,
//! so each input line comes from memory once (the sizes are the lowering's,
//! see `convert-xla-to-loop`'s `transpose_block`).
//!
//! A `tile` the pass cannot honour (other bounds, another nest shape) is
//! dropped and the loops stay as they are: tiling only changes the order of
//! independent iterations, never what they compute.

use strata_diag::{Location, Result};
use strata_ir::builtin;
use strata_ir::{AttrKind, BlockId, Context, OpId, Value};

use super::access::{constant, move_body};
use crate::{FOR, YIELD, is_parallel};

pub const FLAG: &str = "loop-tile";

/// The attribute asking for tiling: `array<i64: block, tile>`.
pub const TILE_ATTR: &str = "tile";

pub struct LoopTilePass;

impl strata_pass::Pass for LoopTilePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "walk loop pairs marked 'tile' in square blocks of square tiles"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for func in builtin::defined_funcs(ctx, module) {
            let mut marked = Vec::new();
            ctx.walk_nested(func, &mut |op| {
                if ctx.op(op).name == FOR && ctx.attr_of(op, TILE_ATTR).is_some() {
                    marked.push(op);
                }
            });
            for lp in marked {
                let plan = plan(ctx, lp);
                ctx.remove_attr(lp, TILE_ATTR);
                if let Some(plan) = plan {
                    tile(ctx, lp, plan);
                }
            }
        }
        Ok(())
    }
}

/// What tiling loop `rows` (marked `tile`) needs: its inner loop, the
/// bounds, and the sizes asked for.
struct Plan {
    cols: OpId,
    extents: [i64; 2],
    block: i64,
    tile: i64,
}

/// The plan for the marked loop `rows`, when the nest has the shape this
/// pass tiles.
fn plan(ctx: &Context, rows: OpId) -> Option<Plan> {
    let [block, tile] = sizes(ctx, rows)?;
    let body = ctx.entry_block(rows, 0)?;
    let ops = &ctx.blocks[body].ops;
    let (&last, rest) = ops.split_last()?;
    let mut loops = rest.iter().filter(|&&o| ctx.op(o).name == FOR);
    let cols = *loops.next()?;
    let only_constants = rest
        .iter()
        .all(|&o| o == cols || ctx.op(o).name == strata_dialect_arith::CONSTANT);
    if loops.next().is_some() || !only_constants || ctx.op(last).name != YIELD {
        return None;
    }
    let extent = |lp: OpId| match ctx.op(lp).operands()[..] {
        [lb, ub, step] => match (constant(ctx, lb), constant(ctx, ub), constant(ctx, step)) {
            (Some(0), Some(n), Some(1)) if n > 0 && n % block == 0 => Some(n),
            _ => None,
        },
        _ => None,
    };
    let extents = [extent(rows)?, extent(cols)?];
    Some(Plan {
        cols,
        extents,
        block,
        tile,
    })
}

/// `[block, tile]` from the loop's `tile` attribute: positive, `tile`
/// dividing `block` (what the verifier of `loop.for` requires).
pub fn sizes(ctx: &Context, lp: OpId) -> Option<[i64; 2]> {
    let AttrKind::DenseArray { values, .. } = ctx.attr_kind(ctx.attr_of(lp, TILE_ATTR)?) else {
        return None;
    };
    match values[..] {
        [block, tile] if tile > 0 && block >= tile && block % tile == 0 => Some([block, tile]),
        _ => None,
    }
}

/// Replaces loop `rows` (in its block, at its place) by the tiled nest,
/// moving the inner loop's body into it.
fn tile(ctx: &mut Context, rows: OpId, plan: Plan) {
    let Some(parent) = ctx.op(rows).parent else {
        return;
    };
    let (Some(row_body), Some(col_body)) =
        (ctx.entry_block(rows, 0), ctx.entry_block(plan.cols, 0))
    else {
        return;
    };
    let (i, j) = (ctx.blocks[row_body].args[0], ctx.blocks[col_body].args[0]);
    let loc = ctx.op(rows).loc;
    let parallel = is_parallel(ctx, rows);
    let [n_rows, n_cols] = plan.extents;
    let (block, tile) = (plan.block, plan.tile);

    let mut at = Cursor {
        block: parent,
        pos: position(ctx, parent, rows),
        loc,
    };
    // The row loop's constants (its inner loop's bounds) go first; the
    // tiled loops make their own.
    let constants: Vec<OpId> = ctx.blocks[row_body]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == strata_dialect_arith::CONSTANT)
        .collect();
    for c in constants {
        ctx.detach_op(c);
        at.push(ctx, c);
    }
    let (outer, mut inner) = at.for_loop(ctx, n_rows, block);
    if parallel {
        let unit = ctx.attr(AttrKind::Unit);
        ctx.set_attr(outer, "parallel", unit);
    }
    let i1 = inner.iv(ctx);
    let j1 = inner.nest(ctx, n_cols, block);
    let i0 = inner.nest(ctx, block, tile);
    let j0 = inner.nest(ctx, block, tile);
    let di = inner.nest(ctx, tile, 1);
    let dj = inner.nest(ctx, tile, 1);
    let row = inner.add(ctx, i1, i0);
    let row = inner.add(ctx, row, di);
    let col = inner.add(ctx, j1, j0);
    let col = inner.add(ctx, col, dj);

    move_body(ctx, col_body, inner.block);
    ctx.replace_uses_in(outer, i, row);
    ctx.replace_uses_in(outer, j, col);
    ctx.detach_op(rows);
}

fn position(ctx: &Context, block: BlockId, op: OpId) -> usize {
    ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == op)
        .unwrap_or(ctx.blocks[block].ops.len())
}

/// Where the tiled nest is being built.
struct Cursor {
    block: BlockId,
    pos: usize,
    loc: Location,
}

impl Cursor {
    fn push(&mut self, ctx: &mut Context, op: OpId) {
        ctx.insert_op_at(self.block, self.pos, op);
        self.pos += 1;
    }

    fn index(&mut self, ctx: &mut Context, v: i64) -> Value {
        let it = ctx.types.index_ty();
        let value = ctx.attr(AttrKind::Int {
            value: v as i128,
            ty: it,
        });
        let c = ctx.create_op(
            strata_dialect_arith::CONSTANT,
            vec![],
            &[it],
            vec![("value".into(), value)],
            self.loc,
        );
        self.push(ctx, c);
        ctx.op(c).results[0]
    }

    fn add(&mut self, ctx: &mut Context, x: Value, y: Value) -> Value {
        let it = ctx.types.index_ty();
        let op = ctx.create_op(
            strata_dialect_arith::ADDI,
            vec![x, y],
            &[it],
            vec![],
            self.loc,
        );
        self.push(ctx, op);
        ctx.op(op).results[0]
    }

    /// `loop.for 0 to ub step step` here; the loop and a cursor at the
    /// start of its body.
    fn for_loop(&mut self, ctx: &mut Context, ub: i64, step: i64) -> (OpId, Cursor) {
        let (l, u, s) = (
            self.index(ctx, 0),
            self.index(ctx, ub),
            self.index(ctx, step),
        );
        let lp = ctx.create_op(FOR, vec![l, u, s], &[], vec![], self.loc);
        let region = ctx.add_region(lp);
        let it = ctx.types.index_ty();
        let body = ctx.add_block(region, &[it]);
        let end = ctx.create_op(YIELD, vec![], &[], vec![], self.loc);
        ctx.append_op(body, end);
        self.push(ctx, lp);
        let inside = Cursor {
            block: body,
            pos: 0,
            loc: self.loc,
        };
        (lp, inside)
    }

    /// The induction variable of the loop whose body this cursor is in.
    fn iv(&self, ctx: &Context) -> Value {
        ctx.blocks[self.block].args[0]
    }

    /// Opens a loop here and moves into its body; its induction variable.
    fn nest(&mut self, ctx: &mut Context, ub: i64, step: i64) -> Value {
        let (_, inside) = self.for_loop(ctx, ub, step);
        *self = inside;
        self.iv(ctx)
    }
}
