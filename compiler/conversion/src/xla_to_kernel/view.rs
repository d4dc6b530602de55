//! Layout views: chains of `transpose` and `reshape` that a kernel reads
//! (or writes) through strides instead of copying.
//!
//! A tensor that is a transpose or a reshape of another is the other
//! tensor's buffer seen with other strides, when the strides can say it
//! (a transpose always can; a reshape can when the dimensions it merges are
//! adjacent in memory, numpy's no-copy reshape rule). Attention's
//! `q @ kᵀ` reads the key cache through `transpose`, `transpose`,
//! `reshape`; a gradient `transpose(dy @ x)` is the product written with
//! swapped strides. Dimensions of size 1 may take any stride.

use strata_dialect_xla::names::{RESHAPE, TRANSPOSE};
use strata_dialect_xla::ops::shape::permutation;
use strata_ir::{Context, OpId, Value};

pub(crate) use strata_ir::row_major_strides as row_major;

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.types.shape(ctx.value_ty(v)).unwrap_or(&[]).to_vec()
}

/// Strides of `to_shape` that address the elements of a tensor of shape
/// `from_shape` laid out with `from_strides` in the same row-major order
/// (a reshape as a view), or None when no strides can.
pub(crate) fn reshape_strides(
    from_shape: &[i64],
    from_strides: &[i64],
    to_shape: &[i64],
) -> Option<Vec<i64>> {
    // Size-1 dimensions carry no information: drop them, and give them
    // stride 0 in the result.
    let old: Vec<(i64, i64)> = from_shape
        .iter()
        .zip(from_strides)
        .filter(|(n, _)| **n != 1)
        .map(|(&n, &s)| (n, s))
        .collect();
    let new: Vec<(usize, i64)> = to_shape
        .iter()
        .enumerate()
        .filter(|(_, n)| **n != 1)
        .map(|(i, &n)| (i, n))
        .collect();
    if old.iter().any(|&(n, _)| n == 0) || new.iter().any(|&(_, n)| n == 0) {
        // An empty tensor: any strides address nothing.
        return Some(vec![0; to_shape.len()]);
    }
    let mut out = vec![0i64; to_shape.len()];
    let (mut oi, mut ni) = (0usize, 0usize);
    while oi < old.len() && ni < new.len() {
        // Grow a group on each side until both hold the same element count.
        let (mut oj, mut nj) = (oi + 1, ni + 1);
        let (mut op, mut np) = (old[oi].0, new[ni].1);
        while op != np {
            if op < np {
                op = op.checked_mul(old.get(oj)?.0)?;
                oj += 1;
            } else {
                np = np.checked_mul(new.get(nj)?.1)?;
                nj += 1;
            }
        }
        // The old dimensions of the group must be one run of memory.
        for k in oi..oj - 1 {
            if old[k].1 != old[k + 1].1 * old[k + 1].0 {
                return None;
            }
        }
        // The new ones split that run, innermost from the group's last stride.
        let mut stride = old[oj - 1].1;
        for k in (ni..nj).rev() {
            out[new[k].0] = stride;
            stride *= new[k].1;
        }
        (oi, ni) = (oj, nj);
    }
    (oi == old.len() && ni == new.len()).then_some(out)
}

/// The buffer a kernel may read `v` from, and the strides of `v`'s
/// dimensions in it: `v` itself (row-major), or the source of the chain of
/// transposes and reshapes that made `v`.
pub(crate) fn operand_view(ctx: &Context, v: Value) -> (Value, Vec<i64>) {
    // The chain from `v` down to its source, top first.
    let mut chain: Vec<OpId> = Vec::new();
    let mut source = v;
    while let Some(op) = ctx.defining_op(source) {
        let name = ctx.op(op).name;
        if name != TRANSPOSE && name != RESHAPE {
            break;
        }
        chain.push(op);
        source = ctx.op(op).operands()[0];
    }
    // Replay it bottom-up, from the source's own layout. A step no stride
    // can say (a reshape merging dimensions a transpose separated) makes
    // its result the source instead: it is copied, the rest stays a view.
    let mut strides = row_major(&shape(ctx, source));
    let mut at = source;
    for &op in chain.iter().rev() {
        let result = ctx.op(op).results[0];
        let next = if ctx.op(op).name == TRANSPOSE {
            permutation(ctx, op).and_then(|perm| {
                perm.iter()
                    .map(|&p| strides.get(p).copied())
                    .collect::<Option<Vec<i64>>>()
            })
        } else {
            reshape_strides(&shape(ctx, at), &strides, &shape(ctx, result))
        };
        match next {
            Some(next) => strides = next,
            None => {
                source = result;
                strides = row_major(&shape(ctx, result));
            }
        }
        at = result;
    }
    (source, strides)
}

