//! `xla-expand-batch-norm`: writes `batch_norm_inference`, `_training` and
//! `_grad` as the element-wise ops, broadcasts and sum reductions that
//! StableHLO's specification defines them by (reductions over every
//! dimension but `feature_index`, N = the elements per feature):
//!
//! - inference: y = scale · (x - mean) / sqrt(variance + ε) + offset;
//! - training: mean = Σx / N, variance = Σ(x - mean)² / N, then y as above;
//!   results (y, mean, variance);
//! - grad: with c = x - mean and σ = sqrt(variance + ε),
//!   grad_offset = Σ grad_y, grad_scale = Σ grad_y · c / σ,
//!   grad_x = scale / σ / N · (N · grad_y - grad_offset - c · Σ(grad_y · c) / (variance + ε)).
//!
//! f16 and bf16 are computed as any element-wise op on them is (each step
//! rounded, as XLA's expansion does).

use strata_diag::{Diagnostic, Result};
use strata_ir::{Context, FloatKind, OpId, Type, Value};

use super::build::{OpBuilder, ops_named};
use crate::names::*;

pub const FLAG: &str = "xla-expand-batch-norm";

pub struct XlaExpandBatchNormPass;

impl strata_pass::Pass for XlaExpandBatchNormPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write batch_norm_inference/training/grad as element-wise ops and reductions"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let names = [BATCH_NORM_INFERENCE, BATCH_NORM_TRAINING, BATCH_NORM_GRAD];
        for op in ops_named(ctx, module, &names) {
            expand(ctx, op)?;
        }
        Ok(())
    }
}

/// Emits the expansion's ops before the batch_norm op.
struct Emit<'c> {
    b: OpBuilder<'c>,
    /// The element type of every value, a float.
    elem: Type,
    kind: FloatKind,
    /// x's shape and the feature dimension.
    shape: Vec<i64>,
    feature: usize,
}

impl Emit<'_> {
    fn full(&self) -> Vec<i64> {
        self.shape.clone()
    }

    fn features(&self) -> Vec<i64> {
        vec![self.shape[self.feature]]
    }

    fn binary(&mut self, name: &'static str, a: Value, b: Value) -> Value {
        self.b.same_type(name, vec![a, b])
    }

    fn sqrt(&mut self, a: Value) -> Value {
        self.b.same_type(SQRT, vec![a])
    }

    /// A constant of `shape` filled with `v`.
    fn splat(&mut self, v: f64, shape: &[i64]) -> Value {
        let bits = strata_ir::dense::float_to_bits(v, self.kind);
        self.b.splat_bits(bits, shape, self.elem)
    }

    /// A per-feature vector broadcast to x's shape.
    fn spread(&mut self, v: Value) -> Value {
        let full = self.full();
        self.b.broadcast(v, vec![self.feature as i64], &full)
    }

    /// Σ over every dimension but the feature one.
    fn sum(&mut self, v: Value) -> Value {
        let zero = self.splat(0.0, &[]);
        let dims: Vec<i64> = (0..self.shape.len() as i64)
            .filter(|&d| d != self.feature as i64)
            .collect();
        self.b.reduce_sum(v, zero, dims)
    }

    /// (x - mean, sqrt(variance + ε)) with mean and σ per feature.
    fn center(
        &mut self,
        x: Value,
        mean: Value,
        variance: Value,
        epsilon: f64,
    ) -> (Value, Value, Value) {
        let mean_b = self.spread(mean);
        let centered = self.binary(SUBTRACT, x, mean_b);
        let features = self.features();
        let eps = self.splat(epsilon, &features);
        let var_eps = self.binary(ADD, variance, eps);
        let stddev = self.sqrt(var_eps);
        (centered, stddev, var_eps)
    }

    /// scale · centered / σ + offset.
    fn normalize(&mut self, centered: Value, stddev: Value, scale: Value, offset: Value) -> Value {
        let stddev_b = self.spread(stddev);
        let normalized = self.binary(DIVIDE, centered, stddev_b);
        let scale_b = self.spread(scale);
        let scaled = self.binary(MULTIPLY, scale_b, normalized);
        let offset_b = self.spread(offset);
        self.binary(ADD, scaled, offset_b)
    }

    /// Σv / N per feature.
    fn mean(&mut self, v: Value, n: f64) -> Value {
        let s = self.sum(v);
        let features = self.features();
        let count = self.splat(n, &features);
        self.binary(DIVIDE, s, count)
    }
}

