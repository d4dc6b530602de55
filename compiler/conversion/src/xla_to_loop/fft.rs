//! `xla.fft` (FFT, IFFT, RFFT, IRFFT over 1-3 trailing dimensions): a call to
//! the runtime (rustfft) with a `strata_abi::FftDesc`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of `xla.fft`, through the runtime.
pub(super) const FFT: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::FFT]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| fft(cx, b, op, bufs[0]),
};

/// The runtime's FFT (rustfft), described by a constant descriptor.
pub(super) fn fft(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let x = b.ctx.op(op).operands()[0];
    let shape = shape_of(b.ctx, x);
    let elem = b.ctx.types.elem(b.ctx.value_ty(x));
    let bits = b.ctx.types.bit_width(elem) as i64;
    use strata_abi::FftKind;
    use strata_dialect_xla::attrs::{FftType, fft_type};
    let kind = match fft_type(b.ctx, op) {
        Some(FftType::Fft) => FftKind::Fft,
        Some(FftType::Ifft) => FftKind::Ifft,
        Some(FftType::Rfft) => FftKind::Rfft,
        Some(FftType::Irfft) => FftKind::Irfft,
        None => return Err(Diagnostic::internal(b.loc, "fft without a valid fft_type")),
    };
    let lengths = strata_dialect_xla::ops::misc::fft_lengths(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "fft without fft_length"))?;
    if shape.len() > strata_abi::FFT_MAX_RANK || lengths.len() > 3 {
        return Err(Diagnostic::unsupported(
            b.loc,
            format!(
                "fft of a rank-{} operand over {} dimensions is not supported (at most rank {} over 3)",
                shape.len(),
                lengths.len(),
                strata_abi::FFT_MAX_RANK
            ),
        ));
    }
    let mut desc = strata_abi::FftDesc {
        kind: kind as i64,
        element_bits: bits,
        rank: shape.len() as i64,
        fft_rank: lengths.len() as i64,
        ..Default::default()
    };
    desc.shape[..shape.len()].copy_from_slice(&shape);
    desc.lengths[..lengths.len()].copy_from_slice(&lengths);
    let desc_buf = cx.descriptor_global(b, &desc)?;
    let input = cx.buffer_of(b, x)?;
    cx.call_runtime(b, &strata_abi::runtime::FFT, vec![desc_buf, input, out]);
    Ok(())
}
