//! Shape ops: `xla.iota`, `xla.broadcast_in_dim`, `xla.reshape`,
//! `xla.transpose`, `xla.slice`, `xla.concatenate`, `xla.reverse`, `xla.pad`.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const IOTA: &str = "xla.iota";
    pub const BROADCAST_IN_DIM: &str = "xla.broadcast_in_dim";
    pub const RESHAPE: &str = "xla.reshape";
    pub const TRANSPOSE: &str = "xla.transpose";
    pub const SLICE: &str = "xla.slice";
    pub const CONCATENATE: &str = "xla.concatenate";
    pub const REVERSE: &str = "xla.reverse";
    pub const PAD: &str = "xla.pad";
    pub const BROADCAST_TO: &str = "xla.broadcast_to";
    pub const DYNAMIC_SLICE: &str = "xla.dynamic_slice";
    pub const DYNAMIC_UPDATE_SLICE: &str = "xla.dynamic_update_slice";
}

pub fn verify_iota(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = result_tensor(ctx, op, 0)?;
    if is_bool(ctx, elem) {
        return Err(ctx.error(
            op,
            "requires an integer, float or complex result, found element type i1",
        ));
    }
    let dim = ctx
        .int_attr(op, "iota_dimension")
        .ok_or_else(|| ctx.error(op, "requires attribute 'iota_dimension'"))?;
    if dim < 0 || dim as usize >= shape.len() {
        return Err(ctx.error(
            op,
            format!(
                "iota_dimension {dim} is out of range for rank {}",
                shape.len()
            ),
        ));
    }
    Ok(())
}

pub fn verify_broadcast_in_dim(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let dims = i64s(ctx, op, "broadcast_dimensions")?;
    if relem != elem {
        return Err(ctx.error(op, "requires the same element type for operand and result"));
    }
    if dims.len() != shape.len() {
        return Err(ctx.error(
            op,
            format!(
                "broadcast_dimensions size ({}) does not match operand rank ({})",
                dims.len(),
                shape.len()
            ),
        ));
    }
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= rshape.len() {
            return Err(ctx.error(
                op,
                format!(
                    "broadcast_dimensions contains {d}, out of range for result rank {}",
                    rshape.len()
                ),
            ));
        }
        if dims[..i].contains(&d) {
            return Err(ctx.error(op, format!("broadcast_dimensions contains {d} twice")));
        }
        let (s, r) = (shape[i], rshape[d as usize]);
        if s != 1 && s != r {
            return Err(ctx.error(
                op,
                format!("size {s} of operand dimension {i} is incompatible with size {r} of result dimension {d}"),
            ));
        }
    }
    Ok(())
}

pub fn verify_reshape(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let (n, m): (i64, i64) = (shape.iter().product(), rshape.iter().product());
    if n != m || elem != relem {
        return Err(ctx.error(
            op,
            format!(
                "cannot reshape {} into {}: element counts {n} and {m} differ or element types differ",
                ty_str(ctx, ctx.value_ty(ctx.op(op).operands()[0])),
                ty_str(ctx, ctx.value_ty(ctx.op(op).results[0]))
            ),
        ));
    }
    Ok(())
}

/// Checks that `perm` is a permutation of `0..rank`.
fn check_permutation(ctx: &Context, op: OpId, perm: &[i64], rank: usize) -> Result<()> {
    let mut seen = vec![false; rank];
    if perm.len() != rank {
        return Err(ctx.error(
            op,
            format!("permutation {} must have {rank} entries", list(perm)),
        ));
    }
    for &p in perm {
        if p < 0 || p as usize >= rank || seen[p as usize] {
            return Err(ctx.error(
                op,
                format!(
                    "permutation {} is not a permutation of 0..{rank}",
                    list(perm)
                ),
            ));
        }
        seen[p as usize] = true;
    }
    Ok(())
}

pub fn verify_transpose(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let perm = i64s(ctx, op, "permutation")?;
    check_permutation(ctx, op, &perm, shape.len())?;
    let out: Vec<i64> = perm.iter().map(|&p| shape[p as usize]).collect();
    expect_result_type(ctx, op, 0, &out, elem)
}

