//! `xla.dot_general`.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const DOT_GENERAL: &str = "xla.dot_general";
}

/// Dimension numbers of a dot_general.
#[derive(Clone, Debug, Default)]
pub struct DotDims {
    pub lhs_batch: Vec<i64>,
    pub rhs_batch: Vec<i64>,
    pub lhs_contract: Vec<i64>,
    pub rhs_contract: Vec<i64>,
}

/// Reads `dot_dimension_numbers = #stablehlo.dot<...>`.
pub fn dot_dims(ctx: &Context, op: OpId) -> Option<DotDims> {
    let f = fields(ctx, op, "dot_dimension_numbers")?;
    Some(DotDims {
        lhs_batch: get(&f, "lhs_batching_dimensions"),
        rhs_batch: get(&f, "rhs_batching_dimensions"),
        lhs_contract: get(&f, "lhs_contracting_dimensions"),
        rhs_contract: get(&f, "rhs_contracting_dimensions"),
    })
}

/// `#stablehlo.dot<...>` for `d`, as `dot_dimension_numbers` holds it.
pub fn dot_dims_attr(ctx: &mut Context, d: &DotDims) -> strata_ir::Attr {
    let elem = ctx.types.int_ty(64);
    let fields = [
        ("lhs_batching_dimensions", &d.lhs_batch),
        ("rhs_batching_dimensions", &d.rhs_batch),
        ("lhs_contracting_dimensions", &d.lhs_contract),
        ("rhs_contracting_dimensions", &d.rhs_contract),
    ]
    .into_iter()
    .map(|(k, v)| {
        // As the parser reads `contracting_dims = [2] x [0]`: integers in an array.
        let items = v
            .iter()
            .map(|&value| {
                ctx.attr(strata_ir::AttrKind::Int {
                    value: value as i128,
                    ty: elem,
                })
            })
            .collect();
        (k.to_string(), ctx.attr(strata_ir::AttrKind::Array(items)))
    })
    .collect();
    ctx.attr(strata_ir::AttrKind::Struct {
        name: "stablehlo.dot".into(),
        fields,
    })
}

/// Result shape: batch dims, then lhs free dims, then rhs free dims.
pub fn result_shape(lhs: &[i64], rhs: &[i64], d: &DotDims) -> Vec<i64> {
    let mut out: Vec<i64> = d.lhs_batch.iter().map(|&i| lhs[i as usize]).collect();
    out.extend(
        free_dims(lhs.len(), &d.lhs_batch, &d.lhs_contract)
            .iter()
            .map(|&i| lhs[i]),
    );
    out.extend(
        free_dims(rhs.len(), &d.rhs_batch, &d.rhs_contract)
            .iter()
            .map(|&i| rhs[i]),
    );
    out
}

/// A batch of at least `TINY_BATCH` products of at most `TINY_PRODUCT`
/// multiply-adds each stays a loop nest, for f32/f64 too (the kernel
/// selection's rule; the loop lowering and `xla-fold-dot-transpose` ask
/// it too): the GEMM costs about 100 ns per product whatever its size
/// (4,096 products of 8x8 matrices took 0.49 ms through it, 2.4x XLA:CPU;
/// 31 us as loops, which are compiled for the product's sizes and run the
/// batch in parallel; attention with 8-wide heads over 32 positions, 2,048
/// products of 32x32 by 32x8: 830 us -> 101 us). A few such products cost
/// a few calls, and keep the kernel.
const TINY_PRODUCT: i64 = 32 * 32 * 8;
const TINY_BATCH: i64 = 64;

/// Whether `batch` products of `m`x`k` by `k`x`n` are a large batch of tiny
/// ones (see [`TINY_PRODUCT`]).
pub fn is_tiny_batch(batch: i64, m: i64, n: i64, k: i64) -> bool {
    batch >= TINY_BATCH && m.saturating_mul(n).saturating_mul(k) <= TINY_PRODUCT
}

/// Whether `dot_general` `op` is a large batch of tiny f32 or f64 products
/// (operands and result of one type, [`is_tiny_batch`]): the products the
/// kernel selection leaves to the loop lowering.
pub fn is_tiny_batch_dot(ctx: &Context, op: OpId) -> bool {
    let o = ctx.op(op);
    let (Some(d), [lhs, rhs, ..], Some(&result)) =
        (dot_dims(ctx, op), o.operands(), o.results.first())
    else {
        return false;
    };
    let (Some((ls, lt)), Some((rs, rt)), Some((_, t))) = (
        tensor_of(ctx, *lhs),
        tensor_of(ctx, *rhs),
        tensor_of(ctx, result),
    ) else {
        return false;
    };
    let wide = matches!(
        ctx.types.kind(t),
        strata_ir::TypeKind::Float(strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)
    );
    if !wide || lt != t || rt != t {
        return false;
    }
    let size = |shape: &[i64], dims: &[usize]| -> i64 {
        dims.iter().fold(1i64, |n, &i| {
            n.saturating_mul(shape.get(i).copied().unwrap_or(1))
        })
    };
    let index = |dims: &[i64]| dims.iter().map(|&i| i as usize).collect::<Vec<_>>();
    let m = size(&ls, &free_dims(ls.len(), &d.lhs_batch, &d.lhs_contract));
    let n = size(&rs, &free_dims(rs.len(), &d.rhs_batch, &d.rhs_contract));
    let k = size(&ls, &index(&d.lhs_contract));
    let batch = size(&ls, &index(&d.lhs_batch));
    is_tiny_batch(batch, m, n, k)
}