fn expand(ctx: &mut Context, op: OpId) -> Result<()> {
    let loc = ctx.op(op).loc;
    let operands = ctx.op(op).operands().to_vec();
    let x_ty = ctx.value_ty(operands[0]);
    let shape = ctx.types.shape(x_ty).unwrap_or(&[]).to_vec();
    let feature = ctx.int_attr(op, "feature_index").unwrap_or(0) as usize;
    // The attribute is an f32 (kept as the decimal written): its f32 value.
    let epsilon = f64::from(ctx.float_attr(op, "epsilon").unwrap_or(0.0) as f32);
    let n: f64 = shape
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != feature)
        .map(|(_, &s)| s as f64)
        .product();
    let name = ctx.op(op).name;
    let elem = ctx.types.elem(x_ty);
    let strata_ir::TypeKind::Float(kind) = *ctx.types.kind(elem) else {
        return Err(Diagnostic::internal(
            loc,
            "batch_norm on non-float elements",
        ));
    };
    let b = OpBuilder::before_op(ctx, op)?;
    let mut e = Emit {
        b,
        elem,
        kind,
        shape,
        feature,
    };
    let results: Vec<Value> = match name {
        BATCH_NORM_INFERENCE => {
            let [x, scale, offset, mean, variance] = operands[..] else {
                return Err(Diagnostic::internal(
                    loc,
                    "batch_norm_inference takes 5 operands",
                ));
            };
            let (centered, stddev, _) = e.center(x, mean, variance, epsilon);
            vec![e.normalize(centered, stddev, scale, offset)]
        }
        BATCH_NORM_TRAINING => {
            let [x, scale, offset] = operands[..] else {
                return Err(Diagnostic::internal(
                    loc,
                    "batch_norm_training takes 3 operands",
                ));
            };
            let mean = e.mean(x, n);
            let mean_b = e.spread(mean);
            let c = e.binary(SUBTRACT, x, mean_b);
            let c2 = e.binary(MULTIPLY, c, c);
            let variance = e.mean(c2, n);
            let (centered, stddev, _) = e.center(x, mean, variance, epsilon);
            vec![e.normalize(centered, stddev, scale, offset), mean, variance]
        }
        _ => {
            let [x, scale, mean, variance, grad_y] = operands[..] else {
                return Err(Diagnostic::internal(
                    loc,
                    "batch_norm_grad takes 5 operands",
                ));
            };
            grad(&mut e, [x, scale, mean, variance, grad_y], epsilon, n)
        }
    };
    e.b.replace(op, &results);
    Ok(())
}

/// batch_norm_grad's three results (see the module comment).
fn grad(
    e: &mut Emit<'_>,
    [x, scale, mean, variance, grad_y]: [Value; 5],
    epsilon: f64,
    n: f64,
) -> Vec<Value> {
    let (centered, stddev, var_eps) = e.center(x, mean, variance, epsilon);
    let grad_offset = e.sum(grad_y);
    let gy_c = e.binary(MULTIPLY, grad_y, centered);
    let sum_gy_c = e.sum(gy_c);
    let grad_scale = e.binary(DIVIDE, sum_gy_c, stddev);
    let full = e.full();
    let count = e.splat(n, &full);
    let i1 = e.binary(MULTIPLY, grad_y, count);
    let i2 = e.spread(grad_offset);
    let i3 = e.spread(sum_gy_c);
    let i4 = e.binary(MULTIPLY, i3, centered);
    let var_eps_b = e.spread(var_eps);
    let i5 = e.binary(DIVIDE, i4, var_eps_b);
    let i12 = e.binary(SUBTRACT, i1, i2);
    let i6 = e.binary(SUBTRACT, i12, i5);
    let scale_over_std = e.binary(DIVIDE, scale, stddev);
    let features = e.features();
    let count_f = e.splat(n, &features);
    let factor = e.binary(DIVIDE, scale_over_std, count_f);
    let factor_b = e.spread(factor);
    let grad_x = e.binary(MULTIPLY, factor_b, i6);
    vec![grad_x, grad_scale, grad_offset]
}
