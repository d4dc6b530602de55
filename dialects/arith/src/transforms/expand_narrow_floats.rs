//! `arith-expand-narrow-floats`: the arithmetic of `f16` and `bf16` as XLA
//! does it, in `f32` and `f64` ops and integer bit operations, so that
//! neither backend handles a 16-bit float beyond loading, storing,
//! selecting and the exact `f16 ↔ f32/f64` conversions.
//!
//! - a float op on 16-bit floats (`addf`, `exp`, `cmpf`, `fptosi`, ...)
//!   computes in `f32` between `extf` and `truncf`: XLA:CPU rounds each
//!   element-wise step back to the stored type. `negf`, `absf` and
//!   `copysign` are sign-bit operations on the bits (exact in any format);
//! - `expm1` on `f16` follows XLA's formula step by step, each step rounded
//!   to `f16` (only `exp` and `tanh` in `f32`);
//! - `sitofp`/`uitofp` to a 16-bit float converts to `f64` (exact for
//!   integers up to 2^53) and then rounds once;
//! - conversions from `bf16` shift its bits into an `f32`; conversions to
//!   `bf16` round an `f32`'s bits to nearest even (a NaN stays a quiet NaN),
//!   from `f64` through `f32` rounded to odd, so that the value is rounded
//!   once; `f16 ↔ bf16` goes through `f32`, which holds both exactly. LLVM
//!   would otherwise call libgcc helpers for `bf16`;
//! - a conversion between a 16-bit float and an f8/f6/f4 format goes
//!   through `f64` (the backends convert those formats with the runtime's
//!   codec, from and to `f64`).
//!
//! Runs last in the lowering: the ops it writes are the backends' only
//! view of 16-bit arithmetic (the native code generator and the upstream
//! export used to expand it each in its own way).

use std::collections::HashMap;

use strata_diag::{Location, Result};
use strata_ir::{Attr, AttrKind, BlockId, Context, FloatKind, OpId, Type, Value, builtin};

use crate::*;

pub const FLAG: &str = "arith-expand-narrow-floats";

pub struct ArithExpandNarrowFloatsPass;

impl strata_pass::Pass for ArithExpandNarrowFloatsPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "compute f16/bf16 arithmetic in f32, bf16 conversions as integer operations"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut renamed = HashMap::new();
        for func in builtin::defined_funcs(ctx, module) {
            expand_regions(ctx, func, &mut renamed);
        }
        Ok(())
    }
}

fn expand_regions(ctx: &mut Context, op: OpId, renamed: &mut HashMap<Value, Value>) {
    let blocks: Vec<BlockId> = ctx
        .op(op)
        .regions
        .iter()
        .flat_map(|&r| ctx.regions[r].blocks.clone())
        .collect();
    for block in blocks {
        expand_block(ctx, block, renamed);
    }
}

/// Rewrites `block`'s ops in order, its op list rebuilt once (an insertion
/// per expanded op would cost the block's length each). `renamed` maps each
/// replaced result to its replacement; every later use, nested ones
/// included, is met after the definition, so it is renamed on the way.
fn expand_block(ctx: &mut Context, block: BlockId, renamed: &mut HashMap<Value, Value>) {
    let old = std::mem::take(&mut ctx.blocks[block].ops);
    let mut out = Vec::with_capacity(old.len());
    for op in old {
        ctx.map_operands(op, &mut |v| *renamed.get(&v).unwrap_or(&v));
        let loc = ctx.op(op).loc;
        let mut e = Emit {
            ctx: &mut *ctx,
            out: &mut out,
            block,
            loc,
        };
        match expand(&mut e, op) {
            Some(v) => {
                let result = ctx.op(op).results[0];
                renamed.insert(result, v);
                ctx.op_mut(op).parent = None;
            }
            None => {
                out.push(op);
                expand_regions(ctx, op, renamed);
            }
        }
    }
    ctx.blocks[block].ops = out;
}

