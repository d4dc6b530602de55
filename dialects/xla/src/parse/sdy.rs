//! Shardy's forms in JAX's multi-device exports (`jax.pmap`, `shard_map`):
//! `sdy.mesh`, `sdy.manual_computation` and `#sdy.sharding<...>`.
//!
//! A sharding is kept as the struct attribute `sdy.sharding` with fields
//! `mesh` (symbol) and `dims` (per dimension, the list of mesh axis names
//! it is split over); a mesh as `xla.mesh` with `sym_name`, `axes`
//! (names) and `sizes`.

use strata_diag::Result;
use strata_ir::text::lexer::Tok;
use strata_ir::{Attr, AttrKind, TypeKind};
use strata_ir::{OpParser, OpState};

/// Skips one balanced `<...>`, `[...]`, `(...)` or `{...}` group (the
/// opening token already consumed), for parts whose meaning Strata does
/// not use (device id lists, sub-axis splits).
fn skip_group(p: &mut dyn OpParser, close: &'static str) -> Result<()> {
    loop {
        match p.advance() {
            Tok::Punct(c) if c == close => return Ok(()),
            Tok::Punct("<") => skip_group(p, ">")?,
            Tok::Punct("[") => skip_group(p, "]")?,
            Tok::Punct("(") => skip_group(p, ")")?,
            Tok::Punct("{") => skip_group(p, "}")?,
            Tok::Eof => return Err(p.error(format!("expected '{close}'"))),
            _ => {}
        }
    }
}

/// `"i", "j"}` (after `{`, through `}`): mesh axis names as an array of
/// strings. A sharding's dimension may also be open (`?`, meaning nothing
/// here) when `open_allowed`; sub-axis splits (`"x":(1)2`) are refused.
fn parse_axis_set(p: &mut dyn OpParser, open_allowed: bool) -> Result<Attr> {
    let mut axes = Vec::new();
    while !p.consume_punct("}") {
        match p.advance() {
            Tok::Str(axis) => {
                if p.is_punct(":") {
                    return Err(p.error("sub-axis shardings ('\"x\":(1)2') are not supported"));
                }
                axes.push(p.ctx().attr(AttrKind::String(axis)));
            }
            Tok::Punct(",") => {}
            Tok::Punct("?") if open_allowed => {}
            t => return Err(p.error(format!("expected a mesh axis name, found {}", t.describe()))),
        }
    }
    Ok(p.ctx().attr(AttrKind::Array(axes)))
}

