//! Structural verifier, then each op's own verifier.
//!
//! Checks, for every op nested in the root:
//! - the op is registered;
//! - every operand is defined before its use, in the same block or an
//!   enclosing one (and not across an isolated-from-above op);
//! - a non-empty block ends with a terminator, and terminators are last;
//! - the op's registered verifier accepts it;
//! - for a module, that its functions do not call each other in a cycle
//!   (`call_graph`).
//!
//! All problems are collected, not only the first.

use std::collections::HashSet;

use strata_diag::Diagnostic;

use crate::context::Traits;
use crate::context::{Context, OpId, Value};

pub fn verify(ctx: &Context, root: OpId) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut visible: Vec<HashSet<Value>> = vec![HashSet::new()];
    verify_op(ctx, root, &mut visible, &mut errors);
    if errors.is_empty() && ctx.op(root).name == crate::builtin::MODULE {
        if let Err(d) = crate::call_graph::check_acyclic(ctx, root) {
            errors.push(d);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn verify_op(
    ctx: &Context,
    op: OpId,
    visible: &mut Vec<HashSet<Value>>,
    errors: &mut Vec<Diagnostic>,
) {
    let o = ctx.op(op);
    let Some(def) = ctx.op_def(o.name) else {
        errors.push(Diagnostic::internal(
            o.loc,
            format!("unregistered operation '{}'", o.name),
        ));
        return;
    };
    for (i, &v) in o.operands().iter().enumerate() {
        if !visible.iter().any(|s| s.contains(&v)) {
            errors.push(ctx.error(op, format!("operand #{i} does not dominate this use")));
        }
    }
    let isolated = def.traits.has(Traits::ISOLATED);
    for &r in &o.regions {
        let saved = if isolated {
            Some(std::mem::replace(visible, vec![HashSet::new()]))
        } else {
            None
        };
        for &b in &ctx.regions[r].blocks {
            visible.push(ctx.blocks[b].args.iter().copied().collect());
            let ops = &ctx.blocks[b].ops;
            for (i, &inner) in ops.iter().enumerate() {
                verify_op(ctx, inner, visible, errors);
                let is_term = ctx
                    .registry
                    .traits(ctx.op(inner).name)
                    .has(Traits::TERMINATOR);
                if is_term && i + 1 != ops.len() {
                    errors.push(ctx.error(inner, "must be the last operation in its block"));
                }
                if let Some(top) = visible.last_mut() {
                    top.extend(ctx.op(inner).results.iter().copied());
                }
            }
            let needs_terminator = ctx.op(op).name != crate::builtin::MODULE;
            match ops.last() {
                Some(&last)
                    if needs_terminator
                        && !ctx
                            .registry
                            .traits(ctx.op(last).name)
                            .has(Traits::TERMINATOR) =>
                {
                    errors.push(ctx.error(
                        last,
                        "block must end with a terminator (like 'func.return')",
                    ));
                }
                None if needs_terminator => {
                    errors.push(ctx.error(op, "has an empty block; expected a terminator"));
                }
                _ => {}
            }
            visible.pop();
        }
        if let Some(s) = saved {
            *visible = s;
        }
    }
    if let Err(e) = verify_definition(ctx, op) {
        errors.push(e);
    }
}

/// What the op's definition requires of it: the counts it always has, then
/// its own verifier (which may index operands and results once the counts
/// hold). For passes that build an op from the user's values and want the
/// user's error, not invalid IR, when it does not fit.
pub fn verify_definition(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let Some(def) = ctx.op_def(ctx.op(op).name) else {
        return Ok(());
    };
    if let Some((operands, results)) = def.counts {
        let o = ctx.op(op);
        if o.operands().len() != operands {
            return Err(ctx.error(
                op,
                format!("expects {operands} operands, found {}", o.operands().len()),
            ));
        }
        if o.results.len() != results {
            return Err(ctx.error(
                op,
                format!("expects {results} results, found {}", o.results.len()),
            ));
        }
    }
    match def.verify {
        Some(f) => f(ctx, op),
        None => Ok(()),
    }
}
