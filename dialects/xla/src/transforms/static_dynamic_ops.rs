//! `xla-static-dynamic-ops`: rewrites StableHLO's dynamic_* ops whose
//! shape, padding or size operands are constants into their static twins:
//! `dynamic_broadcast_in_dim` → `broadcast_in_dim`, `dynamic_iota` →
//! `iota`, `dynamic_reshape` → `reshape`, `dynamic_pad` → `pad`,
//! `dynamic_gather` → `gather`, `dynamic_conv` → `convolution`,
//! `real_dynamic_slice` → `slice`.
//!
//! Result types are static, so a constant shape operand must agree with the
//! result type (a located error otherwise). Operands computed at run time
//! are not supported (a located error says so), except a
//! `real_dynamic_slice` from a start computed at run time to `start +
//! constant sizes`, which becomes a `dynamic_slice`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, OpId, Value};

use crate::names::*;

pub const FLAG: &str = "xla-static-dynamic-ops";

pub struct XlaStaticDynamicOpsPass;

impl strata_pass::Pass for XlaStaticDynamicOpsPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "rewrite dynamic_* ops with constant shape operands into their static twins"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut found = Vec::new();
        ctx.walk_nested(module, &mut |op| {
            if DYNAMIC_OPS.contains(&ctx.op(op).name) {
                found.push(op);
            }
        });
        for op in found {
            rewrite(ctx, op)?;
        }
        Ok(())
    }
}

/// The integers of a constant operand (`xla.constant`), if it is one.
fn constant_ints(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    let op = ctx.defining_op(v)?;
    if ctx.op(op).name != CONSTANT {
        return None;
    }
    let d = ctx.dense_attr(op, "value")?;
    let elem = ctx.types.elem(d.ty);
    if !ctx.types.is_int(elem) {
        return None;
    }
    let n = ctx.types.num_elements(d.ty) as usize;
    Some(
        (0..n)
            .map(|i| {
                strata_ir::dense::int_value(ctx, strata_ir::dense::element_bits(ctx, d, i)[0], elem)
                    as i64
            })
            .collect(),
    )
}

fn ints_of(ctx: &Context, op: OpId, i: usize, what: &str) -> Result<Vec<i64>> {
    let v = ctx.op(op).operands()[i];
    constant_ints(ctx, v).ok_or_else(|| {
        Diagnostic::unsupported(
            ctx.op(op).loc,
            format!("'{}' with an operand ({what}) computed at run time is not supported (only constants)", ctx.op(op).name),
        )
    })
}

fn result_shape(ctx: &Context, op: OpId) -> Vec<i64> {
    ctx.types
        .shape(ctx.value_ty(ctx.op(op).results[0]))
        .map(|s| s.to_vec())
        .unwrap_or_default()
}

fn expect_shape(ctx: &Context, op: OpId, shape: &[i64]) -> Result<()> {
    let want = result_shape(ctx, op);
    if shape != want.as_slice() {
        return Err(ctx.error(
            op,
            format!(
                "output shape {:?} does not match the result type's {:?}",
                shape, want
            ),
        ));
    }
    Ok(())
}

/// Makes `op` a `name` op on `operands` with `attrs`, in place (its result
/// keeps its uses: a new op put in its place would cost the length of its
/// block, quadratic over a function of many dynamic ops). The dynamic ops
/// have no verifier of their own, so the static op is verified here: a
/// missing or bad attribute is the user's error at `op`, not invalid IR
/// after the pass (found by fuzzing, FUZZING.md B18).
fn make_static(
    ctx: &mut Context,
    op: OpId,
    name: &'static str,
    operands: Vec<Value>,
    mut attrs: Vec<(String, strata_ir::Attr)>,
    drop: &[&str],
) -> Result<()> {
    for (k, a) in ctx.op(op).attrs.clone() {
        if !drop.contains(&k.as_str()) && !attrs.iter().any(|(n, _)| *n == k) {
            attrs.push((k, a));
        }
    }
    let dynamic = ctx.op(op).name;
    let o = ctx.op_mut(op);
    o.name = name;
    o.attrs = attrs;
    ctx.set_operands(op, operands);
    if let Err(e) = strata_ir::verify::verify_definition(ctx, op) {
        let message = format!(
            "{} (the static form of '{dynamic}' with constant operands)",
            e.message
        );
        return Err(Diagnostic::error(ctx.op(op).loc, message));
    }
    Ok(())
}

