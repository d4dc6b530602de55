//! `xla-fold-bf16-convert`: a bf16 result that XLA:CPU computes in f32
//! reaches its converts to f32 unrounded.
//!
//! XLA:CPU has no bf16 arithmetic: a bf16 dot, convolution or element-wise
//! op is computed in f32 and rounded to bf16, and a convert of that result
//! back to f32 cancels the rounding (XLA's excess precision, on by
//! default). Measured with jax 0.10.2 on XLA:CPU:
//! - `(a @ b).astype(f32)` on bf16 arrays returns values no bf16 holds,
//!   and so does a convolution; whatever else uses the product (`h` returned
//!   beside `h.astype(f32).mean(-1)`: the mean is of the unrounded
//!   products).
//! - `(x @ w + b).astype(f32)`, `(x + r).astype(f32)` (a residual before a
//!   layer norm in f32), `jnp.exp(x).astype(f32)`: the last op before the
//!   convert is not rounded (add, subtract, multiply, divide, power, atan2,
//!   sqrt, rsqrt, exp, log, tanh, square: the f32 results bit for bit),
//!   the ops before it are (`(x * y + z).astype(f32)` is `round(x * y) + z`
//!   in f32). An op that only moves values (reshape, transpose, slice, concatenate, select,
//!   broadcast) in between keeps the rounding, and so do `remainder` and
//!   `logistic` (their bf16 results are not the f32 ones), a convert from
//!   f32 to bf16 and back, converts to f64 and f16 (with x64 enabled,
//!   `(x + y).astype(f64)` is the rounded sum), and every f16 op (XLA:CPU
//!   computes f16 as f16).
//!
//! So such a producer computes in f32 (an element-wise one on its bf16
//! operands converted to f32, exactly); the converts that cancel read that
//! result, and every other user reads it rounded to bf16 by a convert the
//! pass adds behind the producer (the same bits as the bf16 op's).

use std::collections::HashMap;

use strata_diag::Result;
use strata_ir::{BlockId, Context, FloatKind, OpId, Value, builtin};

use super::build::ops_named;
use crate::names::{
    ADD, ATAN2, CONVERT, CONVOLUTION, COSINE, DIVIDE, DOT_GENERAL, EXP, EXPM1, LOG, LOG1P,
    MULTIPLY, POWER, RSQRT, SINE, SQRT, SQUARE, SUBTRACT, TAN, TANH,
};

pub const FLAG: &str = "xla-fold-bf16-convert";

/// Products (computed on their bf16 operands as they are).
const PRODUCTS: &[&str] = &[DOT_GENERAL, CONVOLUTION];
/// Element-wise ops computing new values (not `remainder`, `logistic`:
/// measured rounded; exact ops such as `maximum` or `negate` give the
/// same value either way).
const ARITHMETIC: &[&str] = &[
    ADD, SUBTRACT, MULTIPLY, DIVIDE, POWER, ATAN2, SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, TANH, SINE,
    COSINE, TAN, SQUARE,
];

pub struct XlaFoldBf16ConvertPass;

impl strata_pass::Pass for XlaFoldBf16ConvertPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "converts to f32 of bf16 dots, convolutions and arithmetic read them unrounded (XLA:CPU's excess precision)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        // Uses are found and redirected through the values' use lists (a
        // walk of the function per product made this quadratic: 20,000
        // bf16 dots took 23 s), and new ops are placed in one pass per
        // block at the end. Producers are visited in program order, so the
        // operand converts added for one never make an earlier one fold.
        let mut edits = Edits::default();
        let names: Vec<&str> = PRODUCTS.iter().chain(ARITHMETIC).copied().collect();
        for producer in ops_named(ctx, module, &names) {
            fold(ctx, producer, &mut edits);
        }
        ctx.detach_ops(&edits.gone);
        edits.place(ctx);
        Ok(())
    }
}

