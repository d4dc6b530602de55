//! Helpers shared by the verifiers.

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{AttrKind, Context, OpId, Type, TypeKind, Value};

/// Shape and element type of a ranked tensor value.
pub fn tensor_of(ctx: &Context, v: Value) -> Option<(Vec<i64>, Type)> {
    match ctx.types.kind(ctx.value_ty(v)) {
        TypeKind::Tensor { shape, elem } => Some((shape.clone(), *elem)),
        _ => None,
    }
}

pub fn ty_str(ctx: &Context, t: Type) -> String {
    type_to_string(ctx, t)
}

/// Checks operand and result counts.
pub fn expect_counts(ctx: &Context, op: OpId, operands: usize, results: usize) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != operands {
        return Err(ctx.error(
            op,
            format!("expects {operands} operands, found {}", o.operands().len()),
        ));
    }
    if o.results.len() != results {
        return Err(ctx.error(
            op,
            format!("expects {results} results, found {}", o.results.len()),
        ));
    }
    Ok(())
}

/// Shape and element type of operand `i`, which must be a static tensor.
pub fn operand_tensor(ctx: &Context, op: OpId, i: usize) -> Result<(Vec<i64>, Type)> {
    let v = ctx.op(op).operands()[i];
    let t = tensor_of(ctx, v).ok_or_else(|| {
        ctx.error(
            op,
            format!(
                "operand #{i} must be a tensor, found {}",
                ty_str(ctx, ctx.value_ty(v))
            ),
        )
    })?;
    if t.0.iter().any(|&d| d < 0) {
        return Err(ctx.error(
            op,
            format!("operand #{i} has a dynamic shape, which is not supported"),
        ));
    }
    Ok(t)
}

pub fn result_tensor(ctx: &Context, op: OpId, i: usize) -> Result<(Vec<i64>, Type)> {
    let v = ctx.op(op).results[i];
    let t = tensor_of(ctx, v).ok_or_else(|| {
        ctx.error(
            op,
            format!(
                "result #{i} must be a tensor, found {}",
                ty_str(ctx, ctx.value_ty(v))
            ),
        )
    })?;
    if t.0.iter().any(|&d| d < 0) {
        return Err(ctx.error(
            op,
            format!("result #{i} has a dynamic shape, which is not supported"),
        ));
    }
    Ok(t)
}

/// Fails unless result `i` has exactly the inferred type.
/// Whether two element types may meet in one element-wise op: equal, or
/// both quantized over the same storage and expressed types (StableHLO
/// lets the scales and zero points differ; `xla-lower-quantized`
/// requantizes).
pub fn same_element(ctx: &Context, a: Type, b: Type) -> bool {
    a == b
        || matches!((ctx.types.kind(a), ctx.types.kind(b)), (TypeKind::Quant(x), TypeKind::Quant(y))
            if x.storage == y.storage && x.expressed == y.expressed)
}

/// The type an element-wise op computes in: a quantized type's expressed
/// float type, else the type itself.
pub fn computed_element(ctx: &Context, t: Type) -> Type {
    match ctx.types.kind(t) {
        TypeKind::Quant(q) => q.expressed,
        _ => t,
    }
}

pub fn expect_result_type(
    ctx: &Context,
    op: OpId,
    i: usize,
    shape: &[i64],
    elem: Type,
) -> Result<()> {
    let actual = ctx.value_ty(ctx.op(op).results[i]);
    let ok = matches!(ctx.types.kind(actual), TypeKind::Tensor { shape: s, elem: e } if s == shape && same_element(ctx, *e, elem));
    if !ok {
        let inferred = tensor_text(shape, &ty_str(ctx, elem));
        return Err(ctx.error(
            op,
            format!(
                "inferred type {inferred} does not match result type {}",
                ty_str(ctx, actual)
            ),
        ));
    }
    Ok(())
}

/// A required i64 list attribute.
pub fn i64s(ctx: &Context, op: OpId, name: &str) -> Result<Vec<i64>> {
    ctx.i64_array(op, name)
        .ok_or_else(|| ctx.error(op, format!("requires attribute '{name}' (array<i64: ...>)")))
}

/// A dimension attribute of a verified op, as an index (the typed
/// accessors beside each family's verifier read through this).
pub fn index_attr(ctx: &Context, op: OpId, name: &str) -> Option<usize> {
    usize::try_from(ctx.int_attr(op, name)?).ok()
}

/// A list of dimension indices of a verified op.
pub fn indices_attr(ctx: &Context, op: OpId, name: &str) -> Option<Vec<usize>> {
    ctx.i64_array(op, name)?
        .into_iter()
        .map(|d| usize::try_from(d).ok())
        .collect()
}

