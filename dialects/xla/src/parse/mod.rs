//! Pretty forms of the ops as StableHLO prints them (what JAX exports).
//! Convolution's layout and window syntax is in `conv.rs`.

mod conv;
mod misc;
mod sdy;

pub use conv::{parse_conv_dims_attr, parse_convolution};
pub use misc::{
    parse_cholesky, parse_dynamic_iota, parse_fft, parse_reduce_precision, parse_rng,
    parse_rng_bit_generator, parse_scan, parse_top_k,
};
pub use sdy::{parse_ignored_attr, parse_manual_computation, parse_mesh, parse_sharding_attr};

use strata_diag::{Diagnostic, Result};
use strata_ir::text::lexer::Tok;
use strata_ir::{AttrKind, TypeKind};
use strata_ir::{OpParser, OpState};

/// `: (a, b) -> c` or `: t` (one type for every operand and the result).
pub(crate) fn parse_signature(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    signature(p, st, false)
}

/// [`parse_signature`]; with `complex_parts`, the single type `t` is the
/// result's and the operands are its real and imaginary parts
/// (`xla.complex`).
fn signature(p: &mut dyn OpParser, st: &mut OpState, complex_parts: bool) -> Result<()> {
    p.expect_punct(":")?;
    let loc = p.loc();
    if p.is_punct("(") {
        let fty = p.parse_function_type()?;
        let TypeKind::Function { inputs, results } = p.ctx().types.kind(fty).clone() else {
            return Err(Diagnostic::error(loc, "expected a function type"));
        };
        p.check_operand_types(&st.operands, &inputs, loc)?;
        st.result_types = results;
        return Ok(());
    }
    let t = p.parse_type()?;
    if p.consume_punct("->") {
        // CHLO's `: T -> R` form of a unary op.
        let r = p.parse_type()?;
        p.check_operand_types(&st.operands, &[t], loc)?;
        st.result_types = vec![r];
        return Ok(());
    }
    if p.is_punct(",") && st.operands.len() > 1 {
        // CHLO's `: A, B -> R` form of a binary op.
        let mut types = vec![t];
        while p.consume_punct(",") {
            types.push(p.parse_type()?);
        }
        p.expect_punct("->")?;
        let r = p.parse_type()?;
        p.check_operand_types(&st.operands, &types, loc)?;
        st.result_types = vec![r];
        return Ok(());
    }
    let operand_ty = if complex_parts {
        let types = &mut p.ctx().types;
        match types.kind(types.elem(t)).clone() {
            TypeKind::Complex(part) => types.with_elem(t, part),
            _ => return Err(Diagnostic::error(loc, "expected a tensor of complex type")),
        }
    } else {
        t
    };
    let inputs = vec![operand_ty; st.operands.len()];
    p.check_operand_types(&st.operands, &inputs, loc)?;
    st.result_types = vec![t];
    Ok(())
}

/// `complex %re, %im {attrs} : tensor<..xcomplex<T>>` (or a signature).
pub fn parse_complex(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    signature(p, st, true)
}