/// When `v`'s only use is a chain of transposes and reshapes, each the only
/// use of the one before: the chain's last value, the strides of `v`'s
/// dimensions in its (row-major) buffer, and the chain's ops. A kernel
/// producing `v` can write the last value directly.
pub(crate) fn result_view(
    ctx: &Context,
    func: OpId,
    v: Value,
) -> Option<(Value, Vec<i64>, Vec<OpId>)> {
    // Once per use: an op reading `x` twice is not a single reader.
    let users = |x: Value| {
        let mut uses = Vec::new();
        for o in ctx.users_in_scope(func, x) {
            let n = ctx.op(o).operands().iter().filter(|&&u| u == x).count();
            uses.extend(std::iter::repeat_n(o, n));
        }
        uses
    };
    let mut chain = Vec::new();
    let mut last = v;
    loop {
        let u = users(last);
        let [op] = u[..] else { break };
        let name = ctx.op(op).name;
        if name != TRANSPOSE && name != RESHAPE {
            break;
        }
        chain.push(op);
        last = ctx.op(op).results[0];
    }
    if chain.is_empty() {
        return None;
    }
    // Back from the last value's row-major layout to `v`'s dimensions.
    let mut strides = row_major(&shape(ctx, last));
    for &op in chain.iter().rev() {
        let input = ctx.op(op).operands()[0];
        strides = if ctx.op(op).name == TRANSPOSE {
            let perm = permutation(ctx, op)?;
            let mut s = vec![0i64; perm.len()];
            for (j, &p) in perm.iter().enumerate() {
                *s.get_mut(p)? = strides[j];
            }
            s
        } else {
            let out = ctx.op(op).results[0];
            reshape_strides(&shape(ctx, out), &strides, &shape(ctx, input))?
        };
    }
    Some((last, strides, chain))
}

/// Removes, from `values` down their chains of transposes and reshapes,
/// every op whose result nothing reads any more (the views a kernel now
/// reads through), so none is materialized.
pub(crate) fn remove_dead(
    ctx: &mut Context,
    func: Option<OpId>,
    values: &[Value],
) -> strata_diag::Result<()> {
    let Some(func) = func else {
        return Ok(());
    };
    let mut pending: Vec<Value> = values.to_vec();
    while let Some(v) = pending.pop() {
        let Some(op) = ctx.defining_op(v) else {
            continue;
        };
        if ctx.op(op).parent.is_none() || !matches!(ctx.op(op).name, TRANSPOSE | RESHAPE) {
            continue;
        }
        if ctx.users_in_scope(func, v).is_empty() {
            pending.push(ctx.op(op).operands()[0]);
            ctx.detach_op(op);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reshapes_that_split_merge_or_drop_unit_dims_are_views() {
        // (1, 4, 16, 128) row-major -> (4, 16, 128): the unit dim goes.
        assert_eq!(
            reshape_strides(&[1, 4, 16, 128], &[8192, 2048, 128, 1], &[4, 16, 128]),
            Some(vec![2048, 128, 1])
        );
        // A transposed (4, 16) (strides 1, 4) cannot merge into 64...
        assert_eq!(reshape_strides(&[4, 16], &[1, 4], &[64]), None);
        // ...but a contiguous one can, and splits back.
        assert_eq!(reshape_strides(&[4, 16], &[16, 1], &[64]), Some(vec![1]));
        assert_eq!(reshape_strides(&[64], &[3], &[4, 16]), Some(vec![48, 3]));
        // Strided groups: (2, 3) with strides (30, 10) merge into 6 of 10.
        assert_eq!(
            reshape_strides(&[2, 3, 5], &[30, 10, 1], &[6, 5]),
            Some(vec![10, 1])
        );
    }
}