pub fn verify_slice(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let start = i64s(ctx, op, "start_indices")?;
    let limit = i64s(ctx, op, "limit_indices")?;
    let strides = i64s(ctx, op, "strides")?;
    if start.len() != shape.len() || limit.len() != shape.len() || strides.len() != shape.len() {
        return Err(ctx.error(
            op,
            format!(
                "start_indices, limit_indices and strides must each have {} entries",
                shape.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for d in 0..shape.len() {
        let (s, l, st) = (start[d], limit[d], strides[d]);
        if s < 0 || l > shape[d] || s > l {
            return Err(ctx.error(
                op,
                format!(
                    "slice [{s}:{l}] is out of bounds for dimension {d} of size {}",
                    shape[d]
                ),
            ));
        }
        if st <= 0 {
            return Err(ctx.error(op, format!("stride {st} of dimension {d} must be positive")));
        }
        out.push(((l as i128 - s as i128 + st as i128 - 1) / st as i128) as i64);
    }
    expect_result_type(ctx, op, 0, &out, elem)
}

pub fn verify_concatenate(ctx: &Context, op: OpId) -> Result<()> {
    let n = ctx.op(op).operands().len();
    if n == 0 {
        return Err(ctx.error(op, "expects at least one operand"));
    }
    let (first, elem) = operand_tensor(ctx, op, 0)?;
    let dim = ctx
        .int_attr(op, "dimension")
        .ok_or_else(|| ctx.error(op, "requires attribute 'dimension'"))?;
    if dim < 0 || dim as usize >= first.len() {
        return Err(ctx.error(
            op,
            format!("dimension {dim} is out of range for rank {}", first.len()),
        ));
    }
    let dim = dim as usize;
    let mut out = first.clone();
    out[dim] = 0;
    for i in 0..n {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if e != elem || s.len() != first.len() {
            return Err(ctx.error(
                op,
                format!("operand #{i} must have element type and rank of operand #0"),
            ));
        }
        for d in 0..s.len() {
            if d != dim && s[d] != first[d] {
                return Err(ctx.error(
                    op,
                    format!(
                        "operand #{i} has size {} in dimension {d}, expected {}",
                        s[d], first[d]
                    ),
                ));
            }
        }
        out[dim] += s[dim];
    }
    expect_result_type(ctx, op, 0, &out, elem)
}

pub fn verify_reverse(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let dims = i64s(ctx, op, "dimensions")?;
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= shape.len() || dims[..i].contains(&d) {
            return Err(ctx.error(
                op,
                format!(
                    "dimensions {} must be unique and in range for rank {}",
                    list(&dims),
                    shape.len()
                ),
            ));
        }
    }
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub fn verify_pad(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (pshape, pelem) = operand_tensor(ctx, op, 1)?;
    if !pshape.is_empty() || pelem != elem {
        return Err(ctx.error(
            op,
            "padding value must be a 0-d tensor of the operand's element type",
        ));
    }
    let lo = i64s(ctx, op, "edge_padding_low")?;
    let hi = i64s(ctx, op, "edge_padding_high")?;
    let interior = i64s(ctx, op, "interior_padding")?;
    if lo.len() != shape.len() || hi.len() != shape.len() || interior.len() != shape.len() {
        return Err(ctx.error(
            op,
            format!("padding attributes must each have {} entries", shape.len()),
        ));
    }
    let mut out = Vec::new();
    for d in 0..shape.len() {
        if interior[d] < 0 {
            return Err(ctx.error(
                op,
                format!(
                    "interior padding {} of dimension {d} must be non-negative",
                    interior[d]
                ),
            ));
        }
        let size = lo[d] as i128
            + hi[d] as i128
            + shape[d] as i128
            + (shape[d] as i128 - 1).max(0) * interior[d] as i128;
        if size < 0 {
            return Err(ctx.error(op, format!("padding makes dimension {d} negative")));
        }
        if size > strata_ir::text::parser::MAX_ELEMENTS as i128 {
            return Err(ctx.error(
                op,
                format!("padding makes dimension {d} too large ({size})"),
            ));
        }
        out.push(size as i64);
    }
    expect_result_type(ctx, op, 0, &out, elem)
}

/// `xla.broadcast_to {mode, target_shape}`: "numpy" broadcasts the operand
/// to exactly `target_shape`; "bidirectional" gives the numpy broadcast of
/// the operand's shape and `target_shape` (which may differ from both).
pub fn verify_broadcast_to(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let target = i64s(ctx, op, "target_shape")?;
    if target.iter().any(|&d| d < 0) {
        return Err(ctx.error(
            op,
            format!(
                "target_shape {} must not have negative sizes",
                list(&target)
            ),
        ));
    }
    let mode = ctx.str_attr(op, "mode").unwrap_or("numpy");
    let out = match mode {
        "bidirectional" => {
            crate::broadcast::numpy(&shape, &target)
                .map_err(|m| ctx.error(op, m))?
                .shape
        }
        "numpy" => {
            let b = crate::broadcast::numpy(&shape, &target).map_err(|m| ctx.error(op, m))?;
            if b.shape != target {
                return Err(ctx.error(
                    op,
                    format!("cannot broadcast shape {} to target shape {} (use mode = \"bidirectional\" to allow a larger result)", crate::broadcast::shape_str(&shape), crate::broadcast::shape_str(&target)),
                ));
            }
            target
        }
        m => {
            return Err(ctx.error(
                op,
                format!(
                    "unknown broadcast_to mode \"{m}\" (expected \"numpy\" or \"bidirectional\")"
                ),
            ));
        }
    };
    expect_result_type(ctx, op, 0, &out, elem)
}

/// Start indices `operands[first..]`: one 0-d integer tensor per dimension,
/// all of one type.
fn check_start_indices(ctx: &Context, op: OpId, first: usize, rank: usize) -> Result<()> {
    let n = ctx.op(op).operands().len() - first;
    if n != rank {
        return Err(ctx.error(
            op,
            format!("expects {rank} start indices (one per dimension), found {n}"),
        ));
    }
    let mut ty = None;
    for i in first..ctx.op(op).operands().len() {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if !s.is_empty() || !is_int(ctx, e) {
            return Err(ctx.error(
                op,
                format!("start index #{} must be a 0-d integer tensor", i - first),
            ));
        }
        if ty.is_some_and(|t| t != e) {
            return Err(ctx.error(op, "start indices must all have the same type"));
        }
        ty = Some(e);
    }
    Ok(())
}

/// `xla.dynamic_slice`: `slice_sizes` from clamped start indices.
pub fn verify_dynamic_slice(ctx: &Context, op: OpId) -> Result<()> {
    if ctx.op(op).operands().is_empty() || ctx.op(op).results.len() != 1 {
        return Err(ctx.error(op, "expects an operand, start indices and one result"));
    }
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    check_start_indices(ctx, op, 1, shape.len())?;
    let sizes = slice_sizes(ctx, op, &shape)?;
    expect_result_type(ctx, op, 0, &sizes, elem)
}

/// `xla.dynamic_update_slice`: the operand with `update` written at the
/// clamped start indices.
pub fn verify_dynamic_update_slice(ctx: &Context, op: OpId) -> Result<()> {
    if ctx.op(op).operands().len() < 2 || ctx.op(op).results.len() != 1 {
        return Err(ctx.error(
            op,
            "expects an operand, an update, start indices and one result",
        ));
    }
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (ushape, uelem) = operand_tensor(ctx, op, 1)?;
    if uelem != elem || ushape.len() != shape.len() {
        return Err(ctx.error(op, "update must have the operand's element type and rank"));
    }
    for (d, (&u, &n)) in ushape.iter().zip(&shape).enumerate() {
        if u > n {
            return Err(ctx.error(
                op,
                format!("update size {u} of dimension {d} exceeds the operand's {n}"),
            ));
        }
    }
    check_start_indices(ctx, op, 2, shape.len())?;
    expect_result_type(ctx, op, 0, &shape, elem)
}

// Typed accessors: what a verified op's attributes say, read in one place
// (the lowerings call these instead of naming attributes).

/// `xla.transpose`: result dimension `i` is operand dimension `perm[i]`.
pub fn permutation(ctx: &Context, op: OpId) -> Option<Vec<usize>> {
    indices_attr(ctx, op, "permutation")
}

/// `xla.iota`: the dimension the values count along.
pub fn iota_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "iota_dimension")
}

/// `xla.concatenate`: the dimension the operands are joined along.
pub fn concatenate_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "dimension")
}

