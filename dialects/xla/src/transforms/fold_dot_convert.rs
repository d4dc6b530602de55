//! `xla-fold-dot-convert`: a bf16 `dot_general` or `convolution` whose
//! result is only converted to f32 produces f32 directly, unrounded.
//!
//! This is what XLA:CPU computes: it has no bf16 dot or convolution, so
//! float normalization makes it `convert(dot(f32, f32) : f32) : bf16`, and
//! the following `convert(... : bf16) : f32` then cancels against the
//! inserted one — the product reaches the program in f32 without ever
//! being rounded to bf16 (jax: `jnp.dot(a, b).astype(jnp.float32)` on bf16
//! arrays returns values no bf16 can hold). Several converts to f32 count
//! as one (XLA merges them). Any other use of the bf16 result — an op in
//! between, a convert to f16 or f64 — keeps the rounding, as in XLA; f16
//! products are rounded too (XLA:CPU computes them as f16 dots).

use strata_diag::Result;
use strata_ir::{Context, FloatKind, OpId, Value, builtin};

use super::build::ops_named;
use crate::names::{CONVERT, CONVOLUTION, DOT_GENERAL};

pub const FLAG: &str = "xla-fold-dot-convert";

pub struct XlaFoldDotConvertPass;

impl strata_pass::Pass for XlaFoldDotConvertPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "a bf16 dot or convolution only converted to f32 produces f32 (XLA:CPU skips the bf16 rounding)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        // Uses are found and redirected through the values' use lists: a
        // walk of the function per product made the pass quadratic (20,000
        // bf16 dots: 23 s).
        let mut gone = Vec::new();
        for producer in ops_named(ctx, module, &[DOT_GENERAL, CONVOLUTION]) {
            fold(ctx, producer, &mut gone);
        }
        ctx.detach_ops(&gone);
        Ok(())
    }
}

fn is_float(ctx: &Context, v: Value, kind: FloatKind) -> bool {
    ctx.types.float_kind(ctx.types.elem(ctx.value_ty(v))) == Some(kind)
}

/// Folds the converts of `producer`'s product when they are all its uses
/// and all to f32 (XLA merges equal converts first, so several count as one).
/// The converts go to `gone`.
fn fold(ctx: &mut Context, producer: OpId, gone: &mut Vec<OpId>) {
    let Some(&product) = ctx.op(producer).results.first() else {
        return;
    };
    let Some(func) = builtin::enclosing_func(ctx, producer) else {
        return;
    };
    if !is_float(ctx, product, FloatKind::BF16) {
        return;
    }
    let converts = ctx.users_in_scope(func, product);
    let all_to_f32 = !converts.is_empty()
        && converts.iter().all(|&c| {
            ctx.op(c).name == CONVERT
                && ctx
                    .op(c)
                    .results
                    .first()
                    .is_some_and(|&r| is_float(ctx, r, FloatKind::F32))
        });
    if !all_to_f32 {
        return;
    }
    // The product takes f32; the converts go.
    let f32_ty = ctx.value_ty(ctx.op(converts[0]).results[0]);
    ctx.values[product].ty = f32_ty;
    for c in converts {
        let result = ctx.op(c).results[0];
        ctx.replace_uses_in(func, result, product);
        gone.push(c);
    }
}
