//! HLO shapes: `f32[4,3]{1,0}`, `pred[]`, `(s32[], f32[2])`, `token[]`, and
//! their Strata types. A tuple shape has no Strata type of its own: the
//! importer flattens tuples into their leaves.

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Context, FloatKind, Signedness, Type, TypeKind};

use super::lexer::Cursor;

/// An element type, as HLO spells it (`pred`, `s32`, `u8`, `bf16`, `c64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    Pred,
    Signed(u32),
    Unsigned(u32),
    Float(FloatKind),
    Complex(FloatKind),
}

impl ElemType {
    pub fn parse(name: &str) -> Option<ElemType> {
        let bits = |s: &str| {
            s.parse::<u32>()
                .ok()
                .filter(|b| [1, 2, 4, 8, 16, 32, 64].contains(b))
        };
        match name {
            "pred" => Some(ElemType::Pred),
            "c64" => Some(ElemType::Complex(FloatKind::F32)),
            "c128" => Some(ElemType::Complex(FloatKind::F64)),
            _ if name.starts_with('s') => bits(&name[1..]).map(ElemType::Signed),
            _ if name.starts_with('u') => bits(&name[1..]).map(ElemType::Unsigned),
            // Float names are Strata's spelled in lower case (`f8e4m3fn`).
            _ => FloatKind::ALL
                .into_iter()
                .find(|k| k.name().eq_ignore_ascii_case(name))
                .map(ElemType::Float),
        }
    }

    pub fn to_type(self, ctx: &mut Context) -> Type {
        match self {
            ElemType::Pred => ctx.types.int_ty(1),
            ElemType::Signed(w) => ctx.types.int_ty(w),
            ElemType::Unsigned(w) => ctx.types.ty(TypeKind::Int {
                width: w,
                sign: Signedness::Unsigned,
            }),
            ElemType::Float(k) => ctx.types.float_ty(k),
            ElemType::Complex(k) => {
                let part = ctx.types.float_ty(k);
                ctx.types.ty(TypeKind::Complex(part))
            }
        }
    }
}

/// A parsed shape with where it was written.
#[derive(Clone, Debug)]
pub enum Shape {
    Array {
        elem: ElemType,
        dims: Vec<i64>,
        /// Minor-to-major dimension order, if written.
        layout: Option<Vec<i64>>,
        loc: Location,
    },
    Tuple(Vec<Shape>, Location),
    Token(Location),
}

impl Shape {
    pub fn loc(&self) -> Location {
        match self {
            Shape::Array { loc, .. } | Shape::Tuple(_, loc) | Shape::Token(loc) => *loc,
        }
    }

    /// The Strata types of the leaves, in order (tuples flattened).
    pub fn leaf_types(&self, ctx: &mut Context) -> Vec<Type> {
        let mut out = Vec::new();
        self.collect_leaf_types(ctx, &mut out);
        out
    }

    fn collect_leaf_types(&self, ctx: &mut Context, out: &mut Vec<Type>) {
        match self {
            Shape::Array { elem, dims, .. } => {
                let e = elem.to_type(ctx);
                out.push(ctx.types.tensor_ty(dims, e));
            }
            Shape::Tuple(items, _) => items.iter().for_each(|s| s.collect_leaf_types(ctx, out)),
            Shape::Token(_) => out.push(ctx.types.ty(TypeKind::Token)),
        }
    }

    /// The one array type of a non-tuple shape.
    pub fn array_type(&self, ctx: &mut Context, what: &str) -> Result<Type> {
        match self {
            Shape::Array { elem, dims, .. } => {
                let e = elem.to_type(ctx);
                Ok(ctx.types.tensor_ty(dims, e))
            }
            _ => Err(Diagnostic::error(
                self.loc(),
                format!("{what} must have an array shape, found {}", self.describe()),
            )),
        }
    }

