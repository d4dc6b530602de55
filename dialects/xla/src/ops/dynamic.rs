//! StableHLO's dynamic-shape ops (`xla.dynamic_broadcast_in_dim`, ...):
//! no verifier of their own, since `xla-refine-shapes` and
//! `xla-static-dynamic-ops` turn them into their static twins (verified
//! then) before anything else reads them.

use names::*;
use strata_ir::{OpDef, Registry, Traits};

use crate::parse;

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    // StableHLO's dynamic-shape ops; `xla-static-dynamic-ops` turns those with
    // constant shape operands into their static twins.
    pub const DYNAMIC_BROADCAST_IN_DIM: &str = "xla.dynamic_broadcast_in_dim";
    pub const DYNAMIC_IOTA: &str = "xla.dynamic_iota";
    pub const DYNAMIC_RESHAPE: &str = "xla.dynamic_reshape";
    pub const DYNAMIC_PAD: &str = "xla.dynamic_pad";
    pub const REAL_DYNAMIC_SLICE: &str = "xla.real_dynamic_slice";
    pub const DYNAMIC_GATHER: &str = "xla.dynamic_gather";
    pub const DYNAMIC_CONV: &str = "xla.dynamic_conv";
    pub const DYNAMIC_OPS: &[&str] = &[
        DYNAMIC_BROADCAST_IN_DIM,
        DYNAMIC_IOTA,
        DYNAMIC_RESHAPE,
        DYNAMIC_PAD,
        DYNAMIC_GATHER,
        DYNAMIC_CONV,
        REAL_DYNAMIC_SLICE,
    ];
}

pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(OpDef::new(DYNAMIC_BROADCAST_IN_DIM, pure).parser(parse::parse_dynamic_broadcast_in_dim));
    for name in [
        DYNAMIC_RESHAPE,
        DYNAMIC_PAD,
        DYNAMIC_GATHER,
        DYNAMIC_CONV,
        REAL_DYNAMIC_SLICE,
    ] {
        r.add(OpDef::new(name, pure).parser(parse::parse_elementwise));
    }
    r.add(OpDef::new(DYNAMIC_IOTA, pure).parser(parse::parse_dynamic_iota));
}
