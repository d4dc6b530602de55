//! `xla.uniform_quantize` and `xla.uniform_dequantize`: between floats
//! and `!quant.uniform` types (see `transforms/quantized.rs` for what they
//! compute).

use strata_diag::Result;
use strata_ir::{Context, OpId, TypeKind, UniformQuant};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    /// Floats (or another quantization) to a quantized type.
    pub const UNIFORM_QUANTIZE: &str = "xla.uniform_quantize";
    /// A quantized type to its expressed floats.
    pub const UNIFORM_DEQUANTIZE: &str = "xla.uniform_dequantize";
}

fn quant(ctx: &Context, t: strata_ir::Type) -> Option<&UniformQuant> {
    match ctx.types.kind(t) {
        TypeKind::Quant(q) => Some(q),
        _ => None,
    }
}

/// A per-axis type's axis must be a dimension of the tensor, with one
/// scale per index along it.
fn check_axis(ctx: &Context, op: OpId, q: &UniformQuant, shape: &[i64]) -> Result<()> {
    let Some(axis) = q.axis else {
        return Ok(());
    };
    match usize::try_from(axis).ok().and_then(|a| shape.get(a)) {
        Some(&n) if n == q.scales.len() as i64 => Ok(()),
        _ => Err(ctx.error(
            op,
            format!(
                "quantization axis {axis} with {} scales does not fit shape {}",
                q.scales.len(),
                list(shape)
            ),
        )),
    }
}

/// `uniform_quantize(x)`: `x` floats of the result's expressed type, or
/// another quantization of it (requantization); one shape.
pub fn verify_uniform_quantize(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let Some(q) = quant(ctx, relem) else {
        return Err(ctx.error(op, "produces a quantized type"));
    };
    let from_ok =
        elem == q.expressed || quant(ctx, elem).is_some_and(|p| p.expressed == q.expressed);
    if !from_ok || rshape != shape {
        return Err(ctx.error(
            op,
            "quantizes floats of the expressed type (or another quantization of them) to the same shape",
        ));
    }
    check_axis(ctx, op, q, &rshape)?;
    if let Some(p) = quant(ctx, elem) {
        check_axis(ctx, op, p, &shape)?;
    }
    Ok(())
}

/// `uniform_dequantize(q)`: the expressed floats of a quantized tensor.
pub fn verify_uniform_dequantize(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let Some(q) = quant(ctx, elem) else {
        return Err(ctx.error(op, "dequantizes a quantized type"));
    };
    if relem != q.expressed || rshape != shape {
        return Err(ctx.error(op, "produces the expressed floats, of the operand's shape"));
    }
    check_axis(ctx, op, q, &shape)
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(UNIFORM_QUANTIZE, pure)
            .counts(1, 1)
            .verifier(verify_uniform_quantize)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(UNIFORM_DEQUANTIZE, pure)
            .counts(1, 1)
            .verifier(verify_uniform_dequantize)
            .parser(parse::parse_elementwise),
    );
}
