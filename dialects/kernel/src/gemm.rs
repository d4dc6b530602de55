//! `kernel.gemm`: `out[b] = lhs[b] · rhs[b]` for every batch index `b`, the
//! runtime's GEMM on strided views (`strata_abi::GemmDesc`).

use strata_abi::{GEMM_MAX_BATCH, GemmDesc};
use strata_diag::Result;
use strata_ir::{Attr, AttrKind, Context, FloatKind, OpId, Signedness, TypeKind};

/// The descriptor's fields as the op's attributes.
pub fn attrs(ctx: &mut Context, d: &GemmDesc) -> Vec<(String, Attr)> {
    let nb = d.batch_rank.clamp(0, GEMM_MAX_BATCH as i64) as usize;
    let elem = ctx.types.int_ty(64);
    let mut array = |values: Vec<i64>| ctx.attr(AttrKind::DenseArray { elem, values });
    vec![
        ("mnk".into(), array(vec![d.m, d.n, d.k])),
        (
            "lhs_strides".into(),
            array(vec![d.lhs_row_stride, d.lhs_col_stride]),
        ),
        (
            "rhs_strides".into(),
            array(vec![d.rhs_row_stride, d.rhs_col_stride]),
        ),
        (
            "out_strides".into(),
            array(vec![d.out_row_stride, d.out_col_stride]),
        ),
        ("batch_sizes".into(), array(d.batch_sizes[..nb].to_vec())),
        (
            "lhs_batch_strides".into(),
            array(d.lhs_batch_strides[..nb].to_vec()),
        ),
        (
            "rhs_batch_strides".into(),
            array(d.rhs_batch_strides[..nb].to_vec()),
        ),
        (
            "out_batch_strides".into(),
            array(d.out_batch_strides[..nb].to_vec()),
        ),
    ]
}

/// The descriptor an op's attributes state (None when malformed).
pub fn desc(ctx: &Context, op: OpId) -> Option<GemmDesc> {
    let pair = |name: &str| -> Option<[i64; 2]> { ctx.i64_array(op, name)?.try_into().ok() };
    let [m, n, k]: [i64; 3] = ctx.i64_array(op, "mnk")?.try_into().ok()?;
    let [lr, lc] = pair("lhs_strides")?;
    let [rr, rc] = pair("rhs_strides")?;
    let [or, oc] = pair("out_strides")?;
    let sizes = ctx.i64_array(op, "batch_sizes")?;
    let nb = sizes.len();
    if nb > GEMM_MAX_BATCH {
        return None;
    }
    let mut d = GemmDesc {
        batch_rank: nb as i64,
        m,
        n,
        k,
        lhs_row_stride: lr,
        lhs_col_stride: lc,
        rhs_row_stride: rr,
        rhs_col_stride: rc,
        out_row_stride: or,
        out_col_stride: oc,
        ..GemmDesc::default()
    };
    d.batch_sizes[..nb].copy_from_slice(&sizes);
    for (name, dst) in [
        ("lhs_batch_strides", &mut d.lhs_batch_strides),
        ("rhs_batch_strides", &mut d.rhs_batch_strides),
        ("out_batch_strides", &mut d.out_batch_strides),
    ] {
        let s = ctx.i64_array(op, name)?;
        if s.len() != nb {
            return None;
        }
        dst[..nb].copy_from_slice(&s);
    }
    Some(d)
}

/// The element types a `kernel.gemm` multiplies and sums in, each with its
/// runtime kernel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elements {
    F32,
    F64,
    /// bf16 operands, an f32 result.
    Bf16ToF32,
    /// i8 operands, an i32 result (sums wrapping).
    S8ToS32,
}

impl Elements {
    /// The product of `operands` with an `result` result, if a kernel
    /// computes it: same-typed f32 or f64, or bf16 to f32.
    pub fn of_floats(operands: FloatKind, result: FloatKind) -> Option<Self> {
        match (operands, result) {
            (FloatKind::F32, FloatKind::F32) => Some(Elements::F32),
            (FloatKind::F64, FloatKind::F64) => Some(Elements::F64),
            (FloatKind::BF16, FloatKind::F32) => Some(Elements::Bf16ToF32),
            _ => None,
        }
    }