/// Appends new ops to the block being rebuilt.
struct Emit<'a> {
    ctx: &'a mut Context,
    out: &'a mut Vec<OpId>,
    block: BlockId,
    loc: Location,
}

impl Emit<'_> {
    fn op(&mut self, name: &'static str, operands: Vec<Value>, ty: Type) -> Value {
        self.op_with(name, operands, ty, vec![])
    }

    fn op_with(
        &mut self,
        name: &'static str,
        operands: Vec<Value>,
        ty: Type,
        attrs: Vec<(String, Attr)>,
    ) -> Value {
        let op = self.ctx.create_op(name, operands, &[ty], attrs, self.loc);
        self.ctx.op_mut(op).parent = Some(self.block);
        self.out.push(op);
        self.ctx.op(op).results[0]
    }

    fn int(&mut self, v: i128, ty: Type) -> Value {
        let value = self.ctx.attr(AttrKind::Int { value: v, ty });
        self.op_with(CONSTANT, vec![], ty, vec![("value".into(), value)])
    }

    fn float(&mut self, v: f64, ty: Type) -> Value {
        let value = self.ctx.attr(AttrKind::float(v, ty));
        self.op_with(CONSTANT, vec![], ty, vec![("value".into(), value)])
    }

    fn cmpf(&mut self, predicate: &str, x: Value, y: Value) -> Value {
        let p = self.ctx.attr(AttrKind::String(predicate.into()));
        let i1 = self.ctx.types.int_ty(1);
        self.op_with(CMPF, vec![x, y], i1, vec![("predicate".into(), p)])
    }

    fn kind(&self, v: Value) -> Option<FloatKind> {
        self.ctx.types.float_kind(self.ctx.value_ty(v))
    }

    fn float_ty(&mut self, k: FloatKind) -> Type {
        self.ctx.types.float_ty(k)
    }
}

fn is_narrow(k: Option<FloatKind>) -> bool {
    matches!(k, Some(FloatKind::F16 | FloatKind::BF16))
}

fn is_small(k: FloatKind) -> bool {
    strata_ir::minifloat::format(k).is_some()
}

/// The value replacing `op`'s result when `op` is one this pass expands.
fn expand(e: &mut Emit<'_>, op: OpId) -> Option<Value> {
    let o = e.ctx.op(op);
    let (name, operands) = (o.name, o.operands().to_vec());
    let result_ty = e.ctx.value_ty(*o.results.first()?);
    let first = e.kind(*operands.first()?);
    let to = e.ctx.types.float_kind(result_ty);
    match name {
        NEGF | ABSF | COPYSIGN if is_narrow(to) => Some(sign_bits(e, name, &operands)),
        EXPM1 if to == Some(FloatKind::F16) => Some(expm1_f16(e, operands[0])),
        _ if (FLOAT_BINARY.contains(&name) || FLOAT_UNARY.contains(&name)) && is_narrow(to) => {
            Some(in_f32(e, op))
        }
        CMPF | FPTOSI | FPTOUI if is_narrow(first) => Some(in_f32(e, op)),
        SITOFP | UITOFP if is_narrow(to) => {
            let f64t = e.float_ty(FloatKind::F64);
            let wide = e.op(name, operands.clone(), f64t);
            Some(convert(e, wide, to?))
        }
        EXTF | TRUNCF => {
            let (from, to) = (first?, to?);
            let special = from == FloatKind::BF16
                || to == FloatKind::BF16
                || (is_narrow(Some(from)) && is_small(to))
                || (is_small(from) && is_narrow(Some(to)));
            special.then(|| convert(e, operands[0], to))
        }
        _ => None,
    }
}

