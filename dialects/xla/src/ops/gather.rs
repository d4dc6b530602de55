//! `xla.gather` and `xla.scatter`, with their dimension numbers
//! (`#stablehlo.gather<...>`, `#stablehlo.scatter<...>`).

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const GATHER: &str = "xla.gather";
    pub const SCATTER: &str = "xla.scatter";
}

/// Gather's dimension numbers.
#[derive(Clone, Debug, Default)]
pub struct GatherDims {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

pub fn gather_dims(ctx: &Context, op: OpId) -> Option<GatherDims> {
    let (lists, index_vector_dim) = index_dims(
        ctx,
        op,
        "dimension_numbers",
        [
            "offset_dims",
            "collapsed_slice_dims",
            "operand_batching_dims",
            "start_indices_batching_dims",
            "start_index_map",
        ],
    )?;
    let [
        offset_dims,
        collapsed_slice_dims,
        operand_batching_dims,
        start_indices_batching_dims,
        start_index_map,
    ] = lists;
    Some(GatherDims {
        offset_dims,
        collapsed_slice_dims,
        operand_batching_dims,
        start_indices_batching_dims,
        start_index_map,
        index_vector_dim,
    })
}

/// Decodes gather's or scatter's dimension numbers (the same five lists in
/// the same roles, named differently by each) and `index_vector_dim`,
/// omitted when 0 (its default), as StableHLO prints it.
fn index_dims(
    ctx: &Context,
    op: OpId,
    attr: &str,
    names: [&str; 5],
) -> Option<([Vec<i64>; 5], i64)> {
    let f = fields(ctx, op, attr)?;
    let index_vector_dim = get(&f, "index_vector_dim").first().copied().unwrap_or(0);
    Some((names.map(|n| get(&f, n)), index_vector_dim))
}

/// Scatter's dimension numbers.
#[derive(Clone, Debug, Default)]
pub struct ScatterDims {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

pub fn scatter_dims(ctx: &Context, op: OpId) -> Option<ScatterDims> {
    let (lists, index_vector_dim) = index_dims(
        ctx,
        op,
        "scatter_dimension_numbers",
        [
            "update_window_dims",
            "inserted_window_dims",
            "input_batching_dims",
            "scatter_indices_batching_dims",
            "scatter_dims_to_operand_dims",
        ],
    )?;
    let [
        update_window_dims,
        inserted_window_dims,
        input_batching_dims,
        scatter_indices_batching_dims,
        scatter_dims_to_operand_dims,
    ] = lists;
    Some(ScatterDims {
        update_window_dims,
        inserted_window_dims,
        input_batching_dims,
        scatter_indices_batching_dims,
        scatter_dims_to_operand_dims,
        index_vector_dim,
    })
}

fn in_range(ctx: &Context, op: OpId, what: &str, dims: &[i64], rank: usize) -> Result<()> {
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= rank || dims[..i].contains(&d) {
            return Err(ctx.error(
                op,
                format!(
                    "{what} {} must be unique dimensions below {rank}",
                    list(dims)
                ),
            ));
        }
    }
    Ok(())
}

/// StableHLO's `is_sorted` on a dimension list (gather C4, C7, C10;
/// scatter C7, C10, C12).
fn sorted(ctx: &Context, op: OpId, what: &str, dims: &[i64]) -> Result<()> {
    if dims.windows(2).any(|w| w[0] > w[1]) {
        return Err(ctx.error(op, format!("{what} {} must be sorted", list(dims))));
    }
    Ok(())
}

/// Two dimension lists of the same tensor that may not share a dimension
/// (gather C6, C18; scatter C9, C20).
fn disjoint(ctx: &Context, op: OpId, a: (&str, &[i64]), b: (&str, &[i64])) -> Result<()> {
    if let Some(d) = a.1.iter().find(|d| b.1.contains(d)) {
        return Err(ctx.error(op, format!("dimension {d} is in both {} and {}", a.0, b.0)));
    }
    Ok(())
}

/// The indices' batching dimensions: in range, not the index vector
/// dimension, one per operand batching dimension and of the same size
/// (gather C13-C17, scatter C14-C18). The lowering reads the index of an
/// operand batching dimension from the paired indices dimension.
fn batching_pairs(
    ctx: &Context,
    op: OpId,
    operand: (&str, &[i64], &[i64]),
    indices: (&str, &[i64], &[i64]),
    index_vector_dim: i64,
) -> Result<()> {
    let (oname, odims, shape) = operand;
    let (iname, idims, ishape) = indices;
    in_range(ctx, op, iname, idims, ishape.len())?;
    if idims.contains(&index_vector_dim) {
        return Err(ctx.error(
            op,
            format!(
                "{iname} {} may not contain index_vector_dim {index_vector_dim}",
                list(idims)
            ),
        ));
    }
    if odims.len() != idims.len() {
        return Err(ctx.error(op, format!("{oname} and {iname} must have the same length")));
    }
    for (&o, &i) in odims.iter().zip(idims) {
        if shape[o as usize] != ishape[i as usize] {
            return Err(ctx.error(
                op,
                format!(
                    "batching dimension {o} of the operand has size {}, but dimension {i} of the indices has size {}",
                    shape[o as usize], ishape[i as usize]
                ),
            ));
        }
    }
    Ok(())
}

/// The dimension lists gather and scatter share, under their two spellings:
/// collapsed (inserted) and batching dimensions of the operand, batching
/// dimensions of the indices, and the map from index vector to operand.
struct SharedDims<'a> {
    collapsed: (&'static str, &'a [i64]),
    batching: (&'static str, &'a [i64]),
    indices_batching: (&'static str, &'a [i64]),
    index_map: (&'static str, &'a [i64]),
    index_vector_dim: i64,
}

