//! `xla-reciprocal-divisor`: an f32 or f64 `divide` by a broadcast value
//! multiplies by the broadcast of its reciprocal, as XLA computes it.
//!
//! XLA's algebraic simplifier rewrites `A / broadcast(B)` into
//! `A * broadcast(1 / B)`, so XLA:CPU's `x / 2.83`, `x / s` for a scalar
//! argument and softmax's `e / sum(e)` per row are products with a rounded
//! reciprocal (measured with jax 0.10.2: the results equal `x * (1 / s)`
//! bit for bit, and differ from the exact quotient in a quarter of the
//! elements by an ulp), while `x / y` of two full arrays stays an exact
//! division. Strata gives the same bits, and a row of softmax costs one
//! division instead of one per element.
//!
//! ```text
//! %b = broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
//! %q = divide %x, %b : tensor<4x8xf32>
//!   ==>
//! %r = divide %one, %s : tensor<4xf32>
//! %b2 = broadcast_in_dim %r, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
//! %q = multiply %x, %b2 : tensor<4x8xf32>
//! ```
//!
//! The same holds for f64 (measured with x64 enabled). bf16 quotients are
//! XLA's exact ones rounded (it divides them in f32), and f16 was not
//! measured: both stay divisions. A broadcast that keeps every element (a
//! reshape) is not one XLA sees as a broadcast, so it stays too.

use strata_diag::Result;
use strata_ir::{Context, FloatKind, OpId, builtin};

use super::build::{OpBuilder, ops_named};
use crate::names::{BROADCAST_IN_DIM, DIVIDE, MULTIPLY};

pub const FLAG: &str = "xla-reciprocal-divisor";

pub struct XlaReciprocalDivisorPass;

impl strata_pass::Pass for XlaReciprocalDivisorPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "an f32/f64 divide by a broadcast value multiplies by the broadcast reciprocal (as XLA)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for div in ops_named(ctx, module, &[DIVIDE]) {
            rewrite(ctx, div)?;
        }
        Ok(())
    }
}

/// `divide(a, broadcast_in_dim(s))` with fewer elements in `s` than in
/// the quotient becomes `multiply(a, broadcast_in_dim(1 / s))`, in place.
fn rewrite(ctx: &mut Context, div: OpId) -> Result<()> {
    let [_, divisor] = ctx.op(div).operands()[..] else {
        return Ok(());
    };
    let Some(broadcast) = ctx.defining_op(divisor) else {
        return Ok(());
    };
    // The types XLA's quotients by a broadcast were measured in.
    let elem = ctx.types.elem(ctx.value_ty(divisor));
    let Some(kind @ (FloatKind::F32 | FloatKind::F64)) = ctx.types.float_kind(elem) else {
        return Ok(());
    };
    if ctx.op(broadcast).name != BROADCAST_IN_DIM {
        return Ok(());
    }
    let source = ctx.op(broadcast).operands()[0];
    let (small, whole) = (
        ctx.types.num_elements(ctx.value_ty(source)),
        ctx.types.num_elements(ctx.value_ty(divisor)),
    );
    if small >= whole {
        return Ok(());
    }
    let attrs = ctx.op(broadcast).attrs.clone();
    let (source_ty, divisor_ty) = (ctx.value_ty(source), ctx.value_ty(divisor));
    let mut b = OpBuilder::before_op(ctx, div)?;
    let shape = b.shape_of(source);
    let one = b.splat_bits(strata_ir::dense::float_to_bits(1.0, kind), &shape, elem);
    let reciprocal = b.op(DIVIDE, vec![one, source], source_ty, vec![]);
    let spread = b.op(BROADCAST_IN_DIM, vec![reciprocal], divisor_ty, attrs);
    ctx.op_mut(div).name = MULTIPLY;
    ctx.set_operand(div, 1, spread);
    let unused = builtin::enclosing_func(ctx, broadcast)
        .is_some_and(|f| ctx.users_in_scope(f, divisor).is_empty());
    if unused {
        ctx.detach_op(broadcast);
    }
    Ok(())
}