/// `op` on its operands extended to `f32`, its result rounded back when it
/// is a 16-bit float. `contract` goes: the rounding between a multiply and
/// an add is part of the result.
fn in_f32(e: &mut Emit<'_>, op: OpId) -> Value {
    let o = e.ctx.op(op);
    let (name, operands, result_ty) = (o.name, o.operands().to_vec(), e.ctx.value_ty(o.results[0]));
    let attrs = o
        .attrs
        .iter()
        .filter(|(n, _)| n != "contract")
        .cloned()
        .collect();
    let wide: Vec<Value> = operands
        .iter()
        .map(|&x| match e.kind(x) {
            k if is_narrow(k) => convert(e, x, FloatKind::F32),
            _ => x,
        })
        .collect();
    match e.ctx.types.float_kind(result_ty) {
        Some(k) if is_narrow(Some(k)) => {
            let f32t = e.float_ty(FloatKind::F32);
            let r = e.op_with(name, wide, f32t, attrs);
            convert(e, r, k)
        }
        _ => e.op_with(name, wide, result_ty, attrs),
    }
}

/// `negf`, `absf`, `copysign` of 16-bit floats on their sign bit.
fn sign_bits(e: &mut Emit<'_>, name: &str, operands: &[Value]) -> Value {
    let ty = e.ctx.value_ty(operands[0]);
    let i16t = e.ctx.types.int_ty(16);
    let bits = e.op(BITCAST, vec![operands[0]], i16t);
    let r = match name {
        NEGF => {
            let sign = e.int(0x8000, i16t);
            e.op(XORI, vec![bits, sign], i16t)
        }
        ABSF => {
            let magnitude = e.int(0x7fff, i16t);
            e.op(ANDI, vec![bits, magnitude], i16t)
        }
        _ => {
            let magnitude = e.int(0x7fff, i16t);
            let x = e.op(ANDI, vec![bits, magnitude], i16t);
            let y = e.op(BITCAST, vec![operands[1]], i16t);
            let sign = e.int(0x8000, i16t);
            let s = e.op(ANDI, vec![y, sign], i16t);
            e.op(ORI, vec![x, s], i16t)
        }
    };
    e.op(BITCAST, vec![r], ty)
}

/// `expm1` of an `f16` as XLA emits it: the formula on f16, each step
/// rounded to it, `exp` and `tanh` in `f32`.
fn expm1_f16(e: &mut Emit<'_>, x: Value) -> Value {
    let f32t = e.float_ty(FloatKind::F32);
    // One step of the formula in f32, rounded to f16 and back.
    let step = |e: &mut Emit<'_>, name: &'static str, operands: Vec<Value>| {
        let v = e.op(name, operands, f32t);
        let n = convert(e, v, FloatKind::F16);
        convert(e, n, FloatKind::F32)
    };
    let x = convert(e, x, FloatKind::F32);
    let (one, half) = (e.float(1.0, f32t), e.float(0.5, f32t));
    let exp = step(e, EXP, vec![x]);
    let big = step(e, SUBF, vec![exp, one]);
    let h = step(e, MULF, vec![x, half]);
    let th = step(e, TANH, vec![h]);
    let ep1 = step(e, ADDF, vec![exp, one]);
    let small = step(e, MULF, vec![th, ep1]);
    let ax = e.op(ABSF, vec![x], f32t);
    let is_big = e.cmpf("ogt", ax, half);
    let r = e.op(SELECT, vec![is_big, big, small], f32t);
    let zero = e.float(0.0, f32t);
    let tiny = e.cmpf("oeq", h, zero);
    let r = e.op(SELECT, vec![tiny, x, r], f32t);
    convert(e, r, FloatKind::F16)
}

/// `x` converted to `to`, rounding once, as ops the backends take
/// natively (see the module comment).
fn convert(e: &mut Emit<'_>, x: Value, to: FloatKind) -> Value {
    let Some(from) = e.kind(x) else {
        return x;
    };
    let (f32k, f64k) = (FloatKind::F32, FloatKind::F64);
    if from == to {
        return x;
    }
    if is_small(from) && is_narrow(Some(to)) {
        let wide = native(e, x, f64k);
        return convert(e, wide, to);
    }
    if is_narrow(Some(from)) && is_small(to) {
        let wide = convert(e, x, f64k);
        return native(e, wide, to);
    }
    if from == FloatKind::BF16 {
        let wide = bf16_to_f32(e, x);
        return convert(e, wide, to);
    }
    if to == FloatKind::BF16 {
        let narrow = if from == f64k {
            f64_to_f32_odd(e, x)
        } else {
            convert(e, x, f32k)
        };
        return f32_to_bf16(e, narrow);
    }
    native(e, x, to)
}

