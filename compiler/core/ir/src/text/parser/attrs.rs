//! Attributes: dictionaries, numbers, `dense<...>`, `array<...>`,
//! `#dialect<...>` enums and structs.

use strata_diag::{Diagnostic, Location, Result};

use super::{Parser, f64_bits_preserving_nan};
use crate::attrs::{Attr, AttrKind};
use crate::dense::{self, Literal};
use crate::text::lexer::Tok;
use crate::types::{FloatKind, TypeKind};

impl Parser<'_> {
    // ---- attributes ----

    /// `{name = attr, flag, ...}` appended to `out`.
    pub fn parse_attr_dict(&mut self, out: &mut Vec<(String, Attr)>) -> Result<()> {
        self.expect_punct("{")?;
        if self.consume_punct("}") {
            return Ok(());
        }
        loop {
            let loc = self.loc();
            let name = match self.advance() {
                Tok::Ident(s) | Tok::Str(s) => s,
                t => {
                    return Err(Diagnostic::error(
                        loc,
                        format!("expected attribute name, found {}", t.describe()),
                    ));
                }
            };
            let value = if self.consume_punct("=") {
                self.parse_attr()?
            } else {
                self.ctx.attr(AttrKind::Unit)
            };
            if out.iter().any(|(n, _)| *n == name) {
                return Err(Diagnostic::error(
                    loc,
                    format!("duplicate attribute '{name}'"),
                ));
            }
            out.push((name, value));
            if !self.consume_punct(",") {
                break;
            }
        }
        self.expect_punct("}")
    }

    pub fn parse_attr(&mut self) -> Result<Attr> {
        super::nested(self, |p| parse_attr_inner(p))
    }

    /// A possibly negative number, `true`/`false`, `inf`/`nan`, or hex.
    pub fn parse_scalar_literal(&mut self) -> Result<Literal> {
        let loc = self.loc();
        let neg = self.consume_punct("-");
        let lit = match self.advance() {
            Tok::Int(s) => {
                let v: i128 = s
                    .parse()
                    .map_err(|_| Diagnostic::error(loc, "integer literal is too large"))?;
                Literal::Int(if neg { -v } else { v })
            }
            Tok::Float(s) => {
                let v: f64 = s
                    .parse()
                    .map_err(|_| Diagnostic::error(loc, "malformed float literal"))?;
                Literal::Float(if neg { -v } else { v })
            }
            Tok::Hex(s) if !neg => {
                let v = u64::from_str_radix(&s, 16)
                    .map_err(|_| Diagnostic::error(loc, "hexadecimal literal is too large"))?;
                Literal::Hex(v)
            }
            Tok::Ident(s) if s == "true" && !neg => Literal::Bool(true),
            Tok::Ident(s) if s == "false" && !neg => Literal::Bool(false),
            Tok::Ident(s) if s == "inf" => Literal::Float(if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }),
            Tok::Ident(s) if s == "nan" => Literal::Float(f64::NAN),
            t => {
                return Err(Diagnostic::error(
                    loc,
                    format!("expected a number, found {}", t.describe()),
                ));
            }
        };
        Ok(lit)
    }

    /// `k = v, ...>` (after `#name<`): the fields of a struct attribute as
    /// the printer writes them. Public for attribute hooks that also read
    /// a pretty form (`#sdy.sharding<@mesh, ...>`), so printed IR parses again.
    pub fn parse_struct_body(&mut self, name: &str) -> Result<Attr> {
        let mut fields = Vec::new();
        if !self.is_punct(">") {
            loop {
                let fname = self.parse_ident()?;
                self.expect_punct("=")?;
                let v = self.parse_attr()?;
                fields.push((fname, v));
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(">")?;
        Ok(self.ctx.attr(AttrKind::Struct {
            name: name.to_string(),
            fields,
        }))
    }
}

fn parse_attr_inner(p: &mut Parser<'_>) -> Result<Attr> {
    let loc = p.loc();
    match p.peek().clone() {
        Tok::Ident(s) => match s.as_str() {
            "true" | "false" => {
                p.advance();
                Ok(p.ctx.attr(AttrKind::Bool(s == "true")))
            }
            "unit" => {
                p.advance();
                Ok(p.ctx.attr(AttrKind::Unit))
            }
            "dense" => {
                p.advance();
                parse_dense_after_keyword(p, loc)
            }
            "array" => {
                p.advance();
                parse_dense_array(p)
            }
            "dense_resource" | "sparse" | "dense_array" | "affine_map" => Err(
                Diagnostic::unsupported(loc, format!("'{s}' attributes are not supported")),
            ),
            _ => {
                let t = p.parse_type()?;
                Ok(p.ctx.attr(AttrKind::Type(t)))
            }
        },
        Tok::Punct("(") | Tok::Bang(_) => {
            let t = p.parse_type()?;
            Ok(p.ctx.attr(AttrKind::Type(t)))
        }
        Tok::Str(s) => {
            p.advance();
            if p.consume_punct(":") {
                p.parse_type()?;
            }
            Ok(p.ctx.attr(AttrKind::String(s)))
        }
        Tok::At(s) => {
            p.advance();
            let mut full = s;
            while p.consume_punct("::") {
                match p.advance() {
                    Tok::At(n) => {
                        full.push_str("::@");
                        full.push_str(&n);
                    }
                    _ => return Err(super::expected(p, "nested symbol reference")),
                }
            }
            Ok(p.ctx.attr(AttrKind::SymbolRef(full)))
        }
        Tok::Punct("[") => {
            p.advance();
            let mut elems = Vec::new();
            if !p.is_punct("]") {
                loop {
                    elems.push(p.parse_attr()?);
                    if !p.consume_punct(",") {
                        break;
                    }
                }
            }
            p.expect_punct("]")?;
            Ok(p.ctx.attr(AttrKind::Array(elems)))
        }
        Tok::Punct("{") => {
            let mut d = Vec::new();
            p.parse_attr_dict(&mut d)?;
            Ok(p.ctx.attr(AttrKind::Dict(d)))
        }
        Tok::Hash(name) => {
            p.advance();
            parse_dialect_attr(p, &name, loc)
        }
        Tok::Int(_) | Tok::Float(_) | Tok::Hex(_) | Tok::Punct("-") => parse_number_attr(p, loc),
        _ => Err(super::expected(p, "attribute value")),
    }
}

fn parse_number_attr(p: &mut Parser<'_>, loc: Location) -> Result<Attr> {
    let lit = p.parse_scalar_literal()?;
    let ty = if p.consume_punct(":") {
        p.parse_type()?
    } else if matches!(lit, Literal::Float(_)) {
        p.ctx.types.float_ty(FloatKind::F64)
    } else {
        p.ctx.types.int_ty(64)
    };
    match (p.ctx.types.kind(ty).clone(), lit) {
        (TypeKind::Float(_), Literal::Float(v)) => Ok(p.ctx.attr(AttrKind::float(v, ty))),
        (TypeKind::Float(_), Literal::Int(v)) => Ok(p.ctx.attr(AttrKind::float(v as f64, ty))),
        (TypeKind::Float(k), Literal::Hex(bits)) => {
            // A hex float is the bit pattern of the attribute's own type.
            if k.width() < 64 && bits >> k.width() != 0 {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "hexadecimal float 0x{bits:X} does not fit in {} bits",
                        k.width()
                    ),
                ));
            }
            let v = dense::bits_to_float(bits, k);
            Ok(p.ctx.attr(AttrKind::Float {
                bits: f64_bits_preserving_nan(v, bits, k),
                ty,
            }))
        }
        (TypeKind::Int { .. } | TypeKind::Index, Literal::Hex(v)) => {
            let v = v as i128;
            dense::check_int_range(p.ctx, v, ty).map_err(|m| Diagnostic::error(loc, m))?;
            Ok(p.ctx.attr(AttrKind::Int { value: v, ty }))
        }
        (TypeKind::Int { .. } | TypeKind::Index, Literal::Int(v)) => {
            dense::check_int_range(p.ctx, v, ty).map_err(|m| Diagnostic::error(loc, m))?;
            Ok(p.ctx.attr(AttrKind::Int { value: v, ty }))
        }
        _ => Err(Diagnostic::error(loc, "literal does not match its type")),
    }
}