/// The constraints gather and scatter state alike on those lists (gather
/// C6, C7, C10, C13-C18; scatter C9, C10, C12, C14-C18, C20).
fn shared_constraints(
    ctx: &Context,
    op: OpId,
    d: SharedDims<'_>,
    shape: &[i64],
    ishape: &[i64],
) -> Result<()> {
    batching_pairs(
        ctx,
        op,
        (d.batching.0, d.batching.1, shape),
        (d.indices_batching.0, d.indices_batching.1, ishape),
        d.index_vector_dim,
    )?;
    sorted(ctx, op, d.collapsed.0, d.collapsed.1)?;
    sorted(ctx, op, d.batching.0, d.batching.1)?;
    disjoint(ctx, op, d.collapsed, d.batching)?;
    disjoint(ctx, op, d.index_map, d.batching)
}

/// The operand's rank is split among the window (offset) dimensions, the
/// collapsed (inserted) ones and the batching ones (gather C1, scatter C2).
fn rank_split(ctx: &Context, op: OpId, rank: usize, parts: [(&str, &[i64]); 3]) -> Result<()> {
    let total: usize = parts.iter().map(|p| p.1.len()).sum();
    if total != rank {
        let names: Vec<String> = parts
            .iter()
            .map(|(n, d)| format!("{n} {}", list(d)))
            .collect();
        return Err(ctx.error(
            op,
            format!(
                "the operand has rank {rank}, but {} name {total} dimensions",
                names.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Shape of a gather's result (StableHLO's inference).
fn gather_shape(
    operand_rank: usize,
    idx_shape: &[i64],
    d: &GatherDims,
    slice_sizes: &[i64],
) -> Vec<i64> {
    let offsets: Vec<i64> = (0..operand_rank as i64)
        .filter(|x| !d.collapsed_slice_dims.contains(x) && !d.operand_batching_dims.contains(x))
        .map(|x| slice_sizes[x as usize])
        .collect();
    let batch: Vec<i64> = idx_shape
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as i64 != d.index_vector_dim)
        .map(|(_, &s)| s)
        .collect();
    let rank = offsets.len() + batch.len();
    let (mut o, mut b) = (offsets.into_iter(), batch.into_iter());
    (0..rank as i64)
        .map(|r| {
            if d.offset_dims.contains(&r) {
                o.next().unwrap_or(0)
            } else {
                b.next().unwrap_or(0)
            }
        })
        .collect()
}

pub fn verify_gather(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (ishape, ielem) = operand_tensor(ctx, op, 1)?;
    if !is_int(ctx, ielem) {
        return Err(ctx.error(op, "start_indices must be integers"));
    }
    let d = gather_dims(ctx, op)
        .ok_or_else(|| ctx.error(op, "requires 'dimension_numbers' (#stablehlo.gather<...>)"))?;
    let sizes = slice_sizes(ctx, op, &shape)?;
    if d.index_vector_dim < 0 || d.index_vector_dim as usize > ishape.len() {
        return Err(ctx.error(
            op,
            format!("index_vector_dim {} is out of range", d.index_vector_dim),
        ));
    }
    let vec_len = if (d.index_vector_dim as usize) < ishape.len() {
        ishape[d.index_vector_dim as usize]
    } else {
        1
    };
    if d.start_index_map.len() as i64 != vec_len {
        return Err(ctx.error(
            op,
            format!(
                "start_index_map {} must have {vec_len} entries",
                list(&d.start_index_map)
            ),
        ));
    }
    in_range(ctx, op, "start_index_map", &d.start_index_map, shape.len())?;
    in_range(
        ctx,
        op,
        "collapsed_slice_dims",
        &d.collapsed_slice_dims,
        shape.len(),
    )?;
    in_range(
        ctx,
        op,
        "operand_batching_dims",
        &d.operand_batching_dims,
        shape.len(),
    )?;
    sorted(ctx, op, "offset_dims", &d.offset_dims)?;
    shared_constraints(
        ctx,
        op,
        SharedDims {
            collapsed: ("collapsed_slice_dims", &d.collapsed_slice_dims),
            batching: ("operand_batching_dims", &d.operand_batching_dims),
            indices_batching: (
                "start_indices_batching_dims",
                &d.start_indices_batching_dims,
            ),
            index_map: ("start_index_map", &d.start_index_map),
            index_vector_dim: d.index_vector_dim,
        },
        &shape,
        &ishape,
    )?;
    for &c in d
        .collapsed_slice_dims
        .iter()
        .chain(&d.operand_batching_dims)
    {
        if sizes[c as usize] > 1 {
            return Err(ctx.error(
                op,
                format!("slice size of collapsed or batching dimension {c} must be at most 1"),
            ));
        }
    }
    rank_split(
        ctx,
        op,
        shape.len(),
        [
            ("offset_dims", &d.offset_dims),
            ("collapsed_slice_dims", &d.collapsed_slice_dims),
            ("operand_batching_dims", &d.operand_batching_dims),
        ],
    )?;
    let out = gather_shape(shape.len(), &ishape, &d, &sizes);
    in_range(ctx, op, "offset_dims", &d.offset_dims, out.len())?;
    expect_result_type(ctx, op, 0, &out, elem)
}

/// StableHLO's scatter constraints on the updates' shape: the scatter
/// dimensions of `updates` (those not in `update_window_dims`) are the
/// indices' dimensions without `index_vector_dim`, in order; its window
/// dimensions map, in order, to the operand's dimensions outside
/// `inserted_window_dims` and `input_batching_dims`, and fit in them. The
/// lowering indexes by these rules (an unchecked mismatch made invalid IR,
/// FUZZING.md B19).
fn expect_update_shape(
    ctx: &Context,
    op: OpId,
    d: &ScatterDims,
    shape: &[i64],
    ishape: &[i64],
    ushape: &[i64],
) -> Result<()> {
    let ivd = d.index_vector_dim as usize;
    let batch: Vec<i64> = (0..ishape.len())
        .filter(|&i| i != ivd)
        .map(|i| ishape[i])
        .collect();
    let window: Vec<i64> = (0..shape.len() as i64)
        .filter(|i| !d.inserted_window_dims.contains(i) && !d.input_batching_dims.contains(i))
        .map(|i| shape[i as usize])
        .collect();
    if d.update_window_dims.len() != window.len() || ushape.len() != batch.len() + window.len() {
        return Err(ctx.error(
            op,
            format!(
                "updates of shape {} need {} scatter dimensions (the indices' without index_vector_dim) \
                 and {} window dimensions (the operand's outside inserted_window_dims and \
                 input_batching_dims); update_window_dims has {}",
                list(ushape),
                batch.len(),
                window.len(),
                d.update_window_dims.len()
            ),
        ));
    }
    let scatter_sizes: Vec<i64> = (0..ushape.len() as i64)
        .filter(|i| !d.update_window_dims.contains(i))
        .map(|i| ushape[i as usize])
        .collect();
    if scatter_sizes != batch {
        return Err(ctx.error(
            op,
            format!(
                "the scatter dimensions of the updates are {}, expected the indices' {}",
                list(&scatter_sizes),
                list(&batch)
            ),
        ));
    }
    for (&u, &w) in d.update_window_dims.iter().zip(&window) {
        if ushape[u as usize] > w {
            return Err(ctx.error(
                op,
                format!(
                    "update window dimension {u} has size {}, larger than the operand's {w}",
                    ushape[u as usize]
                ),
            ));
        }
    }
    Ok(())
}

pub fn verify_scatter(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let n = o.operands().len();
    if n < 3 || (n - 1) % 2 != 0 || o.results.len() != (n - 1) / 2 {
        return Err(ctx.error(
            op,
            "expects N inputs, the scatter indices, N updates and N results",
        ));
    }
    let k = (n - 1) / 2;
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    let (ishape, ielem) = operand_tensor(ctx, op, k)?;
    if !is_int(ctx, ielem) {
        return Err(ctx.error(op, "scatter_indices must be integers"));
    }
    let d = scatter_dims(ctx, op).ok_or_else(|| {
        ctx.error(
            op,
            "requires 'scatter_dimension_numbers' (#stablehlo.scatter<...>)",
        )
    })?;
    if d.index_vector_dim < 0 || d.index_vector_dim as usize > ishape.len() {
        return Err(ctx.error(
            op,
            format!("index_vector_dim {} is out of range", d.index_vector_dim),
        ));
    }
    let vec_len = if (d.index_vector_dim as usize) < ishape.len() {
        ishape[d.index_vector_dim as usize]
    } else {
        1
    };
    if d.scatter_dims_to_operand_dims.len() as i64 != vec_len {
        return Err(ctx.error(
            op,
            format!("scatter_dims_to_operand_dims must have {vec_len} entries"),
        ));
    }
    in_range(
        ctx,
        op,
        "scatter_dims_to_operand_dims",
        &d.scatter_dims_to_operand_dims,
        shape.len(),
    )?;
    in_range(
        ctx,
        op,
        "inserted_window_dims",
        &d.inserted_window_dims,
        shape.len(),
    )?;
    in_range(
        ctx,
        op,
        "input_batching_dims",
        &d.input_batching_dims,
        shape.len(),
    )?;
    shared_constraints(
        ctx,
        op,
        SharedDims {
            collapsed: ("inserted_window_dims", &d.inserted_window_dims),
            batching: ("input_batching_dims", &d.input_batching_dims),
            indices_batching: (
                "scatter_indices_batching_dims",
                &d.scatter_indices_batching_dims,
            ),
            index_map: (
                "scatter_dims_to_operand_dims",
                &d.scatter_dims_to_operand_dims,
            ),
            index_vector_dim: d.index_vector_dim,
        },
        &shape,
        &ishape,
    )?;
    rank_split(
        ctx,
        op,
        shape.len(),
        [
            ("update_window_dims", &d.update_window_dims),
            ("inserted_window_dims", &d.inserted_window_dims),
            ("input_batching_dims", &d.input_batching_dims),
        ],
    )?;
    let (ushape, _) = operand_tensor(ctx, op, k + 1)?;
    in_range(
        ctx,
        op,
        "update_window_dims",
        &d.update_window_dims,
        ushape.len(),
    )?;
    sorted(ctx, op, "update_window_dims", &d.update_window_dims)?;
    expect_update_shape(ctx, op, &d, &shape, &ishape, &ushape)?;
    let mut elems = Vec::with_capacity(k);
    for i in 0..k {
        let (s, e) = operand_tensor(ctx, op, i)?;
        let (us, ue) = operand_tensor(ctx, op, k + 1 + i)?;
        if s != shape || us != ushape {
            return Err(ctx.error(op, "all inputs (and all updates) must have the same shape"));
        }
        if ue != e {
            return Err(ctx.error(
                op,
                format!("update {i} must have the element type of input {i}"),
            ));
        }
        expect_result_type(ctx, op, i, &s, e)?;
        elems.push(e);
    }
    if ctx.entry_block(op, 0).is_none() {
        return Err(ctx.error(op, "requires an update computation region"));
    }
    crate::ops::reduce::check_reducer(ctx, op, 0, &elems)
}

/// `xla.gather` (and `xla.dynamic_slice`'s attribute of the same name):
/// the size of the slice taken from each operand dimension.
pub fn gather_slice_sizes(ctx: &Context, op: OpId) -> Option<Vec<i64>> {
    ctx.i64_array(op, "slice_sizes")
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(GATHER, pure)
            .counts(2, 1)
            .verifier(verify_gather),
    );
    r.add(OpDef::new(SCATTER, pure).verifier(verify_scatter));
}
