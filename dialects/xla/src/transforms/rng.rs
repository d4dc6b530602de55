//! `xla-expand-rng`: `rng(a, b, shape)` written with the process's Philox
//! generator, as XLA's RNG expander does:
//!
//! 1. `state = rng_get_and_update_state {delta}`: the process's (key,
//!    counter), the counter advanced past the blocks this call draws, so
//!    every call (from any thread) gets numbers of its own;
//! 2. `bits = rng_bit_generator PHILOX (state)`: 32-bit words (64-bit for
//!    f64 and 64-bit integers), two per element for NORMAL;
//! 3. UNIFORM float: the top mantissa bits under exponent 0 give `u` in
//!    [1, 2), `a + (b - a)·(u - 1)`, computed in f32 (f64 for f64) and
//!    rounded to the element type; a value rounded up to `b` becomes `a`
//!    (the interval is [a, b)). UNIFORM integer: `a + bits mod (b - a)`,
//!    modulo 2^32 (2^64), `a` when `b <= a`. NORMAL: Box-Muller,
//!    `a + b·sqrt(-2 ln(1 - u))·cos(2π v)`.
//!
//! The numbers are not XLA's (its state and seed are its own; the spec
//! leaves them to the implementation); their distribution is the op's.

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, FloatKind, OpId, Type, TypeKind, Value};

use super::build::{OpBuilder, ops_named};
use crate::names::*;
use crate::ops::misc::rng_distribution;

pub const FLAG: &str = "xla-expand-rng";

pub struct XlaExpandRngPass;

impl strata_pass::Pass for XlaExpandRngPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write rng (uniform, normal) with the process's Philox state and rng_bit_generator"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for op in ops_named(ctx, module, &[RNG]) {
            expand(ctx, op)?;
        }
        Ok(())
    }
}

/// The word width the numbers are made from: 64 for f64 and 64-bit
/// integers, else 32.
fn word_bits(ctx: &Context, elem: Type) -> u32 {
    match ctx.types.kind(elem) {
        TypeKind::Float(FloatKind::F64) => 64,
        TypeKind::Int { width, .. } if *width > 32 => 64,
        _ => 32,
    }
}

fn expand(ctx: &mut Context, op: OpId) -> Result<()> {
    let loc = ctx.op(op).loc;
    let [a, b_, _] = ctx.op(op).operands()[..] else {
        return Err(Diagnostic::internal(loc, "rng takes 3 operands"));
    };
    let result_ty = ctx.value_ty(ctx.op(op).results[0]);
    let shape = ctx
        .types
        .shape(result_ty)
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    let elem = ctx.types.elem(result_ty);
    let normal = rng_distribution(ctx, op) == Some("NORMAL");
    let count = shape.iter().map(|&d| d.max(0)).product::<i64>();
    let words = if normal { 2 * count } else { count };
    let w = word_bits(ctx, elem);
    let mut bld = OpBuilder::before_op(ctx, op)?;
    let bits = draw(&mut bld, words, w);
    let flat = if ctx_is_float(&bld, elem) {
        let fw = bld.ctx.types.float_ty(if w == 64 {
            FloatKind::F64
        } else {
            FloatKind::F32
        });
        let (a_w, b_w) = (convert(&mut bld, a, fw), convert(&mut bld, b_, fw));
        if normal {
            let first = slice(&mut bld, bits, 0, count);
            let second = slice(&mut bld, bits, count, 2 * count);
            let u = unit_interval(&mut bld, first, w);
            let v = unit_interval(&mut bld, second, w);
            let z = box_muller(&mut bld, u, v, w);
            let (b_n, a_n) = (
                splat_of(&mut bld, b_w, count),
                splat_of(&mut bld, a_w, count),
            );
            let scaled = bld.same_type(MULTIPLY, vec![z, b_n]);
            let r = bld.same_type(ADD, vec![scaled, a_n]);
            convert(&mut bld, r, elem)
        } else {
            let u = unit_interval(&mut bld, bits, w);
            let width = bld.same_type(SUBTRACT, vec![b_w, a_w]);
            let (width_n, a_n) = (
                splat_of(&mut bld, width, count),
                splat_of(&mut bld, a_w, count),
            );
            let scaled = bld.same_type(MULTIPLY, vec![u, width_n]);
            let r = bld.same_type(ADD, vec![scaled, a_n]);
            let r = convert(&mut bld, r, elem);
            // [a, b): a value rounded up to b (or any, when b <= a) is a.
            let (a_n, b_n) = (splat_of(&mut bld, a, count), splat_of(&mut bld, b_, count));
            let below = bld.compare("LT", r, b_n);
            bld.select(below, r, a_n)
        }
    } else {
        uniform_int(&mut bld, bits, a, b_, count, w)
    };
    let out = reshape(&mut bld, flat, &shape);
    bld.replace(op, &[out]);
    Ok(())
}