/// `@mesh, [{"i"}, {}]` (after `<`, through `>`): a sharding.
fn parse_sharding_body(p: &mut dyn OpParser) -> Result<Attr> {
    let mesh = match p.advance() {
        Tok::At(m) => m,
        t => return Err(p.error(format!("expected a mesh symbol, found {}", t.describe()))),
    };
    p.expect_punct(",")?;
    p.expect_punct("[")?;
    let mut dims = Vec::new();
    if !p.is_punct("]") {
        loop {
            p.expect_punct("{")?;
            let axes = parse_axis_set(p, true)?;
            dims.push(axes);
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    // `replicated={...}`, `unreduced={...}` and the like: nothing to split.
    while p.consume_punct(",") {
        p.parse_ident()?;
        p.expect_punct("=")?;
        p.expect_punct("{")?;
        skip_group(p, "}")?;
    }
    p.expect_punct(">")?;
    let mesh = p.ctx().attr(AttrKind::SymbolRef(mesh));
    let dims = p.ctx().attr(AttrKind::Array(dims));
    Ok(p.ctx().attr(AttrKind::Struct {
        name: "sdy.sharding".into(),
        fields: vec![("mesh".into(), mesh), ("dims".into(), dims)],
    }))
}

/// `#sdy.sharding<@mesh, [{"i"}, {}]>` (the `<` already consumed), or the
/// struct form Strata prints (`#sdy.sharding<mesh = @mesh, dims = [...]>`).
pub fn parse_sharding_attr(p: &mut dyn OpParser) -> Result<Attr> {
    if matches!(p.peek(), Tok::Ident(_)) {
        return p.parse_struct_body("sdy.sharding");
    }
    parse_sharding_body(p)
}

/// `[<@mesh, [...]>, ...]`: a list of shardings.
fn parse_sharding_list(p: &mut dyn OpParser) -> Result<Attr> {
    p.expect_punct("[")?;
    let mut items = Vec::new();
    if !p.is_punct("]") {
        loop {
            p.expect_punct("<")?;
            items.push(parse_sharding_body(p)?);
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    Ok(p.ctx().attr(AttrKind::Array(items)))
}

/// `sdy.mesh @mesh = <["i"=4, "j"=2]> {attrs}`.
pub fn parse_mesh(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let name = p.parse_symbol("mesh name")?;
    let a = p.ctx().attr(AttrKind::String(name));
    st.add_attr("sym_name", a);
    p.expect_punct("=")?;
    p.expect_punct("<")?;
    p.expect_punct("[")?;
    let (mut axes, mut sizes) = (Vec::new(), Vec::new());
    if !p.is_punct("]") {
        loop {
            let axis = match p.advance() {
                Tok::Str(s) => s,
                t => {
                    return Err(
                        p.error(format!("expected a mesh axis name, found {}", t.describe()))
                    );
                }
            };
            p.expect_punct("=")?;
            let size = p.parse_i64()?;
            axes.push(p.ctx().attr(AttrKind::String(axis)));
            sizes.push(size);
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct("]")?;
    // `, device_ids=[...]`: a device order Strata does not reorder by.
    while p.consume_punct(",") {
        p.parse_ident()?;
        p.expect_punct("=")?;
        p.expect_punct("[")?;
        skip_group(p, "]")?;
    }
    p.expect_punct(">")?;
    let axes = p.ctx().attr(AttrKind::Array(axes));
    st.add_attr("axes", axes);
    let sizes = p.i64_array_attr(sizes);
    st.add_attr("sizes", sizes);
    p.parse_optional_attr_dict(st)
}

/// `sdy.manual_computation(%x) in_shardings=[...] out_shardings=[...]
/// manual_axes={"i"} (%arg: T) { ... sdy.return ... } : (A) -> (B, C)`.
pub fn parse_manual_computation(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.expect_punct("(")?;
    if !p.is_punct(")") {
        loop {
            st.operands.push(p.parse_operand()?);
            if !p.consume_punct(",") {
                break;
            }
        }
    }
    p.expect_punct(")")?;
    for key in ["in_shardings", "out_shardings"] {
        p.expect_keyword(key)?;
        p.expect_punct("=")?;
        let list = parse_sharding_list(p)?;
        st.add_attr(key, list);
    }
    p.expect_keyword("manual_axes")?;
    p.expect_punct("=")?;
    p.expect_punct("{")?;
    let axes = parse_axis_set(p, false)?;
    st.add_attr("manual_axes", axes);
    let args = p.parse_region_args()?;
    st.regions.push(p.parse_region(&args, true)?);
    p.expect_punct(":")?;
    let loc = p.loc();
    let fty = p.parse_function_type()?;
    let TypeKind::Function { inputs, results } = p.ctx().types.kind(fty).clone() else {
        return Err(p.error("expected a function type"));
    };
    p.check_operand_types(&st.operands, &inputs, loc)?;
    st.result_types = results;
    Ok(())
}

/// `#sdy.op_sharding_rule<...>` and other Shardy attributes Strata does not
/// use: the text up to the matching `>` is skipped (kept as a unit
/// attribute), so exports that carry them still parse.
pub fn parse_ignored_attr(p: &mut dyn OpParser) -> Result<Attr> {
    skip_group(p, ">")?;
    Ok(p.ctx().attr(AttrKind::Unit))
}
