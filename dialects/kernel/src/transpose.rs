//! `kernel.transpose`: a transpose that moves the innermost dimension, the
//! runtime's blocked transpose (`strata_abi::TransposeDesc`): a batch of
//! 2-D transposes over the outer dimensions.

use strata_abi::{TRANSPOSE_MAX_OUTER, TransposeDesc};
use strata_diag::Result;
use strata_ir::{Attr, AttrKind, Context, OpId};

/// The descriptor's fields as the op's attributes (`elem_bytes` comes from
/// the element type).
pub fn attrs(ctx: &mut Context, d: &TransposeDesc) -> Vec<(String, Attr)> {
    let n = d.outer_rank.clamp(0, TRANSPOSE_MAX_OUTER as i64) as usize;
    let elem = ctx.types.int_ty(64);
    let mut array = |values: Vec<i64>| ctx.attr(AttrKind::DenseArray { elem, values });
    vec![
        ("rows_cols".into(), array(vec![d.rows, d.cols])),
        (
            "row_strides".into(),
            array(vec![d.src_row_stride, d.dst_row_stride]),
        ),
        ("outer_sizes".into(), array(d.outer_sizes[..n].to_vec())),
        (
            "src_outer_strides".into(),
            array(d.src_outer_strides[..n].to_vec()),
        ),
        (
            "dst_outer_strides".into(),
            array(d.dst_outer_strides[..n].to_vec()),
        ),
    ]
}

/// The descriptor an op's attributes state (None when malformed).
pub fn desc(ctx: &Context, op: OpId) -> Option<TransposeDesc> {
    let pair = |name: &str| -> Option<[i64; 2]> { ctx.i64_array(op, name)?.try_into().ok() };
    let [rows, cols] = pair("rows_cols")?;
    let [src_rs, dst_rs] = pair("row_strides")?;
    let sizes = ctx.i64_array(op, "outer_sizes")?;
    let n = sizes.len();
    if n > TRANSPOSE_MAX_OUTER {
        return None;
    }
    let elem = ctx
        .types
        .elem(ctx.value_ty(*ctx.op(op).operands().first()?));
    let mut d = TransposeDesc {
        elem_bytes: ctx.types.storage_bytes(elem) as i64,
        outer_rank: n as i64,
        rows,
        cols,
        src_row_stride: src_rs,
        dst_row_stride: dst_rs,
        ..TransposeDesc::default()
    };
    d.outer_sizes[..n].copy_from_slice(&sizes);
    for (name, dst) in [
        ("src_outer_strides", &mut d.src_outer_strides),
        ("dst_outer_strides", &mut d.dst_outer_strides),
    ] {
        let s = ctx.i64_array(op, name)?;
        if s.len() != n {
            return None;
        }
        dst[..n].copy_from_slice(&s);
    }
    Some(d)
}

/// One operand and one result, tensors of one 4-byte element type with as
/// many elements; the descriptor's views stay inside both buffers and
/// cover the result's elements once: a wrong descriptor would make the
/// runtime read or write out of bounds.
pub fn verify(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 1 || o.results.len() != 1 {
        return Err(ctx.error(op, "takes one operand and has one result"));
    }
    let (src, dst) = (ctx.value_ty(o.operands()[0]), ctx.value_ty(o.results[0]));
    let elem = ctx.types.elem(src);
    if !ctx.types.is_tensor(src)
        || !ctx.types.is_tensor(dst)
        || ctx.types.elem(dst) != elem
        || ctx.types.storage_bytes(elem) != 4
        || ctx.types.is_complex(elem)
    {
        return Err(ctx.error(
            op,
            "operand and result must be tensors of one 4-byte element type",
        ));
    }
    let Some(d) = desc(ctx, op) else {
        return Err(ctx.error(
            op,
            "has a malformed descriptor (rows_cols, row_strides, outer_sizes, *_outer_strides)",
        ));
    };
    let n = d.outer_rank as usize;
    let views = [
        (
            "operand",
            src,
            [d.rows, d.cols],
            d.src_row_stride,
            d.src_outer_strides,
        ),
        (
            "result",
            dst,
            [d.cols, d.rows],
            d.dst_row_stride,
            d.dst_outer_strides,
        ),
    ];
    for (what, ty, [r, c], row_stride, outer_strides) in views {
        let mut sizes = d.outer_sizes[..n].to_vec();
        sizes.extend([r, c]);
        let mut strides = outer_strides[..n].to_vec();
        strides.extend([row_stride, 1]);
        let elements = ctx.types.num_elements(ty);
        match crate::span(&sizes, &strides) {
            Some(end) if end <= elements => {}
            _ => {
                return Err(ctx.error(
                    op,
                    format!("the descriptor's {what} view leaves its {elements}-element buffer"),
                ));
            }
        }
    }
    let written = d.outer_sizes[..n]
        .iter()
        .chain([&d.rows, &d.cols])
        .try_fold(1i64, |acc, &n| acc.checked_mul(n));
    if written != Some(ctx.types.num_elements(dst))
        || ctx.types.num_elements(src) != ctx.types.num_elements(dst)
    {
        return Err(ctx.error(
            op,
            "the descriptor does not cover every element of the result once",
        ));
    }
    Ok(())
}
