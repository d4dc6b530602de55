//! `xla-expand-scan`: writes `scan` (CHLO's, see `ops/scan.rs`) as a
//! `while` over the scanned dimension, as CHLO's own decomposition does.
//!
//! State: (i, carries..., outputs...), the outputs starting as zeros. Each
//! iteration takes slice j (j = i, or length - 1 - i when `is_reverse`) of
//! every input with `dynamic_slice` + `reshape`, runs a copy of the scan's
//! body on the slices and carries, and writes the output slices at j with
//! `dynamic_update_slice`. The scan's results are the while's outputs and
//! carries.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, OpId, Traits, Type, Value};

use super::build::{OpBuilder, ops_named};
use crate::names::*;
use crate::ops::scan::{ScanShape, scan_shape};

pub const FLAG: &str = "xla-expand-scan";

pub struct XlaExpandScanPass;

impl strata_pass::Pass for XlaExpandScanPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write scan as a while over the scanned dimension"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        // Innermost first: a scan in a scan's body is expanded before the
        // body is copied.
        for op in ops_named(ctx, module, &[SCAN]).into_iter().rev() {
            expand(ctx, op)?;
        }
        Ok(())
    }
}

fn expand(ctx: &mut Context, op: OpId) -> Result<()> {
    let loc = ctx.op(op).loc;
    let s = scan_shape(ctx, op).ok_or_else(|| Diagnostic::internal(loc, "malformed scan"))?;
    let reverse = matches!(
        ctx.attr_of(op, "is_reverse").map(|a| ctx.attr_kind(a)),
        Some(AttrKind::Bool(true) | AttrKind::Unit)
    );
    let operands = ctx.op(op).operands().to_vec();
    let (inputs, inits) = operands.split_at(s.inputs);
    let result_types: Vec<Type> = ctx
        .op(op)
        .results
        .iter()
        .map(|&r| ctx.value_ty(r))
        .collect();
    let i64t = ctx.types.int_ty(64);
    let mut b = OpBuilder::before_op(ctx, op)?;
    let start = b.splat_bits(0, &[], i64t);
    let mut state = vec![start];
    state.extend_from_slice(inits);
    for &ty in &result_types[..s.outputs] {
        let shape = b.ctx.types.shape(ty).unwrap_or(&[]).to_vec();
        let elem = b.ctx.types.elem(ty);
        state.push(b.splat_bits(0, &shape, elem));
    }
    let state_types: Vec<Type> = state.iter().map(|&v| b.ctx.value_ty(v)).collect();
    let while_op = b
        .ctx
        .create_op(WHILE, state.clone(), &state_types, vec![], loc);
    build_cond(b.ctx, while_op, &state_types, s.length, loc);
    build_body(b.ctx, op, while_op, &state_types, inputs, &s, reverse, loc)?;
    b.insert(while_op);
    let results = b.ctx.op(while_op).results.clone();
    let (carries, outputs) = results[1..].split_at(s.carries);
    let mut replacement = outputs.to_vec();
    replacement.extend_from_slice(carries);
    b.replace(op, &replacement);
    Ok(())
}

/// `i < length`.
fn build_cond(
    ctx: &mut Context,
    while_op: OpId,
    types: &[Type],
    length: i64,
    loc: strata_diag::Location,
) {
    let region = ctx.add_region(while_op);
    let block = ctx.add_block(region, types);
    let i = ctx.blocks[block].args[0];
    let i64t = ctx.types.int_ty(64);
    let mut b = OpBuilder {
        ctx,
        block,
        before: None,
        loc,
    };
    let n = b.splat_bits(length as u64, &[], i64t);
    let more = b.compare("LT", i, n);
    let ret = b.ctx.create_op(RETURN, vec![more], &[], vec![], loc);
    b.insert(ret);
}

