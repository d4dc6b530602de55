//! `xla-fold-constant-convert`: a `convert` of a constant becomes the
//! converted constant, as XLA's constant folding makes it.
//!
//! jnp's library functions are jitted with their scalar arguments: `x // 2`
//! on unsigned integers exports as a call of `@floor_divide(x, 2)` whose
//! body converts the `tensor<i32>` 2 to `tensor<ui32>` and broadcasts it.
//! Left alone, the converted scalar is computed into a buffer and every
//! element's division loads its divisor from there: a hardware division per
//! element (`jnp.searchsorted`'s bisection, index arithmetic) where a
//! constant divisor is a shift.
//!
//! Folded, when exact and the same bits as XLA's conversion: integers to
//! integers of any width and signedness (two's complement wrap; to `i1`,
//! nonzero is true), integers to f32 and f64 (rounded to nearest even),
//! f32 and f64 to each other (NaNs left alone: their payload bits). Floats
//! to integers, narrow floats and complex numbers are not folded. Constants
//! of at most [`MAX_ELEMENTS`] elements, or splats, are folded: a convert of
//! a large weight stays a loop that runs once per call rather than a second
//! copy of the weight in the library.

use strata_diag::Result;
use strata_ir::{AttrKind, Context, DenseElements, FloatKind, OpId, Type, dense};

use super::build::{OpBuilder, ops_named};
use crate::names::{CONSTANT, CONVERT};

pub const FLAG: &str = "xla-fold-constant-convert";

/// The most elements of a non-splat constant folded.
const MAX_ELEMENTS: usize = 4096;

pub struct XlaFoldConstantConvertPass;

impl strata_pass::Pass for XlaFoldConstantConvertPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "a convert of a small or splat constant becomes the converted constant"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for convert in ops_named(ctx, module, &[CONVERT]) {
            fold(ctx, convert)?;
        }
        Ok(())
    }
}

/// An element type a conversion is folded between.
#[derive(Clone, Copy)]
enum Scalar {
    Int { width: u32 },
    F32,
    F64,
}

/// A constant's element, exactly.
#[derive(Clone, Copy)]
enum Number {
    Int(i128),
    Float(f64),
}

fn scalar(ctx: &Context, elem: Type) -> Option<Scalar> {
    let types = &ctx.types;
    if types.is_int(elem) {
        let width = types.bit_width(elem);
        return (1..=64).contains(&width).then_some(Scalar::Int { width });
    }
    match types.float_kind(elem)? {
        FloatKind::F32 => Some(Scalar::F32),
        FloatKind::F64 => Some(Scalar::F64),
        _ => None,
    }
}

fn fold(ctx: &mut Context, convert: OpId) -> Result<()> {
    let [operand] = ctx.op(convert).operands()[..] else {
        return Ok(());
    };
    let Some(def) = ctx
        .defining_op(operand)
        .filter(|&d| ctx.op(d).name == CONSTANT)
    else {
        return Ok(());
    };
    let Some(&result) = ctx.op(convert).results.first() else {
        return Ok(());
    };
    let result_ty = ctx.value_ty(result);
    let from_elem = ctx.types.elem(ctx.value_ty(operand));
    let to_elem = ctx.types.elem(result_ty);
    let (Some(from), Some(to)) = (scalar(ctx, from_elem), scalar(ctx, to_elem)) else {
        return Ok(());
    };
    let Some(dense) = ctx.dense_attr(def, "value") else {
        return Ok(());
    };
    let splat = dense.splat;
    if !splat && dense.bits.len() > MAX_ELEMENTS {
        return Ok(());
    }
    let Some(bits) = dense
        .bits
        .iter()
        .map(|&b| convert_bits(read(ctx, from_elem, from, b), to))
        .collect::<Option<Vec<u64>>>()
    else {
        return Ok(());
    };
    let value = ctx.attr(AttrKind::Dense(DenseElements {
        ty: result_ty,
        splat,
        bits,
    }));
    let mut b = OpBuilder::before_op(ctx, convert)?;
    let folded = b.op(CONSTANT, vec![], result_ty, vec![("value".into(), value)]);
    b.replace(convert, &[folded]);
    Ok(())
}

/// The element stored as `bits` (its own width, as dense elements hold it)
/// of type `elem`, which [`scalar`] took as `from`.
fn read(ctx: &Context, elem: Type, from: Scalar, bits: u64) -> Number {
    match from {
        Scalar::Int { .. } => Number::Int(dense::int_value(ctx, bits, elem)),
        Scalar::F32 => Number::Float(dense::bits_to_float(bits, FloatKind::F32)),
        Scalar::F64 => Number::Float(dense::bits_to_float(bits, FloatKind::F64)),
    }
}

/// `x` converted to `to` as XLA converts it, as bits of `to`'s width; None
/// where the conversion is not folded.
fn convert_bits(x: Number, to: Scalar) -> Option<u64> {
    match (x, to) {
        (Number::Int(v), Scalar::Int { width: 1, .. }) => Some(u64::from(v != 0)),
        (Number::Int(v), Scalar::Int { width, .. }) => {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            Some(v as u64 & mask)
        }
        (Number::Int(v), Scalar::F32) => Some(u64::from((v as f32).to_bits())),
        (Number::Int(v), Scalar::F64) => Some((v as f64).to_bits()),
        (Number::Float(f), _) if f.is_nan() => None,
        // f32 values are exact in f64; f64 to f32 rounds to nearest even.
        (Number::Float(f), Scalar::F32) => Some(u64::from((f as f32).to_bits())),
        (Number::Float(f), Scalar::F64) => Some(f.to_bits()),
        (Number::Float(_), Scalar::Int { .. }) => None,
    }
}
