//! The `check` dialect: conformance assertions, as StableHLO's interpreter
//! defines them. `strata check` compiles them to calls into the runtime.
//!
//! | op | meaning |
//! |---|---|
//! | `check.expect_eq %a, %b` | exact (floats: equal or both NaN) |
//! | `check.expect_eq_const %a, dense<..>` | same, against a constant |
//! | `check.expect_almost_eq %a, %b, tolerance = t` | `abs(a - e) <= t` (default 1e-4) |
//! | `check.expect_almost_eq_const %a, dense<..>` | same, against a constant |
//! | `check.expect_close %a, %b, min_ulp_difference = m, max_ulp_difference = n` | ULP distance in `[m, n]` |

use strata_diag::Result;
use strata_ir::{AttrKind, Context, OpDef, OpId, Traits};
use strata_ir::{OpParser, OpState};

pub const EXPECT_EQ: &str = "check.expect_eq";
pub const EXPECT_EQ_CONST: &str = "check.expect_eq_const";
pub const EXPECT_ALMOST_EQ: &str = "check.expect_almost_eq";
pub const EXPECT_ALMOST_EQ_CONST: &str = "check.expect_almost_eq_const";
pub const EXPECT_CLOSE: &str = "check.expect_close";

pub const DEFAULT_TOLERANCE: f64 = 1e-4;

pub fn register(ctx: &mut Context) {
    let r = &mut ctx.registry;
    for name in [EXPECT_EQ, EXPECT_ALMOST_EQ, EXPECT_CLOSE] {
        r.add(
            OpDef::new(name, Traits::NONE)
                .parser(parse_pair)
                .verifier(verify_pair),
        );
    }
    for name in [EXPECT_EQ_CONST, EXPECT_ALMOST_EQ_CONST] {
        r.add(
            OpDef::new(name, Traits::NONE)
                .parser(parse_const)
                .verifier(verify_const),
        );
    }
}

/// `, key = value` options before the colon.
fn parse_options(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    while p.consume_punct(",") {
        let key = p.parse_ident()?;
        if !["tolerance", "min_ulp_difference", "max_ulp_difference"].contains(&key.as_str()) {
            return Err(p.error(format!("unknown check option '{key}'")));
        }
        p.expect_punct("=")?;
        let loc = p.loc();
        // A bare number: the type after the next colon is the operands'.
        let v = match p.parse_scalar_literal()? {
            strata_ir::dense::Literal::Float(f) if key == "tolerance" => {
                let t = p.ctx().types.float_ty(strata_ir::FloatKind::F64);
                p.ctx().attr(AttrKind::float(f, t))
            }
            strata_ir::dense::Literal::Int(i) if key == "tolerance" => {
                let t = p.ctx().types.float_ty(strata_ir::FloatKind::F64);
                p.ctx().attr(AttrKind::float(i as f64, t))
            }
            strata_ir::dense::Literal::Int(i) if key != "tolerance" => {
                let t = p.ctx().types.int_ty(64);
                p.ctx().attr(AttrKind::Int { value: i, ty: t })
            }
            _ => {
                return Err(strata_diag::Diagnostic::error(
                    loc,
                    format!("invalid value for '{key}'"),
                ));
            }
        };
        st.add_attr(&key, v);
    }
    Ok(())
}

/// `check.expect_eq %a, %b[, options] : T[, T]`.
fn parse_pair(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    parse_options(p, st)?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    let loc = p.loc();
    let mut types = p.parse_type_list()?;
    if types.len() == 1 {
        types.push(types[0]);
    }
    p.check_operand_types(&st.operands, &types, loc)
}

/// `check.expect_eq_const %a, dense<..> : T [{options}]`.
fn parse_const(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    let loc = p.loc();
    let value = p.parse_attr()?;
    let AttrKind::Dense(d) = p.ctx().attr_kind(value) else {
        return Err(strata_diag::Diagnostic::error(
            loc,
            "expected a dense elements attribute",
        ));
    };
    let ty = d.ty;
    st.add_attr("value", value);
    parse_options(p, st)?;
    p.parse_optional_attr_dict(st)?;
    p.check_operand_types(&st.operands, &[ty], loc)
}

fn verify_options(ctx: &Context, op: OpId) -> Result<()> {
    if let Some(a) = ctx.attr_of(op, "tolerance") {
        match ctx.attr_kind(a) {
            AttrKind::Float { bits, .. } if f64::from_bits(*bits) >= 0.0 => {}
            _ => return Err(ctx.error(op, "tolerance must be a non-negative float")),
        }
    }
    for k in ["min_ulp_difference", "max_ulp_difference"] {
        if let Some(v) = ctx.int_attr(op, k)
            && v < 0
        {
            return Err(ctx.error(op, format!("{k} must be non-negative")));
        }
    }
    Ok(())
}

fn verify_pair(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 2 || !o.results.is_empty() {
        return Err(ctx.error(op, "expects two operands and no results"));
    }
    let (a, b) = (ctx.value_ty(o.operands()[0]), ctx.value_ty(o.operands()[1]));
    if a != b || !ctx.types.is_tensor(a) {
        return Err(ctx.error(op, "expects two tensors of the same type"));
    }
    verify_options(ctx, op)
}

fn verify_const(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 1 || !o.results.is_empty() {
        return Err(ctx.error(op, "expects one operand and no results"));
    }
    let d = ctx
        .dense_attr(op, "value")
        .ok_or_else(|| ctx.error(op, "requires a dense 'value' attribute"))?;
    if d.ty != ctx.value_ty(o.operands()[0]) {
        return Err(ctx.error(op, "expected value must have the operand's type"));
    }
    verify_options(ctx, op)
}
