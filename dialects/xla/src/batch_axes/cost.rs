//! What a chunk of a function compiled for every size of `b` costs beyond
//! its rows, in rows (per call, and per row copied into a padded chunk):
//! the runtime weighs it when it splits a call into chunks of the compiled
//! sizes (`strata_abi::batched::chunks`).
//! A weight-bound model (an MLP at small batches, a decode step) reads its
//! weights once per call, so 13 rows run faster padded to 16 in one call
//! than as 8 + 5; a compute-bound one (a transformer over a sequence) pays
//! for every padded row, and a decode step's rows (its KV caches) cost
//! more to copy into a padded chunk than a call does. An estimate from the program: multiply-adds of
//! dots and convolutions and one operation per result element of anything
//! else, bytes of constants, and the machine balance below.

use strata_ir::{Context, OpId};

use crate::names::{CONSTANT, CONVOLUTION, DOT_GENERAL};

/// Floating-point operations per byte moved at which a core is as busy
/// computing as loading (a few cores with AVX2/AVX-512 FMAs against their
/// share of cache and memory bandwidth).
const BALANCE: f64 = 8.0;

/// A call's own overhead, as bytes moved in the same time (about a
/// microsecond: the entry, the thread pool's wake-up).
const CALL_OVERHEAD_BYTES: f64 = 64.0 * 1024.0;

/// The work of a module: operations and bytes of constants.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    pub flops: f64,
    pub constant_bytes: f64,
}

/// The work of every op of `module` (a loop's body counted once).
pub fn work(ctx: &Context, module: OpId) -> Work {
    let mut w = Work::default();
    ctx.walk_nested(module, &mut |op| {
        let o = ctx.op(op);
        let elements = |v| {
            let t = ctx.value_ty(v);
            if ctx.types.is_tensor(t) {
                ctx.types.num_elements(t).max(0) as f64
            } else {
                0.0
            }
        };
        let results: f64 = o.results.iter().map(|&r| elements(r)).sum();
        w.flops += match o.name {
            DOT_GENERAL => 2.0 * results * contracted(ctx, op),
            CONVOLUTION => 2.0 * results * per_output(ctx, op),
            _ => results,
        };
        if o.name == CONSTANT
            && let Some(d) = ctx.dense_attr(op, "value")
            && !d.splat
        {
            let bits = ctx.types.bit_width(ctx.types.elem(d.ty)) as f64;
            w.constant_bytes += elements(o.results[0]) * bits / 8.0;
        }
    });
    w
}

/// The product of a dot's contracting dimensions.
fn contracted(ctx: &Context, op: OpId) -> f64 {
    let Some(d) = crate::ops::dot::dot_dims(ctx, op) else {
        return 1.0;
    };
    let lhs = ctx.op(op).operands().first().map(|&v| ctx.value_ty(v));
    let shape = lhs.and_then(|t| ctx.types.shape(t)).unwrap_or(&[]);
    d.lhs_contract
        .iter()
        .filter_map(|&c| shape.get(usize::try_from(c).ok()?))
        .map(|&n| n.max(0) as f64)
        .product()
}

/// Multiply-adds per output element of a convolution: its kernel's
/// elements per output feature.
fn per_output(ctx: &Context, op: OpId) -> f64 {
    let Some(c) = crate::ops::conv::conv(ctx, op) else {
        return 1.0;
    };
    let kernel = ctx.op(op).operands().get(1).map(|&v| ctx.value_ty(v));
    let shape = kernel.and_then(|t| ctx.types.shape(t)).unwrap_or(&[]);
    let all: f64 = shape.iter().map(|&n| n.max(0) as f64).product();
    let outputs = shape
        .get(c.kernel_output_feature)
        .copied()
        .unwrap_or(1)
        .max(1);
    all / outputs as f64
}

/// What a chunk costs beyond its rows' work, in rows: `call` per call,
/// `copy` per row copied into and out of a padded chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChunkCost {
    pub call: f64,
    pub copy: f64,
}

/// The costs from the work at two sizes `(s0, w0)` and `(s1, w1)` of `b`
/// (the part growing with `b` is the rows'), the bytes of the unbatched
/// buffers (weights, read once per call) and of one row of the batched
/// ones (copied in and out of a padded chunk: read and written).
pub fn chunk_cost(at: [(i64, Work); 2], weight_bytes: f64, row_bytes: f64) -> ChunkCost {
    let [(s0, w0), (s1, w1)] = at;
    let span = (s1 - s0).max(1) as f64;
    let row_flops = ((w1.flops - w0.flops) / span).max(0.0);
    let fixed_flops = (w0.flops - s0 as f64 * row_flops).max(0.0);
    let per_call = weight_bytes + w0.constant_bytes + CALL_OVERHEAD_BYTES + fixed_flops / BALANCE;
    let per_row = row_bytes.max(row_flops / BALANCE).max(1.0);
    ChunkCost {
        call: per_call / per_row,
        copy: 2.0 * row_bytes / per_row,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(flops: f64) -> Work {
        Work {
            flops,
            constant_bytes: 0.0,
        }
    }

    #[test]
    fn weight_bound_calls_cost_many_rows_compute_bound_few_copies_of_cached_rows_more() {
        // An MLP 784-512-512-10: 1.3 MFLOP and 3.2 KB per row, 2.6 MB of
        // weights.
        let flops = |b: i64| b as f64 * 1.3e6;
        let mlp = chunk_cost([(1, at(flops(1))), (2, at(flops(2)))], 2.6e6, 3.2e3);
        assert!((10.0..40.0).contains(&mlp.call), "{mlp:?}");
        assert!(mlp.copy < 0.1, "{mlp:?}");
        // A transformer over 64 positions: 200 MFLOP per row, 7 MB.
        let flops = |b: i64| b as f64 * 2e8;
        let tf = chunk_cost([(1, at(flops(1))), (2, at(flops(2)))], 7e6, 6.6e4);
        assert!(tf.call <= 1.0, "{tf:?}");
        // A decode step: 1 MB of caches in and out per row, 4 MFLOP.
        let flops = |b: i64| b as f64 * 4e6;
        let decode = chunk_cost([(1, at(flops(1))), (2, at(flops(2)))], 4e6, 2e6);
        assert!(decode.copy >= 2.0 && decode.call < 3.0, "{decode:?}");
    }
}
