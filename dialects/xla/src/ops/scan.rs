//! `xla.scan(inputs..., inits...)` (CHLO's `scan`): runs its body over
//! `dimension` of the inputs, element slice by slice (from the end when
//! `is_reverse`), threading the carries; the body takes (input slices...,
//! carries...) and returns (output slices..., new carries...). Results: the
//! outputs stacked along `dimension`, then the final carries. `num_inputs`
//! splits the operands.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    /// CHLO's `scan`; `xla-expand-scan` writes it as a `while`.
    pub const SCAN: &str = "xla.scan";
}

/// (inputs, carries, outputs) counts and the scanned dimension's position
/// and length.
pub struct ScanShape {
    pub inputs: usize,
    pub carries: usize,
    pub outputs: usize,
    pub dim: usize,
    pub length: i64,
}

pub fn scan_shape(ctx: &Context, op: OpId) -> Option<ScanShape> {
    let o = ctx.op(op);
    let inputs = usize::try_from(ctx.int_attr(op, "num_inputs")?).ok()?;
    let carries = o.operands().len().checked_sub(inputs)?;
    let outputs = o.results.len().checked_sub(carries)?;
    let dim = usize::try_from(ctx.int_attr(op, "dimension")?).ok()?;
    let first = *o.operands().first()?;
    let length = *ctx.types.shape(ctx.value_ty(first))?.get(dim)?;
    Some(ScanShape {
        inputs,
        carries,
        outputs,
        dim,
        length,
    })
}

pub fn verify_scan(ctx: &Context, op: OpId) -> Result<()> {
    let s = scan_shape(ctx, op).ok_or_else(|| {
        ctx.error(
            op,
            "expects inputs (at least one, with `dimension` in range), inits, and at least as many results as inits",
        )
    })?;
    let o = ctx.op(op);
    let without = |shape: &[i64]| -> Vec<i64> {
        let mut v = shape.to_vec();
        v.remove(s.dim);
        v
    };
    let Some(body) = ctx.entry_block(op, 0) else {
        return Err(ctx.error(op, "expects a body region"));
    };
    let args = &ctx.blocks[body].args;
    if args.len() != s.inputs + s.carries {
        return Err(ctx.error(
            op,
            format!(
                "the body takes {} arguments (input slices, then carries), found {}",
                s.inputs + s.carries,
                args.len()
            ),
        ));
    }
    for i in 0..s.inputs {
        let (shape, elem) = operand_tensor(ctx, op, i)?;
        if shape.get(s.dim) != Some(&s.length) {
            return Err(ctx.error(
                op,
                format!(
                    "input #{i} must have {} elements along dimension {}",
                    s.length, s.dim
                ),
            ));
        }
        let want = ctx.value_ty(args[i]);
        if ctx.types.shape(want) != Some(&without(&shape)[..]) || ctx.types.elem(want) != elem {
            return Err(ctx.error(op, format!("body argument #{i} must be input #{i}'s slice")));
        }
    }
    for c in 0..s.carries {
        let init = ctx.value_ty(o.operands()[s.inputs + c]);
        if ctx.value_ty(args[s.inputs + c]) != init
            || ctx.value_ty(o.results[s.outputs + c]) != init
        {
            return Err(ctx.error(
                op,
                format!("carry #{c}: the body argument and the result must have the init's type"),
            ));
        }
    }
    let returned: Vec<_> = ctx.blocks[body]
        .ops
        .last()
        .map(|&t| ctx.op(t).operands().to_vec())
        .unwrap_or_default();
    if returned.len() != s.outputs + s.carries {
        return Err(ctx.error(
            op,
            format!(
                "the body returns {} values (output slices, then carries), found {}",
                s.outputs + s.carries,
                returned.len()
            ),
        ));
    }
    for k in 0..s.outputs {
        let (shape, elem) = result_tensor(ctx, op, k)?;
        if shape.get(s.dim) != Some(&s.length) {
            return Err(ctx.error(
                op,
                format!(
                    "output #{k} must have {} elements along dimension {}",
                    s.length, s.dim
                ),
            ));
        }
        let slice = ctx.value_ty(returned[k]);
        if ctx.types.shape(slice) != Some(&without(&shape)[..]) || ctx.types.elem(slice) != elem {
            return Err(ctx.error(
                op,
                format!("the body's output #{k} must be a slice of result #{k}"),
            ));
        }
    }
    for c in 0..s.carries {
        if ctx.value_ty(returned[s.outputs + c]) != ctx.value_ty(o.operands()[s.inputs + c]) {
            return Err(ctx.error(
                op,
                format!("the body's new carry #{c} must have the init's type"),
            ));
        }
    }
    Ok(())
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(SCAN, pure)
            .verifier(verify_scan)
            .parser(parse::parse_scan),
    );
}
