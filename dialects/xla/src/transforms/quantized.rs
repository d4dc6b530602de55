//! `xla-lower-quantized`: ops on `!quant.uniform` types written with
//! integer and float ops, as StableHLO's spec defines them, so that no
//! quantized type reaches the lowering:
//!
//! - `uniform_quantize(x)` of floats: `convert(clamp(storage_min,
//!   round_nearest_even(x / scale + zero_point), storage_max))` to the
//!   storage type; of another quantization: dequantized first;
//! - `uniform_dequantize(q)`: `(convert(q) - zero_point) * scale`;
//! - `bitcast_convert` between a quantized type and its storage: the
//!   stored integers themselves;
//! - an element-wise op with quantized operands or result: the operands
//!   dequantized, the op on the expressed floats, the result quantized.
//!
//! Scales and zero points are per tensor, or per index along the type's
//! axis (broadcast along it). The arithmetic is in the expressed type.
//! Quantized function arguments or results, and quantized operands of
//! other ops, are reported as unsupported.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, DenseElements, OpId, Type, TypeKind, UniformQuant, Value};

use super::build::OpBuilder;
use crate::names::*;

pub const FLAG: &str = "xla-lower-quantized";

pub struct XlaLowerQuantizedPass;

impl strata_pass::Pass for XlaLowerQuantizedPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write ops on !quant.uniform types (quantize, dequantize, element-wise) with integer and float ops"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        if !mentions_quant(ctx, module) {
            return Ok(());
        }
        let mut ops = Vec::new();
        ctx.walk_nested(module, &mut |op| ops.push(op));
        // Rewritten values (now of the storage type) and their quantization.
        let mut quant_of: HashMap<Value, UniformQuant> = HashMap::new();
        for op in ops {
            if ctx.op(op).parent.is_none() || !touches_quant(ctx, op, &quant_of) {
                continue;
            }
            rewrite(ctx, op, &mut quant_of)?;
        }
        no_quant_left(ctx, module)
    }
}

fn quant_elem(ctx: &Context, t: Type) -> Option<UniformQuant> {
    let elem = ctx.types.elem(t);
    match ctx.types.kind(elem) {
        TypeKind::Quant(q) => Some(q.clone()),
        _ => None,
    }
}

fn mentions_quant(ctx: &Context, module: OpId) -> bool {
    let mut found = false;
    ctx.walk_nested(module, &mut |op| {
        let o = ctx.op(op);
        found |= o
            .operands()
            .iter()
            .chain(&o.results)
            .any(|&v| quant_elem(ctx, ctx.value_ty(v)).is_some());
    });
    found
}

fn touches_quant(ctx: &Context, op: OpId, quant_of: &HashMap<Value, UniformQuant>) -> bool {
    let o = ctx.op(op);
    o.operands().iter().any(|v| quant_of.contains_key(v))
        || o.operands()
            .iter()
            .chain(&o.results)
            .any(|&v| quant_elem(ctx, ctx.value_ty(v)).is_some())
}

/// Operand `v`'s quantization, if it is (or was) quantized.
fn operand_quant(
    ctx: &Context,
    v: Value,
    quant_of: &HashMap<Value, UniformQuant>,
) -> Option<UniformQuant> {
    quant_of
        .get(&v)
        .cloned()
        .or_else(|| quant_elem(ctx, ctx.value_ty(v)))
}

fn unsupported(ctx: &Context, op: OpId) -> Diagnostic {
    Diagnostic::unsupported(
        ctx.op(op).loc,
        format!("quantized types on '{}' op", ctx.op(op).name),
    )
}

fn rewrite(ctx: &mut Context, op: OpId, quant_of: &mut HashMap<Value, UniformQuant>) -> Result<()> {
    let name = ctx.op(op).name;
    let operands = ctx.op(op).operands().to_vec();
    let Some(&result) = ctx.op(op).results.first() else {
        return Err(unsupported(ctx, op));
    };
    let result_ty = ctx.value_ty(result);
    let result_q = quant_elem(ctx, result_ty);
    let elementwise = UNARY_ELEMENTWISE.contains(&name) || BINARY_ELEMENTWISE.contains(&name);
    if !(elementwise
        || matches!(
            name,
            UNIFORM_QUANTIZE | UNIFORM_DEQUANTIZE | BITCAST_CONVERT
        ))
        || ctx.op(op).results.len() != 1
    {
        return Err(unsupported(ctx, op));
    }
    let in_q: Vec<Option<UniformQuant>> = operands
        .iter()
        .map(|&v| operand_quant(ctx, v, quant_of))
        .collect();
    let mut b = OpBuilder::before_op(ctx, op)?;
    let shape = b.shape_of(result);
    let new = match name {
        BITCAST_CONVERT => {
            // The stored integers, seen as the result's storage (or type).
            let to = match &result_q {
                Some(q) => q.storage,
                None => b.ctx.types.elem(result_ty),
            };
            // A new value even when the types agree: the operand keeps its
            // own quantization for its other users.
            let ty = b.tensor(&shape, to);
            b.op(BITCAST_CONVERT, vec![operands[0]], ty, vec![])
        }
        UNIFORM_DEQUANTIZE => {
            let q = in_q[0].clone().ok_or_else(|| unsupported(b.ctx, op))?;
            dequantize(&mut b, operands[0], &q)
        }
        UNIFORM_QUANTIZE => {
            let r = result_q.clone().ok_or_else(|| unsupported(b.ctx, op))?;
            let x = match &in_q[0] {
                Some(p) => dequantize(&mut b, operands[0], p),
                None => operands[0],
            };
            quantize(&mut b, x, &r)
        }
        _ => {
            // Element-wise: on the expressed floats.
            let args: Vec<Value> = operands
                .iter()
                .zip(&in_q)
                .map(|(&v, q)| match q {
                    Some(q) => dequantize(&mut b, v, q),
                    None => v,
                })
                .collect();
            let elem = match &result_q {
                Some(q) => q.expressed,
                None => b.ctx.types.elem(result_ty),
            };
            let ty = b.tensor(&shape, elem);
            let attrs = b.ctx.op(op).attrs.clone();
            let y = b.op(name, args, ty, attrs);
            match &result_q {
                Some(q) => quantize(&mut b, y, q),
                None => y,
            }
        }
    };
    b.replace(op, &[new]);
    if let Some(q) = result_q {
        quant_of.insert(new, q);
    }
    Ok(())
}