pub fn free_dims(rank: usize, batch: &[i64], contract: &[i64]) -> Vec<usize> {
    (0..rank)
        .filter(|&i| !batch.contains(&(i as i64)) && !contract.contains(&(i as i64)))
        .collect()
}

fn check_dims(
    ctx: &Context,
    op: OpId,
    what: &str,
    dims: &[i64],
    rank: usize,
    used: &mut Vec<i64>,
) -> Result<()> {
    for &d in dims {
        if d < 0 || d as usize >= rank {
            return Err(ctx.error(
                op,
                format!("{what} dimension {d} is out of range for rank {rank}"),
            ));
        }
        if used.contains(&d) {
            return Err(ctx.error(op, format!("{what} dimension {d} is used more than once")));
        }
        used.push(d);
    }
    Ok(())
}

/// The batching and contracting dimensions: in range, each used once, and
/// of equal sizes on both sides.
pub fn check_dot_dims(
    ctx: &Context,
    op: OpId,
    lhs: &[i64],
    rhs: &[i64],
    d: &DotDims,
) -> Result<()> {
    if d.lhs_batch.len() != d.rhs_batch.len() || d.lhs_contract.len() != d.rhs_contract.len() {
        return Err(ctx.error(
            op,
            "lhs and rhs must have the same number of batching and of contracting dimensions",
        ));
    }
    let mut used = Vec::new();
    check_dims(ctx, op, "lhs batching", &d.lhs_batch, lhs.len(), &mut used)?;
    check_dims(
        ctx,
        op,
        "lhs contracting",
        &d.lhs_contract,
        lhs.len(),
        &mut used,
    )?;
    let mut used = Vec::new();
    check_dims(ctx, op, "rhs batching", &d.rhs_batch, rhs.len(), &mut used)?;
    check_dims(
        ctx,
        op,
        "rhs contracting",
        &d.rhs_contract,
        rhs.len(),
        &mut used,
    )?;
    for (a, b) in d
        .lhs_batch
        .iter()
        .zip(&d.rhs_batch)
        .chain(d.lhs_contract.iter().zip(&d.rhs_contract))
    {
        let (x, y) = (lhs[*a as usize], rhs[*b as usize]);
        if x != y {
            return Err(ctx.error(op, format!("lhs dimension {a} (size {x}) and rhs dimension {b} (size {y}) must have the same size")));
        }
    }
    Ok(())
}

pub fn verify_dot_general(ctx: &Context, op: OpId) -> Result<()> {
    let (lhs, le) = operand_tensor(ctx, op, 0)?;
    let (rhs, re) = operand_tensor(ctx, op, 1)?;
    let d = dot_dims(ctx, op).ok_or_else(|| {
        ctx.error(
            op,
            "requires attribute 'dot_dimension_numbers' (#stablehlo.dot<...>)",
        )
    })?;
    // Mixed operand types (i8 x i8 -> i32 is the same type; an int with a
    // float is not) are computed as XLA does: each converted to the
    // result's type. Complex operands must match.
    let mixed_ok =
        !is_complex(ctx, le) && !is_complex(ctx, re) && !is_bool(ctx, le) && !is_bool(ctx, re);
    if le != re && !mixed_ok {
        return Err(ctx.error(
            op,
            format!(
                "requires operands of the same element type, found {} and {}",
                ty_str(ctx, le),
                ty_str(ctx, re)
            ),
        ));
    }
    check_dot_dims(ctx, op, &lhs, &rhs, &d)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let out = result_shape(&lhs, &rhs, &d);
    if rshape != out {
        return Err(ctx.error(
            op,
            format!(
                "inferred shape {} does not match result shape {}",
                list(&out),
                list(&rshape)
            ),
        ));
    }
    if is_bool(ctx, le) != is_bool(ctx, relem) || is_complex(ctx, le) != is_complex(ctx, relem) {
        return Err(ctx.error(
            op,
            format!(
                "result element type {} is incompatible with operand element type {}",
                ty_str(ctx, relem),
                ty_str(ctx, le)
            ),
        ));
    }
    Ok(())
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(DOT_GENERAL, pure)
            .counts(2, 1)
            .verifier(verify_dot_general)
            .parser(parse::parse_dot_general),
    );
}
