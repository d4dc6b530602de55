//! `xla-plan-donation`: which donated arguments a result may share its
//! buffer with, so that an update is made in place.
//!
//! JAX marks donation on the exported function's arguments:
//! `tf.aliasing_output = j` pairs the argument with result j
//! (`jax.jit(f, donate_argnums=...)`), and `jax.buffer_donor = true` donates
//! it to any result of its type. XLA then writes that result into the
//! argument's buffer. Strata does so when it is safe whatever the caller
//! does: result j is a `dynamic_update_slice` or `scatter` whose operand is
//! the argument itself, and nothing else reads the argument, so the update
//! may read and write the same memory (its copy of the operand is skipped
//! when the two buffers are one, and only the updated elements are
//! written: a KV cache's one new row, not the whole cache).
//!
//! Output: the public function gets `strata.aliases = array<i64: i, j,
//! ...>` (argument i, result j, for every pair that may share a buffer),
//! which the header lists and codegen reads (no `noalias` on those
//! parameters). A donation that is not safe this way is not declared: the
//! caller must then pass distinct buffers, as for any other argument.

use strata_diag::Result;
use strata_ir::{AttrKind, Context, OpId, TypeKind, Value, builtin};

use crate::names::{DYNAMIC_UPDATE_SLICE, SCATTER};

pub const FLAG: &str = "xla-plan-donation";

/// The attribute recording the pairs.
pub const ALIASES: &str = "strata.aliases";

pub struct XlaPlanDonationPass;

impl strata_pass::Pass for XlaPlanDonationPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "let a donated argument share its buffer with the result that updates it in place"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for f in builtin::defined_funcs(ctx, module) {
            if builtin::is_private(ctx, f) {
                continue;
            }
            let pairs = safe_pairs(ctx, f);
            if !pairs.is_empty() {
                let elem = ctx.types.int_ty(64);
                let values = pairs
                    .iter()
                    .flat_map(|&(i, j)| [i as i64, j as i64])
                    .collect();
                let a = ctx.attr(AttrKind::DenseArray { elem, values });
                ctx.set_attr(f, ALIASES, a);
            }
        }
        Ok(())
    }
}

/// The attribute dictionary `index` of `f`'s `which` (`arg_attrs` or
/// `res_attrs`).
fn dict_entry(ctx: &Context, f: OpId, which: &str, index: usize, key: &str) -> Option<AttrKind> {
    builtin::signature_attr(ctx, f, which, index, key).map(|a| ctx.attr_kind(a).clone())
}

/// The (argument, result) pairs of `f` that may share a buffer.
fn safe_pairs(ctx: &Context, f: OpId) -> Vec<(usize, usize)> {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return vec![];
    };
    let args = ctx.blocks[entry].args.clone();
    let Some((_, results)) = builtin::func_signature(ctx, f) else {
        return vec![];
    };
    // Tuples flatten into several buffers: pairs are kept to tensors.
    let all_tensors = args
        .iter()
        .map(|&a| ctx.value_ty(a))
        .chain(results.iter().copied())
        .all(|t| matches!(ctx.types.kind(t), TypeKind::Tensor { .. }));
    if !all_tensors {
        return vec![];
    }
    let Some(ret) = ctx.blocks[entry]
        .ops
        .last()
        .copied()
        .filter(|&o| ctx.op(o).name == builtin::RETURN)
    else {
        return vec![];
    };
    let returned = ctx.op(ret).operands().to_vec();
    let mut taken = vec![false; results.len()];
    let mut pairs = Vec::new();
    for (i, &arg) in args.iter().enumerate() {
        let paired = match dict_entry(ctx, f, "arg_attrs", i, "tf.aliasing_output") {
            Some(AttrKind::Int { value, .. }) => usize::try_from(value).ok(),
            _ => None,
        };
        let donor = matches!(
            dict_entry(ctx, f, "arg_attrs", i, "jax.buffer_donor"),
            Some(AttrKind::Bool(true) | AttrKind::Unit)
        );
        let candidates: Vec<usize> = match paired {
            Some(j) => vec![j],
            None if donor => (0..results.len()).collect(),
            None => continue,
        };
        let found = candidates.into_iter().find(|&j| {
            j < results.len()
                && !taken[j]
                && results[j] == ctx.value_ty(arg)
                && updates_in_place(ctx, f, arg, returned.get(j).copied())
        });
        if let Some(j) = found {
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

/// Whether `result` is a dynamic_update_slice or scatter of `arg` (its
/// first operand) and that op is `arg`'s only user in `f`.
fn updates_in_place(ctx: &Context, f: OpId, arg: Value, result: Option<Value>) -> bool {
    let Some(update) = result.and_then(|r| ctx.defining_op(r)) else {
        return false;
    };
    let o = ctx.op(update);
    if !matches!(o.name, DYNAMIC_UPDATE_SLICE | SCATTER) || o.operands().first() != Some(&arg) {
        return false;
    }
    // A scatter of several operands writes several results: keep to one.
    if o.results.len() != 1 {
        return false;
    }
    let mut uses = 0;
    ctx.walk_nested(f, &mut |op| {
        uses += ctx.op(op).operands().iter().filter(|&&v| v == arg).count();
    });
    uses == 1
}
