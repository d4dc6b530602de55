//! Types: `tensor<4x?xf32>`, `complex<f64>`, `tuple<...>`, function types.

use strata_diag::{Diagnostic, Location, Result};

use super::{MAX_ELEMENTS, MAX_RANK, Parser};
use crate::text::lexer::Tok;
use crate::types::{FloatKind, Signedness, Type, TypeKind};

impl Parser<'_> {
    // ---- types ----

    pub fn parse_type(&mut self) -> Result<Type> {
        self.nested(|p| p.parse_type_inner())
    }

    fn parse_type_inner(&mut self) -> Result<Type> {
        let loc = self.loc();
        match self.peek().clone() {
            Tok::Punct("(") => self.parse_function_type(),
            Tok::Bang(name) => {
                self.advance();
                match name.as_str() {
                    "stablehlo.token" | "mhlo.token" | "xla.token" => {
                        Ok(self.ctx.ty(TypeKind::Token))
                    }
                    "quant.uniform" => self.parse_uniform_quant(loc),
                    _ => Err(Diagnostic::error(loc, format!("unknown type '!{name}'"))),
                }
            }
            Tok::Ident(name) => {
                self.advance();
                self.parse_named_type(&name, loc)
            }
            _ => Err(self.expected("type")),
        }
    }

    fn parse_named_type(&mut self, name: &str, loc: Location) -> Result<Type> {
        if let Some(k) = FloatKind::from_name(name) {
            return Ok(self.ctx.float_ty(k));
        }
        if name == "index" {
            return Ok(self.ctx.index_ty());
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
            return Ok(self.ctx.ty(TypeKind::Int { width, sign }));
        }
        match name {
            "tensor" | "memref" => {
                if !self.is_punct("<") {
                    return Err(self.expected("'<'"));
                }
                let shape = self.scan_dims()?;
                if shape.len() > MAX_RANK {
                    return Err(Diagnostic::error(
                        loc,
                        format!(
                            "shaped type has rank {}; the largest rank supported is {MAX_RANK}",
                            shape.len()
                        ),
                    ));
                }
                let elem_loc = self.loc();
                let elem = self.parse_type()?;
                if !self.is_scalar_type(elem) {
                    return Err(Diagnostic::error(
                        elem_loc,
                        "invalid element type for a shaped type",
                    ));
                }
                if self.consume_punct(",") {
                    return Err(self.error("tensor encodings and memref layouts are not supported"));
                }
                self.expect_punct(">")?;
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
                Ok(self.ctx.ty(kind))
            }
            "complex" => {
                self.expect_punct("<")?;
                let eloc = self.loc();
                let e = self.parse_type()?;
                if !matches!(
                    self.ctx.kind(e),
                    TypeKind::Float(FloatKind::F32 | FloatKind::F64)
                ) {
                    return Err(Diagnostic::error(
                        eloc,
                        "complex element type must be f32 or f64",
                    ));
                }
                self.expect_punct(">")?;
                Ok(self.ctx.ty(TypeKind::Complex(e)))
            }
            "tuple" => {
                self.expect_punct("<")?;
                let mut elems = Vec::new();
                if !self.is_punct(">") {
                    loop {
                        elems.push(self.parse_type()?);
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct(">")?;
                Ok(self.ctx.ty(TypeKind::Tuple(elems)))
            }
            _ => Err(Diagnostic::error(loc, format!("unknown type '{name}'"))),
        }
    }

    fn is_scalar_type(&self, t: Type) -> bool {
        matches!(
            self.ctx.kind(t),
            TypeKind::Int { .. }
                | TypeKind::Float(_)
                | TypeKind::Complex(_)
                | TypeKind::Index
                | TypeKind::Quant(_)
        )
    }

    /// After `!quant.uniform`: `<i8[<min:max>]:f32[:axis], scale[:zp]>` or
    /// `..., {scale[:zp], ...}>` (per axis).
    fn parse_uniform_quant(&mut self, loc: Location) -> Result<Type> {
        self.expect_punct("<")?;
        let storage_loc = self.loc();
        let storage = self.parse_type()?;
        let TypeKind::Int { width, .. } = self.ctx.kind(storage).clone() else {
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
        let (mut storage_min, mut storage_max) = crate::types::storage_range(self.ctx, storage);
        if self.consume_punct("<") {
            let range_loc = self.loc();
            let (min, max) = (self.parse_i64()?, {
                self.expect_punct(":")?;
                self.parse_i64()?
            });
            self.expect_punct(">")?;
            if min > max || min < storage_min || max > storage_max {
                return Err(Diagnostic::error(
                    range_loc,
                    format!("storage range {min}:{max} does not fit the storage type"),
                ));
            }
            (storage_min, storage_max) = (min, max);
        }
        self.expect_punct(":")?;
        let expressed_loc = self.loc();
        let expressed = self.parse_type()?;
        if !matches!(self.ctx.kind(expressed), TypeKind::Float(k) if k.is_lowered()) {
            return Err(Diagnostic::error(
                expressed_loc,
                "the expressed type of a quantized type must be f16, bf16, f32 or f64",
            ));
        }
        let axis = if self.consume_punct(":") {
            let axis_loc = self.loc();
            let a = self.parse_i64()?;
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
        self.expect_punct(",")?;
        let per_axis = self.consume_punct("{");
        if per_axis != axis.is_some() {
            return Err(Diagnostic::error(
                loc,
                "per-axis quantization lists its scales in braces after an axis",
            ));
        }
        let (mut scales, mut zero_points) = (Vec::new(), Vec::new());
        loop {
            let scale_loc = self.loc();
            let scale = match self.parse_scalar_literal()? {
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
            let zp = if self.consume_punct(":") {
                let zp_loc = self.loc();
                let zp = self.parse_i64()?;
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
            if !(per_axis && self.consume_punct(",")) {
                break;
            }
        }
        if per_axis {
            self.expect_punct("}")?;
        }
        self.expect_punct(">")?;
        Ok(self.ctx.ty(TypeKind::Quant(crate::types::UniformQuant {
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
    fn scan_dims(&mut self) -> Result<Vec<i64>> {
        let src = self.lex.src.as_bytes();
        let mut pos = self.tok_end; // just after '<'
        let mut dims = Vec::new();
        loop {
            let p = self.lex.skip_trivia(pos);
            if p < src.len() && src[p] == b'?' {
                let q = self.lex.skip_trivia(p + 1);
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
            let loc = self.lex.location(p);
            let d: i64 = self.lex.src[p..q]
                .parse()
                .map_err(|_| Diagnostic::error(loc, "dimension size is too large"))?;
            dims.push(d);
            pos = q + 1;
        }
        let (tok, s, e) = self.lex.lex(pos);
        self.tok = tok;
        self.tok_start = s;
        self.tok_end = e;
        Ok(dims)
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
        Ok(self.ctx.function_ty(inputs, results))
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