#[allow(clippy::too_many_arguments)]
fn build_body(
    ctx: &mut Context,
    scan: OpId,
    while_op: OpId,
    types: &[Type],
    inputs: &[Value],
    s: &ScanShape,
    reverse: bool,
    loc: strata_diag::Location,
) -> Result<()> {
    let region = ctx.add_region(while_op);
    let block = ctx.add_block(region, types);
    let args = ctx.blocks[block].args.clone();
    let (i, rest) = (args[0], &args[1..]);
    let (carries, outputs) = rest.split_at(s.carries);
    let scan_body = ctx
        .entry_block(scan, 0)
        .ok_or_else(|| Diagnostic::internal(loc, "scan without a body"))?;
    let body_args = ctx.blocks[scan_body].args.clone();
    let body_ops = ctx.blocks[scan_body].ops.clone();
    let i64t = ctx.types.int_ty(64);
    let mut b = OpBuilder {
        ctx,
        block,
        before: None,
        loc,
    };
    let j = if reverse {
        let last = b.splat_bits((s.length - 1) as u64, &[], i64t);
        b.same_type(SUBTRACT, vec![last, i])
    } else {
        i
    };
    let zero = b.splat_bits(0, &[], i64t);
    let mut values: HashMap<Value, Value> = HashMap::new();
    for (k, &input) in inputs.iter().enumerate() {
        let slice_ty = b.ctx.value_ty(body_args[k]);
        let slice = slice_at(&mut b, input, s.dim, j, zero, slice_ty);
        values.insert(body_args[k], slice);
    }
    for (c, &carry) in carries.iter().enumerate() {
        values.insert(body_args[s.inputs + c], carry);
    }
    let mut returned = Vec::new();
    for op in body_ops {
        if b.ctx
            .registry
            .traits(b.ctx.op(op).name)
            .has(Traits::TERMINATOR)
        {
            returned = b
                .ctx
                .op(op)
                .operands()
                .iter()
                .map(|v| *values.get(v).unwrap_or(v))
                .collect();
            continue;
        }
        let copy = b.ctx.clone_op_with(op, &mut values);
        b.insert(copy);
    }
    let one = b.splat_bits(1, &[], i64t);
    let next = b.same_type(ADD, vec![i, one]);
    let mut new_state = vec![next];
    new_state.extend_from_slice(&returned[s.outputs..]);
    for (k, &acc) in outputs.iter().enumerate() {
        new_state.push(update_at(&mut b, acc, returned[k], s.dim, j, zero));
    }
    let ret = b.ctx.create_op(RETURN, new_state, &[], vec![], loc);
    b.insert(ret);
    Ok(())
}

/// Start indices: `j` at `dim`, 0 elsewhere.
fn starts(rank: usize, dim: usize, j: Value, zero: Value) -> Vec<Value> {
    (0..rank).map(|d| if d == dim { j } else { zero }).collect()
}

/// Slice `j` of `input` along `dim`, reshaped to `slice_ty` (dim removed).
fn slice_at(
    b: &mut OpBuilder<'_>,
    input: Value,
    dim: usize,
    j: Value,
    zero: Value,
    slice_ty: Type,
) -> Value {
    let mut sizes = b.shape_of(input);
    sizes[dim] = 1;
    let elem = b.elem_of(input);
    let one_ty = b.tensor(&sizes, elem);
    let mut operands = vec![input];
    operands.extend(starts(sizes.len(), dim, j, zero));
    let sizes_attr = b.i64_array(sizes);
    let slice = b.op(
        DYNAMIC_SLICE,
        operands,
        one_ty,
        vec![("slice_sizes".into(), sizes_attr)],
    );
    b.op(RESHAPE, vec![slice], slice_ty, vec![])
}

/// `acc` with `slice` (dim removed) written at `j` along `dim`.
fn update_at(
    b: &mut OpBuilder<'_>,
    acc: Value,
    slice: Value,
    dim: usize,
    j: Value,
    zero: Value,
) -> Value {
    let mut shape = b.shape_of(slice);
    shape.insert(dim, 1);
    let elem = b.elem_of(slice);
    let one_ty = b.tensor(&shape, elem);
    let update = b.op(RESHAPE, vec![slice], one_ty, vec![]);
    let mut operands = vec![acc, update];
    operands.extend(starts(shape.len(), dim, j, zero));
    b.same_type(DYNAMIC_UPDATE_SLICE, operands)
}
