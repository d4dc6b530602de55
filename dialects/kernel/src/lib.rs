//! The `kernel` dialect: tensor-level calls of the runtime's kernels, chosen
//! by `convert-xla-to-kernel` ahead of the loop lowering, each carrying the
//! `#[repr(C)]` descriptor the runtime reads (`strata_abi`), so `strata opt`
//! shows the choice and tests pin it.
//!
//! | op | operands → result | runtime |
//! |---|---|---|
//! | `kernel.gemm` | (lhs, rhs) → out: f32, f64, bf16 → f32, i8 → i32 | `strata_rt_gemm_f32` / `_f64` / `_bf16_f32` / `_s8_s32` with a `GemmDesc` |
//! | `kernel.transpose` | x → out, 4-byte elements | `strata_rt_transpose` with a `TransposeDesc` |
//! | `kernel.conv` | (x, w) → out: f32, f64, bf16 → f32 | im2col loops, then `strata_rt_gemm_*` per image |
//!
//! ```text
//! %r = "kernel.gemm"(%x, %w) {mnk = array<i64: 128, 3072, 768>,
//!        lhs_strides = array<i64: 768, 1>, rhs_strides = array<i64: 3072, 1>,
//!        out_strides = array<i64: 3072, 1>, batch_sizes = array<i64>,
//!        lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>,
//!        out_batch_strides = array<i64>}
//!      : (tensor<1x128x768xf32>, tensor<768x3072xf32>) -> tensor<1x128x3072xf32>
//! ```
//!
//! Operands and result are dense row-major buffers once bufferized; the
//! strides (in elements) say where element (batch, row, column) of each
//! matrix lives, so a transposed operand or a product over any batch and
//! free dimensions needs no copy.

pub mod conv;
pub mod gemm;
pub mod transpose;

use strata_ir::{Context, OpDef, Traits};

pub const CONV: &str = "kernel.conv";
pub const GEMM: &str = "kernel.gemm";
pub const TRANSPOSE: &str = "kernel.transpose";

pub fn register(ctx: &mut Context) {
    ctx.registry.add(
        OpDef::new(CONV, Traits::PURE)
            .counts(2, 1)
            .verifier(conv::verify),
    );
    ctx.registry
        .add(OpDef::new(GEMM, Traits::PURE).verifier(gemm::verify));
    ctx.registry
        .add(OpDef::new(TRANSPOSE, Traits::PURE).verifier(transpose::verify));
}

/// The last element (plus one) a view of `sizes` and `strides` touches, or
/// None when a size or stride is negative or the span overflows.
pub(crate) fn span(sizes: &[i64], strides: &[i64]) -> Option<i64> {
    let mut last = 0i64;
    for (&n, &s) in sizes.iter().zip(strides) {
        if n < 0 || s < 0 {
            return None;
        }
        if n == 0 {
            return Some(0);
        }
        last = last.checked_add((n - 1).checked_mul(s)?)?;
    }
    last.checked_add(1)
}
