//! Reducer and comparator regions emitted as scalar code, and the stack
//! accumulators the reductions fold into.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{BlockId, Value, builtin};

use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::plan::is_elementwise;
use super::scalar;
use crate::builder::Builder;

/// One stack slot per init value, of its element type.
pub(super) fn stack_accumulators(b: &mut Builder<'_>, inits: &[Value]) -> Vec<Value> {
    inits
        .iter()
        .map(|&init| {
            let t = b.ctx.value_ty(init);
            let mt = b.ctx.types.memref_ty(&[], b.ctx.types.elem(t));
            b.alloca(mt)
        })
        .collect()
}

/// Folds `xs` into the accumulators `accs` through the reducer `body`.
pub(super) fn fold_into(
    b: &mut Builder<'_>,
    body: BlockId,
    accs: &[Value],
    xs: Vec<Scalar>,
) -> Result<()> {
    fold_with(b, body, accs, xs, emit_reducer)
}

/// Folds `xs` into `accs` through the reducer `body` exactly as written, for
/// `reduce_window`: XLA:CPU folds each window element by element in window
/// order (no reassociation, no vectorized partial sums), and a reassociated
/// chain (LLVM turns a window of 8 into a tree) lands several ULP off on
/// cumulative sums.
pub(super) fn fold_into_in_order(
    b: &mut Builder<'_>,
    body: BlockId,
    accs: &[Value],
    xs: Vec<Scalar>,
) -> Result<()> {
    fold_with(b, body, accs, xs, emit_region)
}

/// Loads `accs`, applies `emit` (the reducer, as written or reassociable)
/// to them and `xs`, and stores the results back.
fn fold_with(
    b: &mut Builder<'_>,
    body: BlockId,
    accs: &[Value],
    xs: Vec<Scalar>,
    emit: fn(&mut Builder<'_>, BlockId, &[Scalar]) -> Result<Vec<Scalar>>,
) -> Result<()> {
    let mut args: Vec<Scalar> = accs.iter().map(|&a| load_scalar(b, a, &[])).collect();
    args.extend(xs);
    for (i, s) in emit(b, body, &args)?.into_iter().enumerate() {
        store_scalar(b, s, accs[i], &[]);
    }
    Ok(())
}

/// Copies each accumulator to its result at `idx`.
pub(super) fn store_accs(b: &mut Builder<'_>, accs: &[Value], bufs: &[Value], idx: &[Value]) {
    for (i, &acc) in accs.iter().enumerate() {
        let s = load_scalar(b, acc, &[]);
        store_scalar(b, s, bufs[i], idx);
    }
}

/// Emits a reduction's reducer body (ops on 0-d tensors) as scalar code on
/// `args`; returns the values its `xla.return` yields.
///
/// Float ops of the body may be reassociated, so LLVM vectorizes the
/// reduction loop around it, except on f16/bf16, whose per-step rounding
/// makes the order part of the result (XLA's order is reproduced, see
/// `xla-tree-reduce`).
pub fn emit_reducer(b: &mut Builder<'_>, block: BlockId, args: &[Scalar]) -> Result<Vec<Scalar>> {
    let narrow = args.iter().any(|s| {
        let t = b.ty(s.real());
        matches!(b.ctx.types.kind(t), strata_ir::TypeKind::Float(k) if k.width() < 32)
    });
    with_reassoc(b, !narrow, |b| emit_region_ops(b, block, args))
}

/// Emits any other region (map, sort comparator, scatter update,
/// select_and_scatter's select and scatter) exactly as written: no
/// reassociation, each op rounds where the program says.
pub fn emit_region(b: &mut Builder<'_>, block: BlockId, args: &[Scalar]) -> Result<Vec<Scalar>> {
    with_reassoc(b, false, |b| emit_region_ops(b, block, args))
}

fn with_reassoc<T>(b: &mut Builder<'_>, on: bool, f: impl FnOnce(&mut Builder<'_>) -> T) -> T {
    let saved = std::mem::replace(&mut b.reassoc, on);
    let r = f(b);
    b.reassoc = saved;
    r
}

/// How deep `func.call`s inside a region may nest (a call chain this long
/// is taken for recursion, which a scalar body cannot express).
const MAX_CALL_DEPTH: usize = 32;

fn emit_region_ops(b: &mut Builder<'_>, block: BlockId, args: &[Scalar]) -> Result<Vec<Scalar>> {
    emit_block_ops(b, block, args, 0)
}