/// The value `v` when `limit` is `start + v` (either order): a slice of
/// `v`'s sizes from `start`.
pub fn sizes_past(ctx: &Context, start: Value, limit: Value) -> Option<Value> {
    let add = ctx.defining_op(limit).filter(|&o| ctx.op(o).name == ADD)?;
    match ctx.op(add).operands() {
        [a, b] if *a == start => Some(*b),
        [a, b] if *b == start => Some(*a),
        _ => None,
    }
}

/// `real_dynamic_slice(x, start, start + sizes, 1...)` with `start`
/// computed at run time and the sizes constant (JAX slicing a batched value
/// at a loop's index, once the batch is known) → `dynamic_slice(x,
/// start[0], start[1], ...)` of those sizes. JAX clamps the start itself;
/// dynamic_slice's own clamping then changes nothing.
fn dynamic_slice_at_start(ctx: &mut Context, op: OpId) -> Result<()> {
    let operands = ctx.op(op).operands().to_vec();
    let unsupported = || {
        Diagnostic::unsupported(
            ctx.op(op).loc,
            format!(
                "'{}' with an operand (start indices) computed at run time is not supported \
                 (only with the limit start + constant sizes and unit strides)",
                ctx.op(op).name
            ),
        )
    };
    let sizes = sizes_past(ctx, operands[1], operands[2])
        .and_then(|v| constant_ints(ctx, v))
        .ok_or_else(unsupported)?;
    let strides = constant_ints(ctx, operands[3]).ok_or_else(unsupported)?;
    if strides.iter().any(|&s| s != 1) || sizes.len() != strides.len() {
        return Err(unsupported());
    }
    let index_ty = ctx.types.elem(ctx.value_ty(operands[1]));
    let mut b = super::build::OpBuilder::before_op(ctx, op)?;
    let one = b.tensor(&[1], index_ty);
    let scalar = b.tensor(&[], index_ty);
    let fixed: Vec<Option<i64>> = (0..sizes.len())
        .map(|i| fixed_element(b.ctx, operands[1], i))
        .collect();
    let mut starts = vec![operands[0]];
    for i in 0..sizes.len() as i64 {
        if let Some(v) = fixed[i as usize] {
            // Two's complement bits of the index type's width.
            let bits =
                (v as u64) & (u64::MAX >> (64 - b.ctx.types.bit_width(index_ty).clamp(1, 64)));
            starts.push(b.splat_bits(bits, &[], index_ty));
            continue;
        }
        let attrs = vec![
            ("start_indices".to_string(), b.i64_array(vec![i])),
            ("limit_indices".to_string(), b.i64_array(vec![i + 1])),
            ("strides".to_string(), b.i64_array(vec![1])),
        ];
        let piece = b.op(SLICE, vec![operands[1]], one, attrs);
        starts.push(b.op(RESHAPE, vec![piece], scalar, vec![]));
    }
    let attrs = vec![("slice_sizes".to_string(), array(ctx, sizes))];
    make_static(ctx, op, DYNAMIC_SLICE, starts, attrs, &[])
}

/// Element `i` of the start vector when it is known although the vector
/// is not: a constant, or clamped between equal constant bounds (JAX clamps
/// a start into `[0, dim - size]`, a single value along a dimension taken
/// whole: the batch's).
fn fixed_element(ctx: &Context, start: Value, i: usize) -> Option<i64> {
    if let Some(v) = constant_ints(ctx, start) {
        return v.get(i).copied();
    }
    let clamp = ctx
        .defining_op(start)
        .filter(|&o| ctx.op(o).name == CLAMP)?;
    let [lo, _, hi] = ctx.op(clamp).operands() else {
        return None;
    };
    let at = |v: &[i64]| if v.len() == 1 { v.first() } else { v.get(i) }.copied();
    let (lo, hi) = (
        at(&constant_ints(ctx, *lo)?)?,
        at(&constant_ints(ctx, *hi)?)?,
    );
    (lo == hi).then_some(lo)
}

fn array(ctx: &mut Context, values: Vec<i64>) -> strata_ir::Attr {
    let elem = ctx.types.int_ty(64);
    ctx.attr(AttrKind::DenseArray { elem, values })
}