/// Element type classes used in verifiers.
pub fn is_int(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Int { width, .. } if *width > 1)
}
/// `i32` (or `si32`), the type of LAPACK's `info` and pivots, sizes and
/// roots: the lowering writes 32-bit signed values into it, so `ui32` does
/// not qualify.
pub fn is_i32(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.types.kind(t),
        TypeKind::Int { width: 32, sign } if *sign != strata_ir::Signedness::Unsigned
    )
}
pub fn is_bool(ctx: &Context, t: Type) -> bool {
    ctx.types.is_bool(t)
}
pub fn is_float(ctx: &Context, t: Type) -> bool {
    ctx.types.is_float(t)
}
pub fn is_complex(ctx: &Context, t: Type) -> bool {
    ctx.types.is_complex(t)
}

/// `tensor<2x3xELEM>` (`tensor<ELEM>` for a scalar) for messages.
pub fn tensor_text(shape: &[i64], elem: &str) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{elem}>")
}

/// `[0, 1, 2]` for messages.
pub fn list(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(|d| d.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// Integer-list and integer fields of a `#dialect.name<...>` struct attribute.
pub fn fields(ctx: &Context, op: OpId, attr: &str) -> Option<Vec<(String, Vec<i64>)>> {
    let a = ctx.attr_of(op, attr)?;
    let AttrKind::Struct { fields, .. } = ctx.attr_kind(a) else {
        return None;
    };
    fields
        .iter()
        .map(|(k, v)| {
            let vals = match ctx.attr_kind(*v) {
                AttrKind::Array(items) => items
                    .iter()
                    .map(|x| match ctx.attr_kind(*x) {
                        AttrKind::Int { value, .. } => Some(*value as i64),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?,
                AttrKind::DenseArray { values, .. } => values.clone(),
                AttrKind::Int { value, .. } => vec![*value as i64],
                _ => return None,
            };
            Some((k.clone(), vals))
        })
        .collect()
}

pub fn get(f: &[(String, Vec<i64>)], name: &str) -> Vec<i64> {
    f.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// The `padding` attribute of a windowed op as (low, high) pairs for `n`
/// dimensions: zeros when absent, None unless it holds exactly `2 n`
/// integers (`dense<[[l, h], ...]>`).
pub fn padding_pairs(ctx: &Context, op: OpId, n: usize) -> Option<Vec<(i64, i64)>> {
    let Some(d) = ctx.dense_attr(op, "padding") else {
        return Some(vec![(0, 0); n]);
    };
    if ctx.types.num_elements(d.ty) != 2 * n as i64 || !ctx.types.is_int(ctx.types.elem(d.ty)) {
        return None;
    }
    let elem = ctx.types.elem(d.ty);
    let value = |i: usize| {
        strata_ir::dense::int_value(ctx, strata_ir::dense::element_bits(ctx, d, i)[0], elem) as i64
    };
    Some((0..n).map(|i| (value(2 * i), value(2 * i + 1))).collect())
}

/// Checks that each named window list (strides, dilations, window sizes)
/// has `n` entries in [1, 2^48].
pub fn check_window_lists(
    ctx: &Context,
    op: OpId,
    n: usize,
    lists: &[(&str, &[i64])],
) -> Result<()> {
    let limit = strata_ir::text::parser::MAX_ELEMENTS;
    for (name, v) in lists {
        if v.len() != n || v.iter().any(|&x| x <= 0 || x > limit) {
            return Err(ctx.error(
                op,
                format!(
                    "{name} {} must have {n} positive entries (at most 2^48)",
                    list(v)
                ),
            ));
        }
    }
    Ok(())
}

/// The `slice_sizes` of a gather or dynamic_slice: one per operand
/// dimension, each within that dimension.
pub fn slice_sizes(ctx: &Context, op: OpId, shape: &[i64]) -> Result<Vec<i64>> {
    let sizes = i64s(ctx, op, "slice_sizes")?;
    if sizes.len() != shape.len() {
        return Err(ctx.error(
            op,
            format!(
                "slice_sizes {} must have {} entries",
                list(&sizes),
                shape.len()
            ),
        ));
    }
    for (i, (&s, &n)) in sizes.iter().zip(shape).enumerate() {
        if s < 0 || s > n {
            return Err(ctx.error(
                op,
                format!("slice size {s} of dimension {i} must be in [0, {n}]"),
            ));
        }
    }
    Ok(sizes)
}

/// Whether `dims` names each of 0..rank exactly once (dimension labels,
/// layouts, transposes; a negative entry is never in range).
pub fn is_permutation<T: Copy + TryInto<usize>>(dims: &[T], rank: usize) -> bool {
    let mut seen = vec![false; rank];
    dims.len() == rank
        && dims.iter().all(|&d| match d.try_into() {
            Ok(i) if i < rank => !std::mem::replace(&mut seen[i], true),
            _ => false,
        })
}