/// What the pass changes in blocks, applied once at the end.
#[derive(Default)]
struct Edits {
    /// Converts whose uses now read the unrounded result.
    gone: Vec<OpId>,
    /// New converts of a producer's operands, to go in front of it.
    before: HashMap<OpId, Vec<OpId>>,
    /// The new rounding convert of a producer, to go behind it.
    behind: HashMap<OpId, OpId>,
}

impl Edits {
    /// Puts the new ops in place, in one pass over each block concerned.
    fn place(self, ctx: &mut Context) {
        let mut blocks: Vec<BlockId> = Vec::new();
        for &anchor in self.before.keys().chain(self.behind.keys()) {
            if let Some(block) = ctx.op(anchor).parent
                && !blocks.contains(&block)
            {
                blocks.push(block);
            }
        }
        for block in blocks {
            let old = std::mem::take(&mut ctx.blocks[block].ops);
            let mut ops = Vec::with_capacity(old.len());
            for o in old {
                ops.extend(self.before.get(&o).into_iter().flatten().copied());
                ops.push(o);
                ops.extend(self.behind.get(&o).copied());
            }
            for &o in &ops {
                ctx.ops[o].parent = Some(block);
            }
            ctx.blocks[block].ops = ops;
        }
    }
}

fn float_kind(ctx: &Context, v: Value) -> Option<FloatKind> {
    ctx.types.float_kind(ctx.types.elem(ctx.value_ty(v)))
}

/// Whether `op` is a convert to f32.
fn converts_to_f32(ctx: &Context, op: OpId) -> bool {
    ctx.op(op).name == CONVERT
        && ctx
            .op(op)
            .results
            .first()
            .is_some_and(|&r| float_kind(ctx, r) == Some(FloatKind::F32))
}

/// Computes `producer` in f32 when some users of its bf16 result convert
/// it to f32; see the module comment.
fn fold(ctx: &mut Context, producer: OpId, edits: &mut Edits) {
    let Some(&result) = ctx.op(producer).results.first() else {
        return;
    };
    let Some(func) = builtin::enclosing_func(ctx, producer) else {
        return;
    };
    let elementwise = !PRODUCTS.contains(&ctx.op(producer).name);
    if float_kind(ctx, result) != Some(FloatKind::BF16)
        || (elementwise
            && !ctx
                .op(producer)
                .operands()
                .iter()
                .all(|&v| float_kind(ctx, v) == Some(FloatKind::BF16)))
    {
        return;
    }
    let (cancelling, others): (Vec<OpId>, Vec<OpId>) = ctx
        .users_in_scope(func, result)
        .into_iter()
        .partition(|&u| converts_to_f32(ctx, u));
    if cancelling.is_empty() {
        return;
    }
    let loc = ctx.op(producer).loc;
    let bf16_ty = ctx.value_ty(result);
    let f32_elem = ctx.types.float_ty(FloatKind::F32);
    let f32_ty = ctx.types.with_elem(bf16_ty, f32_elem);
    if !others.is_empty() {
        // Created without operands so that redirecting the result's uses
        // leaves it alone; it reads the result after.
        let round = ctx.create_op(CONVERT, Vec::new(), &[bf16_ty], Vec::new(), loc);
        let rounded = ctx.op(round).results[0];
        ctx.replace_uses_in(func, result, rounded);
        ctx.set_operands(round, vec![result]);
        edits.behind.insert(producer, round);
    }
    if elementwise {
        let mut widened = Vec::new();
        for v in ctx.op(producer).operands().to_vec() {
            let ty = ctx.types.with_elem(ctx.value_ty(v), f32_elem);
            let widen = ctx.create_op(CONVERT, vec![v], &[ty], Vec::new(), loc);
            widened.push(ctx.op(widen).results[0]);
            edits.before.entry(producer).or_default().push(widen);
        }
        ctx.set_operands(producer, widened);
    }
    ctx.values[result].ty = f32_ty;
    for c in cancelling {
        let converted = ctx.op(c).results[0];
        ctx.replace_uses_in(func, converted, result);
        edits.gone.push(c);
    }
}