/// `array<i64: 1, 2>`; the keyword is consumed.
fn parse_dense_array(p: &mut Parser<'_>) -> Result<Attr> {
    p.expect_punct("<")?;
    let tloc = p.loc();
    let elem = p.parse_type()?;
    let TypeKind::Int { .. } = p.ctx.types.kind(elem) else {
        return Err(Diagnostic::unsupported(
            tloc,
            "only integer and i1 'array<...>' attributes are supported",
        ));
    };
    let mut values = Vec::new();
    if p.consume_punct(":") {
        loop {
            let loc = p.loc();
            let v = match p.parse_scalar_literal()? {
                Literal::Int(v) => v,
                Literal::Bool(b) => b as i128,
                _ => {
                    return Err(Diagnostic::error(
                        loc,
                        "expected an integer in 'array<...>'",
                    ));
                }
            };
            dense::check_int_range(p.ctx, v, elem).map_err(|m| Diagnostic::error(loc, m))?;
            values.push(v as i64);
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct(">")?;
    Ok(p.ctx.attr(AttrKind::DenseArray { elem, values }))
}

/// `dense<...> : type`; the keyword is consumed.
fn parse_dense_after_keyword(p: &mut Parser<'_>, loc: Location) -> Result<Attr> {
    p.expect_punct("<")?;
    let lit_loc = p.loc();
    let lit = if p.is_punct(">") {
        Literal::List(Vec::new())
    } else {
        parse_dense_literal(p)?
    };
    p.expect_punct(">")?;
    p.expect_punct(":")?;
    let tloc = p.loc();
    let ty = p.parse_type()?;
    if !p.ctx.types.is_tensor(ty) {
        return Err(Diagnostic::error(
            tloc,
            "dense elements attribute requires a tensor type",
        ));
    }
    if p.ctx
        .types
        .shape(ty)
        .is_some_and(|s| s.iter().any(|&d| d < 0))
    {
        return Err(Diagnostic::error(
            tloc,
            "dense elements attribute requires a static shape",
        ));
    }
    let _ = loc;
    let d = dense::build(p.ctx, ty, &lit).map_err(|m| Diagnostic::error(lit_loc, m))?;
    Ok(p.ctx.attr(AttrKind::Dense(d)))
}

fn parse_dense_literal(p: &mut Parser<'_>) -> Result<Literal> {
    super::nested(p, |p| parse_dense_literal_inner(p))
}

fn parse_dense_literal_inner(p: &mut Parser<'_>) -> Result<Literal> {
    match p.peek().clone() {
        Tok::Punct("[") => {
            p.advance();
            let mut v = Vec::new();
            if !p.is_punct("]") {
                loop {
                    v.push(parse_dense_literal(p)?);
                    if !p.consume_punct(",") {
                        break;
                    }
                }
            }
            p.expect_punct("]")?;
            Ok(Literal::List(v))
        }
        Tok::Punct("(") => {
            p.advance();
            let re = p.parse_scalar_literal()?;
            p.expect_punct(",")?;
            let im = p.parse_scalar_literal()?;
            p.expect_punct(")")?;
            Ok(Literal::Complex(Box::new(re), Box::new(im)))
        }
        Tok::Str(s) => {
            let loc = p.loc();
            p.advance();
            let hex = s.strip_prefix("0x").ok_or_else(|| {
                Diagnostic::error(loc, "expected a hex string \"0x...\" in dense literal")
            })?;
            if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(Diagnostic::error(
                    loc,
                    "malformed hex string in dense literal",
                ));
            }
            let bytes = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
                .collect();
            Ok(Literal::Bytes(bytes))
        }
        _ => p.parse_scalar_literal(),
    }
}

/// `#dialect<name VALUE>` enums and `#dialect.name<k = v, ...>` structs.
fn parse_dialect_attr(p: &mut Parser<'_>, name: &str, loc: Location) -> Result<Attr> {
    if let Some(a) = p.attr_aliases.get(name) {
        return Ok(*a);
    }
    if !p.is_punct("<") {
        return Err(Diagnostic::error(
            loc,
            format!("undefined attribute alias '#{name}'"),
        ));
    }
    p.advance();
    if let Some(f) = p.ctx.registry.attr_parser(name) {
        return f(p);
    }
    if name.contains('.') {
        return p.parse_struct_body(name);
    }
    let kind = p.parse_ident()?;
    let value = p.parse_ident()?;
    p.expect_punct(">")?;
    Ok(p.ctx.attr(AttrKind::Enum {
        dialect: name.to_string(),
        name: kind,
        value,
    }))
}
