//! `xla.rng_bit_generator`: a call to the runtime's THREE_FRY or PHILOX
//! generator (`runtime/src/rng.rs`, bit for bit XLA:CPU's layout and state
//! update). DEFAULT is PHILOX, as XLA:CPU expands it.
//! `xla.rng_get_and_update_state`: the runtime's process-wide Philox state
//! (what `xla-expand-rng` feeds such a generator for `rng`).

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of `xla.rng_bit_generator`.
pub(super) const RNG_BIT_GENERATOR: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::RNG_BIT_GENERATOR]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| rng_bit_generator(cx, b, op, bufs),
};

/// The lowering pattern of `xla.rng_get_and_update_state`.
pub(super) const RNG_GET_AND_UPDATE_STATE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::RNG_GET_AND_UPDATE_STATE]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| rng_get_and_update_state(cx, b, op, bufs),
};

pub(super) fn rng_bit_generator(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let alg = strata_dialect_xla::ops::misc::rng_algorithm(b.ctx, op)
        .unwrap_or("")
        .to_string();
    let sig = match alg.as_str() {
        "THREE_FRY" => &strata_abi::runtime::RNG_THREE_FRY,
        "PHILOX" | "DEFAULT" => &strata_abi::runtime::RNG_PHILOX,
        _ => {
            return Err(Diagnostic::error(
                b.loc,
                format!("unknown rng_algorithm '{alg}'"),
            ));
        }
    };
    let shape = shape_of(b.ctx, bufs[1]);
    if shape.len() > strata_abi::RNG_MAX_RANK {
        return Err(Diagnostic::unsupported(
            b.loc,
            "rng_bit_generator output of rank above 16",
        ));
    }
    let elem = b.ctx.types.elem(b.ctx.value_ty(bufs[1]));
    let mut desc = strata_abi::RngDesc {
        rank: shape.len() as i64,
        element_bytes: b.ctx.types.storage_bytes(elem) as i64,
        state_words: shape_of(b.ctx, bufs[0]).first().copied().unwrap_or(0),
        ..Default::default()
    };
    desc.dims[..shape.len()].copy_from_slice(&shape);
    let desc_buf = cx.descriptor_global(b, &desc)?;
    let state = cx.buffer_of(b, b.ctx.op(op).operands()[0])?;
    cx.call_runtime(b, sig, vec![desc_buf, state, bufs[0], bufs[1]]);
    Ok(())
}

pub(super) fn rng_get_and_update_state(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let delta = strata_dialect_xla::ops::misc::state_delta(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "rng_get_and_update_state without 'delta'"))?;
    let desc = strata_abi::RngStateDesc { delta };
    let desc_buf = cx.descriptor_global(b, &desc)?;
    cx.call_runtime(
        b,
        &strata_abi::runtime::RNG_GET_AND_UPDATE_STATE,
        vec![desc_buf, bufs[0]],
    );
    Ok(())
}