/// A float constant of `shape` holding, along `q`'s axis (or everywhere),
/// `values` in the expressed type.
fn along_axis(b: &mut OpBuilder<'_>, q: &UniformQuant, values: &[f64], shape: &[i64]) -> Value {
    let elem = q.expressed;
    let TypeKind::Float(kind) = *b.ctx.types.kind(elem) else {
        return b.splat_bits(0, shape, elem);
    };
    let bits: Vec<u64> = values
        .iter()
        .map(|&v| strata_ir::dense::float_to_bits(v, kind))
        .collect();
    match q.axis {
        None => b.splat_bits(bits[0], shape, elem),
        Some(axis) => {
            let ty = b.tensor(&[bits.len() as i64], elem);
            let value = b.ctx.attr(AttrKind::Dense(DenseElements {
                ty,
                splat: false,
                bits,
            }));
            let c = b.op(CONSTANT, vec![], ty, vec![("value".into(), value)]);
            b.broadcast(c, vec![axis], shape)
        }
    }
}

fn scales(q: &UniformQuant) -> Vec<f64> {
    q.scales.iter().map(|&s| f64::from_bits(s)).collect()
}

fn zero_points(q: &UniformQuant) -> Vec<f64> {
    q.zero_points.iter().map(|&z| z as f64).collect()
}

/// `(convert(s) - zero_point) * scale`, in the expressed type.
fn dequantize(b: &mut OpBuilder<'_>, stored: Value, q: &UniformQuant) -> Value {
    let shape = b.shape_of(stored);
    let ty = b.tensor(&shape, q.expressed);
    let x = b.op(CONVERT, vec![stored], ty, vec![]);
    let zp = along_axis(b, q, &zero_points(q), &shape);
    let centred = b.same_type(SUBTRACT, vec![x, zp]);
    let scale = along_axis(b, q, &scales(q), &shape);
    b.same_type(MULTIPLY, vec![centred, scale])
}

/// `convert(clamp(min, round_nearest_even(x / scale + zero_point), max))`.
fn quantize(b: &mut OpBuilder<'_>, x: Value, q: &UniformQuant) -> Value {
    let shape = b.shape_of(x);
    let scale = along_axis(b, q, &scales(q), &shape);
    let scaled = b.same_type(DIVIDE, vec![x, scale]);
    let zp = along_axis(b, q, &zero_points(q), &shape);
    let shifted = b.same_type(ADD, vec![scaled, zp]);
    let rounded = b.same_type(ROUND_EVEN, vec![shifted]);
    let per_tensor = UniformQuant {
        axis: None,
        ..q.clone()
    };
    let lo = along_axis(b, &per_tensor, &[q.storage_min as f64], &shape);
    let hi = along_axis(b, &per_tensor, &[q.storage_max as f64], &shape);
    let above = b.same_type(MAXIMUM, vec![rounded, lo]);
    let clamped = b.same_type(MINIMUM, vec![above, hi]);
    let ty = b.tensor(&shape, q.storage);
    b.op(CONVERT, vec![clamped], ty, vec![])
}

/// Every quantized type is gone, or what still has one is reported.
fn no_quant_left(ctx: &Context, module: OpId) -> Result<()> {
    let mut left = None;
    ctx.walk_nested(module, &mut |op| {
        let o = ctx.op(op);
        let func_sig = o.name == strata_ir::builtin::FUNC
            && strata_ir::builtin::func_signature(ctx, op)
                .is_some_and(|(i, r)| i.iter().chain(&r).any(|&t| quant_elem(ctx, t).is_some()));
        let values = o
            .operands()
            .iter()
            .chain(&o.results)
            .any(|&v| quant_elem(ctx, ctx.value_ty(v)).is_some());
        if left.is_none() && o.parent.is_some() && (func_sig || values) {
            left = Some(op);
        }
    });
    match left {
        Some(op) if ctx.op(op).name == strata_ir::builtin::FUNC => Err(Diagnostic::unsupported(
            ctx.op(op).loc,
            "quantized function arguments or results",
        )),
        Some(op) => Err(unsupported(ctx, op)),
        None => Ok(()),
    }
}
