//! Types: `tensor<4x?xf32>`, `complex<f64>`, `tuple<...>`, function types.

use strata_diag::{Diagnostic, Location, Result};

use super::{MAX_ELEMENTS, MAX_RANK, Parser};
use crate::text::lexer::Tok;
use crate::types::{FloatKind, Signedness, Type, TypeKind};

impl Parser<'_> {
    // ---- types ----

    pub fn parse_type(&mut self) -> Result<Type> {
        super::nested(self, |p| parse_type_inner(p))
    }

    /// `(a, b) -> c`, `(a) -> (b, c)`, `() -> ()`.
    pub fn parse_function_type(&mut self) -> Result<Type> {
        self.expect_punct("(")?;
        let mut inputs = Vec::new();
        if !self.is_punct(")") {
            loop {
                inputs.push(self.parse_type()?);
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        self.expect_punct("->")?;
        let results = self.parse_result_types()?;
        Ok(self.ctx.types.function_ty(inputs, results))
    }

    /// `t` or `(t, u)` or `()`.
    pub fn parse_result_types(&mut self) -> Result<Vec<Type>> {
        if self.consume_punct("(") {
            let mut v = Vec::new();
            if !self.is_punct(")") {
                loop {
                    v.push(self.parse_type()?);
                    if !self.consume_punct(",") {
                        break;
                    }
                }
            }
            self.expect_punct(")")?;
            Ok(v)
        } else {
            Ok(vec![self.parse_type()?])
        }
    }

    /// Comma-separated types.
    pub fn parse_type_list(&mut self) -> Result<Vec<Type>> {
        let mut v = vec![self.parse_type()?];
        while self.consume_punct(",") {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }
}

fn parse_type_inner(p: &mut Parser<'_>) -> Result<Type> {
    let loc = p.loc();
    match p.peek().clone() {
        Tok::Punct("(") => p.parse_function_type(),
        Tok::Bang(name) => {
            p.advance();
            match name.as_str() {
                "stablehlo.token" | "mhlo.token" | "xla.token" => {
                    Ok(p.ctx.types.ty(TypeKind::Token))
                }
                "quant.uniform" => parse_uniform_quant(p, loc),
                _ => Err(Diagnostic::error(loc, format!("unknown type '!{name}'"))),
            }
        }
        Tok::Ident(name) => {
            p.advance();
            parse_named_type(p, &name, loc)
        }
        _ => Err(super::expected(p, "type")),
    }
}

fn parse_named_type(p: &mut Parser<'_>, name: &str, loc: Location) -> Result<Type> {
    if let Some(k) = FloatKind::from_name(name) {
        return Ok(p.ctx.types.float_ty(k));
    }
    if name == "index" {
        return Ok(p.ctx.types.index_ty());
    }
    let int = |prefix: &str, sign: Signedness| -> Option<(u32, Signedness)> {
        let digits = name.strip_prefix(prefix)?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse::<u32>().ok().map(|w| (w, sign))
    };
    if let Some((width, sign)) = int("ui", Signedness::Unsigned)
        .or_else(|| int("si", Signedness::Signed))
        .or_else(|| int("i", Signedness::Signless))
    {
        if width == 0 || width > 64 {
            return Err(Diagnostic::error(
                loc,
                format!("integer width {width} is not supported (1 to 64 bits)"),
            ));
        }
        return Ok(p.ctx.types.ty(TypeKind::Int { width, sign }));
    }
    match name {
        "tensor" | "memref" => {
            if !p.is_punct("<") {
                return Err(super::expected(p, "'<'"));
            }
            let shape = scan_dims(p)?;
            if shape.len() > MAX_RANK {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "shaped type has rank {}; the largest rank supported is {MAX_RANK}",
                        shape.len()
                    ),
                ));
            }
            let elem_loc = p.loc();
            let elem = p.parse_type()?;
            if !is_scalar_type(p, elem) {
                return Err(Diagnostic::error(
                    elem_loc,
                    "invalid element type for a shaped type",
                ));
            }
            if p.consume_punct(",") {
                return Err(p.error("tensor encodings and memref layouts are not supported"));
            }
            p.expect_punct(">")?;
            let count = shape
                .iter()
                .filter(|&&d| d >= 0)
                .try_fold(1i64, |n, &d| n.checked_mul(d));
            if count.is_none_or(|n| n > MAX_ELEMENTS) {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "shaped type has too many elements (the limit is 2^{})",
                        MAX_ELEMENTS.trailing_zeros()
                    ),
                ));
            }
            let kind = if name == "tensor" {
                TypeKind::Tensor { shape, elem }
            } else {
                TypeKind::MemRef { shape, elem }
            };
            Ok(p.ctx.types.ty(kind))
        }
        "complex" => {
            p.expect_punct("<")?;
            let eloc = p.loc();
            let e = p.parse_type()?;
            if !matches!(
                p.ctx.types.kind(e),
                TypeKind::Float(FloatKind::F32 | FloatKind::F64)
            ) {
                return Err(Diagnostic::error(
                    eloc,
                    "complex element type must be f32 or f64",
                ));
            }
            p.expect_punct(">")?;
            Ok(p.ctx.types.ty(TypeKind::Complex(e)))
        }
        "tuple" => {
            p.expect_punct("<")?;
            let mut elems = Vec::new();
            if !p.is_punct(">") {
                loop {
                    elems.push(p.parse_type()?);
                    if !p.consume_punct(",") {
                        break;
                    }
                }
            }
            p.expect_punct(">")?;
            Ok(p.ctx.types.ty(TypeKind::Tuple(elems)))
        }
        _ => Err(Diagnostic::error(loc, format!("unknown type '{name}'"))),
    }
}