/// `extf` or `truncf`, by width.
fn native(e: &mut Emit<'_>, x: Value, to: FloatKind) -> Value {
    let from_ty = e.ctx.value_ty(x);
    let to_ty = e.float_ty(to);
    let name = if e.ctx.types.bit_width(from_ty) < e.ctx.types.bit_width(to_ty) {
        EXTF
    } else {
        TRUNCF
    };
    e.op(name, vec![x], to_ty)
}

/// bf16 → f32: the bits, shifted into the high half.
fn bf16_to_f32(e: &mut Emit<'_>, x: Value) -> Value {
    let (i16t, i32t) = (e.ctx.types.int_ty(16), e.ctx.types.int_ty(32));
    let f32t = e.float_ty(FloatKind::F32);
    let bits = e.op(BITCAST, vec![x], i16t);
    let wide = e.op(EXTUI, vec![bits], i32t);
    let sixteen = e.int(16, i32t);
    let high = e.op(SHLI, vec![wide, sixteen], i32t);
    e.op(BITCAST, vec![high], f32t)
}

/// f32 → bf16, rounding to nearest even; a NaN stays a (quiet) NaN.
fn f32_to_bf16(e: &mut Emit<'_>, x: Value) -> Value {
    let (i16t, i32t) = (e.ctx.types.int_ty(16), e.ctx.types.int_ty(32));
    let bf16t = e.float_ty(FloatKind::BF16);
    let bits = e.op(BITCAST, vec![x], i32t);
    let sixteen = e.int(16, i32t);
    let high = e.op(SHRUI, vec![bits, sixteen], i32t);
    let one = e.int(1, i32t);
    let lsb = e.op(ANDI, vec![high, one], i32t);
    let half = e.int(0x7fff, i32t);
    let bias = e.op(ADDI, vec![lsb, half], i32t);
    let sum = e.op(ADDI, vec![bits, bias], i32t);
    let rounded = e.op(SHRUI, vec![sum, sixteen], i32t);
    let quiet_bit = e.int(0x40, i32t);
    let quiet = e.op(ORI, vec![high, quiet_bit], i32t);
    let nan = e.cmpf("uno", x, x);
    let chosen = e.op(SELECT, vec![nan, quiet, rounded], i32t);
    let narrow = e.op(TRUNCI, vec![chosen], i16t);
    e.op(BITCAST, vec![narrow], bf16t)
}

/// f64 → f32 rounded to odd (truncated toward zero, the last bit set when
/// inexact), so that rounding on to bf16 is the only rounding.
fn f64_to_f32_odd(e: &mut Emit<'_>, x: Value) -> Value {
    let (f32t, f64t) = (e.float_ty(FloatKind::F32), e.float_ty(FloatKind::F64));
    let i32t = e.ctx.types.int_ty(32);
    let r = e.op(TRUNCF, vec![x], f32t);
    let back = e.op(EXTF, vec![r], f64t);
    let inexact = e.cmpf("one", back, x);
    let (ab, ax) = (e.op(ABSF, vec![back], f64t), e.op(ABSF, vec![x], f64t));
    let over = e.cmpf("ogt", ab, ax);
    let bits = e.op(BITCAST, vec![r], i32t);
    let one = e.int(1, i32t);
    let down = e.op(SUBI, vec![bits, one], i32t);
    let toward_zero = e.op(SELECT, vec![over, down, bits], i32t);
    let odd = e.op(ORI, vec![toward_zero, one], i32t);
    let chosen = e.op(SELECT, vec![inexact, odd, bits], i32t);
    e.op(BITCAST, vec![chosen], f32t)
}
