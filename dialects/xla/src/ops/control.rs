//! `xla.while`, `xla.if`, `xla.case`.

use strata_diag::Result;
use strata_ir::{BlockId, Context, OpId, Type};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const RETURN: &str = "xla.return";
    pub const WHILE: &str = "xla.while";
    pub const IF: &str = "xla.if";
    pub const CASE: &str = "xla.case";
}

/// Types the terminator of `block` returns.
fn returned(ctx: &Context, block: BlockId) -> Vec<Type> {
    ctx.blocks[block]
        .ops
        .last()
        .map(|&t| {
            ctx.op(t)
                .operands()
                .iter()
                .map(|&v| ctx.value_ty(v))
                .collect()
        })
        .unwrap_or_default()
}

fn args(ctx: &Context, block: BlockId) -> Vec<Type> {
    ctx.blocks[block]
        .args
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect()
}

pub fn verify_while(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let ins: Vec<Type> = o.operands().iter().map(|&v| ctx.value_ty(v)).collect();
    let outs: Vec<Type> = o.results.iter().map(|&v| ctx.value_ty(v)).collect();
    if ins != outs {
        return Err(ctx.error(op, "results must have the types of the operands"));
    }
    let (Some(cond), Some(body)) = (ctx.entry_block(op, 0), ctx.entry_block(op, 1)) else {
        return Err(ctx.error(op, "requires a cond region and a body region"));
    };
    if args(ctx, cond) != ins || args(ctx, body) != ins {
        return Err(ctx.error(
            op,
            "cond and body must take arguments of the operands' types",
        ));
    }
    let c = returned(ctx, cond);
    let pred = c.len() == 1
        && tensor_of_type(ctx, c[0]).is_some_and(|(s, e)| s.is_empty() && is_bool(ctx, e));
    if !pred {
        return Err(ctx.error(op, "cond must return one tensor<i1>"));
    }
    if returned(ctx, body) != ins {
        return Err(ctx.error(op, "body must return values of the operands' types"));
    }
    for t in &ins {
        if tensor_of_type(ctx, *t).is_none() {
            return Err(ctx.error(
                op,
                "loop-carried values must be tensors (tuples and tokens are not supported)",
            ));
        }
    }
    Ok(())
}

/// `xla.if` (tensor<i1> predicate, two branches) and `xla.case`
/// (tensor<i32> index, one or more branches).
pub fn verify_branches(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 1 {
        return Err(ctx.error(op, "expects one operand (the predicate or index)"));
    }
    let (s, e) = operand_tensor(ctx, op, 0)?;
    let is_if = o.name == IF;
    let ok = s.is_empty()
        && if is_if {
            is_bool(ctx, e)
        } else {
            is_int(ctx, e) && ctx.types.bit_width(e) == 32
        };
    if !ok {
        return Err(ctx.error(
            op,
            if is_if {
                "predicate must be a tensor<i1>"
            } else {
                "index must be a tensor<i32>"
            },
        ));
    }
    let n = o.regions.len();
    if (is_if && n != 2) || n == 0 {
        return Err(ctx.error(
            op,
            format!(
                "expects {} branches, found {n}",
                if is_if { "2" } else { "at least 1" }
            ),
        ));
    }
    let outs: Vec<Type> = o.results.iter().map(|&v| ctx.value_ty(v)).collect();
    for i in 0..n {
        let Some(b) = ctx.entry_block(op, i) else {
            return Err(ctx.error(op, format!("branch {i} is empty")));
        };
        if !args(ctx, b).is_empty() || returned(ctx, b) != outs {
            return Err(ctx.error(
                op,
                format!("branch {i} must take no arguments and return the result types"),
            ));
        }
    }
    for t in &outs {
        if tensor_of_type(ctx, *t).is_none() {
            return Err(ctx.error(
                op,
                "results must be tensors (tuples and tokens are not supported)",
            ));
        }
    }
    Ok(())
}

fn tensor_of_type(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.types.kind(t) {
        strata_ir::TypeKind::Tensor { shape, elem } => Some((shape.clone(), *elem)),
        _ => None,
    }
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    r.add(
        OpDef::new(WHILE, Traits::NONE)
            .verifier(verify_while)
            .parser(parse::parse_while),
    );
    r.add(OpDef::new(IF, Traits::NONE).verifier(verify_branches));
    r.add(OpDef::new(CASE, Traits::NONE).verifier(verify_branches));
    r.add(OpDef::new(RETURN, Traits::TERMINATOR).parser(parse::parse_return));
}