fn is_scalar_type(p: &Parser<'_>, t: Type) -> bool {
    matches!(
        p.ctx.types.kind(t),
        TypeKind::Int { .. }
            | TypeKind::Float(_)
            | TypeKind::Complex(_)
            | TypeKind::Index
            | TypeKind::Quant(_)
    )
}

/// After `!quant.uniform`: `<i8[<min:max>]:f32[:axis], scale[:zp]>` or
/// `..., {scale[:zp], ...}>` (per axis).
fn parse_uniform_quant(p: &mut Parser<'_>, loc: Location) -> Result<Type> {
    p.expect_punct("<")?;
    let storage_loc = p.loc();
    let storage = p.parse_type()?;
    let TypeKind::Int { width, .. } = p.ctx.types.kind(storage).clone() else {
        return Err(Diagnostic::error(
            storage_loc,
            "the storage type of a quantized type must be an integer",
        ));
    };
    if width < 2 || width > 32 {
        return Err(Diagnostic::error(
            storage_loc,
            "quantized storage is 2 to 32 bits wide",
        ));
    }
    let (mut storage_min, mut storage_max) = crate::types::storage_range(&p.ctx.types, storage);
    if p.consume_punct("<") {
        let range_loc = p.loc();
        let (min, max) = (p.parse_i64()?, {
            p.expect_punct(":")?;
            p.parse_i64()?
        });
        p.expect_punct(">")?;
        if min > max || min < storage_min || max > storage_max {
            return Err(Diagnostic::error(
                range_loc,
                format!("storage range {min}:{max} does not fit the storage type"),
            ));
        }
        (storage_min, storage_max) = (min, max);
    }
    p.expect_punct(":")?;
    let expressed_loc = p.loc();
    let expressed = p.parse_type()?;
    if !matches!(p.ctx.types.kind(expressed), TypeKind::Float(k) if k.is_lowered()) {
        return Err(Diagnostic::error(
            expressed_loc,
            "the expressed type of a quantized type must be f16, bf16, f32 or f64",
        ));
    }
    let axis = if p.consume_punct(":") {
        let axis_loc = p.loc();
        let a = p.parse_i64()?;
        if a < 0 {
            return Err(Diagnostic::error(
                axis_loc,
                "the quantization axis must be non-negative",
            ));
        }
        Some(a)
    } else {
        None
    };
    p.expect_punct(",")?;
    let per_axis = p.consume_punct("{");
    if per_axis != axis.is_some() {
        return Err(Diagnostic::error(
            loc,
            "per-axis quantization lists its scales in braces after an axis",
        ));
    }
    let (mut scales, mut zero_points) = (Vec::new(), Vec::new());
    loop {
        let scale_loc = p.loc();
        let scale = match p.parse_scalar_literal()? {
            crate::dense::Literal::Float(v) => v,
            crate::dense::Literal::Int(v) => v as f64,
            _ => return Err(Diagnostic::error(scale_loc, "expected a scale")),
        };
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Diagnostic::error(
                scale_loc,
                "a quantization scale must be positive and finite",
            ));
        }
        let zp = if p.consume_punct(":") {
            let zp_loc = p.loc();
            let zp = p.parse_i64()?;
            if zp < storage_min || zp > storage_max {
                return Err(Diagnostic::error(
                    zp_loc,
                    format!("zero point {zp} is outside the storage range"),
                ));
            }
            zp
        } else {
            0
        };
        scales.push(scale.to_bits());
        zero_points.push(zp);
        if !(per_axis && p.consume_punct(",")) {
            break;
        }
    }
    if per_axis {
        p.expect_punct("}")?;
    }
    p.expect_punct(">")?;
    Ok(p.ctx.types.ty(TypeKind::Quant(crate::types::UniformQuant {
        storage,
        storage_min,
        storage_max,
        expressed,
        axis,
        scales,
        zero_points,
    })))
}

/// Scans `<4x?x3x` raw characters after `tensor` (the current token is
/// `<`), leaving the parser at the element type.
fn scan_dims(ps: &mut Parser<'_>) -> Result<Vec<i64>> {
    let src = ps.lex.src.as_bytes();
    let mut pos = ps.tok_end; // just after '<'
    let mut dims = Vec::new();
    loop {
        let p = ps.lex.skip_trivia(pos);
        if p < src.len() && src[p] == b'?' {
            let q = ps.lex.skip_trivia(p + 1);
            if q < src.len() && src[q] == b'x' {
                dims.push(-1);
                pos = q + 1;
                continue;
            }
            break;
        }
        let mut q = p;
        while q < src.len() && src[q].is_ascii_digit() {
            q += 1;
        }
        if q == p || q >= src.len() || src[q] != b'x' {
            break;
        }
        let loc = ps.lex.location(p);
        let d: i64 = ps.lex.src[p..q]
            .parse()
            .map_err(|_| Diagnostic::error(loc, "dimension size is too large"))?;
        dims.push(d);
        pos = q + 1;
    }
    let (tok, s, e) = ps.lex.lex(pos);
    ps.tok = tok;
    ps.tok_start = s;
    ps.tok_end = e;
    Ok(dims)
}