/// `xla.pad`'s padding per dimension: before, after (either may be
/// negative: a cut) and between elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padding {
    pub low: Vec<i64>,
    pub high: Vec<i64>,
    pub interior: Vec<i64>,
}

pub fn padding(ctx: &Context, op: OpId) -> Option<Padding> {
    Some(Padding {
        low: ctx.i64_array(op, "edge_padding_low")?,
        high: ctx.i64_array(op, "edge_padding_high")?,
        interior: ctx.i64_array(op, "interior_padding")?,
    })
}

/// `xla.broadcast_in_dim`: operand dimension `i` is result dimension
/// `dims[i]`.
pub fn broadcast_dimensions(ctx: &Context, op: OpId) -> Option<Vec<usize>> {
    indices_attr(ctx, op, "broadcast_dimensions")
}

/// `xla.reverse`: the dimensions reversed.
pub fn reverse_dimensions(ctx: &Context, op: OpId) -> Option<Vec<usize>> {
    indices_attr(ctx, op, "dimensions")
}

/// `xla.slice`: per dimension, from `start` (inclusive) to `limit`
/// (exclusive) by `strides`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceBounds {
    pub start: Vec<i64>,
    pub limit: Vec<i64>,
    pub strides: Vec<i64>,
}

pub fn slice_bounds(ctx: &Context, op: OpId) -> Option<SliceBounds> {
    Some(SliceBounds {
        start: ctx.i64_array(op, "start_indices")?,
        limit: ctx.i64_array(op, "limit_indices")?,
        strides: ctx.i64_array(op, "strides")?,
    })
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(IOTA, pure)
            .counts(0, 1)
            .verifier(verify_iota)
            .parser(parse::parse_iota),
    );
    r.add(
        OpDef::new(BROADCAST_IN_DIM, pure)
            .counts(1, 1)
            .verifier(verify_broadcast_in_dim)
            .parser(parse::parse_broadcast_in_dim),
    );
    r.add(
        OpDef::new(BROADCAST_TO, pure)
            .counts(1, 1)
            .verifier(verify_broadcast_to)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(DYNAMIC_SLICE, pure)
            .verifier(verify_dynamic_slice)
            .parser(parse::parse_dynamic_slice),
    );
    r.add(
        OpDef::new(DYNAMIC_UPDATE_SLICE, pure)
            .verifier(verify_dynamic_update_slice)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(RESHAPE, pure)
            .counts(1, 1)
            .verifier(verify_reshape)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(TRANSPOSE, pure)
            .counts(1, 1)
            .verifier(verify_transpose)
            .parser(parse::parse_transpose),
    );
    r.add(
        OpDef::new(SLICE, pure)
            .counts(1, 1)
            .verifier(verify_slice)
            .parser(parse::parse_slice),
    );
    r.add(
        OpDef::new(CONCATENATE, pure)
            .verifier(verify_concatenate)
            .parser(parse::parse_concatenate),
    );
    r.add(
        OpDef::new(REVERSE, pure)
            .counts(1, 1)
            .verifier(verify_reverse)
            .parser(parse::parse_reverse),
    );
    r.add(
        OpDef::new(PAD, pure)
            .counts(2, 1)
            .verifier(verify_pad)
            .parser(parse::parse_pad),
    );
}
