//! `xla.convolution`'s pretty form: `convolution(%lhs, %rhs) dim_numbers =
//! [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [..], pad =
//! [[..]], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]} {attrs} :
//! (T, T) -> T`, and the `#stablehlo.conv<...>` attribute.

use strata_diag::{Diagnostic, Result};
use strata_ir::AttrKind;
use strata_ir::text::lexer::Tok;
use strata_ir::{OpParser, OpState};

use super::*;

/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` as a `#stablehlo.conv` struct
/// of the nine dimension fields.
fn parse_conv_dims(p: &mut dyn OpParser) -> Result<strata_ir::Attr> {
    // One bracketed layout; `letters` name the non-spatial dimensions.
    fn layout(p: &mut dyn OpParser, letters: [&str; 2]) -> Result<(i64, i64, Vec<i64>)> {
        let start = p.loc();
        p.expect_punct("[")?;
        let (mut a, mut b, mut numbered) = (None, None, Vec::new());
        let mut pos = 0i64;
        loop {
            let at = p.loc();
            match p.advance() {
                Tok::Ident(s) if s == letters[0] && a.is_none() => a = Some(pos),
                Tok::Ident(s) if s == letters[1] && b.is_none() => b = Some(pos),
                Tok::Int(s) => numbered.push((s.parse::<usize>().ok(), pos, at)),
                t => {
                    return Err(p.error(format!(
                        "unexpected {} in convolution dimension numbers",
                        t.describe()
                    )));
                }
            }
            pos += 1;
            if !p.consume_punct(",") {
                break;
            }
        }
        p.expect_punct("]")?;
        // Spatial dimensions are numbered 0..n, n being how many there are;
        // an index is checked against n before it is used as a position.
        let n = numbered.len();
        let mut spatial = vec![-1; n];
        for (index, pos, at) in numbered {
            match index {
                Some(i) if i < n && spatial[i] == -1 => spatial[i] = pos,
                _ => {
                    return Err(Diagnostic::error(
                        at,
                        format!("spatial dimension index must be below {n} and appear once"),
                    ));
                }
            }
        }
        match (a, b) {
            (Some(a), Some(b)) => Ok((a, b, spatial)),
            _ => Err(Diagnostic::error(
                start,
                format!(
                    "layout must name '{}', '{}' and spatial dimensions 0..n once each",
                    letters[0], letters[1]
                ),
            )),
        }
    }
    let (ib, if_, is) = layout(p, ["b", "f"])?;
    p.expect_keyword("x")?;
    let (ki, ko, ks) = layout(p, ["i", "o"])?;
    p.expect_punct("->")?;
    let (ob, of, os) = layout(p, ["b", "f"])?;
    let i64t = p.ctx().types.int_ty(64);
    let int = |p: &mut dyn OpParser, v: i64| {
        p.ctx().attr(AttrKind::Int {
            value: v as i128,
            ty: i64t,
        })
    };
    let arr = |p: &mut dyn OpParser, v: Vec<i64>| int_list_attr(p, v);
    let fields = vec![
        ("input_batch_dimension".to_string(), int(p, ib)),
        ("input_feature_dimension".to_string(), int(p, if_)),
        ("input_spatial_dimensions".to_string(), arr(p, is)),
        ("kernel_input_feature_dimension".to_string(), int(p, ki)),
        ("kernel_output_feature_dimension".to_string(), int(p, ko)),
        ("kernel_spatial_dimensions".to_string(), arr(p, ks)),
        ("output_batch_dimension".to_string(), int(p, ob)),
        ("output_feature_dimension".to_string(), int(p, of)),
        ("output_spatial_dimensions".to_string(), arr(p, os)),
    ];
    Ok(p.ctx().attr(AttrKind::Struct {
        name: "stablehlo.conv".into(),
        fields,
    }))
}

/// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (after `<`),
/// or its `raw key = value, ...` form, or the struct form Strata prints
/// (`key = value, ...`, so printed IR parses again).
pub fn parse_conv_dims_attr(p: &mut dyn OpParser) -> Result<strata_ir::Attr> {
    if p.consume_keyword("raw") || matches!(p.peek(), Tok::Ident(_)) {
        return p.parse_struct_body("stablehlo.conv");
    }
    let a = parse_conv_dims(p)?;
    p.expect_punct(">")?;
    Ok(a)
}

/// `convolution(%lhs, %rhs) dim_numbers = ..., window = {stride = [..],
/// pad = [[..]], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}
/// {attrs} : (..) -> R`.
pub fn parse_convolution(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.expect_punct("(")?;
    st.operands = p.parse_operands()?;
    p.expect_punct(")")?;
    p.expect_keyword("dim_numbers")?;
    p.expect_punct("=")?;
    let dims = parse_conv_dims(p)?;
    st.add_attr("dimension_numbers", dims);
    if p.consume_punct(",") {
        p.expect_keyword("window")?;
        p.expect_punct("=")?;
        p.expect_punct("{")?;
        // `window = {}` (all defaults) is what StableHLO prints for 1x1 windows.
        while !p.is_punct("}") {
            let key = p.parse_ident()?;
            p.expect_punct("=")?;
            let (name, value) = match key.as_str() {
                "stride" => ("window_strides", p.parse_i64_list()?),
                "lhs_dilate" => ("lhs_dilation", p.parse_i64_list()?),
                "rhs_dilate" => ("rhs_dilation", p.parse_i64_list()?),
                "reverse" => ("window_reversal", parse_bool_list(p)?),
                "pad" => {
                    p.expect_punct("[")?;
                    let mut flat = Vec::new();
                    if !p.is_punct("]") {
                        loop {
                            let pair = p.parse_i64_list()?;
                            if pair.len() != 2 {
                                return Err(p.error("each padding entry is [low, high]"));
                            }
                            flat.extend(pair);
                            if !p.consume_punct(",") {
                                break;
                            }
                        }
                    }
                    p.expect_punct("]")?;
                    ("padding", flat)
                }
                _ => return Err(p.error(format!("unknown window field '{key}'"))),
            };
            let a = if name == "padding" {
                let i64t = p.ctx().types.int_ty(64);
                let n = value.len() as i64 / 2;
                let ty = p.ctx().types.tensor_ty(&[n, 2], i64t);
                let bits = value.iter().map(|&v| v as u64).collect();
                p.ctx().attr(AttrKind::Dense(strata_ir::DenseElements {
                    ty,
                    splat: false,
                    bits,
                }))
            } else {
                p.i64_array_attr(value)
            };
            st.add_attr(name, a);
            if !p.consume_punct(",") {
                break;
            }
        }
        p.expect_punct("}")?;
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `[false, true]` (or `[0, 1]`) as 0/1 values.
fn parse_bool_list(p: &mut dyn OpParser) -> Result<Vec<i64>> {
    p.expect_punct("[")?;
    let mut v = Vec::new();
    if !p.is_punct("]") {
        loop {
            let loc = p.loc();
            v.push(match p.parse_scalar_literal()? {
                strata_ir::dense::Literal::Bool(b) => b as i64,
                strata_ir::dense::Literal::Int(i @ (0 | 1)) => i as i64,
                _ => return Err(Diagnostic::error(loc, "expected true or false")),
            });
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    Ok(v)
}
