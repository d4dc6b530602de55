//! Calls of functions of static types on shape values: JAX computes a
//! dimension variable from an argument's size with helper functions
//! (`divmod`, `floor_divide`, `remainder`, `_where`), called with scalars.

use strata_diag::Result;
use strata_ir::{Context, OpId, builtin};

use super::bindings::{callee, global_constant};
use super::{MAX_CALL_DEPTH, Refiner};
use crate::names::*;

impl Refiner {
    /// The values a call passes to its callee's `jax.global_constant`
    /// parameters are the variables' values: the bindings (which argument
    /// dimension holds `2*b`) were read from the program's structure, and
    /// this checks them against what it computes.
    pub(super) fn check_passed_variables(&self, ctx: &Context, op: OpId, g: OpId) -> Result<()> {
        for (i, v) in ctx.op(op).operands().iter().enumerate() {
            let Some(var) = global_constant(ctx, g, i) else {
                continue;
            };
            let (Some(&want), Some(got)) = (self.values.get(&var), self.known.get(v)) else {
                continue;
            };
            if let [got] = got.as_slice()
                && *got != want
            {
                return Err(ctx.error(
                    op,
                    format!(
                        "passes dimension variable {var} = {got} computed from the arguments' \
                         shapes, where they were given for {var} = {want}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Evaluates a call of `g` (static types) whose operands are known:
    /// its body's ops in order, its results known from what it returns.
    /// The body's values are forgotten after, as `g` may be called with
    /// other values elsewhere. A body with regions, or one past the
    /// evaluation budget, leaves the results unknown (an error later if a
    /// shape needs them).
    pub(super) fn evaluate_call(&mut self, ctx: &Context, op: OpId, g: OpId, depth: usize) {
        if depth > MAX_CALL_DEPTH {
            return;
        }
        let Some(inputs) = ctx
            .op(op)
            .operands()
            .iter()
            .map(|v| self.known.get(v).cloned())
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        let key = (g, inputs);
        let results = match self.evaluated.get(&key) {
            Some(done) => done.clone(),
            None => {
                let done = self.evaluate_body(ctx, g, &key.1, depth);
                self.evaluated.insert(key, done.clone());
                done
            }
        };
        for (&r, value) in ctx.op(op).results.iter().zip(results) {
            if let Some(value) = value {
                self.known.insert(r, value);
            }
        }
    }

    fn evaluate_body(
        &mut self,
        ctx: &Context,
        g: OpId,
        inputs: &[Vec<i64>],
        depth: usize,
    ) -> Vec<Option<Vec<i64>>> {
        let Some(entry) = ctx.entry_block(g, 0) else {
            return vec![];
        };
        let block = &ctx.blocks[entry];
        if block.args.len() != inputs.len() {
            return vec![];
        }
        for (&a, v) in block.args.iter().zip(inputs) {
            self.known.insert(a, v.clone());
        }
        let mut returned = vec![];
        for &o in &block.ops {
            let name = ctx.op(o).name;
            if self.budget == 0 || !ctx.op(o).regions.is_empty() {
                break;
            }
            self.budget -= 1;
            if name == builtin::RETURN || name == RETURN {
                returned = ctx
                    .op(o)
                    .operands()
                    .iter()
                    .map(|v| self.known.get(v).cloned())
                    .collect();
                break;
            }
            match callee(ctx, o) {
                Some(h) if name == builtin::CALL => self.evaluate_call(ctx, o, h, depth + 1),
                _ => self.evaluate(ctx, o),
            }
        }
        for &a in &block.args {
            self.known.remove(&a);
        }
        for &o in &block.ops {
            for r in &ctx.op(o).results {
                self.known.remove(r);
            }
        }
        returned
    }
}
