//! `xla-remove-dead-ops`: a pure op (`Traits::PURE`, no regions) whose
//! results nothing uses is removed, as XLA's dead-code elimination does.
//!
//! JAX's exports keep computations whose results are dropped: the Q of
//! `jnp.linalg.qr(a)[1]` (an orgqr custom call, as costly as the
//! factorization), shape computations left behind once
//! `xla-static-dynamic-ops` made their consumers static (their constants
//! would be taken for data by the every-size batch analysis). A custom call
//! with effects, an RNG, a collective or a check is not pure and stays.

use std::collections::HashMap;

use strata_diag::Result;
use strata_ir::{Context, OpId, Value};

pub const FLAG: &str = "xla-remove-dead-ops";

pub struct XlaRemoveDeadOpsPass;

impl strata_pass::Pass for XlaRemoveDeadOpsPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "remove pure ops whose results nothing uses"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        remove_dead_ops(ctx, module);
        Ok(())
    }
}

/// Removes the pure ops whose results nothing uses. One reverse walk:
/// users come after definitions, nested ops after their parents, so an op
/// whose only users were removed goes in the same walk.
pub fn remove_dead_ops(ctx: &mut Context, module: OpId) {
    let mut ops = Vec::new();
    ctx.walk_nested(module, &mut |o| ops.push(o));
    let mut uses: HashMap<Value, usize> = HashMap::new();
    for &o in &ops {
        for &v in ctx.op(o).operands() {
            *uses.entry(v).or_default() += 1;
        }
    }
    let mut dead = Vec::new();
    for &o in ops.iter().rev() {
        let op = ctx.op(o);
        let pure = ctx
            .op_def(op.name)
            .is_some_and(|d| d.traits.has(strata_ir::Traits::PURE));
        let unused = op
            .results
            .iter()
            .all(|r| uses.get(r).copied().unwrap_or(0) == 0);
        if pure && unused && !op.results.is_empty() && op.regions.is_empty() {
            for v in op.operands().to_vec() {
                if let Some(n) = uses.get_mut(&v) {
                    *n = n.saturating_sub(1);
                }
            }
            dead.push(o);
        }
    }
    ctx.detach_ops(&dead);
}