fn ctx_is_float(b: &OpBuilder<'_>, elem: Type) -> bool {
    b.ctx.types.is_float(elem)
}

/// `words` random words of `w` bits (a 1-d tensor), from the process's
/// state advanced past them.
fn draw(b: &mut OpBuilder<'_>, words: i64, w: u32) -> Value {
    let per_block = i64::from(128 / w);
    let u64t = b.ctx.types.uint_ty(64);
    let state_ty = b.tensor(&[2], u64t);
    let i64t = b.ctx.types.int_ty(64);
    let delta = b.ctx.attr(AttrKind::Int {
        value: i128::from((words + per_block - 1) / per_block),
        ty: i64t,
    });
    let state = b.op(
        RNG_GET_AND_UPDATE_STATE,
        vec![],
        state_ty,
        vec![("delta".into(), delta)],
    );
    let word = b.ctx.types.uint_ty(w);
    let bits_ty = b.tensor(&[words], word);
    let alg = b.ctx.attr(AttrKind::String("PHILOX".into()));
    let generator = b.ctx.create_op(
        RNG_BIT_GENERATOR,
        vec![state],
        &[state_ty, bits_ty],
        vec![("rng_algorithm".into(), alg)],
        b.loc,
    );
    b.insert(generator);
    b.ctx.op(generator).results[1]
}

/// `v` converted to the element type `to` (itself if it already is).
fn convert(b: &mut OpBuilder<'_>, v: Value, to: Type) -> Value {
    if b.elem_of(v) == to {
        return v;
    }
    let shape = b.shape_of(v);
    let ty = b.tensor(&shape, to);
    b.op(CONVERT, vec![v], ty, vec![])
}

/// A scalar `v` broadcast to `[n]`.
fn splat_of(b: &mut OpBuilder<'_>, v: Value, n: i64) -> Value {
    b.broadcast(v, vec![], &[n])
}

fn slice(b: &mut OpBuilder<'_>, v: Value, start: i64, end: i64) -> Value {
    let elem = b.elem_of(v);
    let ty = b.tensor(&[end - start], elem);
    let (s, e, st) = (
        b.i64_array(vec![start]),
        b.i64_array(vec![end]),
        b.i64_array(vec![1]),
    );
    b.op(
        SLICE,
        vec![v],
        ty,
        vec![
            ("start_indices".into(), s),
            ("limit_indices".into(), e),
            ("strides".into(), st),
        ],
    )
}

fn reshape(b: &mut OpBuilder<'_>, v: Value, shape: &[i64]) -> Value {
    let elem = b.elem_of(v);
    let ty = b.tensor(shape, elem);
    b.op(RESHAPE, vec![v], ty, vec![])
}

/// A float constant of `[n]` in f32 (w = 32) or f64.
fn float_splat(b: &mut OpBuilder<'_>, x: f64, n: i64, w: u32) -> Value {
    let (bits, kind) = if w == 64 {
        (x.to_bits(), FloatKind::F64)
    } else {
        (u64::from((x as f32).to_bits()), FloatKind::F32)
    };
    let elem = b.ctx.types.float_ty(kind);
    b.splat_bits(bits, &[n], elem)
}