    /// The runtime function computing this product.
    pub fn signature(self) -> &'static strata_abi::runtime::Signature {
        use strata_abi::runtime::{GEMM_BF16_F32, GEMM_F32, GEMM_F64, GEMM_S8_S32};
        match self {
            Elements::F32 => &GEMM_F32,
            Elements::F64 => &GEMM_F64,
            Elements::Bf16ToF32 => &GEMM_BF16_F32,
            Elements::S8ToS32 => &GEMM_S8_S32,
        }
    }
}

/// The elements of `op`'s operands and result, if a kernel takes them.
pub fn elements(ctx: &Context, op: OpId) -> Option<Elements> {
    let o = ctx.op(op);
    let [lhs, rhs] = o.operands()[..] else {
        return None;
    };
    let [out] = o.results[..] else {
        return None;
    };
    let types = [lhs, rhs, out].map(|v| ctx.value_ty(v));
    if types.iter().any(|&t| !ctx.types.is_tensor(t)) {
        return None;
    }
    let [l, r, o] = types.map(|t| ctx.types.elem(t));
    if l != r {
        return None;
    }
    let int = |width: u32, t| matches!(ctx.types.kind(t), TypeKind::Int { width: w, sign } if *w == width && *sign != Signedness::Unsigned);
    match (ctx.types.kind(l), ctx.types.kind(o)) {
        (TypeKind::Float(l), TypeKind::Float(o)) => Elements::of_floats(*l, *o),
        _ if int(8, l) && int(32, o) => Some(Elements::S8ToS32),
        _ => None,
    }
}

/// Operands and result are tensors of element types a kernel takes (see
/// [`Elements`]), and every view the descriptor states stays inside its
/// buffer: a wrong descriptor would make the runtime read or write out of
/// bounds.
pub fn verify(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 2 || o.results.len() != 1 {
        return Err(ctx.error(op, "takes two operands and has one result"));
    }
    let types = [o.operands()[0], o.operands()[1], o.results[0]].map(|v| ctx.value_ty(v));
    if elements(ctx, op).is_none() {
        return Err(ctx.error(
            op,
            "operands and result must be tensors of f32, f64, bf16 -> f32 or i8 -> i32",
        ));
    }
    let Some(d) = desc(ctx, op) else {
        return Err(ctx.error(op, "has a malformed descriptor (mnk, *_strides, *batch*)"));
    };
    let nb = d.batch_rank as usize;
    let views = [
        (
            "lhs",
            types[0],
            [d.m, d.k],
            [d.lhs_row_stride, d.lhs_col_stride],
            d.lhs_batch_strides,
        ),
        (
            "rhs",
            types[1],
            [d.k, d.n],
            [d.rhs_row_stride, d.rhs_col_stride],
            d.rhs_batch_strides,
        ),
        (
            "result",
            types[2],
            [d.m, d.n],
            [d.out_row_stride, d.out_col_stride],
            d.out_batch_strides,
        ),
    ];
    for (what, ty, dims, strides, batch_strides) in views {
        let mut sizes = d.batch_sizes[..nb].to_vec();
        sizes.extend(dims);
        let mut all = batch_strides[..nb].to_vec();
        all.extend(strides);
        let elements = ctx.types.num_elements(ty);
        match crate::span(&sizes, &all) {
            Some(end) if end <= elements => {}
            _ => {
                return Err(ctx.error(
                    op,
                    format!("the descriptor's {what} view leaves its {elements}-element buffer"),
                ));
            }
        }
    }
    let written = d.batch_sizes[..nb]
        .iter()
        .chain([&d.m, &d.n])
        .try_fold(1i64, |acc, &n| acc.checked_mul(n));
    if written != Some(ctx.types.num_elements(types[2])) {
        return Err(ctx.error(
            op,
            "the descriptor does not cover every element of the result once",
        ));
    }
    Ok(())
}