/// `op %a, %b {attrs} : type-or-signature`.
pub fn parse_elementwise(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `select %p, %a, %b : (P, T, T) -> T` or `: P, T`.
pub fn parse_select(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    if st.operands.len() != 3 {
        return Err(p.error(format!(
            "'xla.select' expects 3 operands, found {}",
            st.operands.len()
        )));
    }
    p.expect_punct(":")?;
    let loc = p.loc();
    if p.is_punct("(") {
        let fty = p.parse_function_type()?;
        let TypeKind::Function { inputs, results } = p.ctx().types.kind(fty).clone() else {
            return Err(p.error("expected a function type"));
        };
        p.check_operand_types(&st.operands, &inputs, loc)?;
        st.result_types = results;
    } else {
        let pt = p.parse_type()?;
        p.expect_punct(",")?;
        let t = p.parse_type()?;
        p.check_operand_types(&st.operands, &[pt, t, t], loc)?;
        st.result_types = vec![t];
    }
    Ok(())
}

pub(super) fn enum_attr(p: &mut dyn OpParser, kind: &str, value: String) -> strata_ir::Attr {
    p.ctx().attr(AttrKind::Enum {
        dialect: "stablehlo".into(),
        name: kind.into(),
        value,
    })
}

/// `compare GT, %a, %b[, FLOAT] : (T, T) -> R`.
pub fn parse_compare(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    if matches!(p.peek(), Tok::Percent(_)) {
        // `chlo.broadcast_compare %a, %b {comparison_direction = ...} : ...`
        return parse_elementwise(p, st);
    }
    let dir = p.parse_ident()?;
    let a = enum_attr(p, "comparison_direction", dir);
    st.add_attr("comparison_direction", a);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        let ty = p.parse_ident()?;
        let a = enum_attr(p, "comparison_type", ty);
        st.add_attr("compare_type", a);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `constant dense<...> : T` (optionally preceded by an attribute dict).
pub fn parse_constant(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.parse_optional_attr_dict(st)?;
    let loc = p.loc();
    let value = p.parse_attr()?;
    let AttrKind::Dense(d) = p.ctx().attr_kind(value) else {
        return Err(Diagnostic::error(
            loc,
            "expected a dense elements attribute like dense<[1, 2]> : tensor<2xi32>",
        ));
    };
    st.result_types = vec![d.ty];
    st.add_attr("value", value);
    Ok(())
}

/// `iota dim = 0 : T`.
pub fn parse_iota(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    parse_keyword_i64(p, st, "dim", "iota_dimension")?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    st.result_types = vec![p.parse_type()?];
    Ok(())
}

/// `keyword = N` as the i64 attribute `attr`.
pub(super) fn parse_keyword_i64(
    p: &mut dyn OpParser,
    st: &mut OpState,
    keyword: &str,
    attr: &str,
) -> Result<()> {
    p.expect_keyword(keyword)?;
    p.expect_punct("=")?;
    let d = p.parse_i64()?;
    let a = i64_attr(p, d);
    st.add_attr(attr, a);
    Ok(())
}

/// `, name = [..]` as an `array<i64>` attribute.
pub(crate) fn parse_named_dims(
    p: &mut dyn OpParser,
    st: &mut OpState,
    keyword: &str,
    attr: &str,
) -> Result<()> {
    p.expect_keyword(keyword)?;
    p.expect_punct("=")?;
    let v = p.parse_i64_list()?;
    let a = p.i64_array_attr(v);
    st.add_attr(attr, a);
    Ok(())
}

/// `broadcast_in_dim %a, dims = [..] : (T) -> R`.
pub fn parse_broadcast_in_dim(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "dims", "broadcast_dimensions")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `dynamic_broadcast_in_dim %a, %shape, dims = [..]` with optional
/// `, known_expanding_dimensions = [..]` and
/// `, known_nonexpanding_dimensions = [..]`, then `: (A, S) -> R`.
pub fn parse_dynamic_broadcast_in_dim(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "dims", "broadcast_dimensions")?;
    while p.consume_punct(",") {
        let loc = p.loc();
        let name = if p.consume_keyword("known_expanding_dimensions") {
            "known_expanding_dimensions"
        } else if p.consume_keyword("known_nonexpanding_dimensions") {
            "known_nonexpanding_dimensions"
        } else {
            return Err(Diagnostic::error(
                loc,
                "expected known_expanding_dimensions or known_nonexpanding_dimensions",
            ));
        };
        p.expect_punct("=")?;
        let v = p.parse_i64_list()?;
        let a = p.i64_array_attr(v);
        st.add_attr(name, a);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `transpose %a, dims = [..] : (T) -> R`.
pub fn parse_transpose(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "dims", "permutation")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `reverse %a, dims = [..] : T`.
pub fn parse_reverse(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "dims", "dimensions")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `concatenate %a, %b, dim = 0 : (..) -> R`.
pub fn parse_concatenate(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    loop {
        st.operands.push(p.parse_operand()?);
        p.expect_punct(",")?;
        if p.is_keyword("dim") {
            break;
        }
    }
    parse_keyword_i64(p, st, "dim", "dimension")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `pad %a, %v, low = [..], high = [..], interior = [..] : (T, P) -> R`.
pub fn parse_pad(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "low", "edge_padding_low")?;
    p.expect_punct(",")?;
    parse_named_dims(p, st, "high", "edge_padding_high")?;
    p.expect_punct(",")?;
    parse_named_dims(p, st, "interior", "interior_padding")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `slice %a [0:2, 1:4:2] : (T) -> R`.
pub fn parse_slice(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct("[")?;
    let (mut start, mut limit, mut strides) = (Vec::new(), Vec::new(), Vec::new());
    if !p.is_punct("]") {
        loop {
            start.push(p.parse_i64()?);
            p.expect_punct(":")?;
            limit.push(p.parse_i64()?);
            strides.push(if p.consume_punct(":") {
                p.parse_i64()?
            } else {
                1
            });
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    for (name, v) in [
        ("start_indices", start),
        ("limit_indices", limit),
        ("strides", strides),
    ] {
        let a = p.i64_array_attr(v);
        st.add_attr(name, a);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

pub(super) fn int_list_attr(p: &mut dyn OpParser, v: Vec<i64>) -> strata_ir::Attr {
    let i64t = p.ctx().types.int_ty(64);
    let items = v
        .into_iter()
        .map(|x| {
            p.ctx().attr(AttrKind::Int {
                value: x as i128,
                ty: i64t,
            })
        })
        .collect();
    p.ctx().attr(AttrKind::Array(items))
}

/// `[a] x [b]`.
fn parse_dim_pair(p: &mut dyn OpParser) -> Result<(Vec<i64>, Vec<i64>)> {
    let l = p.parse_i64_list()?;
    p.expect_keyword("x")?;
    let r = p.parse_i64_list()?;
    Ok((l, r))
}

/// `dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
/// precision = [..] : (..) -> R`; also `dot %a, %b : (..) -> R`.
pub fn parse_dot_general(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let start = p.loc();
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    let (mut lb, mut rb, mut lc, mut rc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut saw_contracting = false;
    while p.consume_punct(",") {
        let key = p.parse_ident()?;
        p.expect_punct("=")?;
        match key.as_str() {
            "batching_dims" => (lb, rb) = parse_dim_pair(p)?,
            "contracting_dims" => {
                (lc, rc) = parse_dim_pair(p)?;
                saw_contracting = true;
            }
            "precision" => {
                let a = parse_precision(p)?;
                st.add_attr("precision_config", a);
            }
            "algorithm" => {
                let a = parse_algorithm(p)?;
                st.add_attr("algorithm", a);
            }
            _ => return Err(p.error(format!("unknown dot_general keyword '{key}'"))),
        }
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)?;
    if !saw_contracting && st.attrs.iter().all(|(k, _)| k != "dot_dimension_numbers") {
        // `dot`: contract the last lhs dimension with the first rhs dimension.
        let ctx = p.ctx();
        let lrank = ctx
            .types
            .shape(ctx.value_ty(st.operands[0]))
            .map(|s| s.len())
            .unwrap_or(0);
        if lrank == 0 {
            return Err(Diagnostic::error(
                start,
                "dot requires operands of rank 1 or 2",
            ));
        }
        lc = vec![lrank as i64 - 1];
        rc = vec![0];
    }
    if saw_contracting || st.attrs.iter().all(|(k, _)| k != "dot_dimension_numbers") {
        let fields = vec![
            ("lhs_batching_dimensions".to_string(), int_list_attr(p, lb)),
            ("rhs_batching_dimensions".to_string(), int_list_attr(p, rb)),
            (
                "lhs_contracting_dimensions".to_string(),
                int_list_attr(p, lc),
            ),
            (
                "rhs_contracting_dimensions".to_string(),
                int_list_attr(p, rc),
            ),
        ];
        let a = p.ctx().attr(AttrKind::Struct {
            name: "stablehlo.dot".into(),
            fields,
        });
        st.add_attr("dot_dimension_numbers", a);
    }
    Ok(())
}

/// `[DEFAULT, HIGHEST]`.
pub(super) fn parse_precision(p: &mut dyn OpParser) -> Result<strata_ir::Attr> {
    p.expect_punct("[")?;
    let mut items = Vec::new();
    if !p.is_punct("]") {
        loop {
            let v = p.parse_ident()?;
            if !["DEFAULT", "HIGH", "HIGHEST"].contains(&v.as_str()) {
                return Err(p.error(format!("unknown precision '{v}'")));
            }
            items.push(enum_attr(p, "precision", v));
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    Ok(p.ctx().attr(AttrKind::Array(items)))
}

/// `return %a, %b : T, U`.
pub fn parse_return(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.parse_operands_colon_types(st)
}

/// `custom_call @target(%a, ...) {attrs} : (..) -> (..)`. The conformance
/// checks spelled as custom calls become the `check` dialect's ops.
pub fn parse_custom_call(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let loc = p.loc();
    let target = p.parse_symbol("a call target like @name")?;
    p.expect_punct("(")?;
    st.operands = p.parse_operands()?;
    p.expect_punct(")")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)?;
    let check = match target.as_str() {
        "check.expect_close" => Some(("check.expect_close", Some(("max_ulp_difference", 3.0)))),
        "check.expect_eq" => Some(("check.expect_eq", None)),
        "check.expect_almost_eq" => Some(("check.expect_almost_eq", Some(("tolerance", 0.001)))),
        _ => None,
    };
    match check {
        Some((name, extra)) => {
            let def = p
                .ctx()
                .registry
                .get(name)
                .ok_or_else(|| Diagnostic::error(loc, format!("'{name}' is not registered")))?;
            st.name = def.name;
            st.attrs
                .retain(|(k, _)| k == "tolerance" || k.ends_with("ulp_difference"));
            if let Some((k, v)) = extra {
                let a = if k == "tolerance" {
                    let f64t = p.ctx().types.float_ty(strata_ir::FloatKind::F64);
                    p.ctx().attr(AttrKind::float(v, f64t))
                } else {
                    let i64t = p.ctx().types.int_ty(64);
                    p.ctx().attr(AttrKind::Int {
                        value: v as i128,
                        ty: i64t,
                    })
                };
                st.add_attr(k, a);
            }
        }
        None => {
            let a = p.ctx().attr(AttrKind::String(target));
            st.add_attr("call_target_name", a);
        }
    }
    Ok(())
}

/// `algorithm = <lhs_precision_type = tf32, ...>`: kept as a
/// `#stablehlo.dot_algorithm` struct. Strata computes in the result type.
fn parse_algorithm(p: &mut dyn OpParser) -> Result<strata_ir::Attr> {
    p.expect_punct("<")?;
    let mut fields = Vec::new();
    loop {
        let key = p.parse_ident()?;
        p.expect_punct("=")?;
        let v = p.parse_attr()?;
        fields.push((key, v));
        if !p.consume_punct(",") {
            break;
        }
    }
    p.expect_punct(">")?;
    Ok(p.ctx().attr(AttrKind::Struct {
        name: "stablehlo.dot_algorithm".into(),
        fields,
    }))
}

/// `optimization_barrier %a, %b : T, U` (results have the operands' types).
pub fn parse_optimization_barrier(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    let loc = p.loc();
    let types = if p.is_punct("(") {
        let fty = p.parse_function_type()?;
        let TypeKind::Function { inputs, .. } = p.ctx().types.kind(fty).clone() else {
            return Err(p.error("expected a function type"));
        };
        inputs
    } else {
        p.parse_type_list()?
    };
    p.check_operand_types(&st.operands, &types, loc)?;
    st.result_types = types;
    Ok(())
}

/// `dynamic_slice %a, %i, %j, sizes = [2, 3] : (..) -> R`.
pub fn parse_dynamic_slice(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    while p.consume_punct(",") {
        if p.is_keyword("sizes") {
            parse_named_dims(p, st, "sizes", "slice_sizes")?;
            break;
        }
        st.operands.push(p.parse_operand()?);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `while(%a = %init, ...) : T, ... cond { ... } do { ... }`.
pub fn parse_while(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.expect_punct("(")?;
    let mut names = Vec::new();
    if !p.is_punct(")") {
        loop {
            let loc = p.loc();
            let Tok::Percent(name) = p.peek().clone() else {
                return Err(p.error("expected a loop variable like %iterArg"));
            };
            p.advance();
            p.expect_punct("=")?;
            st.operands.push(p.parse_operand()?);
            names.push((name, loc));
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct(")")?;
    let mut types = Vec::new();
    if p.consume_punct(":") {
        types = p.parse_type_list()?;
    }
    let loc = p.loc();
    p.check_operand_types(&st.operands, &types, loc)?;
    if p.consume_keyword("attributes") {
        p.parse_attr_dict(&mut st.attrs)?;
    }
    let args: Vec<_> = names
        .into_iter()
        .zip(&types)
        .map(|((n, l), &t)| (n, t, l))
        .collect();
    p.expect_keyword("cond")?;
    st.regions.push(p.parse_region(&args, false)?);
    p.expect_keyword("do")?;
    st.regions.push(p.parse_region(&args, false)?);
    st.result_types = types;
    Ok(())
}

pub(super) fn i64_attr(p: &mut dyn OpParser, v: i64) -> strata_ir::Attr {
    let i64t = p.ctx().types.int_ty(64);
    p.ctx().attr(AttrKind::Int {
        value: v as i128,
        ty: i64t,
    })
}

/// `get_dimension_size %a, dim = 1 : (T) -> tensor<i32>`.
pub fn parse_get_dimension_size(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    parse_keyword_i64(p, st, "dim", "dimension")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `composite "name" %a, ... {decomposition = @f, ...} : (..) -> ..`.
pub fn parse_composite(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let name = match p.advance() {
        Tok::Str(s) => s,
        t => {
            return Err(p.error(format!(
                "expected the composite's name, found {}",
                t.describe()
            )));
        }
    };
    let a = p.ctx().attr(AttrKind::String(name));
    st.add_attr("name", a);
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `tuple %a, %b : tuple<T, U>`.
pub fn parse_tuple(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands = p.parse_operands()?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    st.result_types = vec![p.parse_type()?];
    Ok(())
}

/// `get_tuple_element %t[1] : (tuple<..>) -> T`.
pub fn parse_get_tuple_element(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct("[")?;
    let i = p.parse_i64()?;
    p.expect_punct("]")?;
    let a = i64_attr(p, i);
    st.add_attr("index", a);
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}