    /// Where the first array leaf with a non-default layout is written. The
    /// default (minor-to-major `{n-1,...,1,0}`) is the row-major order of the
    /// C ABI; an absent or empty layout (`{}`) counts as the default.
    pub fn first_non_default_layout(&self) -> Option<Location> {
        match self {
            Shape::Array {
                layout: Some(l),
                dims,
                loc,
                ..
            } => {
                let default: Vec<i64> = (0..dims.len() as i64).rev().collect();
                (!l.is_empty() && *l != default).then_some(*loc)
            }
            Shape::Array { .. } | Shape::Token(_) => None,
            Shape::Tuple(items, _) => items.iter().find_map(|s| s.first_non_default_layout()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Shape::Array { elem, dims, .. } => {
                let dims: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
                format!("{}[{}]", elem_name(*elem), dims.join(","))
            }
            Shape::Tuple(items, _) => {
                let items: Vec<String> = items.iter().map(|s| s.describe()).collect();
                format!("({})", items.join(", "))
            }
            Shape::Token(_) => "token[]".into(),
        }
    }
}

fn elem_name(e: ElemType) -> String {
    match e {
        ElemType::Pred => "pred".into(),
        ElemType::Signed(w) => format!("s{w}"),
        ElemType::Unsigned(w) => format!("u{w}"),
        ElemType::Float(k) => k.name().to_ascii_lowercase(),
        ElemType::Complex(FloatKind::F64) => "c128".into(),
        ElemType::Complex(_) => "c64".into(),
    }
}

/// Largest dimension product accepted (as the MLIR parser's limit).
const MAX_ELEMENTS: i64 = strata_ir::text::parser::MAX_ELEMENTS;

/// Largest rank accepted (as the MLIR parser's limit, which says why).
const MAX_RANK: usize = strata_ir::text::parser::MAX_RANK;

/// Deepest tuple nesting accepted.
const MAX_TUPLE_DEPTH: usize = 64;

pub fn parse_shape(c: &mut Cursor<'_>) -> Result<Shape> {
    parse_shape_at_depth(c, 0)
}

fn parse_shape_at_depth(c: &mut Cursor<'_>, depth: usize) -> Result<Shape> {
    let loc = {
        c.skip_blanks();
        c.loc()
    };
    if depth > MAX_TUPLE_DEPTH {
        return Err(c.error("tuple shapes nest too deeply"));
    }
    if c.eat("(") {
        let mut items = Vec::new();
        if !c.eat(")") {
            loop {
                items.push(parse_shape_at_depth(c, depth + 1)?);
                if c.eat(")") {
                    break;
                }
                c.expect(",")?;
            }
        }
        return Ok(Shape::Tuple(items, loc));
    }
    let (name, name_loc) = c.name("a shape like f32[4,3]")?;
    if name == "token" {
        c.expect("[")?;
        c.expect("]")?;
        return Ok(Shape::Token(loc));
    }
    let Some(elem) = ElemType::parse(&name) else {
        return Err(Diagnostic::error(
            name_loc,
            format!("unknown element type '{name}'"),
        ));
    };
    let dims = parse_dims(c)?;
    if dims.len() > MAX_RANK {
        return Err(Diagnostic::error(
            loc,
            format!(
                "shape has rank {}; the largest rank supported is {MAX_RANK}",
                dims.len()
            ),
        ));
    }
    // A layout follows the dimensions directly (`f32[4]{0}`); after a space,
    // `{` opens something else (a computation body after a signature).
    let layout = if c.touches("{") {
        let layout_loc = c.loc();
        let order = parse_layout(c)?;
        check_layout(&order, dims.len(), layout_loc)?;
        Some(order)
    } else {
        None
    };
    Ok(Shape::Array {
        elem,
        dims,
        layout,
        loc,
    })
}

/// `[4,3]`: static, non-negative dimensions with a bounded element count.
fn parse_dims(c: &mut Cursor<'_>) -> Result<Vec<i64>> {
    c.expect("[")?;
    let mut dims = Vec::new();
    let mut count: i64 = 1;
    if c.eat("]") {
        return Ok(dims);
    }
    loop {
        if c.starts_with("<=") || c.starts_with("?") {
            return Err(Diagnostic::unsupported(
                c.loc(),
                "dynamic dimensions are not supported",
            ));
        }
        let loc = c.loc();
        let d = c.int()?;
        if d < 0 {
            return Err(Diagnostic::error(loc, format!("negative dimension {d}")));
        }
        count = count.saturating_mul(d.max(1));
        if count > MAX_ELEMENTS {
            return Err(Diagnostic::error(loc, "shape has too many elements"));
        }
        dims.push(d);
        if c.eat("]") {
            return Ok(dims);
        }
        c.expect(",")?;
    }
}

/// A written minor-to-major order must be a permutation of the dimensions,
/// as XLA's own parser requires. Strata ignores layouts, but one that names
/// a dimension twice or one that does not exist is a damaged shape, not a
/// hint to skip. (`{}` stays accepted as the default.)
fn check_layout(order: &[i64], rank: usize, loc: Location) -> Result<()> {
    if order.is_empty() {
        return Ok(());
    }
    if order.len() != rank {
        return Err(Diagnostic::error(
            loc,
            format!(
                "layout lists {} dimensions, but the shape has rank {rank}",
                order.len()
            ),
        ));
    }
    let mut seen = vec![false; rank];
    for &d in order {
        let slot = usize::try_from(d).ok().and_then(|i| seen.get_mut(i));
        match slot {
            Some(seen_before) if !*seen_before => *seen_before = true,
            Some(_) => {
                return Err(Diagnostic::error(
                    loc,
                    format!("layout names dimension {d} twice"),
                ));
            }
            None => {
                return Err(Diagnostic::error(
                    loc,
                    format!("layout dimension {d} is out of range for rank {rank}"),
                ));
            }
        }
    }
    Ok(())
}

/// `{1,0}` or `{1,0:T(8,128)}`: the minor-to-major order; tiling and memory
/// space after `:` are skipped (layouts only matter at the entry's ABI).
fn parse_layout(c: &mut Cursor<'_>) -> Result<Vec<i64>> {
    c.expect("{")?;
    let mut order = Vec::new();
    if !c.starts_with("}") && !c.starts_with(":") {
        loop {
            order.push(c.int()?);
            if !c.eat(",") {
                break;
            }
        }
    }
    if c.eat(":") {
        while !c.starts_with("}") {
            if c.at_end() || c.at_line_end() {
                return Err(c.expected("'}' closing the layout"));
            }
            if matches!(c.peek(), Some('(' | '[' | '{')) {
                c.skip_group()?;
            } else {
                c.pos += c.peek().map_or(1, char::len_utf8);
            }
        }
    }
    c.expect("}")?;
    Ok(order)
}
