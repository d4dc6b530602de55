//! `xla.ragged_dot(lhs, rhs, group_sizes)` (CHLO's `ragged_dot`): a dot
//! whose `rhs` holds G matrices (`rhs_group_dimensions`) and whose lhs
//! ragged dimension (`lhs_ragged_dimensions`) is split into G consecutive
//! runs of `group_sizes[g]` rows, each multiplied by its group's matrix.
//! Attribute `ragged_dot_dimension_numbers = #chlo.ragged_dot<...>` with the
//! dot's batching and contracting dimensions too.
//!
//! Only the mode where the ragged dimension is a non-contracting lhs
//! dimension is supported (the result has no group dimension); ragged
//! contracting or batch dimensions are reported as unsupported.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use super::dot::{DotDims, check_dot_dims, free_dims, result_shape};
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    /// CHLO's `ragged_dot`; `xla-expand-ragged-dot` writes it as a dot_general
    /// per group, masked.
    pub const RAGGED_DOT: &str = "xla.ragged_dot";
}

/// The dimension numbers, with the ragged lhs dimension and the rhs group one.
pub struct RaggedDims {
    pub dot: DotDims,
    pub lhs_ragged: i64,
    pub rhs_group: i64,
}

pub fn ragged_dims(ctx: &Context, op: OpId) -> Option<RaggedDims> {
    let f = fields(ctx, op, "ragged_dot_dimension_numbers")?;
    let one = |name| match get(&f, name)[..] {
        [d] => Some(d),
        _ => None,
    };
    Some(RaggedDims {
        dot: DotDims {
            lhs_batch: get(&f, "lhs_batching_dimensions"),
            rhs_batch: get(&f, "rhs_batching_dimensions"),
            lhs_contract: get(&f, "lhs_contracting_dimensions"),
            rhs_contract: get(&f, "rhs_contracting_dimensions"),
        },
        lhs_ragged: one("lhs_ragged_dimensions")?,
        rhs_group: one("rhs_group_dimensions").unwrap_or(-1),
    })
}

pub fn verify_ragged_dot(ctx: &Context, op: OpId) -> Result<()> {
    let (lhs, le) = operand_tensor(ctx, op, 0)?;
    let (rhs, re) = operand_tensor(ctx, op, 1)?;
    let (sizes, se) = operand_tensor(ctx, op, 2)?;
    let d = ragged_dims(ctx, op).ok_or_else(|| {
        ctx.error(
            op,
            "requires 'ragged_dot_dimension_numbers' (#chlo.ragged_dot<...>) with one lhs ragged dimension",
        )
    })?;
    check_dot_dims(ctx, op, &lhs, &rhs, &d.dot)?;
    let lhs_free = free_dims(lhs.len(), &d.dot.lhs_batch, &d.dot.lhs_contract);
    let rhs_free = free_dims(rhs.len(), &d.dot.rhs_batch, &d.dot.rhs_contract);
    if !lhs_free.contains(&(d.lhs_ragged as usize)) {
        return Err(strata_diag::Diagnostic::unsupported(
            ctx.op(op).loc,
            "ragged_dot with a ragged contracting or batch dimension is not supported yet (a ragged non-contracting lhs dimension is)",
        ));
    }
    if d.rhs_group < 0 || !rhs_free.contains(&(d.rhs_group as usize)) {
        return Err(ctx.error(
            op,
            "rhs_group_dimensions must name one non-contracting, non-batch rhs dimension",
        ));
    }
    let groups = rhs[d.rhs_group as usize];
    if sizes != [groups] || !ctx.types.is_int(se) {
        return Err(ctx.error(
            op,
            format!(
                "group_sizes must be a 1-d integer tensor of the {groups} groups, found {}",
                list(&sizes)
            ),
        ));
    }
    if le != re {
        return Err(ctx.error(op, "lhs and rhs must have one element type"));
    }
    let mut out = result_shape(&lhs, &rhs, &d.dot);
    let group_at = d.dot.lhs_batch.len()
        + lhs_free.len()
        + rhs_free
            .iter()
            .position(|&x| x == d.rhs_group as usize)
            .unwrap_or(0);
    out.remove(group_at);
    let (_, result_elem) = result_tensor(ctx, op, 0)?;
    expect_result_type(ctx, op, 0, &out, result_elem)
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(RAGGED_DOT, pure)
            .counts(3, 1)
            .verifier(verify_ragged_dot),
    );
}