/// How many operands each dynamic op takes (they have no verifier).
fn operand_count(name: &str) -> usize {
    match name {
        DYNAMIC_IOTA => 1,
        DYNAMIC_BROADCAST_IN_DIM | DYNAMIC_RESHAPE => 2,
        DYNAMIC_GATHER | DYNAMIC_CONV => 3,
        DYNAMIC_PAD => 5,
        REAL_DYNAMIC_SLICE => 4,
        _ => 0,
    }
}

fn expect_arity(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let want = operand_count(o.name);
    if o.operands().len() != want || o.results.len() != 1 {
        return Err(ctx.error(
            op,
            format!(
                "expects {want} operands and 1 result, found {} and {}",
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    Ok(())
}

fn rewrite(ctx: &mut Context, op: OpId) -> Result<()> {
    expect_arity(ctx, op)?;
    let operands = ctx.op(op).operands().to_vec();
    match ctx.op(op).name {
        DYNAMIC_BROADCAST_IN_DIM => {
            let shape = ints_of(ctx, op, 1, "output shape")?;
            expect_shape(ctx, op, &shape)?;
            make_static(
                ctx,
                op,
                BROADCAST_IN_DIM,
                vec![operands[0]],
                vec![],
                &[
                    "known_expanding_dimensions",
                    "known_nonexpanding_dimensions",
                ],
            )?;
        }
        DYNAMIC_IOTA => {
            let shape = ints_of(ctx, op, 0, "output shape")?;
            expect_shape(ctx, op, &shape)?;
            make_static(ctx, op, IOTA, vec![], vec![], &[])?;
        }
        DYNAMIC_RESHAPE => {
            let shape = ints_of(ctx, op, 1, "output shape")?;
            expect_shape(ctx, op, &shape)?;
            make_static(ctx, op, RESHAPE, vec![operands[0]], vec![], &[])?;
        }
        DYNAMIC_PAD => {
            let lo = ints_of(ctx, op, 2, "low padding")?;
            let hi = ints_of(ctx, op, 3, "high padding")?;
            let interior = ints_of(ctx, op, 4, "interior padding")?;
            let attrs = vec![
                ("edge_padding_low".to_string(), array(ctx, lo)),
                ("edge_padding_high".to_string(), array(ctx, hi)),
                ("interior_padding".to_string(), array(ctx, interior)),
            ];
            make_static(ctx, op, PAD, vec![operands[0], operands[1]], attrs, &[])?;
        }
        REAL_DYNAMIC_SLICE if constant_ints(ctx, operands[1]).is_none() => {
            dynamic_slice_at_start(ctx, op)?;
        }
        REAL_DYNAMIC_SLICE => {
            let start = ints_of(ctx, op, 1, "start indices")?;
            let limit = ints_of(ctx, op, 2, "limit indices")?;
            let strides = ints_of(ctx, op, 3, "strides")?;
            let attrs = vec![
                ("start_indices".to_string(), array(ctx, start)),
                ("limit_indices".to_string(), array(ctx, limit)),
                ("strides".to_string(), array(ctx, strides)),
            ];
            make_static(ctx, op, SLICE, vec![operands[0]], attrs, &[])?;
        }
        DYNAMIC_GATHER => {
            let sizes = ints_of(ctx, op, 2, "slice sizes")?;
            let attrs = vec![("slice_sizes".to_string(), array(ctx, sizes))];
            make_static(ctx, op, GATHER, vec![operands[0], operands[1]], attrs, &[])?;
        }
        DYNAMIC_CONV => {
            let pads = ints_of(ctx, op, 2, "padding")?;
            let i64t = ctx.types.int_ty(64);
            let n = pads.len() as i64 / 2;
            let ty = ctx.types.tensor_ty(&[n, 2], i64t);
            let dense = strata_ir::DenseElements {
                ty,
                splat: false,
                bits: pads.iter().map(|&p| p as u64).collect(),
            };
            let attrs = vec![("padding".to_string(), ctx.attr(AttrKind::Dense(dense)))];
            make_static(
                ctx,
                op,
                CONVOLUTION,
                vec![operands[0], operands[1]],
                attrs,
                &[],
            )?;
        }
        _ => {}
    }
    Ok(())
}
