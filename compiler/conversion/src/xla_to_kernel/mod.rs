//! `convert-xla-to-kernel`: kernel selection, a pass of its own ahead of the
//! loop lowering. Every `xla.dot_general` the runtime's GEMM can compute,
//! and every 1x1 `xla.convolution`, becomes a `kernel.gemm` whose
//! descriptor says how the product maps onto strided matrices (see
//! `gemm.rs`, `conv.rs`); the loop lowering then only calls the runtime
//! with it. (Larger convolutions still choose their im2col + GEMM path in
//! the loop lowering, `xla_to_loop/conv.rs`.) A large transpose that moves
//! the innermost dimension and that nothing fuses becomes a
//! `kernel.transpose` (`transpose.rs`). What no kernel computes (integer and complex products,
//! contracting dimensions that no stride can merge) stays a `dot_general`
//! for the loop path.
//!
//! Input: verified `xla` functions. Output: the same, with `kernel.gemm`
//! ops (and `xla.convert`s around them for f16/bf16, which the kernel
//! computes in f32 and rounds once, as XLA:CPU does).

mod conv;
pub(crate) mod gemm;
mod transpose;
mod view;

use strata_diag::Result;

use strata_ir::{Context, OpId};

pub const FLAG: &str = "convert-xla-to-kernel";

pub struct ConvertXlaToKernelPass;

impl strata_pass::Pass for ConvertXlaToKernelPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "choose the runtime's kernels: dot_general on floats becomes kernel.gemm on strided views, a large transpose kernel.transpose"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        use strata_dialect_xla::names::{CONVOLUTION, DOT_GENERAL, TRANSPOSE};
        use strata_dialect_xla::transforms::build::ops_named;
        for op in ops_named(ctx, module, &[DOT_GENERAL, CONVOLUTION]) {
            if ctx.op(op).name == DOT_GENERAL {
                gemm::select(ctx, op)?;
            } else {
                conv::select(ctx, op)?;
            }
        }
        // Transposes last: the products above read through the ones they
        // can, and those are gone.
        let transposes = ops_named(ctx, module, &[TRANSPOSE]);
        if transposes.is_empty() {
            return Ok(());
        }
        for op in transposes {
            transpose::select(ctx, op, module)?;
        }
        Ok(())
    }
}
