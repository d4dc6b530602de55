//! Batch normalization over every dimension but `feature_index`:
//!
//! | op | operands | results |
//! |---|---|---|
//! | `batch_norm_inference` | x, scale, offset, mean, variance | y |
//! | `batch_norm_training` | x, scale, offset | y, batch mean, batch variance |
//! | `batch_norm_grad` | x, scale, mean, variance, grad_y | grad_x, grad_scale, grad_offset |
//!
//! `x`, `y`, `grad_y` and `grad_x` share one float tensor type; the others
//! are 1-d of the feature dimension's size, of the same element type.
//! Attributes: `epsilon` (f32) and `feature_index` (i64).

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    // Batch normalization; `xla-expand-batch-norm` writes them as element-wise
    // ops and reductions.
    pub const BATCH_NORM_INFERENCE: &str = "xla.batch_norm_inference";
    pub const BATCH_NORM_TRAINING: &str = "xla.batch_norm_training";
    pub const BATCH_NORM_GRAD: &str = "xla.batch_norm_grad";
}

/// For each op: the operands that have x's type (the rest are per-feature)
/// and the result count.
fn layout(name: &str) -> (&'static [usize], usize, usize) {
    match name {
        BATCH_NORM_INFERENCE => (&[0], 5, 1),
        BATCH_NORM_TRAINING => (&[0], 3, 3),
        _ => (&[0, 4], 5, 3),
    }
}

pub fn verify_batch_norm(ctx: &Context, op: OpId) -> Result<()> {
    let (full, operands, results) = layout(ctx.op(op).name);
    expect_counts(ctx, op, operands, results)?;
    let (x, xe) = operand_tensor(ctx, op, 0)?;
    if !is_float(ctx, xe) {
        return Err(ctx.error(
            op,
            format!("supports float elements, found {}", ty_str(ctx, xe)),
        ));
    }
    let fi = ctx
        .int_attr(op, "feature_index")
        .ok_or_else(|| ctx.error(op, "requires an integer 'feature_index'"))?;
    let Some(features) = usize::try_from(fi).ok().and_then(|i| x.get(i)).copied() else {
        return Err(ctx.error(
            op,
            format!("feature_index {fi} is out of range for rank {}", x.len()),
        ));
    };
    if ctx.float_attr(op, "epsilon").is_none() {
        return Err(ctx.error(op, "requires a float 'epsilon'"));
    }
    for i in 1..operands {
        let (s, e) = operand_tensor(ctx, op, i)?;
        let want = if full.contains(&i) {
            x.clone()
        } else {
            vec![features]
        };
        if (s.as_slice(), e) != (want.as_slice(), xe) {
            let found = ty_str(ctx, ctx.value_ty(ctx.op(op).operands()[i]));
            return Err(ctx.error(
                op,
                format!(
                    "operand #{i} must be a tensor of shape {} and element type {}, found {found}",
                    list(&want),
                    ty_str(ctx, xe)
                ),
            ));
        }
    }
    expect_result_type(ctx, op, 0, &x, xe)?;
    for i in 1..results {
        expect_result_type(ctx, op, i, &[features], xe)?;
    }
    Ok(())
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    for name in [BATCH_NORM_INFERENCE, BATCH_NORM_TRAINING, BATCH_NORM_GRAD] {
        r.add(OpDef::new(name, pure).verifier(verify_batch_norm));
    }
}