/// Words → floats in [0, 1): the top mantissa bits under the exponent of 1.
fn unit_interval(b: &mut OpBuilder<'_>, bits: Value, w: u32) -> Value {
    let n = b.shape_of(bits)[0];
    let word = b.elem_of(bits);
    let (shift, one) = if w == 64 {
        (12, 0x3FF0_0000_0000_0000u64)
    } else {
        (9, 0x3F80_0000)
    };
    let shift = b.splat_bits(shift, &[n], word);
    let mantissa = b.same_type(SHIFT_RIGHT_LOGICAL, vec![bits, shift]);
    let one_bits = b.splat_bits(one, &[n], word);
    let in_one_two = b.same_type(OR, vec![mantissa, one_bits]);
    let f = b.ctx.types.float_ty(if w == 64 {
        FloatKind::F64
    } else {
        FloatKind::F32
    });
    let ty = b.tensor(&[n], f);
    let x = b.op(BITCAST_CONVERT, vec![in_one_two], ty, vec![]);
    let one = float_splat(b, 1.0, n, w);
    b.same_type(SUBTRACT, vec![x, one])
}

/// Standard normal numbers from two uniform ones in [0, 1).
fn box_muller(b: &mut OpBuilder<'_>, u: Value, v: Value, w: u32) -> Value {
    let n = b.shape_of(u)[0];
    let one = float_splat(b, 1.0, n, w);
    let positive = b.same_type(SUBTRACT, vec![one, u]); // (0, 1]
    let log = b.same_type(LOG, vec![positive]);
    let minus_two = float_splat(b, -2.0, n, w);
    let square = b.same_type(MULTIPLY, vec![minus_two, log]);
    let radius = b.same_type(SQRT, vec![square]);
    let two_pi = float_splat(b, std::f64::consts::TAU, n, w);
    let angle = b.same_type(MULTIPLY, vec![two_pi, v]);
    let cos = b.same_type(COSINE, vec![angle]);
    b.same_type(MULTIPLY, vec![radius, cos])
}

/// `a + bits mod (b - a)` in w-bit unsigned arithmetic; `a` when `b <= a`.
fn uniform_int(b: &mut OpBuilder<'_>, bits: Value, lo: Value, hi: Value, n: i64, w: u32) -> Value {
    let elem = b.elem_of(lo);
    let unsigned = b.ctx.types.is_unsigned(elem);
    let wide = if unsigned {
        b.ctx.types.uint_ty(w)
    } else {
        b.ctx.types.int_ty(w)
    };
    let word = b.ctx.types.uint_ty(w);
    let as_word = |b: &mut OpBuilder<'_>, v: Value| {
        let widened = convert(b, v, wide);
        let ty = b.tensor(&[], word);
        b.op(BITCAST_CONVERT, vec![widened], ty, vec![])
    };
    let (ulo, uhi) = (as_word(b, lo), as_word(b, hi));
    let range = b.same_type(SUBTRACT, vec![uhi, ulo]);
    let range_n = splat_of(b, range, n);
    let offset = b.same_type(REMAINDER, vec![bits, range_n]);
    let ulo_n = splat_of(b, ulo, n);
    let r = b.same_type(ADD, vec![ulo_n, offset]);
    // b <= a (signed or unsigned order): every number is a.
    let (lo_n, hi_n) = (splat_of(b, lo, n), splat_of(b, hi, n));
    let nonempty = b.compare("LT", lo_n, hi_n);
    let r = b.select(nonempty, r, ulo_n);
    let ty = b.tensor(&[n], wide);
    let signed_r = b.op(BITCAST_CONVERT, vec![r], ty, vec![]);
    convert(b, signed_r, elem)
}