/// A `func.call` in a region (JAX writes `cumlogsumexp`'s reducer as a call
/// of `@logaddexp`): the callee's body, on 0-d tensors like the region's,
/// is emitted in place on the call's arguments.
fn emit_call(
    b: &mut Builder<'_>,
    op: strata_ir::OpId,
    args: &[Scalar],
    depth: usize,
) -> Result<Vec<Scalar>> {
    if depth >= MAX_CALL_DEPTH {
        return Err(Diagnostic::unsupported(
            b.loc,
            format!("calls nested more than {MAX_CALL_DEPTH} deep (recursion?) inside a region"),
        ));
    }
    let callee = match b.ctx.attr_of(op, "callee").map(|a| b.ctx.attr_kind(a)) {
        Some(strata_ir::AttrKind::SymbolRef(name)) => name.clone(),
        _ => return Err(Diagnostic::internal(b.loc, "call without callee")),
    };
    let func = builtin::enclosing_module(b.ctx, op)
        .and_then(|m| builtin::lookup_func(b.ctx, m, &callee))
        .ok_or_else(|| Diagnostic::error(b.loc, format!("call of unknown function @{callee}")))?;
    let body = b.ctx.entry_block(func, 0).ok_or_else(|| {
        Diagnostic::unsupported(b.loc, format!("call of @{callee}, which has no body"))
    })?;
    if b.ctx.blocks[body].args.len() != args.len() {
        return Err(Diagnostic::error(
            b.loc,
            format!(
                "call of @{callee} with {} arguments, expected {}",
                args.len(),
                b.ctx.blocks[body].args.len()
            ),
        ));
    }
    emit_block_ops(b, body, args, depth + 1)
}

/// A value of the enclosing function used in a region: JAX's comparators
/// read constants defined outside them (`jnp.sort` of floats compares with
/// a 0.0 of the function's body). A constant of one element (or a splat) is
/// its element; anything else is not supported.
fn outer_constant(b: &mut Builder<'_>, v: Value) -> Result<Scalar> {
    let unsupported = |b: &Builder<'_>| {
        Diagnostic::unsupported(
            b.loc,
            "region bodies may only use their own arguments and values, and constants of one element",
        )
    };
    let Some(def) = b
        .ctx
        .defining_op(v)
        .filter(|&d| b.ctx.op(d).name == CONSTANT)
    else {
        return Err(unsupported(b));
    };
    let Some(d) = b.ctx.dense_attr(def, "value").cloned() else {
        return Err(unsupported(b));
    };
    if !d.splat && b.ctx.types.num_elements(d.ty) != 1 {
        return Err(unsupported(b));
    }
    let stored = b.ctx.types.elem(d.ty);
    Ok(super::element::constant_element(b, &d, stored))
}

fn emit_block_ops(
    b: &mut Builder<'_>,
    block: BlockId,
    args: &[Scalar],
    depth: usize,
) -> Result<Vec<Scalar>> {
    let mut env: HashMap<Value, Scalar> = HashMap::new();
    for (a, s) in b.ctx.blocks[block].args.clone().into_iter().zip(args) {
        env.insert(a, *s);
    }
    for op in b.ctx.blocks[block].ops.clone() {
        let name = b.ctx.op(op).name;
        let operands = b.ctx.op(op).operands().to_vec();
        let get = |env: &HashMap<Value, Scalar>, v: &Value, b: &mut Builder<'_>| match env.get(v) {
            Some(&s) => Ok(s),
            None => outer_constant(b, *v),
        };
        if name == RETURN || name == builtin::RETURN {
            return operands.iter().map(|v| get(&env, v, b)).collect();
        }
        if name == builtin::CALL {
            let vals = operands
                .iter()
                .map(|v| get(&env, v, b))
                .collect::<Result<Vec<_>>>()?;
            let saved = b.loc;
            b.loc = b.ctx.op(op).loc;
            let outs = emit_call(b, op, &vals, depth)?;
            b.loc = saved;
            let results = b.ctx.op(op).results.clone();
            if outs.len() != results.len() {
                return Err(Diagnostic::error(
                    b.ctx.op(op).loc,
                    format!(
                        "call returns {} values, expected {}",
                        outs.len(),
                        results.len()
                    ),
                ));
            }
            env.extend(results.into_iter().zip(outs));
            continue;
        }
        let result = b
            .ctx
            .op(op)
            .results
            .first()
            .copied()
            .ok_or_else(|| Diagnostic::internal(b.loc, "op without result in reducer"))?;
        let stored = b.ctx.types.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, stored);
        let saved = b.loc;
        b.loc = b.ctx.op(op).loc;
        let s = if name == CONSTANT {
            let d = b
                .ctx
                .dense_attr(op, "value")
                .cloned()
                .ok_or_else(|| Diagnostic::internal(b.loc, "constant without value"))?;
            super::element::constant_element(b, &d, stored)
        } else if is_elementwise(name) {
            let vals = operands
                .iter()
                .map(|v| get(&env, v, b))
                .collect::<Result<Vec<_>>>()?;
            let value_operand = if matches!(name, SELECT | CLAMP) {
                operands[1]
            } else {
                operands[0]
            };
            let elem = b.ctx.types.elem(b.ctx.value_ty(value_operand));
            let elem = scalar::compute_type(b.ctx, elem);
            let value = scalar::emit(b, op, name, &vals, elem, relem)?;
            scalar::round_to_stored(b, value, stored)
        } else {
            return Err(Diagnostic::unsupported(
                b.loc,
                format!("'{name}' inside a reducer body is not supported yet"),
            ));
        };
        b.loc = saved;
        env.insert(result, s);
    }
    Err(Diagnostic::internal(
        b.loc,
        "reducer body without a terminator",
    ))
}
