//! One lowering pattern per op family: what `convert-xla-to-loop` knows
//! about an op beyond the structural ones (`func.return`, `func.call`,
//! control flow, tuples, checks and custom calls, which `mod.rs` and
//! `control.rs` handle before any pattern is consulted).
//!
//! A pattern names its ops, says whether their values may be fused into
//! their readers, and writes an op's results into buffers. Each is a
//! constant in its family's file beside the code it calls; `populate_xla_to_loop` lists
//! them, and adding an op family is one struct there and one line here (see
//! docs/adding-an-op.md). Each family has its conversion test,
//! `tests/conversion/xla-to-loop-<family>.mlir`.

use std::collections::HashMap;
use std::sync::OnceLock;

use strata_diag::Result;
use strata_ir::{OpId, Value};

use super::FuncLowering;
use crate::builder::Builder;

/// Where a pattern's results live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// Computed per element from operand elements at the same index:
    /// fused into the reader when read once.
    Elementwise,
    /// Only remaps indices: cheap to recompute at every use, always fused.
    IndexRemap,
    /// `xla.constant`: a splat is fused, anything else a global.
    Constant,
    /// Always written into a buffer of its own.
    Never,
}

/// How a pattern writes an op's results into buffers (one per result).
pub type LowerFn = fn(&mut FuncLowering<'_>, &mut Builder<'_>, OpId, &[Value]) -> Result<()>;

/// The lowering of one op family: plain data, one constant per family in
/// its file.
pub struct OpLowering {
    /// The ops this pattern lowers (lists of names, concatenated).
    pub ops: &'static [&'static [&'static str]],
    pub fusion: Fusion,
    /// Whether XLA:CPU runs this family as a precompiled library kernel
    /// (Eigen, its runtime) built without FMA: the lowering then keeps its
    /// arithmetic uncontracted, so results match XLA's bit for bit.
    pub library_arithmetic: bool,
    pub lower: LowerFn,
}

impl OpLowering {
    fn names(&self) -> impl Iterator<Item = &'static str> {
        self.ops.iter().flat_map(|list| list.iter().copied())
    }
}

/// Every pattern of the lowering, in no particular order: each op is named
/// by exactly one of them (checked by `patterns()`'s test).
pub fn populate_xla_to_loop(set: &mut Vec<&'static OpLowering>) {
    use super::*;
    set.extend([
        &materialize::ELEMENTWISE,
        &materialize::INDEX_REMAP,
        &materialize::CONSTANT,
        &reduce::REDUCE,
        &dot::DOT,
        &kernel::GEMM,
        &kernel::TRANSPOSE,
        &conv::CONV_GEMM,
        &conv::CONVOLUTION,
        &window::REDUCE_WINDOW,
        &window::SELECT_AND_SCATTER,
        &gather_scatter::SCATTER,
        &sort::SORT,
        &top_k::TOP_K,
        &linalg::TRIANGULAR_SOLVE,
        &linalg::CHOLESKY,
        &linalg::LU,
        &decomposition::DECOMPOSITION,
        &rng::RNG_BIT_GENERATOR,
        &rng::RNG_GET_AND_UPDATE_STATE,
        &fft::FFT,
        &shape::CONCATENATE,
        &shape::PAD,
        &shape::DYNAMIC_UPDATE_SLICE,
        &collective::COLLECTIVE,
    ]);
}

/// The pattern of each op name, built once from `populate_xla_to_loop`.
fn patterns() -> &'static HashMap<&'static str, &'static OpLowering> {
    static PATTERNS: OnceLock<HashMap<&'static str, &'static OpLowering>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let mut set = Vec::new();
        populate_xla_to_loop(&mut set);
        let mut by_name = HashMap::new();
        for pattern in set {
            for name in pattern.names() {
                by_name.insert(name, pattern);
            }
        }
        by_name
    })
}

/// The pattern lowering the op named `name`, if any.
pub fn pattern_for(name: &str) -> Option<&'static OpLowering> {
    patterns().get(name).copied()
}

/// How `name`'s values may be fused, if the lowering knows the op.
pub fn fusion_of(name: &str) -> Option<Fusion> {
    pattern_for(name).map(|p| p.fusion)
}

/// Ops computed per element from operand elements at the same index.
pub fn is_elementwise(name: &str) -> bool {
    fusion_of(name) == Some(Fusion::Elementwise)
}

/// Ops that only remap indices (cheap to recompute at every use).
pub fn is_index_only(name: &str) -> bool {
    fusion_of(name) == Some(Fusion::IndexRemap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_one_pattern() {
        let mut set = Vec::new();
        populate_xla_to_loop(&mut set);
        let mut seen = std::collections::HashSet::new();
        for pattern in set {
            for name in pattern.names() {
                assert!(seen.insert(name), "{name} is named by two patterns");
            }
        }
        assert!(seen.contains(strata_dialect_xla::names::DOT_GENERAL));
        assert!(is_elementwise(strata_dialect_xla::names::ADD));
        assert!(is_index_only(strata_dialect_xla::names::TRANSPOSE));
    }
}
